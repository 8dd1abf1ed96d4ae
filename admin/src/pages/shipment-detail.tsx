import { useState } from 'preact/hooks';
import type { Shipment, ShipmentStatus } from '../api/types';
import { StatusBadge } from '../components/badges';
import { Breadcrumbs } from '../components/breadcrumbs';
import { Card, Overview } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DocumentFrame } from '../components/document-frame';
import { Fact } from '../components/facts';
import { MessageNotice, type Message } from '../components/notice';
import { ReadOnlyNote, ScopePage } from '../components/scope-notice';
import { answered, errorText, NotFound, Unloaded } from '../components/states';
import { DateTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useTitle } from '../hooks/use-title';
import { canRead, canWrite } from '../lib/access';
import { pathFor } from '../lib/routes';
import { SHIPMENT_TRANSITIONS, shipmentStatusView } from '../lib/shop-status';
import { useSession } from '../session-context';

export function ShipmentDetail({ id }: { id: number }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'shipments');
  const shipment = useAsync(() => (readable ? client.getShipment(id) : Promise.resolve(undefined)), [client, id, readable]);
  const [revision, setRevision] = useState(0);
  const tracking = useAsync(() => (readable ? client.tracking(id) : Promise.resolve(undefined)), [client, id, readable, revision]);
  useTitle(`Shipment ${id}`);
  if (!readable || answered(shipment.error, 403)) return <ScopePage account={account} area="shipments" title="Shipment" />;
  if (!shipment.data) {
    return (
      <Unloaded
        state={shipment}
        what="the shipment"
        notFound={<NotFound title="Shipment not found" back={{ href: pathFor({ name: 'shipments' }), label: 'Back to shipments' }} />}
      />
    );
  }
  const current = shipment.data;
  const changed = (next: Shipment) => {
    shipment.setData(next);
    setRevision((n) => n + 1);
  };
  const events = tracking.data?.events ?? current.events;
  return (
    <>
      <Breadcrumbs
        trail={[{ href: pathFor({ name: 'order', id: current.order_id }), label: `Order ${current.order_number}` }]}
        current={`Shipment ${current.id}`}
      />
      <Overview id="shipment" title={`Shipment ${current.id}`} badge={<StatusBadge view={shipmentStatusView(current.status)} large />}>
        <dl class="facts">
          <Fact label="Carrier">
            {current.carrier} · {current.service}
          </Fact>
          <Fact label="Tracking number" class="mono">
            {current.tracking_url ? (
              <a href={current.tracking_url} target="_blank" rel="noopener noreferrer">
                {current.tracking_number}
              </a>
            ) : (
              (current.tracking_number ?? '—')
            )}
          </Fact>
          <Fact label="Parcels">
            {current.parcels.map((parcel, index) => (
              <div key={index}>
                {parcel.weight_g} g · {parcel.length_mm}×{parcel.width_mm}×{parcel.height_mm} mm
              </div>
            ))}
          </Fact>
          <Fact label="To">
            {current.address.name}, {current.address.postal_code} {current.address.city}, {current.address.country}
          </Fact>
          {current.partial && <Fact label="Partial">Shipped while the order was in production</Fact>}
          {current.delivered_at && (
            <Fact label="Delivered">
              <DateTime iso={current.delivered_at} />
            </Fact>
          )}
        </dl>
        <ShipmentActions shipment={current} onChanged={changed} />
      </Overview>
      <Card
        id="tracking"
        title="Tracking"
        actions={
          <button type="button" class="btn btn-secondary btn-small" onClick={() => setRevision((n) => n + 1)}>
            Refresh
          </button>
        }
      >
        {tracking.error !== undefined && <p class="field-error">Tracking could not be refreshed: {errorText(tracking.error)}</p>}
        {events.length === 0 ? (
          <p class="muted">No reports from the carrier yet.</p>
        ) : (
          <ol class="timeline" aria-label="Tracking events, newest first">
            {[...events].reverse().map((event, index) => (
              <li key={`${event.occurred_at}-${index}`} data-tracking={event.status}>
                <StatusBadge view={shipmentStatusView(event.status)} />{' '}
                <span>
                  {event.description}
                  {event.location && <span class="muted"> · {event.location}</span>}
                </span>
                <div class="cell-sub">
                  <DateTime iso={event.occurred_at} />
                </div>
              </li>
            ))}
          </ol>
        )}
      </Card>
      {current.label && (
        <Card id="label" title={`Label${current.label.parcels > 1 ? ` (parcel 1 of ${current.label.parcels})` : ''}`}>
          <DocumentFrame
            load={() => client.shipmentLabel(current.id)}
            title="Shipping label"
            filename={`shipment-${current.id}-label-1.pdf`}
          />
        </Card>
      )}
    </>
  );
}

