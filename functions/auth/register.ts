import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import * as authOperations from '#shared/customer-auth/contract';
import { register } from '#shared/customer-auth/registration';
import { storefrontQuota } from '#shared/limits/quota';

/** Always 202 with the same body: whether the email has an account is not for the caller to learn. */
export const handler = defineHandler(
  authOperations.register,
  async ({ tenant, body }) => ({ status: 202, body: { success: true, data: await register(tenant, body) } }),
  { idempotency: idempotent({ secretFields: ['password'] }), quota: storefrontQuota },
);
