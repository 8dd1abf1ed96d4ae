import { signedInCustomer } from '#shared/auth/principal';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as authOperations from '#shared/customer-auth/contract';
import { profile } from '#shared/customer-auth/service';

export const handler = defineHandler(authOperations.me, async ({ tenant, principal }) =>
  ok(await profile(tenant, signedInCustomer(principal))),
);
