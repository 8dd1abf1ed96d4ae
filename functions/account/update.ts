import * as accountOperations from '#shared/accounts/contract';
import { updateCallerAccount } from '#shared/accounts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';

export const handler = defineHandler(accountOperations.update, async ({ principal, body }) =>
  ok(await updateCallerAccount(principal, body)),
);
