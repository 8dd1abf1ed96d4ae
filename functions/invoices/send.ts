import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as invoiceOperations from '#shared/invoices/contract';
import { sendInvoice } from '#shared/invoices/sending';

export const handler = defineHandler(
  invoiceOperations.sendInvoice,
  async ({ tenant, params, body }) => ok(await sendInvoice(tenant, params.id, body.to)),
  { idempotency: idempotent() },
);
