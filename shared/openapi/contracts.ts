/** Every resource's contract; the OpenAPI document and the route coverage test read this list. */
import * as z from 'zod';
import { accountOperations } from '../accounts/contract';
import { auditOperations } from '../audit/contract';
import { customerOperations } from '../customers/contract';
import { defineOperations, type Operation } from '../http/operation';
import { legacyProductOperations } from '../legacy-products/contract';
import { orderOperations } from '../orders/contract';
import { orderListOperations } from '../orders/list-contract';
import { productOperations } from '../products/contract';
import { webhookOperations } from '../webhooks/contract';

const meta = defineOperations({
  openapi: { route: 'openapi.get', response: z.object({}).loose().meta({ description: 'OpenAPI 3.0.3 document' }) },
});

export const allOperations: readonly Operation[] = [...Object.values(orderListOperations), ...Object.values(orderOperations), ...Object.values(customerOperations), ...Object.values(productOperations), ...Object.values(legacyProductOperations), ...Object.values(auditOperations), ...Object.values(accountOperations), ...Object.values(webhookOperations), ...Object.values(meta)];
