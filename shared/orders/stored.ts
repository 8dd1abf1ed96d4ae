/**
 * How an order is stored (see docs/data-model.md): the order item — its fields listed once
 * below, money in integer minor units — whose two index slots give "all orders" (gsi1) and
 * "orders of one status" (gsi2), newest first; a list entry in the order's partition that gives
 * "orders of one customer" (gsi1) and "of one customer and status" (gsi2); list totals as
 * counters moved in the same transactions — per tenant in META items, per customer as attributes
 * of the customer item (next to `open_orders`, which customer deletion checks).
 */
import type { Tenant } from '#shared/auth/principal';
import { adjustTotal } from '#shared/db/totals';
import { createdSortKey, tenantKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { versionedUpdate } from '#shared/db/update-expression';
import { postalAddressShape } from '#shared/schemas/address';
import { appliedTaxCategoryCodec, taxesCodec, taxRatesCodec, taxTreatmentCodec } from '#shared/tax/fields';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import { ORDER_STATUSES, isClosed, type OrderStatus } from './status';

/** A legacy product line's product and cell of its price table. */
const legacyCell = /* @__PURE__ */ (() =>
  c.object(
    { legacy_product_id: field(c.int), format: field(c.string), color: field(c.string), pages: field(c.int) },
    { id: 'OrderLineLegacyCell' },
  ))();

/** A line's copy of a file it prints (shared/files/line-files.ts). */
const lineFile = /* @__PURE__ */ (() =>
  c.object(
    {
      id: field(c.int),
      filename: field(c.string),
      content_type: field(c.string),
      size: field(c.int),
      sha256: field(c.nullable(c.string)),
    },
    { id: 'OrderLineFile' },
  ))();

/** An order line as stored and shown (quotes keep the same lines: an accepted quote's become the order's). */
export const orderLine = /* @__PURE__ */ (() =>
  c.object(
    {
      id: field(c.int).describe('Line number within the order, from 1'),
      product_id: field(c.nullable(c.int)).describe('The product; null on a legacy product line'),
      legacy: field(c.nullable(legacyCell)).describe(
        'A legacy product line: its product and table cell (unit_price is then the whole run)',
      ),
      description: field(c.string),
      quantity: field(c.int),
      unit_price: field(c.money),
      setup_fee: field(c.money),
      price_source: field(c.enumOf(['product', 'manual', 'table'])).describe(
        'manual when unit_price was sent; table: a legacy product run, priced whole (quantity is the copies, unit_price the run)',
      ),
      options: field(c.stringMap).describe('The chosen option values, defaults included'),
      file_ids: field(c.list(c.int)),
      files: field(c.list(lineFile)).describe(
        "Copies of the line's files as they were when ordered (their preflight: GET /v1/orders/{id}/files)",
      ),
      total: field(c.money).describe('quantity × unit_price + setup_fee'),
      tax_category: field(appliedTaxCategoryCodec).describe('As charged', 'standard'),
      tax_rate: field(c.number).describe('Percent', 19),
      tax_exemption_reason: field(c.nullable(c.string)),
      hs_code: field(c.nullable(c.string)).describe('Customs: HS code'),
      origin_country: field(c.nullable(c.string)).describe('Customs: country of origin'),
      customs_description: field(c.nullable(c.string)).describe('Customs: what the goods are'),
    },
    { id: 'OrderLine' },
  ))();

/** An order's copy of an address: later edits of the customer's addresses do not change it. */
export const orderAddress = /* @__PURE__ */ (() =>
  c.object(postalAddressShape, {
    id: 'OrderAddress',
    description: "A copy: later edits of the customer's addresses do not change it",
  }))();

/**
 * The tax of a priced sale, as an order and a quote store it: fixed when it is priced (the
 * treatment, the rates it was priced with, the shipping's category), the breakdown and amounts
 * recomputed when its lines or shipping change.
 */
export const saleTaxFields = () => ({
  tax_rate: field(c.number).fixed().describe('The standard rate', 19),
  tax_rates: field(c.nullable(taxRatesCodec)).fixed().internal(),
  tax_treatment: field(taxTreatmentCodec).fixed(),
  tax_treatment_warning: field(c.nullable(c.string)).fixed(),
  shipping_tax_category: field(appliedTaxCategoryCodec).fixed(),
  shipping_tax_rate: field(c.number).fixed(),
  taxes: field(taxesCodec).describe('tax = Σ tax_amount'),
  tax: field(c.money),
  shipping: field(c.money),
  total: field(c.money).describe('subtotal + shipping + tax'),
});

/** What an order or quote stored before tax categories lacks: each line and the shipping at its single `tax_rate`, standard. */
export function withStoredTax<
  R extends Pick<OrderRecord, 'items' | 'tax_rate' | 'shipping_tax_rate' | 'taxes' | 'subtotal' | 'shipping' | 'tax'>,
>(record: R, item: Record<string, unknown>): R {
  if (item.taxes !== undefined) return record;
  const taxable = record.subtotal + record.shipping;
  return {
    ...record,
    items: record.items.map((line) => ({ ...line, tax_rate: record.tax_rate })),
    shipping_tax_rate: record.tax_rate,
    taxes:
      taxable > 0 || record.tax > 0
        ? [{ category: 'standard', rate: record.tax_rate, taxable_amount: taxable, tax_amount: record.tax }]
        : [],
  };
}

export const storedOrder = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    order_number: field(c.string).fixed().describe('Yearly, per tenant and mode', 'ORD-2026-000042'),
    status: field(c.enumOf(ORDER_STATUSES)),
    customer: field(c.object({ id: field(c.int), name: field(c.string), email: field(c.string) }))
      .fixed()
      .describe('As at ordering time'),
    items: field(c.list(orderLine)),
    subtotal: field(c.money),
    ...saleTaxFields(),
    currency: field(c.string).fixed().describe('ISO 4217', 'EUR'),
    shipping_address: field(c.nullable(orderAddress)),
    billing_address: field(c.nullable(orderAddress)),
    notes: field(c.nullable(c.string)),
    due_date: field(c.nullable(c.string)).describe('YYYY-MM-DD', '2026-12-01'),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().describe('Raised by every change; send it as If-Match'),
    quote_id: field(c.nullable(c.int)).fixed().describe('The quote it was accepted from'),
    /** Tracked stock this order holds, one line per product (what a cancel gives back). */
    reserved: field(c.list(c.object({ product_id: field(c.int), quantity: field(c.int) }))).internal(),
    /** The production jobs of its lines, created when it was confirmed (none for orders confirmed before production existed). */
    job_ids: field(c.list(c.int)).internal(),
    /** Its jobs neither completed nor cancelled: > 0 blocks moving it to ready by hand (docs/production.md). */
    open_jobs: field(c.int).counter(),
    /** Its completed jobs. */
    completed_jobs: field(c.int).counter(),
    /** When its first job started printing (production.started is written once, with this); set by its own expression. */
    production_started_at: field(c.nullable(c.timestamp)).external(),
    /** When its last open job closed and it moved to ready (production.completed, once); set by its own expression. */
    production_completed_at: field(c.nullable(c.timestamp)).external(),
  }))();

