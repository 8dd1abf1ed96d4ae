/** The account operation. Handlers import this module as a namespace (`import * as accountOperations`). */
import type { Operation } from '#shared/schemas/operation';
import { accountGet } from '#shared/routes';
import { AccountViewSchema } from './schema';

export const get = { route: accountGet, response: AccountViewSchema } satisfies Operation;
