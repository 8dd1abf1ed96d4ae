/** The events products emit: `stock.low` when an order's decrement takes tracked stock to its threshold or below. */
import * as z from 'zod';
import type { Tenant } from '#shared/auth/principal';
import { defineEvent } from '#shared/events/catalogue';
import { eventPut } from '#shared/events/outbox';
import type { TransactItem } from '#shared/db/table';
import { ProductSchema, type Product } from './schema';

export const stockLowEvent = /* @__PURE__ */ defineEvent('stock.low', z.object({ product: ProductSchema }));

/** The outbox item of a `stock.low` event: the product as it is after the decrement. */
export const stockLow = (tenant: Tenant, data: { product: Product }): TransactItem => eventPut(tenant, stockLowEvent, data).item;
