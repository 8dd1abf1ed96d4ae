import { useState } from 'preact/hooks';
import type { Order } from '../../api/types';
import { StatusBadge } from '../../components/badges';
import { Card } from '../../components/card';
import { Link } from '../../components/link';
import { ScopeNotice } from '../../components/scope-notice';
import { ShipmentForm } from '../../components/shipment-form';
import { answered, ListState } from '../../components/states';
import { useAsync } from '../../hooks/use-async';
import { canRead, canWrite } from '../../lib/access';
import { pathFor } from '../../lib/routes';
import { shipmentStatusView } from '../../lib/shop-status';
import { useSession } from '../../session-context';

/** The order's shipments (shipments:read), and the form that ships it once it is ready — or in production, partly (shipments:write). */
export function OrderShipments({ order, revision, onChanged }: { order: Order; revision: number; onChanged: () => void }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'shipments');
  const writable = canWrite(account, 'shipments');
  const shipments = useAsync(() => (readable ? client.orderShipments(order.id) : Promise.resolve(undefined)), [client, order.id, revision]);
  const [formOpen, setFormOpen] = useState(false);
  const shippable = order.status === 'ready' || order.status === 'in_production';

  return (
    <Card
      id="shipments"
      title="Shipments"
      actions={
        readable &&
        writable &&
        shippable &&
        !formOpen && (
          <button type="button" class="btn btn-primary btn-small" onClick={() => setFormOpen(true)}>
            Create shipment
          </button>
        )
      }
    >
      {!readable || answered(shipments.error, 403) ? (
        <ScopeNotice account={account} area="shipments" compact />
      ) : (
        <>
          {formOpen && (
            <ShipmentForm
              order={order}
              onCancel={() => setFormOpen(false)}
              onCreated={() => {
                setFormOpen(false);
                onChanged();
              }}
            />
          )}
          <ListState
            state={shipments}
            what="shipments"
            empty={
              <p class="muted">
                {shippable ? 'Nothing shipped yet.' : 'An order ships once it is ready (or in production, as a partial shipment).'}
              </p>
            }
          >
            {(found) => (
              <ul class="list">
                {found.items.map((shipment) => (
                  <li key={shipment.id} data-shipment={shipment.id}>
                    <Link href={pathFor({ name: 'shipment', id: shipment.id })}>Shipment {shipment.id}</Link>{' '}
                    <StatusBadge view={shipmentStatusView(shipment.status)} /> {shipment.service}
                    {shipment.tracking_number && <span class="mono muted"> · {shipment.tracking_number}</span>}
                  </li>
                ))}
              </ul>
            )}
          </ListState>
        </>
      )}
    </Card>
  );
}
