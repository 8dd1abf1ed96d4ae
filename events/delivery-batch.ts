/**
 * The shared context of one queue batch of deliveries (see DeliveryContext in delivery.ts). The
 * messages of a batch are handled concurrently and mostly do the same things at the same moment,
 * so their DynamoDB calls are combined:
 *
 * - **reads**: the deliveries with their registrations and events (named by the messages) in one
 *   BatchGetItem, each distinct item read once (shared/db/batch-reader.ts) — instead of three GetItem
 *   calls per message, one after the other. Strongly consistent, like the reads they replace.
 * - **attempt records**: the attempts of messages that finish close together (all of the batch's,
 *   or whichever finished within GATHER_MS of the first) are written with one TransactWriteItems
 *   (shared/db/conditional-writes.ts). Every delivery keeps its own conditions (pending, on its
 *   chain token, after the attempt count it read) and its own answer: a combined transaction
 *   that is cancelled wrote nothing and is redone delivery by delivery.
 * - **DNS**: a host is resolved once per batch (ten deliveries to one receiver, one lookup). The
 *   SSRF check still runs on every address for every delivery, and the connection still goes to
 *   the checked address; a failed lookup is not kept, so the next delivery asks again.
 */
import type { Tenant } from '#shared/auth/principal';
import { tenantKeys, webhookKeys } from '#shared/db/keys';
import { writeConditionallyBatched } from '#shared/db/conditional-writes';
import type { TransactItem } from '#shared/db/table';
import { attemptUpdate, type AttemptOutcome } from '#shared/webhooks/delivery-repository';
import { deliveryFromItem, webhookFromItem, type AttemptRecord, type DeliveryRecord } from '#shared/webhooks/stored';
import { withOpenSecrets } from '#shared/webhooks/secrets';
import { batchItemReader } from '#shared/db/batch-reader';
import type { DeliveryContext } from './delivery';
import { eventFromItem } from '#shared/events/stored-event';
import { systemLookup, type Lookup } from '#shared/webhooks/ssrf';

/** How long the first finished attempt waits for others of its batch before it is written. */
const GATHER_MS = 20;

export interface DeliveryBatch {
  /** The context for one message of the batch; call `finish` once the message is handled (also after a failure). */
  message(): { context: DeliveryContext; finish(): void };
}

export function deliveryBatch(size: number): DeliveryBatch {
  const read = batchItemReader();
  const reads = {
    readDelivery: async (tenant: Tenant, id: string) => {
      const item = await read(webhookKeys.delivery(tenant, id));
      return item ? deliveryFromItem(item) : undefined;
    },
    readWebhook: async (tenant: Tenant, id: number) => {
      const item = await read(webhookKeys.webhook(tenant, id));
      return item ? withOpenSecrets(tenant, webhookFromItem(item)) : undefined; // secrets are stored sealed (shared/webhooks/secrets.ts)
    },
    readEvent: async (tenant: Tenant, eventId: string) => {
      const item = await read(tenantKeys.event(tenant, eventId));
      return item ? eventFromItem(item) : undefined;
    },
  };

  const lookups = new Map<string, ReturnType<Lookup>>();
  const lookup: Lookup = (host) => {
    let addresses = lookups.get(host);
    if (!addresses) {
      addresses = systemLookup(host);
      lookups.set(host, addresses);
      addresses.catch(() => lookups.delete(host));
    }
    return addresses;
  };

  /** Messages that have neither queued an attempt record nor finished: once none is left, waiting is pointless. */
  let open = size;
  let waiting: { items: TransactItem[]; resolve(recorded: boolean): void; reject(error: unknown): void }[] = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const writes = waiting;
    waiting = [];
    if (writes.length === 0) return;
    writeConditionallyBatched(writes.map((write) => write.items)).then(
      (answers) => writes.forEach((write, index) => write.resolve(answers[index]!)),
      (error: unknown) => writes.forEach((write) => write.reject(error)),
    );
  };
  const accounted = () => {
    open--;
    if (open <= 0) flush();
    else if (waiting.length > 0 && !timer) timer = setTimeout(flush, GATHER_MS);
  };

  return {
    message() {
      let counted = false;
      const leave = () => {
        if (counted) return;
        counted = true;
        accounted();
      };
      const recordAttempt = (tenant: Tenant, delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome) =>
        new Promise<boolean>((resolve, reject) => {
          waiting.push({ items: [attemptUpdate(tenant, delivery, attempt, outcome)], resolve, reject });
          leave();
        });
      return { context: { ...reads, recordAttempt, lookup }, finish: leave };
    },
  };
}