/** An order as the domain keeps it: money in integer minor units, the stock it holds. */
export type OrderRecord = RecordOf<typeof storedOrder.shape>;
export type OrderLineRecord = OrderRecord['items'][number];
export type OrderAddressRecord = NonNullable<OrderRecord['shipping_address']>;

export const orderFromItem: typeof storedOrder.read = (value) => withStoredTax(storedOrder.read(value), value);

export const ORDERS = 'orders';

/** Names of the tenant-wide counters an order of `status` counts in. */
export const tenantCounters = (status: OrderStatus): string[] => [ORDERS, `${ORDERS}:${status}`];

/** Customer item attributes counting the customer's orders (all, and per status). */
export const customerCountAttribute = (status?: OrderStatus): string => (status ? `order_count_${status}` : 'order_count');

export function orderPut(tenant: Tenant, order: OrderRecord): TransactItem {
  const sortKey = createdSortKey(order.created_at, order.id);
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.order(tenant, order.id),
        entity: 'ORDER',
        ...storedOrder.attributes(order, 'put'),
        customer_id: order.customer.id,
        gsi1pk: tenantKeys.ordersCollection(tenant),
        gsi1sk: sortKey,
        gsi2pk: tenantKeys.ordersByStatus(tenant, order.status),
        gsi2sk: sortKey,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function listEntryPut(tenant: Tenant, order: OrderRecord): TransactItem {
  const sortKey = createdSortKey(order.created_at, order.id);
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.orderListEntry(tenant, order.id),
        entity: 'ORDER_LIST_ENTRY',
        order_id: order.id,
        gsi1pk: tenantKeys.customerOrders(tenant, order.customer.id),
        gsi1sk: sortKey,
        gsi2pk: tenantKeys.customerOrdersByStatus(tenant, order.customer.id, order.status),
        gsi2sk: sortKey,
      },
    },
  };
}

