import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Order, OrderFilters } from '../api/types';
import { StatusBadge } from '../components/badges';
import { Link } from '../components/link';
import { ScopePage } from '../components/scope-notice';
import { EmptyState, LoadError, Loading, errorText } from '../components/states';
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

  if (!readable || (list.error instanceof ApiError && list.error.status === 403))
    return <ScopePage account={account} area="orders" title="Orders" />;

  const base = pathFor({ name: 'orders' });
  const go = (next: OrderFilters) => navigate(base + orderFiltersQuery(next), { replace: true });
  const setFilter = (changes: Partial<OrderFilters>) => {
    // A new filter starts again at the newest orders.
    const { after: _after, ...rest } = filters;
    go({ ...rest, ...changes });
  };
  const filtered = filters.status !== undefined || filters.customer_id !== undefined || !!filters.created_from || !!filters.created_to;
  const invalid = list.error instanceof ApiError && list.error.status === 422;

  return (
    <>
      <div class="page-header">
        <div>
          <h1 class="page-title" tabIndex={-1}>
            Orders
          </h1>
          <p class="page-lead">Newest first. Open an order to confirm it, follow its production, invoice it and ship it.</p>
        </div>
      </div>
      <section class="card" aria-label="Orders">
        <OrderFilterForm
          filters={filters}
          onChange={setFilter}
          onClear={filtered ? () => go({}) : undefined}
          onRefresh={() => void list.reload(true)}
        />
        {list.loading && <Loading label="Loading orders…" />}
        {!list.loading &&
          list.error !== undefined &&
          (invalid ? (
            <p class="field-error" role="alert">
              {errorText(list.error)}
            </p>
          ) : (
            <LoadError error={list.error} what="the orders" onRetry={() => void list.reload()} />
          ))}
        {list.data && list.data.items.length === 0 && (
          <EmptyState title={filtered ? 'No orders match these filters' : 'No orders yet'}>
            <p>
              {filtered
                ? 'Change or clear the filters.'
                : 'Orders arrive through the API (POST /v1/orders), from the shop front or an accepted quote.'}
            </p>
          </EmptyState>
        )}
        {list.data && list.data.items.length > 0 && (
          <>
            <table class="table responsive" aria-label="Orders, newest first">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Total
                  </th>
                  <th scope="col">Due</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((order) => (
                  <OrderRow key={order.id} order={order} now={now} />
                ))}
              </tbody>
            </table>
            <CursorPager
              total={list.data.pagination.total}
              capped={list.data.pagination.total_capped === true}
              nextCursor={list.data.pagination.has_more ? (list.data.pagination.next_cursor ?? undefined) : undefined}
              firstHref={filters.after !== undefined ? base + orderFiltersQuery({ ...filters, after: undefined }) : undefined}
              nextHref={(cursor) => base + orderFiltersQuery({ ...filters, after: Number(cursor) })}
            />
          </>
        )}
      </section>
    </>
  );
}

function OrderRow({ order, now }: { order: Order; now: number }) {
  const href = pathFor({ name: 'order', id: order.id });
  return (
    <tr data-order={order.id}>
      <td data-label="Order" class="cell-main">
        <Link href={href} class="mono id-link" aria-label={`Order ${order.order_number}`}>
          {order.order_number}
        </Link>
        <div class="cell-sub">{plural(order.items.length, 'line')}</div>
      </td>
      <td data-label="Customer">
        {order.customer.name}
        <div class="cell-sub">#{order.customer.id}</div>
      </td>
      <td data-label="Status">
        <StatusBadge view={orderStatusView(order.status)} />
      </td>
      <td data-label="Total" class="num">
        {formatMoney(order.total, order.currency)}
      </td>
      <td data-label="Due">{formatDate(order.due_date)}</td>
      <td data-label="Created">
        <RelativeTime iso={order.created_at} now={now} />
      </td>
    </tr>
  );
}

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
      <div class="filter">
        <label for="filter-order-status">Status</label>
        <select
          id="filter-order-status"
          class="input select"
          value={filters.status ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onChange({ status: isOrderStatus(value) ? value : undefined });
          }}
        >
          <option value="">All statuses</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {orderStatusView(status).label}
            </option>
          ))}
        </select>
      </div>
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
      <div class="filter">
        <label for="filter-from">Created from</label>
        <input
          id="filter-from"
          class="input"
          type="date"
          value={filters.created_from ?? ''}
          onChange={(event) => onChange({ created_from: event.currentTarget.value || undefined })}
        />
      </div>
      <div class="filter">
        <label for="filter-to">Created to</label>
        <input
          id="filter-to"
          class="input"
          type="date"
          value={filters.created_to ?? ''}
          onChange={(event) => onChange({ created_to: event.currentTarget.value || undefined })}
        />
      </div>
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

/** Cursor paging (the API's `starting_after`): the first page, and the next one while `has_more`. */
function CursorPager({
  total,
  capped,
  nextCursor,
  firstHref,
  nextHref,
}: {
  total: number;
  capped: boolean;
  nextCursor?: string | number;
  firstHref?: string;
  nextHref: (cursor: string | number) => string;
}) {
  return (
    <nav class="pager" aria-label="Pages">
      <span class="pager-summary">{capped ? `${total.toLocaleString('en-GB')}+ orders` : plural(total, 'order')}</span>
      {(firstHref || nextCursor !== undefined) && (
        <span class="pager-links">
          {firstHref ? (
            <Link class="btn btn-secondary btn-small" href={firstHref}>
              ← Newest
            </Link>
          ) : (
            <span class="btn btn-secondary btn-small" aria-disabled="true">
              ← Newest
            </span>
          )}
          {nextCursor !== undefined ? (
            <Link class="btn btn-secondary btn-small" href={nextHref(nextCursor)} rel="next">
              Older →
            </Link>
          ) : (
            <span class="btn btn-secondary btn-small" aria-disabled="true">
              Older →
            </span>
          )}
        </span>
      )}
    </nav>
  );
}
