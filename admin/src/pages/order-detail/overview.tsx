import { useState } from 'preact/hooks';
import type { Address, Order, OrderStatus } from '../../api/types';
import { StatusBadge } from '../../components/badges';
import { Overview } from '../../components/card';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Fact } from '../../components/facts';
import { MessageNotice, type Message } from '../../components/notice';
import { ReadOnlyNote } from '../../components/scope-notice';
import { answered, errorText } from '../../components/states';
import { DateTime } from '../../components/time';
import { canWrite } from '../../lib/access';
import { formatDate, formatMoney, isOverdueDate, ORDER_TRANSITIONS, orderActionLabel, orderStatusView } from '../../lib/shop-status';
import { useSession } from '../../session-context';

/** The order's heading, facts and addresses, and its next statuses as buttons (the API's table; cancelling asks first). */
export function OrderOverview({
  order,
  onChanged,
  onRefresh,
}: {
  order: Order;
  onChanged: (order?: Order) => void;
  onRefresh: () => void;
}) {
  const { account, client } = useSession();
  const writable = canWrite(account, 'orders');
  const [busy, setBusy] = useState<OrderStatus>();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [message, setMessage] = useState<Message>();
  const next = ORDER_TRANSITIONS[order.status];

  async function move(to: OrderStatus) {
    setBusy(to);
    setMessage(undefined);
    try {
      const updated = await client.setOrderStatus(order.id, to);
      setConfirmCancel(false);
      onChanged(updated);
      setMessage({ tone: 'success', text: `Order ${updated.order_number} is now ${orderStatusView(updated.status).label.toLowerCase()}.` });
    } catch (caught) {
      setConfirmCancel(false);
      setMessage({
        tone: 'danger',
        text: answered(caught, 409) ? `Not possible now: ${errorText(caught)}` : errorText(caught),
      });
      // Someone else may have moved it: show the order as it is now.
      if (answered(caught, 409)) onChanged();
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Overview
      id="order"
      title={order.order_number}
      titleClass="mono"
      badge={<StatusBadge view={orderStatusView(order.status)} large />}
      lead={
        <>
          {order.customer.name} · <span class="break">{order.customer.email}</span>
        </>
      }
    >
      <MessageNotice message={message} onDismiss={() => setMessage(undefined)} />
      <dl class="facts">
        <Fact label="Total">
          <strong>{formatMoney(order.total, order.currency)}</strong>
        </Fact>
        <Fact
          label="Due"
          class={isOverdueDate(order.due_date) && !['shipped', 'completed', 'cancelled'].includes(order.status) ? 'overdue' : ''}
        >
          {formatDate(order.due_date)}
        </Fact>
        <Fact label="Created">
          <DateTime iso={order.created_at} />
        </Fact>
        <Fact label="Updated">
          <DateTime iso={order.updated_at} />
        </Fact>
        <Fact label="Shipping address">
          <AddressBlock address={order.shipping_address} />
        </Fact>
        <Fact label="Billing address">
          {order.billing_address ? <AddressBlock address={order.billing_address} /> : <span class="muted">Same as shipping</span>}
        </Fact>
        {order.notes && (
          <Fact label="Notes" wide class="pre">
            {order.notes}
          </Fact>
        )}
      </dl>
      {writable ? (
        next.length > 0 ? (
          <div class="actions" role="group" aria-label="Order status">
            {next.map((to) => (
              <button
                key={to}
                type="button"
                class={`btn ${to === 'cancelled' ? 'btn-danger-outline' : 'btn-primary'}`}
                disabled={busy !== undefined}
                onClick={() => (to === 'cancelled' ? setConfirmCancel(true) : void move(to))}
              >
                {busy === to ? 'Working…' : orderActionLabel(order.status, to)}
              </button>
            ))}
            <button type="button" class="btn btn-secondary" onClick={onRefresh} disabled={busy !== undefined}>
              Refresh
            </button>
          </div>
        ) : (
          <p class="muted">{orderStatusView(order.status).label}: this is final; no further status.</p>
        )
      ) : (
        <ReadOnlyNote area="orders" />
      )}
      <ConfirmDialog
        open={confirmCancel}
        title="Cancel this order?"
        confirmLabel="Cancel order"
        tone="danger"
        busy={busy === 'cancelled'}
        onConfirm={() => void move('cancelled')}
        onCancel={() => setConfirmCancel(false)}
      >
        <p>
          {order.order_number} is cancelled for good: its open production jobs are cancelled and reserved stock is returned. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </Overview>
  );
}

function AddressBlock({ address }: { address: Address | null }) {
  if (!address) return <span class="muted">None</span>;
  return (
    <address class="address">
      {address.name}
      {address.company && <>, {address.company}</>}
      <br />
      {address.line1}
      {address.line2 && <>, {address.line2}</>}
      <br />
      {address.postal_code} {address.city}
      {address.region && <>, {address.region}</>}, {address.country}
    </address>
  );
}
