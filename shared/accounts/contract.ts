import * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';

export const AccountViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.string(),
    currency: z.string(),
    tax_rate: z.number(),
    mode: z.enum(['test', 'live']),
    limits: z.object({ per_minute: z.number().int(), per_hour: z.number().int().nullable() }),
    key: z.object({ id: z.string(), prefix: z.string(), kind: z.enum(['secret', 'publishable']), scopes: z.array(z.string()) }),
  })
  .meta({ id: 'Account', description: 'The account and the key making the call' });

// One export per operation: handlers import this module as a namespace (`import * as accountOperations`),
// so a bundle keeps only the operation it serves. The schema modules imported here still run whole
// at cold start; that is why a GET by id has a contract module of its own (products/get-contract.ts).
export const get = { route: 'account.get', response: AccountViewSchema } satisfies Operation;
