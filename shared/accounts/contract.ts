/** The account operation. Handlers import this module as a namespace (`import * as accountOperations`). */
import type { Operation } from '#shared/schemas/operation';
import { AccountViewSchema } from './schema';

export const get = { route: 'account.get', response: AccountViewSchema } satisfies Operation;
