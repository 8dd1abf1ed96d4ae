import type { InvoiceFilters } from '../api/types';
import { StatusBadge } from '../components/badges';
import { DataTable } from '../components/data-table';
import { FilterSelect } from '../components/filter-select';
import { Link } from '../components/link';
import { PageHeader } from '../components/page-header';
import { Pager } from '../components/pager';
import { ScopePage } from '../components/scope-notice';
import { answered, EmptyState, ListState } from '../components/states';
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
  if (!readable || answered(list.error, 403)) return <ScopePage account={account} area="invoices" title="Invoices" />;
  const base = pathFor({ name: 'invoices' });
  const show = filters.overdue ? 'overdue' : (filters.status ?? '');
  const setShow = (value: string) => {
    const next: InvoiceFilters =
      value === 'overdue' ? { page: 1, overdue: true } : isInvoiceStatus(value) ? { page: 1, status: value } : { page: 1 };
    navigate(base + invoiceFiltersQuery(next), { replace: true });
  };
  return (
    <>
      <PageHeader title="Invoices" lead="Newest first; overdue invoices earliest due first. Invoices are issued from an order's page." />
      <section class="card" aria-label="Invoices">
        <form class="filters" aria-label="Filter invoices" onSubmit={(event) => event.preventDefault()}>
          <FilterSelect
            id="filter-invoice-status"
            label="Show"
            value={show}
            options={[
              { value: '', label: 'All invoices' },
              ...INVOICE_STATUSES.map((status) => ({ value: status, label: invoiceStatusLabel(status) })),
              { value: 'overdue', label: 'Overdue (unpaid, past due)' },
            ]}
            onChange={setShow}
          />
          <div class="filter filter-actions">
            <button type="button" class="btn btn-secondary" onClick={() => void list.reload(true)}>
              Refresh
            </button>
          </div>
        </form>
        <ListState
          state={list}
          what="invoices"
          empty={
            <EmptyState title={show ? 'No invoices match this filter' : 'No invoices yet'}>
              <p>{show ? 'Choose another filter.' : 'Open a confirmed order and press “Create invoice”.'}</p>
            </EmptyState>
          }
        >
          {(found) => (
            <>
              <DataTable
                label="Invoices"
                rows={found.items}
                rowKey={(invoice) => invoice.id}
                rowAttributes={(invoice) => ({ 'data-invoice': invoice.id })}
                columns={[
                  {
                    label: 'Invoice',
                    class: 'cell-main',
                    cell: (invoice) => (
                      <>
                        <Link href={pathFor({ name: 'invoice', id: invoice.id })} class="mono id-link">
                          {invoice.invoice_number}
                        </Link>
                        {invoice.order_number && <div class="cell-sub">Order {invoice.order_number}</div>}
                      </>
                    ),
                  },
                  { label: 'Customer', cell: (invoice) => invoice.customer.name },
                  { label: 'Status', cell: (invoice) => <StatusBadge view={invoiceStatusView(invoice)} /> },
                  { label: 'Total', class: 'num', cell: (invoice) => formatMoney(invoice.total, invoice.currency) },
                  { label: 'Due amount', class: 'num', cell: (invoice) => formatMoney(invoice.amount_due, invoice.currency) },
                  {
                    label: 'Due date',
                    class: (invoice) => (invoice.overdue ? 'overdue' : undefined),
                    cell: (invoice) => formatDate(invoice.due_date),
                  },
                ]}
              />
              <Pager
                pagination={found.pagination}
                noun={['invoice', 'invoices']}
                hrefFor={(number) => base + invoiceFiltersQuery({ ...filters, page: number })}
              />
            </>
          )}
        </ListState>
      </section>
    </>
  );
}
