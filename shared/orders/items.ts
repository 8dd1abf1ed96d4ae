/**
 * How an order is stored (see docs/data-model.md): the order item, whose two index slots give
 * "all orders" (gsi1) and "orders of one status" (gsi2), newest first; a list entry in the order's
 * partition that gives "orders of one customer" (gsi1) and "of one customer and status" (gsi2);
 * list totals as counters moved in the same transactions — per tenant in META items, per customer
 * as attributes of the customer item (next to `open_orders`, which customer deletion checks).
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, tenantKeys } from '#shared/db/keys';
import { adjustTotal } from '#shared/db/sequences';
import { tableName, type TransactItem } from '#shared/db/table';
import { buildUpdate } from '#shared/db/update-expression';
import type { OrderRecord } from './record';
import { isClosed, type OrderStatus } from './status';

export const ORDERS = 'orders';

/** Names of the tenant-wide counters an order of `status` counts in. */
export const tenantCounters = (status: OrderStatus): string[] => [ORDERS, `${ORDERS}:${status}`];

/** Customer item attributes counting the customer's orders (all, and per status). */
export const customerCountAttribute = (status?: OrderStatus): string => (status ? `order_count_${status}` : 'order_count');

/** What may change after creation (everything else is fixed when the order is created). */
function mutableAttributes(tenant: Tenant, order: OrderRecord): Record<string, unknown> {
  return {
    status: order.status,
    items: order.items,
    subtotal: order.subtotal,
    tax: order.tax,
    shipping: order.shipping,
    total: order.total,
    shipping_address: order.shipping_address,
    billing_address: order.billing_address,
    notes: order.notes,
    due_date: order.due_date,
    updated_at: order.updated_at,
    reserved: order.reserved,
    gsi2pk: tenantKeys.ordersByStatus(tenant, order.status),
  };
}

export function orderPut(tenant: Tenant, order: OrderRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.order(tenant, order.id),
        entity: 'ORDER',
        id: order.id,
        order_number: order.order_number,
        customer_id: order.customer.id,
        customer: order.customer,
        tax_rate: order.tax_rate,
        currency: order.currency,
        created_at: order.created_at,
        version: order.version,
        ...mutableAttributes(tenant, order),
        gsi1pk: tenantKeys.ordersCollection(tenant),
        gsi1sk: createdSortKey(order.created_at, order.id),
        gsi2sk: createdSortKey(order.created_at, order.id),
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

/** The bookkeeping of a new order: its list entry, the tenant's counters and the customer's. */
export function creationItems(tenant: Tenant, order: OrderRecord): TransactItem[] {
  return [
    listEntryPut(tenant, order),
    ...tenantCounters(order.status).map((counter) => adjustTotal(tenant, counter, 1)),
    customerCounts(tenant, order.customer.id, { open_orders: 1, [customerCountAttribute()]: 1, [customerCountAttribute(order.status)]: 1 }),
  ];
}

/** The update of the order item, conditional on the status and version that were read. */
export function orderUpdate(tenant: Tenant, before: OrderRecord, after: OrderRecord): TransactItem {
  const parts = buildUpdate(mutableAttributes(tenant, after), ['#version = :next'], {
    ':from': before.status,
    ':expected': before.version,
    ':next': before.version + 1,
  });
  return {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.order(tenant, before.id),
      ...parts,
      ExpressionAttributeNames: { ...parts.ExpressionAttributeNames, '#version': 'version', '#status': 'status' },
      ConditionExpression: '#status = :from AND #version = :expected',
    },
  };
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
