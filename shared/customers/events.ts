/**
 * The events customers emit, each carrying the customer as the API shows it (`data.customer`).
 * An address change is a customer update: its payload adds the address and what happened to it.
 */
import * as z from 'zod';
import { defineEvent } from '#shared/events/catalogue';
import { AddressSchema, CustomerSchema } from './schema';

export const customerCreated = /* @__PURE__ */ defineEvent('customer.created', z.object({ customer: CustomerSchema }));

export const customerUpdated = /* @__PURE__ */ defineEvent(
  'customer.updated',
  z.object({
    customer: CustomerSchema,
    address: AddressSchema.optional().meta({ description: 'The address concerned, when the change was one of its addresses' }),
    change: z.enum(['address.created', 'address.updated', 'address.deleted']).optional(),
  }),
);
