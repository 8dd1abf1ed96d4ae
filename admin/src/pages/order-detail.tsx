import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Address, ApiEvent, Order, OrderStatus, PrintFile } from '../api/types';
import { StatusBadge } from '../components/badges';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Link } from '../components/link';
import { Notice } from '../components/notice';
import { ReadOnlyNote, ScopeNotice } from '../components/scope-notice';
import { ShipmentForm } from '../components/shipment-form';
import { EmptyState, LoadError, Loading, errorText } from '../components/states';
import { DateTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useTitle } from '../hooks/use-title';
import { canRead, canWrite } from '../lib/access';
import { describeEvent, isAboutOrder, statusHistory } from '../lib/order-events';
import { pathFor } from '../lib/routes';
import {
  formatDate,
  formatMoney,
  invoiceStatusView,
  isOverdueDate,
  jobStatusView,
  ORDER_TRANSITIONS,
  orderActionLabel,
  orderStatusView,
  priorityLabel,
  shipmentStatusView,
} from '../lib/shop-status';
import { navigate } from '../router';
import { useFlash, useSession } from '../session-context';

export function OrderDetail({ id }: { id: number }) {
  const { account, client } = useSession();
  const order = useAsync(() => client.getOrder(id), [client, id]);
  // Bumped after every change the page makes: the sections read again.
  const [revision, setRevision] = useState(0);
  useTitle(order.data ? `Order ${order.data.order_number}` : 'Order');

  if (!canRead(account, 'orders') || (order.error instanceof ApiError && order.error.status === 403)) {
    return (
      <>
        <h1 class="page-title" tabIndex={-1}>
          Order
        </h1>
        <ScopeNotice account={account} area="orders" />
      </>
    );
  }
  if (order.loading && !order.data) return <Loading label="Loading the order…" />;
  if (!order.data) {
    if (order.error instanceof ApiError && order.error.status === 404) {
      return (
        <EmptyState
          title="Order not found"
          action={
            <Link href={pathFor({ name: 'orders' })} class="btn btn-secondary">
              Back to orders
            </Link>
          }
        >
          <p>It may belong to the other mode (test and live have separate orders).</p>
        </EmptyState>
      );
    }
    return <LoadError error={order.error} what="the order" onRetry={() => void order.reload()} />;
  }
  const current = order.data;
  const changed = (next?: Order) => {
    if (next) order.setData(next);
    else void order.reload(true);
    setRevision((n) => n + 1);
  };

  return (
    <>
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <Link href={pathFor({ name: 'orders' })}>Orders</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{current.order_number}</span>
      </nav>
      <OrderOverview order={current} onChanged={changed} onRefresh={() => changed()} />
      <OrderLines order={current} />
      <JobsSection order={current} revision={revision} />
      <InvoicesSection order={current} revision={revision} />
      <ShipmentsSection order={current} revision={revision} onChanged={() => changed()} />
      <EventsSection order={current} revision={revision} />
    </>
  );
}

