/**
 * The events customers emit, each carrying the customer as the API shows it (`data.customer`).
 * An address change is a customer update: its payload adds the address and what happened to it.
 */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { AddressSchema, CustomerSchema } from './schema';

// Pure IIFEs: a bundle that only writes these events (a cart's guest checkout makes a customer) leaves the payload schemas out.
const customerCreatedDeclaration = /* @__PURE__ */ (() => defineEvent('customer.created', z.object({ customer: CustomerSchema })))();

const customerUpdatedDeclaration = /* @__PURE__ */ (() =>
  defineEvent(
    'customer.updated',
    z.object({
      customer: CustomerSchema,
      address: AddressSchema.optional().meta({ description: 'The address concerned, when the change was one of its addresses' }),
      change: z.enum(['address.created', 'address.updated', 'address.deleted']).optional(),
    }),
  ))();

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [customerCreatedDeclaration, customerUpdatedDeclaration];

/** What services write with (`eventPut`): the kinds, typed by their declarations, without their schemas. */
export const customerCreated = /* @__PURE__ */ writerOf<typeof customerCreatedDeclaration>('customer.created');
export const customerUpdated = /* @__PURE__ */ writerOf<typeof customerUpdatedDeclaration>('customer.updated');
