import { useState } from 'preact/hooks';
import type { OrderFilters } from '../api/types';
import { StatusBadge } from '../components/badges';
import { DataTable } from '../components/data-table';
import { FilterSelect } from '../components/filter-select';
import { Link } from '../components/link';
import { PageHeader } from '../components/page-header';
import { CursorPager } from '../components/pager';
import { ScopePage } from '../components/scope-notice';
import { answered, EmptyState, errorText, ListState, LoadError } from '../components/states';
import { RelativeTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useNow } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import { plural } from '../lib/format';
import { orderFiltersQuery, parseOrderFilters, pathFor } from '../lib/routes';
import { formatDate, formatMoney, isOrderStatus, ORDER_STATUSES, orderStatusView } from '../lib/shop-status';
import { navigate } from '../router';
import { useSession } from '../session-context';

const PER_PAGE = 25;

export function OrderList({ search }: { search: string }) {
  const { account, client } = useSession();
  useTitle('Orders');
  const readable = canRead(account, 'orders');
  const filters = parseOrderFilters(search);
  const list = useAsync(() => (readable ? client.listOrders(filters, PER_PAGE) : Promise.resolve(undefined)), [client, readable, search]);
  const now = useNow();

  if (!readable || answered(list.error, 403)) return <ScopePage account={account} area="orders" title="Orders" />;

  const base = pathFor({ name: 'orders' });
  const go = (next: OrderFilters) => navigate(base + orderFiltersQuery(next), { replace: true });
  const setFilter = (changes: Partial<OrderFilters>) => {
    // A new filter starts again at the newest orders.
    const { after: _after, ...rest } = filters;
    go({ ...rest, ...changes });
  };
  const filtered = filters.status !== undefined || filters.customer_id !== undefined || !!filters.created_from || !!filters.created_to;
  const invalid = answered(list.error, 422);

  const failure = invalid ? (
    <p class="field-error" role="alert">
      {errorText(list.error)}
    </p>
  ) : (
    <LoadError error={list.error} what="the orders" onRetry={() => void list.reload()} />
  );

  return (
    <>
      <PageHeader title="Orders" lead="Newest first. Open an order to confirm it, follow its production, invoice it and ship it." />
      <section class="card" aria-label="Orders">
        <OrderFilterForm
          filters={filters}
          onChange={setFilter}
          onClear={filtered ? () => go({}) : undefined}
          onRefresh={() => void list.reload(true)}
        />
        {/* A failed refresh keeps the orders on screen, under its message. */}
        {list.data && !list.loading && list.error !== undefined && failure}
        <ListState
          state={list}
          what="orders"
          failure={failure}
          empty={
            <EmptyState title={filtered ? 'No orders match these filters' : 'No orders yet'}>
              <p>
                {filtered
                  ? 'Change or clear the filters.'
                  : 'Orders arrive through the API (POST /v1/orders), from the shop front or an accepted quote.'}
              </p>
            </EmptyState>
          }
        >
          {(found) => (
            <>
              <DataTable
                label="Orders, newest first"
                rows={found.items}
                rowKey={(order) => order.id}
                rowAttributes={(order) => ({ 'data-order': order.id })}
                columns={[
                  {
                    label: 'Order',
                    class: 'cell-main',
                    cell: (order) => (
                      <>
                        <Link
                          href={pathFor({ name: 'order', id: order.id })}
                          class="mono id-link"
                          aria-label={`Order ${order.order_number}`}
                        >
                          {order.order_number}
                        </Link>
                        <div class="cell-sub">{plural(order.items.length, 'line')}</div>
                      </>
                    ),
                  },
                  {
                    label: 'Customer',
                    cell: (order) => (
                      <>
                        {order.customer.name}
                        <div class="cell-sub">#{order.customer.id}</div>
                      </>
                    ),
                  },
                  { label: 'Status', cell: (order) => <StatusBadge view={orderStatusView(order.status)} /> },
                  { label: 'Total', class: 'num', cell: (order) => formatMoney(order.total, order.currency) },
                  { label: 'Due', cell: (order) => formatDate(order.due_date) },
                  { label: 'Created', cell: (order) => <RelativeTime iso={order.created_at} now={now} /> },
                ]}
              />
              <CursorPager
                pagination={found.pagination}
                noun={['order', 'orders']}
                firstHref={filters.after !== undefined ? base + orderFiltersQuery({ ...filters, after: undefined }) : undefined}
                nextHref={(cursor) => base + orderFiltersQuery({ ...filters, after: Number(cursor) })}
              />
            </>
          )}
        </ListState>
      </section>
    </>
  );
}

/** The creation-date bounds: a date picker each, kept in the address as `from` and `to`. */
const dateFilters = [
  ['filter-from', 'Created from', 'created_from'],
  ['filter-to', 'Created to', 'created_to'],
] as const;

function OrderFilterForm({
  filters,
  onChange,
  onClear,
  onRefresh,
}: {
  filters: OrderFilters;
  onChange: (changes: Partial<OrderFilters>) => void;
  onClear?: () => void;
  onRefresh: () => void;
}) {
  const [customer, setCustomer] = useState(filters.customer_id === undefined ? '' : String(filters.customer_id));
  const [customerError, setCustomerError] = useState<string>();
  const applyCustomer = () => {
    const text = customer.trim();
    if (text === '') {
      setCustomerError(undefined);
      if (filters.customer_id !== undefined) onChange({ customer_id: undefined });
      return;
    }
    if (!/^[1-9]\d{0,15}$/.test(text)) {
      setCustomerError('A customer id is a whole number, such as 7.');
      return;
    }
    setCustomerError(undefined);
    if (Number(text) !== filters.customer_id) onChange({ customer_id: Number(text) });
  };
  return (
    <form
      class="filters"
      aria-label="Filter orders"
      onSubmit={(event) => {
        event.preventDefault();
        applyCustomer();
      }}
    >
      <FilterSelect
        id="filter-order-status"
        label="Status"
        value={filters.status ?? ''}
        options={[
          { value: '', label: 'All statuses' },
          ...ORDER_STATUSES.map((status) => ({ value: status, label: orderStatusView(status).label })),
        ]}
        onChange={(value) => onChange({ status: isOrderStatus(value) ? value : undefined })}
      />
      <div class="filter">
        <label for="filter-customer">Customer id</label>
        <input
          id="filter-customer"
          class="input filter-narrow"
          inputMode="numeric"
          value={customer}
          aria-invalid={customerError ? 'true' : undefined}
          aria-describedby={customerError ? 'filter-customer-error' : undefined}
          onInput={(event) => setCustomer(event.currentTarget.value)}
          onBlur={applyCustomer}
        />
        {customerError && (
          <p id="filter-customer-error" class="field-error">
            {customerError}
          </p>
        )}
      </div>
      {dateFilters.map(([id, label, field]) => (
        <div class="filter" key={field}>
          <label for={id}>{label}</label>
          <input
            id={id}
            class="input"
            type="date"
            value={filters[field] ?? ''}
            onChange={(event) => onChange({ [field]: event.currentTarget.value || undefined })}
          />
        </div>
      ))}
      <div class="filter filter-actions">
        {onClear && (
          <button type="button" class="btn btn-secondary" onClick={onClear}>
            Clear filters
          </button>
        )}
        <button type="button" class="btn btn-secondary" onClick={onRefresh}>
          Refresh
        </button>
      </div>
    </form>
  );
}
