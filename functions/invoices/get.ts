import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as invoiceOperations from '#shared/invoices/contract';
import { getInvoice } from '#shared/invoices/service';

export const handler = defineHandler(invoiceOperations.getInvoice, async ({ tenant, params }) => ok(await getInvoice(tenant, params.id)));
