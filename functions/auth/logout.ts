import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as authOperations from '#shared/customer-auth/contract';
import { logout } from '#shared/customer-auth/service';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(
  authOperations.logout,
  async ({ tenant, body }) => {
    await logout(tenant, body.refresh_token);
    return ok({ ok: true });
  },
  { idempotency: idempotent(), quota: storefrontQuota },
);
