import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as authOperations from '#shared/customer-auth/contract';
import { register } from '#shared/customer-auth/service';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(authOperations.register, async ({ tenant, body }) => created(await register(tenant, body)), {
  idempotency: idempotent({ secretFields: ['password'] }),
  quota: storefrontQuota,
});
