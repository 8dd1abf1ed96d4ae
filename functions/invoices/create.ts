import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as invoiceOperations from '#shared/invoices/contract';
import { createInvoice } from '#shared/invoices/service';

export const handler = defineHandler(
  invoiceOperations.createInvoice,
  async ({ tenant, body }) => created(await createInvoice(tenant, body)),
  {
    idempotency: idempotent(),
  },
);
