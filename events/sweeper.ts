/**
 * The delivery sweeper: a scheduled worker that re-arms webhook deliveries left `pending` with no
 * message to carry them — the router crashed between writing a delivery and enqueueing it and its
 * batch was given up, a message was lost or deleted, the DLQ handler failed. Without it such a
 * delivery would stay pending until its event expires.
 *
 * Every pending delivery is in the pending-deliveries index (gsi3, shared/db/keys.ts `sweepKeys`)
 * under the time its message should next act on it: its creation, its next attempt, a
 * redelivery, a re-arm. An entry due longer ago than the grace (15 minutes by default: a busy
 * queue or a slow receiver delays a message by seconds to minutes, never that long) has lost its
 * message. The sweeper reads the overdue entries of each shard (one Query each, no Scan), reads
 * those deliveries again (strongly consistent, in batches), and for each one still pending and
 * still overdue writes a new chain token — conditional on the one it read, so a concurrent
 * attempt or sweep wins cleanly — and enqueues one message on the new chain. A message of the old
 * chain that turns up after all is dropped by the worker without an attempt (its token is stale).
 * Re-arming moves the entry's due time to now, so the next sweeps leave it alone for the grace.
 */
import { forEachLimit } from '#shared/async/for-each-limit';
import { DUE_SHARDS } from '#shared/db/keys';
import { randomToken } from '#shared/ids';
import { logger } from '#shared/logger';
import { overdueDeliveries, readDeliveries, rearmPending } from '#shared/webhooks/delivery-repository';
import { deliveryMessage, sendDeliveryMessages, type DeliveryMessage } from '#shared/webhooks/messages';

/** How long a pending delivery may be overdue before its message counts as lost (seconds). */
export const DEFAULT_SWEEP_GRACE_SECONDS = 15 * 60;
/** Deliveries looked at per shard and run: bounds one run's work (the next run goes on). */
const PER_SHARD = 250;
const CONCURRENCY = 16;

export interface SweepOptions {
  now?: Date;
  /** Default: `DELIVERY_SWEEP_GRACE_SECONDS` from the environment, else DEFAULT_SWEEP_GRACE_SECONDS. */
  graceSeconds?: number;
}

export interface SweepResult {
  /** Overdue entries found in the index. */
  found: number;
  /** Deliveries given a new chain and a message. */
  rearmed: number;
}

const graceFromEnvironment = (): number => {
  const value = Number(process.env.DELIVERY_SWEEP_GRACE_SECONDS);
  return Number.isFinite(value) && value >= 0 && process.env.DELIVERY_SWEEP_GRACE_SECONDS?.trim() ? value : DEFAULT_SWEEP_GRACE_SECONDS;
};

export async function sweepPendingDeliveries(options: SweepOptions = {}): Promise<SweepResult> {
  const now = options.now ?? new Date();
  const grace = options.graceSeconds ?? graceFromEnvironment();
  const cutoff = new Date(now.getTime() - grace * 1000).toISOString();
  const shards = Array.from({ length: DUE_SHARDS }, (_, shard) => shard);
  const overdue = (await Promise.all(shards.map((shard) => overdueDeliveries(shard, cutoff, PER_SHARD)))).flat();
  if (!overdue.length) return { found: 0, rearmed: 0 };

  const messages: DeliveryMessage[] = [];
  const stamp = now.toISOString();
  // The index lags its table: act only on what the item itself says now.
  const current = await readDeliveries(overdue);
  await forEachLimit(current, CONCURRENCY, async ({ tenant, delivery, due }) => {
    if (delivery.status !== 'pending' || due === undefined || due > cutoff) return;
    const token = randomToken(16);
    if (await rearmPending(tenant, delivery, token, stamp)) {
      messages.push(deliveryMessage(tenant, delivery.webhook_id, delivery.id, token, delivery.event_id));
    }
  });
  // A failed send leaves those deliveries re-armed without a message: due now, so a later run takes them again.
  await sendDeliveryMessages(messages);
  if (messages.length) logger.warn('pending deliveries re-armed', { found: overdue.length, rearmed: messages.length, cutoff });
  return { found: overdue.length, rearmed: messages.length };
}
