import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as authOperations from '#shared/customer-auth/contract';
import { confirmRegistration } from '#shared/customer-auth/registration';
import { storefrontQuota } from '#shared/limits/quota';

/** The code stays in the Idempotency-Key fingerprint: a replay is of the same code only. */
export const handler = defineHandler(
  authOperations.registerConfirm,
  async ({ tenant, body }) => created(await confirmRegistration(tenant, body.code)),
  { idempotency: idempotent(), quota: storefrontQuota },
);