function OrderOverview({ order, onChanged, onRefresh }: { order: Order; onChanged: (order?: Order) => void; onRefresh: () => void }) {
  const { account, client } = useSession();
  const writable = canWrite(account, 'orders');
  const [busy, setBusy] = useState<OrderStatus>();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string }>();
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
        text: caught instanceof ApiError && caught.status === 409 ? `Not possible now: ${errorText(caught)}` : errorText(caught),
      });
      // Someone else may have moved it: show the order as it is now.
      if (caught instanceof ApiError && caught.status === 409) onChanged();
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <section class="card overview" aria-labelledby="order-title">
      <div class="overview-head">
        <div class="overview-title">
          <h1 id="order-title" class="page-title mono" tabIndex={-1}>
            {order.order_number}
          </h1>
          <StatusBadge view={orderStatusView(order.status)} large />
        </div>
        <p class="page-lead">
          {order.customer.name} · <span class="break">{order.customer.email}</span>
        </p>
      </div>
      {message && (
        <Notice tone={message.tone} onDismiss={() => setMessage(undefined)}>
          {message.text}
        </Notice>
      )}
      <dl class="facts">
        <div>
          <dt>Total</dt>
          <dd>
            <strong>{formatMoney(order.total, order.currency)}</strong>
          </dd>
        </div>
        <div>
          <dt>Due</dt>
          <dd class={isOverdueDate(order.due_date) && !['shipped', 'completed', 'cancelled'].includes(order.status) ? 'overdue' : ''}>
            {formatDate(order.due_date)}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <DateTime iso={order.created_at} />
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>
            <DateTime iso={order.updated_at} />
          </dd>
        </div>
        <div>
          <dt>Shipping address</dt>
          <dd>
            <AddressBlock address={order.shipping_address} />
          </dd>
        </div>
        <div>
          <dt>Billing address</dt>
          <dd>{order.billing_address ? <AddressBlock address={order.billing_address} /> : <span class="muted">Same as shipping</span>}</dd>
        </div>
        {order.notes && (
          <div class="fact-wide">
            <dt>Notes</dt>
            <dd class="pre">{order.notes}</dd>
          </div>
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
    </section>
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

function OrderLines({ order }: { order: Order }) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  return (
    <section class="card" aria-labelledby="lines-title">
      <div class="card-header">
        <h2 id="lines-title" class="card-title">
          Lines
        </h2>
      </div>
      <table class="table responsive" aria-label="Order lines">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col" class="num">
              Quantity
            </th>
            <th scope="col" class="num">
              Unit price
            </th>
            <th scope="col" class="num">
              Setup
            </th>
            <th scope="col" class="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((line) => (
            <tr key={line.id} data-line={line.id}>
              <td data-label="Line" class="cell-main">
                <strong>
                  {line.id}. {line.description}
                </strong>
                {Object.keys(line.options).length > 0 && (
                  <div class="cell-sub">
                    {Object.entries(line.options)
                      .map(([name, value]) => `${name}: ${value}`)
                      .join(' · ')}
                  </div>
                )}
                {line.file_ids.length > 0 && <LineFiles ids={line.file_ids} />}
              </td>
              <td data-label="Quantity" class="num">
                {line.quantity.toLocaleString('en-GB')}
              </td>
              <td data-label="Unit price" class="num">
                {money(line.unit_price)}
                {line.price_source === 'manual' && <span class="cell-sub"> (manual)</span>}
              </td>
              <td data-label="Setup" class="num">
                {money(line.setup_fee)}
              </td>
              <td data-label="Total" class="num">
                {money(line.total)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl class="totals">
        <div>
          <dt>Subtotal</dt>
          <dd>{money(order.subtotal)}</dd>
        </div>
        <div>
          <dt>Shipping</dt>
          <dd>{money(order.shipping)}</dd>
        </div>
        <div>
          <dt>Tax ({order.tax_rate} %)</dt>
          <dd>{money(order.tax)}</dd>
        </div>
        <div class="totals-total">
          <dt>Total</dt>
          <dd>{money(order.total)}</dd>
        </div>
      </dl>
    </section>
  );
}

const preflightTone = { pending: 'info', passed: 'success', warnings: 'warning', failed: 'danger', skipped: 'neutral' } as const;

/** A line's artwork: name, status and the preflight result of each file (files:read). */
function LineFiles({ ids }: { ids: number[] }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'files');
  const files = useAsync<(PrintFile | { id: number; error: string })[]>(
    () =>
      readable
        ? Promise.all(ids.map((id) => client.getFile(id).catch((caught: unknown) => ({ id, error: errorText(caught) }))))
        : Promise.resolve([]),
    [client, ids.join(','), readable],
  );
  if (!readable) return <div class="cell-sub">{ids.length} file(s) — this key cannot see files (needs files:read).</div>;
  if (!files.data) return <div class="cell-sub">Loading files…</div>;
  return (
    <ul class="files" aria-label="Artwork files">
      {files.data.map((file) =>
        'error' in file ? (
          <li key={file.id} class="field-error">
            File {file.id}: {file.error}
          </li>
        ) : (
          <li key={file.id} data-file={file.id}>
            <span class="mono break">{file.filename}</span>{' '}
            {file.status !== 'ready' && <span class="tag">{file.status.replace('_', ' ')}</span>}
            {file.preflight && (
              <span class={`badge tone-${preflightTone[file.preflight.status]}`} title="Preflight (the print check)">
                Preflight: {file.preflight.status}
              </span>
            )}
            {file.rejection && <div class="field-error">{file.rejection}</div>}
            {file.preflight && file.preflight.checks.some((check) => check.result !== 'passed') && (
              <ul class="checks">
                {file.preflight.checks
                  .filter((check) => check.result !== 'passed')
                  .map((check) => (
                    <li key={check.code} class={check.result === 'failed' ? 'tone-danger' : 'tone-warning'}>
                      {check.result === 'failed' ? '✕' : '!'} {check.message}
                    </li>
                  ))}
              </ul>
            )}
          </li>
        ),
      )}
    </ul>
  );
}

function JobsSection({ order, revision }: { order: Order; revision: number }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'production');
  const jobs = useAsync(
    () => (readable ? client.listJobs({ order_id: order.id }) : Promise.resolve(undefined)),
    [client, order.id, revision],
  );
  return (
    <section class="card" aria-labelledby="jobs-title">
      <div class="card-header">
        <h2 id="jobs-title" class="card-title">
          Production jobs
        </h2>
        {readable && (
          <Link href={pathFor({ name: 'production' })} class="btn btn-secondary btn-small">
            Open the board
          </Link>
        )}
      </div>
      {!readable || (jobs.error instanceof ApiError && jobs.error.status === 403) ? (
        <ScopeNotice account={account} area="production" compact />
      ) : jobs.loading && !jobs.data ? (
        <Loading label="Loading jobs…" />
      ) : !jobs.data ? (
        <LoadError error={jobs.error} what="the jobs" onRetry={() => void jobs.reload()} />
      ) : jobs.data.items.length === 0 ? (
        <p class="muted">{order.status === 'pending' ? 'Confirming the order creates one job per line.' : 'No production jobs.'}</p>
      ) : (
        <table class="table responsive" aria-label="Production jobs of this order">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Status</th>
              <th scope="col">Priority</th>
              <th scope="col">Due</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.items.map((job) => (
              <tr key={job.id} data-job={job.id}>
                <td data-label="Job" class="cell-main">
                  <strong>Job {job.id}</strong> · {job.description} × {job.quantity.toLocaleString('en-GB')}
                </td>
                <td data-label="Status">
                  <StatusBadge view={jobStatusView(job.status)} />
                </td>
                <td data-label="Priority">{priorityLabel(job.priority)}</td>
                <td data-label="Due">{formatDate(job.due_date)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function InvoicesSection({ order, revision }: { order: Order; revision: number }) {
  const { account, client } = useSession();
  const flash = useFlash();
  const readable = canRead(account, 'invoices');
  const writable = canWrite(account, 'invoices');
  const invoices = useAsync(
    () => (readable ? client.listInvoices({ page: 1, order_id: order.id }, 25) : Promise.resolve(undefined)),
    [client, order.id, revision],
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const billable = !['pending', 'cancelled'].includes(order.status);
  const hasLiveInvoice = invoices.data?.items.some((invoice) => invoice.status !== 'void') ?? false;

  async function create() {
    setBusy(true);
    setError(undefined);
    try {
      const invoice = await client.createInvoice(order.id);
      flash({ tone: 'success', text: `Invoice ${invoice.invoice_number} issued for ${order.order_number}.` });
      navigate(pathFor({ name: 'invoice', id: invoice.id }));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <section class="card" aria-labelledby="invoices-title">
      <div class="card-header">
        <h2 id="invoices-title" class="card-title">
          Invoices
        </h2>
        {readable && writable && billable && invoices.data && !hasLiveInvoice && (
          <button type="button" class="btn btn-primary btn-small" onClick={() => void create()} disabled={busy}>
            {busy ? 'Issuing…' : 'Create invoice'}
          </button>
        )}
      </div>
      {error !== undefined && <InvoiceCreateError error={error} />}
      {!readable || (invoices.error instanceof ApiError && invoices.error.status === 403) ? (
        <ScopeNotice account={account} area="invoices" compact />
      ) : invoices.loading && !invoices.data ? (
        <Loading label="Loading invoices…" />
      ) : !invoices.data ? (
        <LoadError error={invoices.error} what="the invoices" onRetry={() => void invoices.reload()} />
      ) : invoices.data.items.length === 0 ? (
        <p class="muted">
          {billable ? 'Not invoiced yet.' : 'A pending or cancelled order cannot be invoiced.'}
          {billable && !writable && ' (Issuing needs invoices:write.)'}
        </p>
      ) : (
        <ul class="list">
          {invoices.data.items.map((invoice) => (
            <li key={invoice.id}>
              <Link href={pathFor({ name: 'invoice', id: invoice.id })} class="mono">
                {invoice.invoice_number}
              </Link>{' '}
              <StatusBadge view={invoiceStatusView(invoice)} /> {formatMoney(invoice.total, invoice.currency)}
              {invoice.amount_due > 0 && invoice.status !== 'void' && (
                <span class="muted"> · {formatMoney(invoice.amount_due, invoice.currency)} due</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The API's refusal to issue, readable: missing company details are named one by one. */
function InvoiceCreateError({ error }: { error: unknown }) {
  const company = error instanceof ApiError ? error.details.filter((detail) => detail.field.startsWith('company')) : [];
  if (company.length > 0) {
    return (
      <Notice tone="danger" title="The account's company details are incomplete: an invoice needs them.">
        <ul>
          {company.map((detail) => (
            <li key={detail.field}>
              <code>{detail.field}</code>: {detail.message}
            </li>
          ))}
        </ul>
        <p>
          Set them with <code>PUT /v1/account</code> (scope <code>account:write</code>) or <code>npm run accounts -- set-company</code>{' '}
          (docs/invoices.md, “Seller details”).
        </p>
      </Notice>
    );
  }
  return <Notice tone="danger">{errorText(error)}</Notice>;
}

function ShipmentsSection({ order, revision, onChanged }: { order: Order; revision: number; onChanged: () => void }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'shipments');
  const writable = canWrite(account, 'shipments');
  const shipments = useAsync(() => (readable ? client.orderShipments(order.id) : Promise.resolve(undefined)), [client, order.id, revision]);
  const [formOpen, setFormOpen] = useState(false);
  const shippable = order.status === 'ready' || order.status === 'in_production';

  return (
    <section class="card" aria-labelledby="shipments-title">
      <div class="card-header">
        <h2 id="shipments-title" class="card-title">
          Shipments
        </h2>
        {readable && writable && shippable && !formOpen && (
          <button type="button" class="btn btn-primary btn-small" onClick={() => setFormOpen(true)}>
            Create shipment
          </button>
        )}
      </div>
      {!readable || (shipments.error instanceof ApiError && shipments.error.status === 403) ? (
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
          {shipments.loading && !shipments.data ? (
            <Loading label="Loading shipments…" />
          ) : !shipments.data ? (
            <LoadError error={shipments.error} what="the shipments" onRetry={() => void shipments.reload()} />
          ) : shipments.data.items.length === 0 ? (
            <p class="muted">
              {shippable ? 'Nothing shipped yet.' : 'An order ships once it is ready (or in production, as a partial shipment).'}
            </p>
          ) : (
            <ul class="list">
              {shipments.data.items.map((shipment) => (
                <li key={shipment.id} data-shipment={shipment.id}>
                  <Link href={pathFor({ name: 'shipment', id: shipment.id })}>Shipment {shipment.id}</Link>{' '}
                  <StatusBadge view={shipmentStatusView(shipment.status)} /> {shipment.service}
                  {shipment.tracking_number && <span class="mono muted"> · {shipment.tracking_number}</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** How far back the order page reads the account's events for this order (pages of 100). */
const EVENT_PAGES = 5;

function EventsSection({ order, revision }: { order: Order; revision: number }) {
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
  return (
    <section class="card" aria-labelledby="events-title">
      <div class="card-header">
        <h2 id="events-title" class="card-title">
          Status history and events
        </h2>
      </div>
      {!readable || (events.error instanceof ApiError && events.error.status === 403) ? (
        <ScopeNotice account={account} area="events" compact />
      ) : events.loading && !events.data ? (
        <Loading label="Loading events…" />
      ) : !events.data ? (
        <LoadError error={events.error} what="the events" onRetry={() => void events.reload()} />
      ) : (
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
          {events.data.items.length === 0 ? (
            <p class="muted">No events in the last 30 days.</p>
          ) : (
            <table class="table responsive" aria-label="Events of this order, newest first">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">What</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                {events.data.items.map((event) => (
                  <tr key={event.id} data-event={event.type}>
                    <td data-label="Event" class="cell-main mono">
                      {event.type}
                    </td>
                    <td data-label="What">{describeEvent(event)}</td>
                    <td data-label="When">
                      <DateTime iso={event.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {!events.data.complete && (
            <p class="muted">Showing the events found in the first {EVENT_PAGES * 100} since the order was created.</p>
          )}
        </>
      )}
    </section>
  );
}
