import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { ok } from '#shared/http/envelope';
import { checkCustomerVatId } from '#shared/customers/service';

export const handler = defineHandler(
  customerOperations.vatCheck,
  async ({ tenant, params }) => ok(await checkCustomerVatId(tenant, params.id)),
  {
    idempotency: idempotent(),
  },
);
