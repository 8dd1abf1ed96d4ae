/** Every resource's contract; the OpenAPI document and the route coverage test read this list. */
import * as z from 'zod';
import * as accountOperations from '#shared/accounts/contract';
import * as auditOperations from '#shared/audit/contract';
import * as authOperations from '#shared/customer-auth/contract';
import * as cartOperations from '#shared/carts/contract';
import * as creditNoteOperations from '#shared/credit-notes/contract';
import * as customerOperations from '#shared/customers/contract';
import * as eventOperations from '#shared/event-log/contract';
import * as fileOperations from '#shared/files/contract';
import * as invoiceOperations from '#shared/invoices/contract';
import type { DocumentedOperation, Operation } from '#shared/schemas/operation';
import * as legacyProductOperations from '#shared/legacy-products/contract';
import * as orderOperations from '#shared/orders/contract';
import * as productionOperations from '#shared/production/contract';
import * as productOperations from '#shared/products/contract';
import * as proofOperations from '#shared/proofs/contract';
import * as quoteOperations from '#shared/quotes/contract';
import * as shipmentOperations from '#shared/shipments/contract';
import { openapiGet, routes } from '#shared/routes';
import * as webhookOperations from '#shared/webhooks/contract';

/** The document itself, not in the envelope (functions/openapi/get.ts): described as far as a client reads it. */
const OpenApiDocumentSchema = z
  .object({
    openapi: z.string(),
    info: z.object({ title: z.string(), version: z.string() }).loose(),
    servers: z.array(z.object({ url: z.string() }).loose()),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.object({}).loose().optional(),
  })
  .loose()
  .meta({ description: 'The OpenAPI 3.0.3 document (this one), with `servers` naming the base URL the caller used' });

const meta = {
  openapi: { route: openapiGet, envelope: false } satisfies Operation,
  responses: { openapi: OpenApiDocumentSchema },
};

/** A contract module also exports a few constants besides its operations (its `responses`, a schema, media types). */
const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' && value !== null && typeof (value as { route?: unknown }).route === 'object';

type Contract = Record<string, unknown> & { responses: Record<string, z.ZodType> };

const contractModules = [
  orderOperations,
  customerOperations,
  productOperations,
  legacyProductOperations,
  productionOperations,
  invoiceOperations,
  creditNoteOperations,
  quoteOperations,
  shipmentOperations,
  authOperations,
  auditOperations,
  eventOperations,
  accountOperations,
  webhookOperations,
  fileOperations,
  cartOperations,
  proofOperations,
  meta,
] as const;
const contracts: readonly Contract[] = contractModules;

/** Every contract module's type: the tests' typed client derives each operation's answer from it (test/support/api-types.ts). */
export type ContractModule = (typeof contractModules)[number];

// In the route table's order (a module namespace lists its exports alphabetically).
const routeOrder = new Map(routes.map((route, index) => [route.id, index]));
const positionOf = (operation: Operation) => routeOrder.get(operation.route.id) ?? routes.length;

/** Each operation with its response schema; an operation without one is a mistake this refuses at once. */
function documented(contract: Contract): DocumentedOperation[] {
  return Object.entries(contract)
    .filter((entry): entry is [string, Operation] => isOperation(entry[1]))
    .map(([name, operation]) => {
      const response = contract.responses[name];
      if (!response) throw new Error(`${operation.route.id}: no response schema in its contract's responses (${name})`);
      return { ...operation, response };
    });
}

export const allOperations: readonly DocumentedOperation[] = contracts.flatMap(documented).sort((a, b) => positionOf(a) - positionOf(b));
