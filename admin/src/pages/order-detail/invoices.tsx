import { useState } from 'preact/hooks';
import { ApiError } from '../../api/client';
import type { Order } from '../../api/types';
import { StatusBadge } from '../../components/badges';
import { Card } from '../../components/card';
import { Link } from '../../components/link';
import { Notice } from '../../components/notice';
import { ScopeNotice } from '../../components/scope-notice';
import { answered, errorText, ListState } from '../../components/states';
import { useAsync } from '../../hooks/use-async';
import { canRead, canWrite } from '../../lib/access';
import { pathFor } from '../../lib/routes';
import { formatMoney, invoiceStatusView } from '../../lib/shop-status';
import { navigate } from '../../router';
import { useFlash, useSession } from '../../session-context';

/** The order's invoices (invoices:read), and "Create invoice" while it has none that counts (invoices:write). */
export function OrderInvoices({ order, revision }: { order: Order; revision: number }) {
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
    <Card
      id="invoices"
      title="Invoices"
      actions={
        readable &&
        writable &&
        billable &&
        invoices.data &&
        !hasLiveInvoice && (
          <button type="button" class="btn btn-primary btn-small" onClick={() => void create()} disabled={busy}>
            {busy ? 'Issuing…' : 'Create invoice'}
          </button>
        )
      }
    >
      {error !== undefined && <InvoiceCreateError error={error} />}
      {!readable || answered(invoices.error, 403) ? (
        <ScopeNotice account={account} area="invoices" compact />
      ) : (
        <ListState
          state={invoices}
          what="invoices"
          empty={
            <p class="muted">
              {billable ? 'Not invoiced yet.' : 'A pending or cancelled order cannot be invoiced.'}
              {billable && !writable && ' (Issuing needs invoices:write.)'}
            </p>
          }
        >
          {(found) => (
            <ul class="list">
              {found.items.map((invoice) => (
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
        </ListState>
      )}
    </Card>
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
