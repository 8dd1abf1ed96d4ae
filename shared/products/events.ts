/** The events products emit: `stock.low` when an order's decrement takes tracked stock to its threshold or below. */
import * as z from 'zod';
import type { Tenant } from '#shared/auth/principal';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { eventPut } from '#shared/events/outbox';
import type { TransactItem } from '#shared/db/table';
import { entity, field, codecs as c, type RecordOf } from '#shared/schemas/fields';
import { responseSchema } from '#shared/schemas/response';
import { storedProduct, type ProductRecord } from './stored';

/**
 * What `stock.low` says of a product: which one, and its stock after the decrement — not the
 * whole product. The outbox item holds `data` twice (as a map and as `data_json`) and is written
 * in the order's own transaction: a slim payload keeps that item a few hundred bytes whatever the
 * product holds (a whole product of the maximal size, twice, would not fit DynamoDB's 400 KB item
 * and would fail every order crossing its threshold). Receivers that want more read the product.
 */
const stockLowProductShape = /* @__PURE__ */ (() =>
  entity({ id: field(c.int), name: field(c.string), stock: field(storedProduct.shape.stock.codec) }))();

export type StockLowProduct = RecordOf<typeof stockLowProductShape.shape>;

export const StockLowProductSchema = /* @__PURE__ */ (() =>
  responseSchema(stockLowProductShape, {
    id: 'StockLowProduct',
    description: 'The product whose stock crossed its low threshold: id, name and stock (quantity: what is left)',
  }))();

export const stockLowEvent = /* @__PURE__ */ (() => defineEvent('stock.low', z.object({ product: StockLowProductSchema })))();

/** The `stock.low` payload's product: its id, name and stock as it is after the decrement. */
export const stockLowProduct = (product: Pick<ProductRecord, 'id' | 'name' | 'stock'>, remaining: number): StockLowProduct => ({
  id: product.id,
  name: product.name,
  stock: { ...product.stock, quantity: remaining },
});

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [stockLowEvent];

/** The outbox item of a `stock.low` event, written with the kind's handle (`writerOf`: no schema in the order bundles). */
const stockLowWriter = /* @__PURE__ */ writerOf<typeof stockLowEvent>('stock.low');
export const stockLow = (tenant: Tenant, data: { product: StockLowProduct }): TransactItem => eventPut(tenant, stockLowWriter, data).item;
