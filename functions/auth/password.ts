import { signedInCustomer } from '#shared/auth/principal';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as authOperations from '#shared/customer-auth/contract';
import { changePassword } from '#shared/customer-auth/service';

/** The session of the access token that changes the password stays; every other one ends. */
export const handler = defineHandler(
  authOperations.changePassword,
  async ({ tenant, principal, body }) => {
    await changePassword(tenant, signedInCustomer(principal), principal.sessionId ?? null, body);
    return ok({ ok: true });
  },
  { idempotency: idempotent({ secretFields: ['current_password', 'new_password'] }) },
);
