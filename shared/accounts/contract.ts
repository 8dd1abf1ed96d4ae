/** The account operations. Handlers import this module as a namespace (`import * as accountOperations`). */
import type { Operation } from '#shared/schemas/operation';
import { accountGet, accountUpdate } from '#shared/routes';
import { AccountUpdateSchema, AccountViewSchema } from './schema';

export const get = { route: accountGet, response: AccountViewSchema } satisfies Operation;
export const update = { route: accountUpdate, body: AccountUpdateSchema, response: AccountViewSchema, errors: [409] } satisfies Operation;
