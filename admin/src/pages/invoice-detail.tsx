import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Invoice, PaymentMethod } from '../api/types';
import { StatusBadge } from '../components/badges';
import { Breadcrumbs } from '../components/breadcrumbs';
import { Card, Overview } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { DocumentFrame, saveBlob } from '../components/document-frame';
import { Fact, Totals } from '../components/facts';
import { FormActions } from '../components/field';
import { Link } from '../components/link';
import { MessageNotice, type Message } from '../components/notice';
import { ReadOnlyNote, ScopePage } from '../components/scope-notice';
import { answered, errorText, NotFound, Unloaded } from '../components/states';
import { DateTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useTitle } from '../hooks/use-title';
import { canRead, canWrite } from '../lib/access';
import { fieldErrors, fieldSentence } from '../lib/errors';
import { pathFor } from '../lib/routes';
import { formatDate, formatMoney, invoiceStatusView, PAYMENT_METHODS } from '../lib/shop-status';
import { useSession } from '../session-context';

export function InvoiceDetail({ id }: { id: number }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'invoices');
  const invoice = useAsync(() => (readable ? client.getInvoice(id) : Promise.resolve(undefined)), [client, id, readable]);
  useTitle(invoice.data ? `Invoice ${invoice.data.invoice_number}` : 'Invoice');
  if (!readable || answered(invoice.error, 403)) return <ScopePage account={account} area="invoices" title="Invoice" />;
  if (!invoice.data) {
    return (
      <Unloaded
        state={invoice}
        what="the invoice"
        notFound={
          <NotFound title="Invoice not found" back={{ href: pathFor({ name: 'invoices' }), label: 'Back to invoices' }}>
            <p>It may belong to the other mode (test and live have separate invoices).</p>
          </NotFound>
        }
      />
    );
  }
  const current = invoice.data;
  return (
    <>
      <Breadcrumbs trail={[{ href: pathFor({ name: 'invoices' }), label: 'Invoices' }]} current={current.invoice_number} />
      <InvoiceOverview invoice={current} onChanged={(next) => invoice.setData(next)} />
      <Card id="pdf" title="Document" actions={<XmlDownloads invoice={current} />}>
        <DocumentFrame load={() => client.invoicePdf(current.id)} title="Invoice PDF" filename={`${current.invoice_number}.pdf`} />
      </Card>
    </>
  );
}

