import { useEffect, useState } from 'preact/hooks';
import type { DeliveryFilters, DeliveryStatus, Webhook } from '../api/types';
import { useAsync } from '../hooks/use-async';
import { useInterval, useNow } from '../hooks/use-interval';
import { deliveryStatusView, isDeliveryStatus, isInFlight, statusFilterOptions } from '../lib/delivery-status';
import { catalogue } from '../lib/events';
import { formatDateTime } from '../lib/format';
import { deliveryFiltersQuery, pathFor } from '../lib/routes';
import { navigate } from '../router';
import { useSession } from '../session-context';
import { StatusBadge, StatusCode, TestTag } from './badges';
import { Card } from './card';
import { DataTable } from './data-table';
import { FilterSelect } from './filter-select';
import { Link } from './link';
import { Pager } from './pager';
import { EmptyState, errorText, ListState } from './states';
import { RelativeTime } from './time';

const PER_PAGE = 20;
const POLL_MS = 2000;

interface Props {
  webhook: Webhook;
  filters: DeliveryFilters;
  /** Keep refreshing until this time even with nothing pending (a test event is on its way). */
  watchUntil: number;
  /** Changes when something happened that should show at once (a test event was sent). */
  refreshToken: number;
}

/** The delivery history of one registration: newest first, filters, pages, and live while anything is pending. */
export function DeliveriesPanel({ webhook, filters, watchUntil, refreshToken }: Props) {
  const { client } = useSession();
  const now = useNow(5000);
  const deliveries = useAsync(
    () => client.listDeliveries(webhook.id, filters, PER_PAGE),
    [client, webhook.id, filters.page, filters.status, filters.event],
  );
  const [updatedAt, setUpdatedAt] = useState<number>();

  useEffect(() => {
    if (deliveries.data) setUpdatedAt(Date.now());
  }, [deliveries.data]);
  useEffect(() => {
    if (refreshToken) void deliveries.reload(true);
  }, [refreshToken]);

  const pending = deliveries.data?.items.some(isInFlight) ?? false;
  const live = pending || watchUntil > Date.now();
  useInterval(() => void deliveries.reload(true), POLL_MS, live);

  const base = pathFor({ name: 'webhook', id: webhook.id });
  const setFilters = (next: Partial<DeliveryFilters>) =>
    navigate(base + deliveryFiltersQuery({ ...filters, page: 1, ...next }), { replace: true });
  const filtered = Boolean(filters.status || filters.event);
  const detailHref = (deliveryId: string) => pathFor({ name: 'delivery', id: webhook.id, deliveryId });

  return (
    <Card
      id="deliveries"
      title="Deliveries"
      class="deliveries"
      actions={
        <span class="live" aria-live="polite">
          {live ? (
            <>
              <span class="live-dot" aria-hidden="true" /> Refreshing automatically while deliveries are pending
            </>
          ) : (
            updatedAt && <span class="muted">Updated {formatDateTime(new Date(updatedAt).toISOString())}</span>
          )}
        </span>
      }
    >
      <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filter deliveries">
        <FilterSelect
          id="filter-status"
          label="Status"
          value={filters.status ?? ''}
          options={statusFilterOptions}
          onChange={(value) => setFilters({ status: isDeliveryStatus(value) ? (value as DeliveryStatus) : undefined })}
        />
        <FilterSelect
          id="filter-event"
          label="Event"
          value={filters.event ?? ''}
          options={[{ value: '', label: 'All events' }, ...catalogue.map((kind) => ({ value: kind, label: kind }))]}
          onChange={(value) => setFilters({ event: value || undefined })}
        />
        <div class="filter filter-actions">
          {filtered && (
            <button type="button" class="btn btn-secondary" onClick={() => navigate(base, { replace: true })}>
              Clear filters
            </button>
          )}
          <button type="button" class="btn btn-secondary" onClick={() => void deliveries.reload(true)}>
            Refresh
          </button>
        </div>
      </form>

      {deliveries.data && deliveries.error !== undefined && <p class="field-error">Refreshing failed: {errorText(deliveries.error)}</p>}
      <ListState
        state={deliveries}
        what="deliveries"
        empty={
          <EmptyState title={filtered ? 'No deliveries match these filters' : 'No deliveries yet'}>
            <p>
              {filtered
                ? 'Try another status or event, or clear the filters.'
                : 'Deliveries appear here when a subscribed event happens. Send a test event to see one now.'}
            </p>
          </EmptyState>
        }
      >
        {(found) => (
          <>
            <DataTable
              label="Deliveries, newest first"
              rows={found.items}
              rowKey={(delivery) => delivery.id}
              rowAttributes={(delivery) => ({ 'data-delivery': delivery.id })}
              columns={[
                {
                  label: 'Event',
                  class: 'cell-main',
                  cell: (delivery) => (
                    <>
                      <span class="mono">{delivery.event}</span> {delivery.test && <TestTag />}
                      <div class="cell-sub">
                        <RelativeTime iso={delivery.created_at} now={now} />
                      </div>
                    </>
                  ),
                },
                {
                  label: 'Delivery',
                  cell: (delivery) => (
                    <Link href={detailHref(delivery.id)} class="mono id-link">
                      {delivery.id}
                    </Link>
                  ),
                },
                { label: 'Status', cell: (delivery) => <StatusBadge view={deliveryStatusView(delivery)} /> },
                { label: 'Attempts', class: 'num', cell: (delivery) => delivery.attempt_count },
                {
                  label: 'Last response',
                  cell: (delivery) =>
                    delivery.attempt_count === 0 ? <span class="muted">—</span> : <StatusCode code={delivery.last_status_code} />,
                },
                { label: 'Next retry', cell: (delivery) => <RelativeTime iso={delivery.next_attempt_at} now={now} /> },
                {
                  label: 'Details',
                  actions: true,
                  cell: (delivery) => (
                    <Link
                      href={detailHref(delivery.id)}
                      class="btn btn-secondary btn-small"
                      aria-label={`Details of delivery ${delivery.id}`}
                    >
                      Details
                    </Link>
                  ),
                },
              ]}
            />
            <Pager
              pagination={found.pagination}
              noun={['delivery', 'deliveries']}
              hrefFor={(page) => base + deliveryFiltersQuery({ ...filters, page })}
            />
          </>
        )}
      </ListState>
    </Card>
  );
}
