import * as accountOperations from '#shared/accounts/contract';
import { describeCaller } from '#shared/accounts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';

export const handler = defineHandler(accountOperations.get, async ({ principal }) => ok(await describeCaller(principal)));
