/**
 * Re-routing stored events (`npm run events -- replay`): the events of one tenant in a time
 * range, oldest first, a page of 100 at a time, through the stream router's own routing
 * (`rerouteEvents`, events/router.ts). For when the router gave a batch up (its failure queue's
 * alarm) or a registration should get events from before it existed or while it was paused.
 *
 * Idempotent like the router: the delivery id is derived from (event, registration), so a
 * delivery that exists is never created again; a finished one (succeeded, failed, skipped) is
 * left alone, so nothing already delivered is sent twice; a pending one is enqueued again under a
 * new chain token (its earlier message is then dropped unsent — unless a worker is sending that
 * very message at the moment, the one at-least-once case: same delivery id). Running it twice
 * sends nothing the second time that the first run sent.
 */
import type { Tenant } from '#shared/auth/principal';
import { readWindow } from '#shared/db/collections';
import { tenantKeys } from '#shared/db/keys';
import { idRange } from '#shared/event-log/repository';
import { eventFromItem, type StoredEvent } from '#shared/events/stored-event';
import { rerouteEvents, type RoutingCounts } from './router';

export interface ReplayRequest {
  tenant: Tenant;
  /** Inclusive ISO bounds on the events' creation time. */
  from: string;
  to?: string;
  /** Only this registration (it must still be active and subscribed to the event's kind). */
  webhookId?: number;
  /** Events per page (default 100). */
  pageSize?: number;
  /** After each page: what has been done so far. */
  onProgress?: (progress: ReplayResult) => void;
}

export interface ReplayResult extends RoutingCounts {
  /** Events read and routed. */
  events: number;
}

export async function replayEvents(request: ReplayRequest): Promise<ReplayResult> {
  const collection = { index: 'gsi1' as const, partition: tenantKeys.eventsCollection(request.tenant), newestFirst: false };
  const only = request.webhookId === undefined ? undefined : (webhook: { id: number }) => webhook.id === request.webhookId;
  const result: ReplayResult = { events: 0, created: 0, rearmed: 0, finished: 0 };
  let after: Record<string, unknown> | undefined;
  do {
    const page = await readWindow(
      { ...collection, sortKeyBetween: idRange({ from: request.from, to: request.to }) },
      { perPage: request.pageSize ?? 100, startAfter: after },
    );
    const events = page.items.map(eventFromItem).filter((event): event is StoredEvent => event !== undefined && !event.test);
    const counts = await rerouteEvents(events, only);
    result.events += events.length;
    result.created += counts.created;
    result.rearmed += counts.rearmed;
    result.finished += counts.finished;
    request.onProgress?.({ ...result });
    after = page.next;
  } while (after);
  return result;
}
