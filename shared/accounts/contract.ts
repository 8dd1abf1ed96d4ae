/** The account operations. Handlers import this module as a namespace (`import * as accountOperations`). */
import type * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { accountGet, accountUpdate } from '#shared/routes';
import { AccountUpdateSchema, AccountViewSchema } from './schema';

export const get = { route: accountGet } satisfies Operation;
export const update = { route: accountUpdate, body: AccountUpdateSchema, errors: [409] } satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  get: AccountViewSchema,
  update: AccountViewSchema,
} satisfies Record<string, z.ZodType>;
