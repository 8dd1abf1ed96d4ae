/**
 * An order and everything that follows from it, one section a file (pages/order-detail/): the
 * overview with its status moves, the lines with their artwork, their proofs, and the production jobs, invoices,
 * shipments and events read for it. Every section checks its own scope, so a key without one still
 * sees the rest; a change in any of them (a move, an invoice, a shipment) makes the others read again.
 */
import { useState } from 'preact/hooks';
import type { Order } from '../api/types';
import { Breadcrumbs } from '../components/breadcrumbs';
import { ScopePage } from '../components/scope-notice';
import { answered, NotFound, Unloaded } from '../components/states';
import { useAsync } from '../hooks/use-async';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import { pathFor } from '../lib/routes';
import { useSession } from '../session-context';
import { OrderEvents } from './order-detail/events';
import { OrderInvoices } from './order-detail/invoices';
import { OrderJobs } from './order-detail/jobs';
import { OrderLines } from './order-detail/lines';
import { OrderOverview } from './order-detail/overview';
import { OrderProofs } from './order-detail/proofs';
import { OrderShipments } from './order-detail/shipments';

export function OrderDetail({ id }: { id: number }) {
  const { account, client } = useSession();
  const order = useAsync(() => client.getOrder(id), [client, id]);
  // Bumped after every change the page makes: the sections read again.
  const [revision, setRevision] = useState(0);
  useTitle(order.data ? `Order ${order.data.order_number}` : 'Order');

  if (!canRead(account, 'orders') || answered(order.error, 403)) return <ScopePage account={account} area="orders" title="Order" />;
  if (!order.data) {
    return (
      <Unloaded
        state={order}
        what="the order"
        notFound={
          <NotFound title="Order not found" back={{ href: pathFor({ name: 'orders' }), label: 'Back to orders' }}>
            <p>It may belong to the other mode (test and live have separate orders).</p>
          </NotFound>
        }
      />
    );
  }
  const current = order.data;
  const changed = (next?: Order) => {
    if (next) order.setData(next);
    else void order.reload(true);
    setRevision((n) => n + 1);
  };

  return (
    <>
      <Breadcrumbs trail={[{ href: pathFor({ name: 'orders' }), label: 'Orders' }]} current={current.order_number} />
      <OrderOverview order={current} onChanged={changed} onRefresh={() => changed()} />
      <OrderLines order={current} />
      <OrderProofs order={current} revision={revision} onChanged={() => setRevision((n) => n + 1)} />
      <OrderJobs order={current} revision={revision} />
      <OrderInvoices order={current} revision={revision} />
      <OrderShipments order={current} revision={revision} onChanged={() => changed()} />
      <OrderEvents order={current} revision={revision} />
    </>
  );
}
