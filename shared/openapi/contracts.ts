/** Every resource's contract; the OpenAPI document and the route coverage test read this list. */
import * as z from 'zod';
import * as accountOperations from '#shared/accounts/contract';
import * as auditOperations from '#shared/audit/contract';
import * as customerOperations from '#shared/customers/contract';
import * as eventOperations from '#shared/event-log/contract';
import * as invoiceOperations from '#shared/invoices/contract';
import { defineOperations, type Operation } from '#shared/schemas/operation';
import * as legacyProductOperations from '#shared/legacy-products/contract';
import * as orderOperations from '#shared/orders/contract';
import * as productionOperations from '#shared/production/contract';
import * as productOperations from '#shared/products/contract';
import { openapiGet, routes } from '#shared/routes';
import * as webhookOperations from '#shared/webhooks/contract';

const meta = defineOperations({
  openapi: { route: openapiGet, response: z.object({}).loose().meta({ description: 'OpenAPI 3.0.3 document' }) },
});

/** A contract module also exports a few constants besides its operations (a schema, media types). */
const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' && value !== null && typeof (value as { route?: unknown }).route === 'object' && 'response' in value;

const contracts = [
  orderOperations,
  customerOperations,
  productOperations,
  legacyProductOperations,
  productionOperations,
  invoiceOperations,
  auditOperations,
  eventOperations,
  accountOperations,
  webhookOperations,
  meta,
];

// In the route table's order (a module namespace lists its exports alphabetically).
const routeOrder = new Map(routes.map((route, index) => [route.id, index]));
const positionOf = (operation: Operation) => routeOrder.get(operation.route.id) ?? routes.length;

export const allOperations: readonly Operation[] = contracts
  .flatMap((contract) => Object.values(contract).filter(isOperation))
  .sort((a, b) => positionOf(a) - positionOf(b));
