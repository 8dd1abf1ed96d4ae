import { ApiError } from '../api/client';
import type { ShipmentStatus } from '../api/types';
import { StatusBadge } from '../components/badges';
import { Link } from '../components/link';
import { Pager } from '../components/pager';
import { ScopePage } from '../components/scope-notice';
import { EmptyState, LoadError, Loading } from '../components/states';
import { RelativeTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useNow } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import { pathFor } from '../lib/routes';
import { isShipmentStatus, SHIPMENT_STATUSES, shipmentStatusView } from '../lib/shop-status';
import { navigate } from '../router';
import { useSession } from '../session-context';

export function ShipmentList({ search }: { search: string }) {
  const { account, client } = useSession();
  useTitle('Shipments');
  const readable = canRead(account, 'shipments');
  const params = new URLSearchParams(search);
  const statusText = params.get('status') ?? '';
  const status = isShipmentStatus(statusText) ? statusText : undefined;
  const page = Number(params.get('page')) > 1 ? Math.floor(Number(params.get('page'))) : 1;
  const list = useAsync(() => (readable ? client.listShipments({ status, page }) : Promise.resolve(undefined)), [client, readable, search]);
  const now = useNow();
  if (!readable || (list.error instanceof ApiError && list.error.status === 403))
    return <ScopePage account={account} area="shipments" title="Shipments" />;
  const base = pathFor({ name: 'shipments' });
  const query = (next: { status?: ShipmentStatus; page: number }) => {
    const out = new URLSearchParams();
    if (next.status) out.set('status', next.status);
    if (next.page > 1) out.set('page', String(next.page));
    const text = out.toString();
    return text ? `?${text}` : '';
  };
  return (
    <>
      <div class="page-header">
        <div>
          <h1 class="page-title" tabIndex={-1}>
            Shipments
          </h1>
          <p class="page-lead">Newest first. Ship a ready order from its page.</p>
        </div>
      </div>
      <section class="card" aria-label="Shipments">
        <form class="filters" aria-label="Filter shipments" onSubmit={(event) => event.preventDefault()}>
          <div class="filter">
            <label for="filter-shipment-status">Status</label>
            <select
              id="filter-shipment-status"
              class="input select"
              value={status ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                navigate(base + query({ status: isShipmentStatus(value) ? value : undefined, page: 1 }), { replace: true });
              }}
            >
              <option value="">All statuses</option>
              {SHIPMENT_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {shipmentStatusView(value).label}
                </option>
              ))}
            </select>
          </div>
        </form>
        {list.loading && <Loading label="Loading shipments…" />}
        {!list.loading && !list.data && <LoadError error={list.error} what="the shipments" onRetry={() => void list.reload()} />}
        {list.data && list.data.items.length === 0 && <EmptyState title={status ? 'No shipments with this status' : 'No shipments yet'} />}
        {list.data && list.data.items.length > 0 && (
          <>
            <table class="table responsive" aria-label="Shipments">
              <thead>
                <tr>
                  <th scope="col">Shipment</th>
                  <th scope="col">Order</th>
                  <th scope="col">Status</th>
                  <th scope="col">Tracking</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((shipment) => (
                  <tr key={shipment.id} data-shipment={shipment.id}>
                    <td data-label="Shipment" class="cell-main">
                      <Link href={pathFor({ name: 'shipment', id: shipment.id })}>Shipment {shipment.id}</Link>
                      <div class="cell-sub">
                        {shipment.carrier} · {shipment.service}
                      </div>
                    </td>
                    <td data-label="Order">
                      <Link href={pathFor({ name: 'order', id: shipment.order_id })} class="mono">
                        {shipment.order_number}
                      </Link>
                    </td>
                    <td data-label="Status">
                      <StatusBadge view={shipmentStatusView(shipment.status)} />
                    </td>
                    <td data-label="Tracking" class="mono">
                      {shipment.tracking_number ?? '—'}
                    </td>
                    <td data-label="Updated">
                      <RelativeTime iso={shipment.updated_at} now={now} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              pagination={list.data.pagination}
              noun={['shipment', 'shipments']}
              hrefFor={(next) => base + query({ status, page: next })}
            />
          </>
        )}
      </section>
    </>
  );
}
