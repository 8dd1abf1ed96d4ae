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
  { idempotency: idempotent({ secretFields: ['token', 'password'] }), quota: storefrontQuota },
);
