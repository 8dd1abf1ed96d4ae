import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as invoiceOperations from '#shared/invoices/contract';
import { voidInvoice } from '#shared/invoices/payments';

export const handler = defineHandler(
  invoiceOperations.voidInvoice,
  async ({ tenant, params }) => ok(await voidInvoice(tenant, params.id)),
  {
    idempotency: idempotent(),
  },
);
