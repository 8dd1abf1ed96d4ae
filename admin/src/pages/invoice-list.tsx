import { ApiError } from '../api/client';
import type { Invoice, InvoiceFilters } from '../api/types';
import { StatusBadge } from '../components/badges';
import { Link } from '../components/link';
import { Pager } from '../components/pager';
import { ScopePage } from '../components/scope-notice';
import { EmptyState, LoadError, Loading } from '../components/states';
import { useAsync } from '../hooks/use-async';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import { invoiceFiltersQuery, parseInvoiceFilters, pathFor } from '../lib/routes';
import { formatDate, formatMoney, INVOICE_STATUSES, invoiceStatusLabel, invoiceStatusView, isInvoiceStatus } from '../lib/shop-status';
import { navigate } from '../router';
import { useSession } from '../session-context';

export function InvoiceList({ search }: { search: string }) {
  const { account, client } = useSession();
  useTitle('Invoices');
  const readable = canRead(account, 'invoices');
  const filters = parseInvoiceFilters(search);
  const list = useAsync(() => (readable ? client.listInvoices(filters, 25) : Promise.resolve(undefined)), [client, readable, search]);
  if (!readable || (list.error instanceof ApiError && list.error.status === 403))
    return <ScopePage account={account} area="invoices" title="Invoices" />;
  const base = pathFor({ name: 'invoices' });
  const show = filters.overdue ? 'overdue' : (filters.status ?? '');
  const setShow = (value: string) => {
    const next: InvoiceFilters =
      value === 'overdue' ? { page: 1, overdue: true } : isInvoiceStatus(value) ? { page: 1, status: value } : { page: 1 };
    navigate(base + invoiceFiltersQuery(next), { replace: true });
  };
  return (
    <>
      <div class="page-header">
        <div>
          <h1 class="page-title" tabIndex={-1}>
            Invoices
          </h1>
          <p class="page-lead">Newest first; overdue invoices earliest due first. Invoices are issued from an order's page.</p>
        </div>
      </div>
      <section class="card" aria-label="Invoices">
        <form class="filters" aria-label="Filter invoices" onSubmit={(event) => event.preventDefault()}>
          <div class="filter">
            <label for="filter-invoice-status">Show</label>
            <select id="filter-invoice-status" class="input select" value={show} onChange={(event) => setShow(event.currentTarget.value)}>
              <option value="">All invoices</option>
              {INVOICE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {invoiceStatusLabel(status)}
                </option>
              ))}
              <option value="overdue">Overdue (unpaid, past due)</option>
            </select>
          </div>
          <div class="filter filter-actions">
            <button type="button" class="btn btn-secondary" onClick={() => void list.reload(true)}>
              Refresh
            </button>
          </div>
        </form>
        {list.loading && <Loading label="Loading invoices…" />}
        {!list.loading && !list.data && <LoadError error={list.error} what="the invoices" onRetry={() => void list.reload()} />}
        {list.data && list.data.items.length === 0 && (
          <EmptyState title={show ? 'No invoices match this filter' : 'No invoices yet'}>
            <p>{show ? 'Choose another filter.' : 'Open a confirmed order and press “Create invoice”.'}</p>
          </EmptyState>
        )}
        {list.data && list.data.items.length > 0 && (
          <>
            <table class="table responsive" aria-label="Invoices">
              <thead>
                <tr>
                  <th scope="col">Invoice</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Total
                  </th>
                  <th scope="col" class="num">
                    Due amount
                  </th>
                  <th scope="col">Due date</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((invoice) => (
                  <InvoiceRow key={invoice.id} invoice={invoice} />
                ))}
              </tbody>
            </table>
            <Pager
              pagination={list.data.pagination}
              noun={['invoice', 'invoices']}
              hrefFor={(page) => base + invoiceFiltersQuery({ ...filters, page })}
            />
          </>
        )}
      </section>
    </>
  );
}

function InvoiceRow({ invoice }: { invoice: Invoice }) {
  return (
    <tr data-invoice={invoice.id}>
      <td data-label="Invoice" class="cell-main">
        <Link href={pathFor({ name: 'invoice', id: invoice.id })} class="mono id-link">
          {invoice.invoice_number}
        </Link>
        {invoice.order_number && <div class="cell-sub">Order {invoice.order_number}</div>}
      </td>
      <td data-label="Customer">{invoice.customer.name}</td>
      <td data-label="Status">
        <StatusBadge view={invoiceStatusView(invoice)} />
      </td>
      <td data-label="Total" class="num">
        {formatMoney(invoice.total, invoice.currency)}
      </td>
      <td data-label="Due amount" class="num">
        {formatMoney(invoice.amount_due, invoice.currency)}
      </td>
      <td data-label="Due date" class={invoice.overdue ? 'overdue' : undefined}>
        {formatDate(invoice.due_date)}
      </td>
    </tr>
  );
}
