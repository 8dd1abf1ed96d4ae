import { signedInCustomer } from '#shared/auth/principal';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as authOperations from '#shared/customer-auth/contract';
import { updateProfile } from '#shared/customer-auth/service';

export const handler = defineHandler(authOperations.updateMe, async ({ tenant, principal, body }) =>
  ok(await updateProfile(tenant, signedInCustomer(principal), body)),
);
