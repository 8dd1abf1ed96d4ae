import type { ApiEvent, Order } from '../../api/types';
import { StatusBadge } from '../../components/badges';
import { Card } from '../../components/card';
import { DataTable } from '../../components/data-table';
import { ScopeNotice } from '../../components/scope-notice';
import { answered, ListState } from '../../components/states';
import { DateTime } from '../../components/time';
import { useAsync } from '../../hooks/use-async';
import { canRead } from '../../lib/access';
import { describeEvent, isAboutOrder, statusHistory } from '../../lib/order-events';
import { orderStatusView } from '../../lib/shop-status';
import { useSession } from '../../session-context';

/** How far back the order page reads the account's events for this order (pages of 100). */
const EVENT_PAGES = 5;

/**
 * The order's status history and events (events:read). `GET /v1/events` has no order filter: the
 * account's events since the order was created are read (newest first, at most EVENT_PAGES pages)
 * and those about the order kept (lib/order-events.ts).
 */
export function OrderEvents({ order, revision }: { order: Order; revision: number }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'events');
  const events = useAsync<{ items: ApiEvent[]; complete: boolean } | undefined>(async () => {
    if (!readable) return undefined;
    const items: ApiEvent[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < EVENT_PAGES; page++) {
      const result = await client.listEvents({ created_from: order.created_at, starting_after: cursor });
      items.push(...result.items.filter((event) => isAboutOrder(event, order.id)));
      cursor = result.pagination.has_more ? (result.pagination.next_cursor ?? undefined) : undefined;
      if (!cursor) return { items, complete: true };
    }
    return { items, complete: false };
  }, [client, order.id, revision]);

  const history = events.data ? statusHistory(events.data.items) : [];
  const partial = events.data && !events.data.complete && (
    <p class="muted">Showing the events found in the first {EVENT_PAGES * 100} since the order was created.</p>
  );
  return (
    <Card id="events" title="Status history and events">
      {!readable || answered(events.error, 403) ? (
        <ScopeNotice account={account} area="events" compact />
      ) : (
        <ListState
          state={events}
          what="events"
          empty={
            <>
              <p class="muted">No events in the last 30 days.</p>
              {partial}
            </>
          }
        >
          {(found) => (
            <>
              {history.length > 0 && (
                <ol class="steps" aria-label="Status history">
                  {history.map((step) => (
                    <li key={step.event}>
                      <StatusBadge view={orderStatusView(step.status)} /> <DateTime iso={step.at} />
                    </li>
                  ))}
                </ol>
              )}
              <DataTable
                label="Events of this order, newest first"
                rows={found.items}
                rowKey={(event) => event.id}
                rowAttributes={(event) => ({ 'data-event': event.type })}
                columns={[
                  { label: 'Event', class: 'cell-main mono', cell: (event) => event.type },
                  { label: 'What', cell: (event) => describeEvent(event) },
                  { label: 'When', cell: (event) => <DateTime iso={event.created_at} /> },
                ]}
              />
              {partial}
            </>
          )}
        </ListState>
      )}
    </Card>
  );
}
