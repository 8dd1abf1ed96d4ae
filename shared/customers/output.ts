/**
 * A customer as responses show it. Its own module so that `GET /v1/customers/{id}` builds only this
 * schema at cold start, not the inputs of shared/customers/schema.ts (see products/output.ts).
 */
import * as z from 'zod';
import { timestamp } from '#shared/schemas/common';

export const CustomerSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    company: z.string().nullable(),
    vat_id: z.string().nullable(),
    notes: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Customer' });

export type Customer = z.output<typeof CustomerSchema>;