/**
 * Moves the customer's order counters. Conditional on the customer existing: an `ADD` on a
 * deleted customer would otherwise create a stray item. The customer's `version` is left alone,
 * so order traffic never makes a concurrent customer edit retry.
 */
export function customerCounts(tenant: Tenant, customerId: number, moves: Record<string, number>): TransactItem {
  const entries = Object.entries(moves).filter(([, delta]) => delta !== 0);
  return {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.customer(tenant, customerId),
      UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, delta], i) => [`:c${i}`, delta])),
    },
  };
}

/** The tenant's counters of a new order (its list entry and the customer's counters are separate: they have a failure meaning). */
export const creationCounters = (tenant: Tenant, order: OrderRecord): TransactItem[] =>
  tenantCounters(order.status).map((counter) => adjustTotal(tenant, counter, 1));

/** How a new order moves its customer's counters. */
export const creationCustomerMoves = (order: OrderRecord): Record<string, number> => ({
  open_orders: 1,
  [customerCountAttribute()]: 1,
  [customerCountAttribute(order.status)]: 1,
});

/** The customer's counters of a new order: conditional on the customer (deleted meanwhile → the order is refused). */
export const creationCustomerCounts = (tenant: Tenant, order: OrderRecord): TransactItem =>
  customerCounts(tenant, order.customer.id, creationCustomerMoves(order));

/** What production adds to an order's update: its own SET clauses (counters) and conditions. */
export interface OrderUpdateExtras {
  set?: string[];
  condition?: string;
  values?: Record<string, unknown>;
}

/** The update of the order item, conditional on the status and version that were read (and on `extras.condition`). */
export function orderUpdate(tenant: Tenant, before: OrderRecord, after: OrderRecord, extras: OrderUpdateExtras = {}): TransactItem {
  const attributes = { ...storedOrder.attributes(after, 'update'), gsi2pk: tenantKeys.ordersByStatus(tenant, after.status) };
  return versionedUpdate(tenantKeys.order(tenant, before.id), attributes, before.version, {
    condition: extras.condition ? `#status = :from AND ${extras.condition}` : '#status = :from',
    set: extras.set,
    names: { '#status': 'status' },
    values: { ':from': before.status, ...extras.values },
  });
}

/** A status change moves the order between list partitions and counters (same transaction). */
export function statusMoveItems(tenant: Tenant, order: OrderRecord, from: OrderStatus, to: OrderStatus): TransactItem[] {
  const closing = !isClosed(from) && isClosed(to);
  return [
    {
      Update: {
        TableName: tableName(),
        Key: tenantKeys.orderListEntry(tenant, order.id),
        UpdateExpression: 'SET gsi2pk = :partition',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':partition': tenantKeys.customerOrdersByStatus(tenant, order.customer.id, to) },
      },
    },
    adjustTotal(tenant, `${ORDERS}:${from}`, -1),
    adjustTotal(tenant, `${ORDERS}:${to}`, 1),
    customerCounts(tenant, order.customer.id, {
      [customerCountAttribute(from)]: -1,
      [customerCountAttribute(to)]: 1,
      ...(closing ? { open_orders: -1 } : {}),
    }),
  ];
}
