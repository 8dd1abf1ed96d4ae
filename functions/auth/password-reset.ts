import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import * as authOperations from '#shared/customer-auth/contract';
import { requestPasswordReset } from '#shared/customer-auth/service';
import { storefrontQuota } from '#shared/limits/quota';

/** Always 202: whether the email has an account is not for the caller to learn. */
export const handler = defineHandler(
  authOperations.passwordReset,
  async ({ tenant, body }) => {
    await requestPasswordReset(tenant, body.email);
    return { status: 202, body: { success: true, data: { ok: true } } };
  },
  { idempotency: idempotent(), quota: storefrontQuota },
);