function ShipmentActions({ shipment, onChanged }: { shipment: Shipment; onChanged: (shipment: Shipment) => void }) {
  const { account, client } = useSession();
  const writable = canWrite(account, 'shipments');
  const next: ShipmentStatus[] = SHIPMENT_TRANSITIONS[shipment.status].filter((status) => status !== 'cancelled');
  const [status, setStatus] = useState<ShipmentStatus | ''>('');
  const [location, setLocation] = useState('');
  const [busy, setBusy] = useState<'simulate' | 'cancel'>();
  const [message, setMessage] = useState<Message>();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const chosen: ShipmentStatus | undefined = status && (next as ShipmentStatus[]).includes(status) ? status : next[0];

  if (!writable) return <ReadOnlyNote area="shipments" />;

  async function simulate(event: Event) {
    event.preventDefault();
    if (!chosen) return;
    setBusy('simulate');
    setMessage(undefined);
    try {
      const updated = await client.simulateShipment(shipment.id, chosen, location.trim() || undefined);
      onChanged(updated);
      setStatus('');
      setLocation('');
      setMessage({ tone: 'success', text: `The sandbox carrier reported “${shipmentStatusView(chosen).label}”.` });
    } catch (caught) {
      setMessage({ tone: 'danger', text: errorText(caught) });
    } finally {
      setBusy(undefined);
    }
  }

  async function cancel() {
    setBusy('cancel');
    try {
      const updated = await client.cancelShipment(shipment.id);
      onChanged(updated);
      setConfirmCancel(false);
      setMessage({
        tone: 'success',
        text: updated.status === 'cancelled' ? 'Shipment cancelled.' : 'The carrier accepted the cancellation and will confirm it.',
      });
    } catch (caught) {
      setConfirmCancel(false);
      setMessage({ tone: 'danger', text: errorText(caught) });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <>
      <MessageNotice message={message} onDismiss={() => setMessage(undefined)} />
      {account.mode === 'test' && next.length > 0 && (
        <form class="inline-form simulate" onSubmit={(event) => void simulate(event)} aria-label="Simulate the carrier">
          <label for="simulate-status" class="inline-label">
            <span class="tag">test</span> Simulate
          </label>
          <select
            id="simulate-status"
            class="input select"
            value={chosen}
            onChange={(event) => setStatus(event.currentTarget.value as ShipmentStatus)}
          >
            {next.map((value) => (
              <option key={value} value={value}>
                {shipmentStatusView(value).label}
              </option>
            ))}
          </select>
          <label for="simulate-location" class="visually-hidden">
            Location
          </label>
          <input
            id="simulate-location"
            class="input"
            placeholder="Location (optional)"
            value={location}
            onInput={(event) => setLocation(event.currentTarget.value)}
          />
          <button type="submit" class="btn btn-secondary" disabled={busy !== undefined}>
            {busy === 'simulate' ? 'Reporting…' : 'Report status'}
          </button>
        </form>
      )}
      {shipment.status === 'label_created' && !shipment.cancel_requested_at && (
        <div class="actions">
          <button type="button" class="btn btn-danger-outline" onClick={() => setConfirmCancel(true)} disabled={busy !== undefined}>
            Cancel shipment
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirmCancel}
        title="Cancel this shipment?"
        confirmLabel="Cancel shipment"
        tone="danger"
        busy={busy === 'cancel'}
        onConfirm={() => void cancel()}
        onCancel={() => setConfirmCancel(false)}
      >
        <p>The carrier is asked to cancel the label before pickup; what it carried can be shipped again.</p>
      </ConfirmDialog>
    </>
  );
}
