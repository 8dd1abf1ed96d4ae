import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as authOperations from '#shared/customer-auth/contract';
import { confirmPasswordReset } from '#shared/customer-auth/service';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(
  authOperations.passwordResetConfirm,
  async ({ tenant, body }) => {
    await confirmPasswordReset(tenant, body);
    return ok({ ok: true });
  },
  // The code stays in the fingerprint (a replay must be of the same code; it is 256 random bits, so
  // the fingerprint's SHA-256 of it reveals nothing); the password stays out.
  { idempotency: idempotent({ secretFields: ['password'] }), quota: storefrontQuota },
);
