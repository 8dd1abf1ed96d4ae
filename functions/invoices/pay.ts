import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as invoiceOperations from '#shared/invoices/contract';
import { recordPayment } from '#shared/invoices/payments';

export const handler = defineHandler(
  invoiceOperations.payInvoice,
  async ({ tenant, params, body }) => created(await recordPayment(tenant, params.id, body)),
  { idempotency: idempotent() },
);
