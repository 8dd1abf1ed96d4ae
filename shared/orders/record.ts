/**
 * An order as the domain keeps it (money in integer minor units, the stock it holds) and its
 * public view. The stored item (items.ts) and the API answer are both built from this record.
 */
import { fromMinor } from '#shared/money';
import type { StockLine } from '#shared/products/stock';
import type { Order, OrderAddress } from './schema';
import { postalAddressFromItem } from '#shared/schemas/address';
import type { OrderStatus } from './status';

export interface OrderLineRecord {
  id: number;
  product_id: number;
  description: string;
  quantity: number;
  /** Minor units. */
  unit_price: number;
  setup_fee: number;
  price_source: 'product' | 'manual';
  options: Record<string, string>;
  file_ids: number[];
  total: number;
}

export interface OrderRecord {
  id: number;
  order_number: string;
  status: OrderStatus;
  customer: { id: number; name: string; email: string };
  items: OrderLineRecord[];
  subtotal: number;
  tax_rate: number;
  tax: number;
  shipping: number;
  total: number;
  currency: string;
  shipping_address: OrderAddress | null;
  billing_address: OrderAddress | null;
  notes: string | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  version: number;
  /** Tracked stock this order holds, one line per product (what a cancel gives back). */
  reserved: StockLine[];
}

type Item = Record<string, unknown>;

const text = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));

function addressFromItem(value: unknown): OrderAddress | null {
  if (!value || typeof value !== 'object') return null;
  const item = value as Item;
  return postalAddressFromItem(item);
}

export function orderFromItem(item: Item): OrderRecord {
  const customer = item.customer as Item;
  return {
    id: Number(item.id),
    order_number: String(item.order_number),
    status: item.status as OrderStatus,
    customer: { id: Number(customer.id), name: String(customer.name), email: String(customer.email) },
    items: ((item.items as Item[] | undefined) ?? []).map((line) => ({
      id: Number(line.id),
      product_id: Number(line.product_id),
      description: String(line.description),
      quantity: Number(line.quantity),
      unit_price: Number(line.unit_price),
      setup_fee: Number(line.setup_fee ?? 0),
      price_source: line.price_source === 'manual' ? 'manual' : 'product',
      options: Object.fromEntries(Object.entries((line.options as Item | undefined) ?? {}).map(([code, value]) => [code, String(value)])),
      file_ids: ((line.file_ids as unknown[] | undefined) ?? []).map(Number),
      total: Number(line.total),
    })),
    subtotal: Number(item.subtotal),
    tax_rate: Number(item.tax_rate),
    tax: Number(item.tax),
    shipping: Number(item.shipping ?? 0),
    total: Number(item.total),
    currency: String(item.currency),
    shipping_address: addressFromItem(item.shipping_address),
    billing_address: addressFromItem(item.billing_address),
    notes: text(item.notes),
    due_date: text(item.due_date),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
    version: Number(item.version),
    reserved: ((item.reserved as Item[] | undefined) ?? []).map((line) => ({ product_id: Number(line.product_id), quantity: Number(line.quantity) })),
  };
}

/** The public view: money as 2-decimal numbers, fields in one fixed order, bookkeeping left out. */
export function presentOrder(order: OrderRecord): Order {
  return {
    id: order.id,
    order_number: order.order_number,
    status: order.status,
    customer: { id: order.customer.id, name: order.customer.name, email: order.customer.email },
    items: order.items.map((line) => ({
      id: line.id,
      product_id: line.product_id,
      description: line.description,
      quantity: line.quantity,
      unit_price: fromMinor(line.unit_price),
      setup_fee: fromMinor(line.setup_fee),
      price_source: line.price_source,
      options: line.options,
      file_ids: line.file_ids,
      total: fromMinor(line.total),
    })),
    subtotal: fromMinor(order.subtotal),
    tax_rate: order.tax_rate,
    tax: fromMinor(order.tax),
    shipping: fromMinor(order.shipping),
    total: fromMinor(order.total),
    currency: order.currency,
    shipping_address: order.shipping_address,
    billing_address: order.billing_address,
    notes: order.notes,
    due_date: order.due_date,
    created_at: order.created_at,
    updated_at: order.updated_at,
    version: order.version,
  };
}