function InvoiceOverview({ invoice, onChanged }: { invoice: Invoice; onChanged: (invoice: Invoice) => void }) {
  const { account, client } = useSession();
  const writable = canWrite(account, 'invoices');
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const [message, setMessage] = useState<Message>();
  const [confirmVoid, setConfirmVoid] = useState(false);
  const [busy, setBusy] = useState<'void' | 'send'>();
  const [voidError, setVoidError] = useState<string>();
  const [sendTo, setSendTo] = useState('');
  const unpaid = invoice.status === 'open' || invoice.status === 'sent';

  async function voidIt() {
    setBusy('void');
    setVoidError(undefined);
    try {
      const next = await client.voidInvoice(invoice.id);
      onChanged(next);
      setConfirmVoid(false);
      setMessage({ tone: 'success', text: `Invoice ${next.invoice_number} is void. The order can be invoiced again.` });
    } catch (caught) {
      setVoidError(errorText(caught));
    } finally {
      setBusy(undefined);
    }
  }

  async function send(event: Event) {
    event.preventDefault();
    setBusy('send');
    setMessage(undefined);
    try {
      const next = await client.sendInvoice(invoice.id, sendTo.trim() || undefined);
      onChanged(next);
      setMessage({ tone: 'success', text: `Invoice sent to ${sendTo.trim() || invoice.customer.email}.` });
    } catch (caught) {
      setMessage({ tone: 'danger', text: errorText(caught) });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Overview
      id="invoice"
      title={invoice.invoice_number}
      titleClass="mono"
      badge={<StatusBadge view={invoiceStatusView(invoice)} large />}
      lead={
        <>
          {invoice.customer.name}
          {invoice.customer.company && <>, {invoice.customer.company}</>} · <span class="break">{invoice.customer.email}</span>
          {invoice.order_id !== null && (
            <>
              {' '}
              · Order{' '}
              <Link href={pathFor({ name: 'order', id: invoice.order_id })} class="mono">
                {invoice.order_number}
              </Link>
            </>
          )}
        </>
      }
    >
      <MessageNotice message={message} onDismiss={() => setMessage(undefined)} />
      <dl class="facts">
        <Fact label="Total">
          <strong>{money(invoice.total)}</strong>
        </Fact>
        <Fact label="Paid">{money(invoice.amount_paid)}</Fact>
        <Fact label="Amount due" data-amount-due>
          {money(invoice.amount_due)}
        </Fact>
        <Fact label="Due date" class={invoice.overdue ? 'overdue' : undefined}>
          {formatDate(invoice.due_date)}
          {invoice.overdue && <strong> — overdue</strong>}
        </Fact>
        <Fact label="Issued">
          <DateTime iso={invoice.issued_at} />
        </Fact>
        <Fact label="Sent">
          <DateTime iso={invoice.last_sent_at ?? invoice.sent_at} />
        </Fact>
        {invoice.paid_at && (
          <Fact label="Paid in full">
            <DateTime iso={invoice.paid_at} />
          </Fact>
        )}
        {invoice.voided_at && (
          <Fact label="Voided">
            <DateTime iso={invoice.voided_at} />
          </Fact>
        )}
      </dl>
      <DataTable
        label="Invoice lines"
        rows={invoice.items}
        rowKey={(item) => item.position}
        columns={[
          {
            label: 'Line',
            class: 'cell-main',
            cell: (item) => (
              <>
                {item.position}. {item.description}
              </>
            ),
          },
          { label: 'Quantity', class: 'num', cell: (item) => item.quantity.toLocaleString('en-GB') },
          { label: 'Unit price', class: 'num', cell: (item) => money(item.unit_price) },
          { label: 'Tax', class: 'num', cell: (item) => `${item.tax_rate} %` },
          { label: 'Amount', class: 'num', cell: (item) => money(item.amount) },
        ]}
      />
      <Totals
        parts={[
          ['Subtotal', money(invoice.subtotal)],
          ['Shipping', money(invoice.shipping)],
          ...invoice.tax_breakdown.map((group): [string, string] => [
            `Tax ${group.tax_rate} % of ${money(group.taxable_amount)}`,
            money(group.tax),
          ]),
        ]}
        total={money(invoice.total)}
      />
      {invoice.payments.length > 0 && (
        <>
          <h2 class="card-title">Payments</h2>
          <ul class="list" aria-label="Payments">
            {invoice.payments.map((payment) => (
              <li key={payment.id}>
                {money(payment.amount)} · {PAYMENT_METHODS.find(([value]) => value === payment.method)?.[1] ?? payment.method} ·{' '}
                <DateTime iso={payment.paid_at} />
                {payment.reference && <span class="muted"> · {payment.reference}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {!writable ? (
        <ReadOnlyNote area="invoices" />
      ) : (
        <>
          {unpaid && (
            <PaymentForm
              invoice={invoice}
              onPaid={(next, text) => {
                onChanged(next);
                setMessage({ tone: 'success', text });
              }}
            />
          )}
          {invoice.status !== 'void' && (
            <form class="inline-form" onSubmit={(event) => void send(event)} aria-label="Send the invoice">
              <label for="send-to" class="inline-label">
                Send to
              </label>
              <input
                id="send-to"
                class="input"
                type="email"
                placeholder={invoice.customer.email}
                value={sendTo}
                onInput={(event) => setSendTo(event.currentTarget.value)}
              />
              <button type="submit" class="btn btn-secondary" disabled={busy !== undefined}>
                {busy === 'send' ? 'Sending…' : invoice.sent_at ? 'Send again' : 'Send invoice'}
              </button>
            </form>
          )}
          {unpaid && invoice.amount_paid === 0 && (
            <div class="actions">
              <button type="button" class="btn btn-danger-outline" onClick={() => setConfirmVoid(true)} disabled={busy !== undefined}>
                Void invoice
              </button>
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirmVoid}
        title="Void this invoice?"
        confirmLabel="Void invoice"
        tone="danger"
        busy={busy === 'void'}
        error={voidError}
        onConfirm={() => void voidIt()}
        onCancel={() => {
          setConfirmVoid(false);
          setVoidError(undefined);
        }}
      >
        <p>
          {invoice.invoice_number} ({money(invoice.total)}) stops counting: it takes no payments and cannot be sent. Its number stays used;
          the order can be invoiced again. This cannot be undone.
        </p>
      </ConfirmDialog>
    </Overview>
  );
}

function PaymentForm({ invoice, onPaid }: { invoice: Invoice; onPaid: (invoice: Invoice, message: string) => void }) {
  const { client } = useSession();
  const [amount, setAmount] = useState(invoice.amount_due.toFixed(2));
  const [method, setMethod] = useState<PaymentMethod>('bank_transfer');
  const [reference, setReference] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();

  async function submit(event: Event) {
    event.preventDefault();
    setError(undefined);
    const value = Number(amount.replace(',', '.'));
    if (!/^\d+([.,]\d{1,2})?$/.test(amount.trim()) || !(value > 0)) {
      setErrors({ amount: 'Enter an amount above 0 with at most two decimals, such as 49.90.' });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const next = await client.payInvoice(invoice.id, {
        amount: value,
        method,
        ...(reference.trim() ? { reference: reference.trim() } : {}),
      });
      setAmount(next.amount_due.toFixed(2));
      setReference('');
      // The message belongs to the invoice: the form goes once it is paid in full.
      onPaid(
        next,
        next.status === 'paid'
          ? `Payment recorded: ${next.invoice_number} is paid in full.`
          : `Payment recorded: ${formatMoney(next.amount_due, next.currency)} still due.`,
      );
    } catch (caught) {
      if (caught instanceof ApiError) {
        const fields = fieldErrors(caught.details, ['amount', 'method', 'reference']);
        setErrors(
          Object.fromEntries(
            Object.entries(fields).map(([name, text]) => [name, fieldSentence(name === 'amount' ? 'The amount' : name, text)]),
          ),
        );
        if (Object.keys(fields).length === 0) setError(errorText(caught));
      } else setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="form payment-form" onSubmit={(event) => void submit(event)} aria-labelledby="payment-title" noValidate>
      <h2 id="payment-title" class="card-title">
        Record a payment
      </h2>
      <div class="form-row">
        <div class={`field${errors.amount ? ' field-invalid' : ''}`}>
          <label for="payment-amount" class="field-label">
            Amount ({invoice.currency})
          </label>
          <input
            id="payment-amount"
            class="input"
            inputMode="decimal"
            value={amount}
            aria-invalid={errors.amount ? 'true' : undefined}
            aria-describedby={errors.amount ? 'payment-amount-error' : undefined}
            onInput={(event) => setAmount(event.currentTarget.value)}
          />
          {errors.amount && (
            <p id="payment-amount-error" class="field-error">
              {errors.amount}
            </p>
          )}
        </div>
        <div class="field">
          <label for="payment-method" class="field-label">
            Method
          </label>
          <select
            id="payment-method"
            class="input select"
            value={method}
            onChange={(event) => setMethod(event.currentTarget.value as PaymentMethod)}
          >
            {PAYMENT_METHODS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class={`field${errors.reference ? ' field-invalid' : ''}`}>
          <label for="payment-reference" class="field-label">
            Reference <span class="field-optional">(optional)</span>
          </label>
          <input id="payment-reference" class="input" value={reference} onInput={(event) => setReference(event.currentTarget.value)} />
          {errors.reference && <p class="field-error">{errors.reference}</p>}
        </div>
      </div>
      <FormActions error={error} busy={busy} label="Record payment" busyLabel="Recording…" />
    </form>
  );
}

function XmlDownloads({ invoice }: { invoice: Invoice }) {
  const { client } = useSession();
  const [busy, setBusy] = useState<'cii' | 'ubl'>();
  const [error, setError] = useState<string>();
  async function download(syntax: 'cii' | 'ubl') {
    setBusy(syntax);
    setError(undefined);
    try {
      saveBlob(await client.invoiceXml(invoice.id, syntax), `${invoice.invoice_number}-${syntax}.xml`);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(undefined);
    }
  }
  return (
    <span class="xml-downloads">
      <button type="button" class="btn btn-secondary btn-small" onClick={() => void download('cii')} disabled={busy !== undefined}>
        {busy === 'cii' ? 'Preparing…' : 'E-invoice XML (CII)'}
      </button>
      <button type="button" class="btn btn-secondary btn-small" onClick={() => void download('ubl')} disabled={busy !== undefined}>
        {busy === 'ubl' ? 'Preparing…' : 'XML (UBL)'}
      </button>
      {error && (
        <span class="field-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
