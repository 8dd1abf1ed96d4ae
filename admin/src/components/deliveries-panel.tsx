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
import { Link } from './link';
import { Pager } from './pager';
import { EmptyState, errorText, LoadError, Loading } from './states';
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

  return (
    <section class="card deliveries" aria-labelledby="deliveries-title">
      <div class="card-header">
        <h2 id="deliveries-title" class="card-title">
          Deliveries
        </h2>
        <span class="live" aria-live="polite">
          {live ? (
            <>
              <span class="live-dot" aria-hidden="true" /> Refreshing automatically while deliveries are pending
            </>
          ) : (
            updatedAt && <span class="muted">Updated {formatDateTime(new Date(updatedAt).toISOString())}</span>
          )}
        </span>
      </div>
      <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filter deliveries">
        <div class="filter">
          <label for="filter-status">Status</label>
          <select
            id="filter-status"
            class="input select"
            value={filters.status ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setFilters({ status: isDeliveryStatus(value) ? (value as DeliveryStatus) : undefined });
            }}
          >
            {statusFilterOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div class="filter">
          <label for="filter-event">Event</label>
          <select
            id="filter-event"
            class="input select"
            value={filters.event ?? ''}
            onChange={(event) => setFilters({ event: event.currentTarget.value || undefined })}
          >
            <option value="">All events</option>
            {catalogue.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </select>
        </div>
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

      {deliveries.loading && <Loading label="Loading deliveries…" />}
      {!deliveries.loading && !deliveries.data && (
        <LoadError error={deliveries.error} what="the deliveries" onRetry={() => void deliveries.reload()} />
      )}
      {deliveries.data && deliveries.error !== undefined && <p class="field-error">Refreshing failed: {errorText(deliveries.error)}</p>}
      {deliveries.data && deliveries.data.items.length === 0 && (
        <EmptyState title={filtered ? 'No deliveries match these filters' : 'No deliveries yet'}>
          <p>
            {filtered
              ? 'Try another status or event, or clear the filters.'
              : 'Deliveries appear here when a subscribed event happens. Send a test event to see one now.'}
          </p>
        </EmptyState>
      )}
      {deliveries.data && deliveries.data.items.length > 0 && (
        <>
          <table class="table responsive" aria-label="Deliveries, newest first">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Delivery</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Attempts
                </th>
                <th scope="col">Last response</th>
                <th scope="col">Next retry</th>
                <th scope="col">
                  <span class="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((delivery) => {
                const href = pathFor({ name: 'delivery', id: webhook.id, deliveryId: delivery.id });
                return (
                  <tr key={delivery.id} data-delivery={delivery.id}>
                    <td data-label="Event" class="cell-main">
                      <span class="mono">{delivery.event}</span> {delivery.test && <TestTag />}
                      <div class="cell-sub">
                        <RelativeTime iso={delivery.created_at} now={now} />
                      </div>
                    </td>
                    <td data-label="Delivery">
                      <Link href={href} class="mono id-link">
                        {delivery.id}
                      </Link>
                    </td>
                    <td data-label="Status">
                      <StatusBadge view={deliveryStatusView(delivery)} />
                    </td>
                    <td data-label="Attempts" class="num">
                      {delivery.attempt_count}
                    </td>
                    <td data-label="Last response">
                      {delivery.attempt_count === 0 ? <span class="muted">—</span> : <StatusCode code={delivery.last_status_code} />}
                    </td>
                    <td data-label="Next retry">
                      <RelativeTime iso={delivery.next_attempt_at} now={now} />
                    </td>
                    <td class="cell-actions">
                      <Link href={href} class="btn btn-secondary btn-small" aria-label={`Details of delivery ${delivery.id}`}>
                        Details
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pager
            pagination={deliveries.data.pagination}
            noun={['delivery', 'deliveries']}
            hrefFor={(page) => base + deliveryFiltersQuery({ ...filters, page })}
          />
        </>
      )}
    </section>
  );
}
