import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Shipment, ShipmentStatus } from '../api/types';
import { StatusBadge } from '../components/badges';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DocumentFrame } from '../components/document-frame';
import { Link } from '../components/link';
import { Notice } from '../components/notice';
import { Pager } from '../components/pager';
import { ReadOnlyNote, ScopePage } from '../components/scope-notice';
import { EmptyState, LoadError, Loading, errorText } from '../components/states';
import { DateTime, RelativeTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useNow } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead, canWrite } from '../lib/access';
import { pathFor } from '../lib/routes';
import { isShipmentStatus, SHIPMENT_STATUSES, SHIPMENT_TRANSITIONS, shipmentStatusView } from '../lib/shop-status';
import { navigate } from '../router';
import { useSession } from '../session-context';

export function ShipmentsList({ search }: { search: string }) {
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

export function ShipmentDetail({ id }: { id: number }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'shipments');
  const shipment = useAsync(() => (readable ? client.getShipment(id) : Promise.resolve(undefined)), [client, id, readable]);
  const [revision, setRevision] = useState(0);
  const tracking = useAsync(() => (readable ? client.tracking(id) : Promise.resolve(undefined)), [client, id, readable, revision]);
  useTitle(`Shipment ${id}`);
  if (!readable || (shipment.error instanceof ApiError && shipment.error.status === 403))
    return <ScopePage account={account} area="shipments" title="Shipment" />;
  if (shipment.loading && !shipment.data) return <Loading label="Loading the shipment…" />;
  if (!shipment.data) {
    if (shipment.error instanceof ApiError && shipment.error.status === 404)
      return (
        <EmptyState
          title="Shipment not found"
          action={
            <Link href={pathFor({ name: 'shipments' })} class="btn btn-secondary">
              Back to shipments
            </Link>
          }
        />
      );
    return <LoadError error={shipment.error} what="the shipment" onRetry={() => void shipment.reload()} />;
  }
  const current = shipment.data;
  const changed = (next: Shipment) => {
    shipment.setData(next);
    setRevision((n) => n + 1);
  };
  const events = tracking.data?.events ?? current.events;
  return (
    <>
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <Link href={pathFor({ name: 'order', id: current.order_id })}>Order {current.order_number}</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">Shipment {current.id}</span>
      </nav>
      <section class="card overview" aria-labelledby="shipment-title">
        <div class="overview-title">
          <h1 id="shipment-title" class="page-title" tabIndex={-1}>
            Shipment {current.id}
          </h1>
          <StatusBadge view={shipmentStatusView(current.status)} large />
        </div>
        <dl class="facts">
          <div>
            <dt>Carrier</dt>
            <dd>
              {current.carrier} · {current.service}
            </dd>
          </div>
          <div>
            <dt>Tracking number</dt>
            <dd class="mono">
              {current.tracking_url ? (
                <a href={current.tracking_url} target="_blank" rel="noopener noreferrer">
                  {current.tracking_number}
                </a>
              ) : (
                (current.tracking_number ?? '—')
              )}
            </dd>
          </div>
          <div>
            <dt>Parcels</dt>
            <dd>
              {current.parcels.map((parcel, index) => (
                <div key={index}>
                  {parcel.weight_g} g · {parcel.length_mm}×{parcel.width_mm}×{parcel.height_mm} mm
                </div>
              ))}
            </dd>
          </div>
          <div>
            <dt>To</dt>
            <dd>
              {current.address.name}, {current.address.postal_code} {current.address.city}, {current.address.country}
            </dd>
          </div>
          {current.partial && (
            <div>
              <dt>Partial</dt>
              <dd>Shipped while the order was in production</dd>
            </div>
          )}
          {current.delivered_at && (
            <div>
              <dt>Delivered</dt>
              <dd>
                <DateTime iso={current.delivered_at} />
              </dd>
            </div>
          )}
        </dl>
        <ShipmentActions shipment={current} onChanged={changed} />
      </section>
      <section class="card" aria-labelledby="tracking-title">
        <div class="card-header">
          <h2 id="tracking-title" class="card-title">
            Tracking
          </h2>
          <button type="button" class="btn btn-secondary btn-small" onClick={() => setRevision((n) => n + 1)}>
            Refresh
          </button>
        </div>
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
      </section>
      {current.label && (
        <section class="card" aria-labelledby="label-title">
          <div class="card-header">
            <h2 id="label-title" class="card-title">
              Label{current.label.parcels > 1 ? ` (parcel 1 of ${current.label.parcels})` : ''}
            </h2>
          </div>
          <DocumentFrame
            load={() => client.shipmentLabel(current.id)}
            title="Shipping label"
            filename={`shipment-${current.id}-label-1.pdf`}
          />
        </section>
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
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string }>();
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
      {message && (
        <Notice tone={message.tone} onDismiss={() => setMessage(undefined)}>
          {message.text}
        </Notice>
      )}
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
