import type { ShipmentStatus } from '../api/types';
import { StatusBadge } from '../components/badges';
import { DataTable } from '../components/data-table';
import { FilterSelect } from '../components/filter-select';
import { Link } from '../components/link';
import { PageHeader } from '../components/page-header';
import { Pager } from '../components/pager';
import { ScopePage } from '../components/scope-notice';
import { answered, EmptyState, ListState } from '../components/states';
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
  if (!readable || answered(list.error, 403)) return <ScopePage account={account} area="shipments" title="Shipments" />;
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
      <PageHeader title="Shipments" lead="Newest first. Ship a ready order from its page." />
      <section class="card" aria-label="Shipments">
        <form class="filters" aria-label="Filter shipments" onSubmit={(event) => event.preventDefault()}>
          <FilterSelect
            id="filter-shipment-status"
            label="Status"
            value={status ?? ''}
            options={[
              { value: '', label: 'All statuses' },
              ...SHIPMENT_STATUSES.map((value) => ({ value, label: shipmentStatusView(value).label })),
            ]}
            onChange={(value) =>
              navigate(base + query({ status: isShipmentStatus(value) ? value : undefined, page: 1 }), { replace: true })
            }
          />
        </form>
        <ListState
          state={list}
          what="shipments"
          empty={<EmptyState title={status ? 'No shipments with this status' : 'No shipments yet'} />}
        >
          {(found) => (
            <>
              <DataTable
                label="Shipments"
                rows={found.items}
                rowKey={(shipment) => shipment.id}
                rowAttributes={(shipment) => ({ 'data-shipment': shipment.id })}
                columns={[
                  {
                    label: 'Shipment',
                    class: 'cell-main',
                    cell: (shipment) => (
                      <>
                        <Link href={pathFor({ name: 'shipment', id: shipment.id })}>Shipment {shipment.id}</Link>
                        <div class="cell-sub">
                          {shipment.carrier} · {shipment.service}
                        </div>
                      </>
                    ),
                  },
                  {
                    label: 'Order',
                    cell: (shipment) => (
                      <Link href={pathFor({ name: 'order', id: shipment.order_id })} class="mono">
                        {shipment.order_number}
                      </Link>
                    ),
                  },
                  { label: 'Status', cell: (shipment) => <StatusBadge view={shipmentStatusView(shipment.status)} /> },
                  { label: 'Tracking', class: 'mono', cell: (shipment) => shipment.tracking_number ?? '—' },
                  { label: 'Updated', cell: (shipment) => <RelativeTime iso={shipment.updated_at} now={now} /> },
                ]}
              />
              <Pager
                pagination={found.pagination}
                noun={['shipment', 'shipments']}
                hrefFor={(next) => base + query({ status, page: next })}
              />
            </>
          )}
        </ListState>
      </section>
    </>
  );
}
