/**
 * The route table: the single source of truth for endpoints. CDK builds API Gateway resources and
 * one function per route from it (in one nested stack per tag), the local gateway mounts the same
 * handlers from it, handlers read their scopes and grants from it, and the OpenAPI document takes
 * each route's summary and tag from it.
 *
 * One row per route: `route(id, 'METHOD /path', tag, scopes, { summary, …flags })`. The id is the
 * OpenAPI operationId, and names the handler: `<group>.<operation>` is `functions/<group>/<operation>.ts`
 * with the operation in kebab case (`orders.list` → `functions/orders/list.ts`, `customers.quotes` →
 * `functions/customers/quotes.ts`, `auth.meUpdate` → `functions/auth/me-update.ts`). Adding a route is
 * its row here, its operation in shared/<resource>/contract.ts and its handler.
 *
 * Each row is a named export, and an operation names its row (`route: ordersCreate`); `route` is
 * free of side effects as far as bundlers are told, so a handler bundle carries its own row only,
 * not the table. `routes`, every row in this file's order, is filled by the rows themselves as the
 * module loads: no second list of names.
 */
import type { Scope } from './auth/scopes';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  /** Stable id, `<group>.<operation>`; also the OpenAPI operationId, and the name of the handler (`handlerOf`). */
  id: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/v1/customers/{id}`. */
  path: string;
  /** Further paths served by the same handler (spec aliases). */
  aliases?: string[];
  /** Handler module relative to the project root; it exports `handler`. */
  handler: string;
  /** The OpenAPI tag; also the route's group: one nested stack per tag (infra/route-stacks.ts). */
  tag: string;
  /** The OpenAPI summary; also in the function's description. */
  summary: string;
  /** Scopes the caller needs (all of them). Empty: any valid key (only `account.get`), or `auth: 'none'`. */
  scopes: Scope[];
  /**
   * Scopes a secret key needs besides `scopes`, where it can do more through the route than a
   * storefront can: a session cart's checkout with a secret key orders for a customer it names —
   * an order's creation, so `orders:write`, as `POST /v1/orders` needs (docs/carts.md#checkout).
   */
  secretScopes?: Scope[];
  /** `none` skips the authorizer (public documents). */
  auth: 'key' | 'none';
  /**
   * A storefront route: publishable keys (`pk_…`, shown in browsers) may call it, within their
   * scopes. Every other route refuses a publishable key with 403 `forbidden` before its scopes are
   * checked (shared/http/middleware/guard.ts), so a new route is closed to storefronts by default.
   */
  storefront?: true;
  /**
   * Whether a customer access token may call the route, and how the route keeps to the customer's
   * own data. Absent: a customer token gets 403 `forbidden` before anything is counted, so a new
   * route is closed to customers by default (shared/http/middleware/guard.ts).
   * - `catalogue`: nothing of a customer's in it (catalogue reads, price calculations);
   * - `self`: the calling customer's own account (`/v1/auth/me`): only customer tokens may call it;
   * - `path`: the path's `{id}` is a customer id and must be the caller's; another answers 404;
   * - `own`: the handler keeps to the caller's records (orders: listed and read only their own,
   *   created for themselves).
   * Scopes are not asked of customer tokens: this flag is their whole grant.
   */
  customer?: 'catalogue' | 'self' | 'path' | 'own';
  /**
   * Function timeout in seconds when a route needs more than the default 10 (bulk imports). The
   * local gateway honours it; API Gateway ends the request after 29 s whatever the function does.
   */
  timeoutSeconds?: number;
  /**
   * The handler sends email (shared/mail/send.ts): its function may send through SES as the stage's
   * sender identity and nothing else (infra/grants.ts); functions of other routes cannot send at all.
   */
  mail?: true;
  /**
   * The handler reads and writes the documents bucket (rendered invoice PDFs and XML): read-write
   * on that bucket even for a GET, whose first request renders and stores the document.
   */
  documents?: true;
  /**
   * The handler works with the files bucket (uploads, presigned POSTs and downloads): access to that
   * bucket (read-only for a GET; infra/grants.ts) and the file routes' bundle budget (the S3 client
   * and its presigners, bench/budgets.ts).
   */
  files?: true;
  /**
   * The handler signs customer access tokens (login, refresh): its function opens the stage's
   * signing key (KMS, infra/secrets.ts), knows the tokens' issuer (`TOKEN_ISSUER`, the API's URL)
   * and has the signers' bundle budget (bench/budgets.ts).
   */
  signsTokens?: true;
  /**
   * A GET whose handler also writes to the table (a shipment's tracking, refreshed from the carrier,
   * records what the carrier said): read-write on the table like the other methods.
   */
  writes?: true;
}

/** The handler module of a route id: `<group>.<operation>` → `functions/<group>/<operation in kebab case>.ts`. */
export function handlerOf(id: string): string {
  const [group, operation] = id.split('.');
  return `functions/${group}/${operation!.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.ts`;
}

const table: RouteDefinition[] = [];

/**
 * A row as the type checker sees it: its method, path and aliases as literal types (`'GET'`,
 * `'/v1/orders/{id}'`), so that the tests' typed client (test/support/api-types.ts) finds the
 * operation a call reaches and types its answer. Nothing of it exists at run time.
 */
export type Row<Endpoint extends string, Options extends RouteOptions> = RouteDefinition &
  (Endpoint extends `${infer Method extends HttpMethod} ${infer Path}` ? { method: Method; path: Path } : unknown) &
  (Options extends { aliases: readonly (infer Alias extends string)[] } ? { aliases: Alias[] } : unknown);

/** A row's summary and flags: what a route has besides its id, method and path, tag and scopes. */
type RouteOptions = Omit<RouteDefinition, 'id' | 'method' | 'path' | 'handler' | 'tag' | 'scopes' | 'auth'> & {
  auth?: RouteDefinition['auth'];
};

/**
 * One row of the table, added to `routes`. Bundlers may drop a call whose row is not used
 * (`@__NO_SIDE_EFFECTS__`): a bundle keeps the rows its operations name, and lists only those in
 * `routes` (the OpenAPI handler's operations name every row).
 */
/* @__NO_SIDE_EFFECTS__ */
function route<const Endpoint extends `${HttpMethod} /${string}`, const Options extends RouteOptions>(
  id: string,
  endpoint: Endpoint,
  tag: string,
  scopes: Scope[],
  options: Options,
): Row<Endpoint, Options> {
  const [method, path] = endpoint.split(' ') as [HttpMethod, string];
  const row: RouteDefinition = { id, method, path, handler: handlerOf(id), tag, scopes, auth: 'key', ...options };
  table.push(row);
  return row as Row<Endpoint, Options>;
}

export const ordersList = route('orders.list', 'GET /v1/orders', 'Orders', ['orders:read'], { summary: 'List orders', customer: 'own' });
export const ordersCreate = route('orders.create', 'POST /v1/orders', 'Orders', ['orders:write'], {
  summary: 'Create an order (server-side totals, stock reserved)',
  customer: 'own',
});
export const ordersGet = route('orders.get', 'GET /v1/orders/{id}', 'Orders', ['orders:read'], {
  summary: 'Retrieve an order',
  customer: 'own',
});
export const ordersUpdate = route('orders.update', 'PUT /v1/orders/{id}', 'Orders', ['orders:write'], {
  summary: 'Update an order or move its status',
});
// Replaces a confirmed line's artwork: its jobs take the new files, its proof approval must cover them (docs/orders.md).
export const ordersReplaceLineFiles = route(
  'orders.replaceLineFiles',
  'PUT /v1/orders/{id}/lines/{line_id}/files',
  'Orders',
  ['orders:write'],
  {
    summary: "Replace a line's artwork on a confirmed order (a new proof must then be approved)",
  },
);
export const customersList = route('customers.list', 'GET /v1/customers', 'Customers', ['customers:read'], { summary: 'List customers' });
export const customersCreate = route('customers.create', 'POST /v1/customers', 'Customers', ['customers:write'], {
  summary: 'Create a customer',
});
export const customersGet = route('customers.get', 'GET /v1/customers/{id}', 'Customers', ['customers:read'], {
  summary: 'Retrieve a customer',
});
export const customersUpdate = route('customers.update', 'PUT /v1/customers/{id}', 'Customers', ['customers:write'], {
  summary: 'Update a customer',
});
export const customersDelete = route('customers.delete', 'DELETE /v1/customers/{id}', 'Customers', ['customers:write'], {
  summary: 'Delete a customer',
});
export const customersVatCheck = route('customers.vatCheck', 'POST /v1/customers/{id}/vat-check', 'Customers', ['customers:write'], {
  summary: "Check a customer's VAT ID with VIES again and store the answer",
});
export const customersOrders = route('customers.orders', 'GET /v1/customers/{id}/orders', 'Customers', ['customers:read', 'orders:read'], {
  summary: "List a customer's orders",
});
export const addressesList = route('addresses.list', 'GET /v1/customers/{id}/addresses', 'Addresses', ['customers:read'], {
  summary: "List a customer's addresses",
  customer: 'path',
});
export const addressesCreate = route('addresses.create', 'POST /v1/customers/{id}/addresses', 'Addresses', ['customers:write'], {
  summary: 'Add an address',
  customer: 'path',
});
export const addressesGet = route('addresses.get', 'GET /v1/customers/{id}/addresses/{addressId}', 'Addresses', ['customers:read'], {
  summary: 'Retrieve an address',
  customer: 'path',
});
export const addressesUpdate = route('addresses.update', 'PUT /v1/customers/{id}/addresses/{addressId}', 'Addresses', ['customers:write'], {
  summary: 'Update an address',
  customer: 'path',
});
export const addressesDelete = route(
  'addresses.delete',
  'DELETE /v1/customers/{id}/addresses/{addressId}',
  'Addresses',
  ['customers:write'],
  { summary: 'Delete an address', customer: 'path' },
);
export const productsList = route('products.list', 'GET /v1/products', 'Products', ['products:read'], {
  summary: 'List products',
  storefront: true,
  customer: 'catalogue',
});
export const productsCreate = route('products.create', 'POST /v1/products', 'Products', ['products:write'], {
  summary: 'Create a product',
});
export const productsGet = route('products.get', 'GET /v1/products/{id}', 'Products', ['products:read'], {
  summary: 'Retrieve a product',
  storefront: true,
  customer: 'catalogue',
});
export const productsUpdate = route('products.update', 'PUT /v1/products/{id}', 'Products', ['products:write'], {
  summary: 'Update a product (also sets stock)',
});
export const productsDelete = route('products.delete', 'DELETE /v1/products/{id}', 'Products', ['products:write'], {
  summary: 'Delete a product, or archive it when orders reference it',
});
export const productsCalculate = route('products.calculate', 'POST /v1/products/{id}/calculate', 'Products', ['products:read'], {
  summary: 'Calculate the price for a quantity and options',
  storefront: true,
  customer: 'catalogue',
});
// Legacy products: the spec shows them without the /v1 prefix; both prefixes reach the same handlers.
export const legacyProductsList = route('legacy-products.list', 'GET /v1/legacy-products', 'Legacy products', ['products:read'], {
  summary: 'List legacy products',
  aliases: ['/legacy-products'],
  storefront: true,
  customer: 'catalogue',
});
export const legacyProductsCreate = route('legacy-products.create', 'POST /v1/legacy-products', 'Legacy products', ['products:write'], {
  summary: 'Create a legacy product (optionally with its price table)',
  aliases: ['/legacy-products'],
  timeoutSeconds: 120,
});
export const legacyProductsGet = route('legacy-products.get', 'GET /v1/legacy-products/{id}', 'Legacy products', ['products:read'], {
  summary: 'Retrieve a legacy product with all configuration options',
  aliases: ['/legacy-products/{id}'],
  storefront: true,
  customer: 'catalogue',
});
export const legacyProductsCalculate = route(
  'legacy-products.calculate',
  'POST /v1/legacy-products/{id}/calculate',
  'Legacy products',
  ['products:read'],
  {
    summary: 'Price by lookup (format, color, quantity, pages)',
    aliases: ['/legacy-products/{id}/calculate'],
    storefront: true,
    customer: 'catalogue',
  },
);
export const legacyProductsPrices = route(
  'legacy-products.prices',
  'PUT /v1/legacy-products/{id}/prices',
  'Legacy products',
  ['products:write'],
  { summary: 'Replace the price table from CSV', aliases: ['/legacy-products/{id}/prices'], timeoutSeconds: 120 },
);
export const quotesList = route('quotes.list', 'GET /v1/quotes', 'Quotes', ['quotes:read'], {
  summary: 'List quotes (newest first; open and expired by validity)',
});
export const quotesCreate = route('quotes.create', 'POST /v1/quotes', 'Quotes', ['quotes:write'], {
  summary: 'Make a quote: lines priced like order lines, valid until a date',
});
export const quotesGet = route('quotes.get', 'GET /v1/quotes/{id}', 'Quotes', ['quotes:read'], { summary: 'Retrieve a quote' });
export const quotesUpdate = route('quotes.update', 'PUT /v1/quotes/{id}', 'Quotes', ['quotes:write'], {
  summary: "Change an open quote's lines, shipping, validity or notes",
});
// Creates the order: the caller needs to be able to write orders, too.
export const quotesAccept = route('quotes.accept', 'POST /v1/quotes/{id}/accept', 'Quotes', ['quotes:write', 'orders:write'], {
  summary: 'Accept a quote: it becomes an order, exactly as quoted',
});
export const quotesReject = route('quotes.reject', 'POST /v1/quotes/{id}/reject', 'Quotes', ['quotes:write'], {
  summary: 'Reject a quote, with an optional reason',
});
export const quotesPdf = route('quotes.pdf', 'GET /v1/quotes/{id}/pdf', 'Quotes', ['quotes:read'], {
  summary: 'The quote as PDF, or a presigned URL to it',
  timeoutSeconds: 29,
  documents: true,
});
export const customersQuotes = route('customers.quotes', 'GET /v1/customers/{id}/quotes', 'Quotes', ['quotes:read'], {
  summary: "List a customer's quotes",
});
export const shipmentsList = route('shipments.list', 'GET /v1/shipments', 'Shipments', ['shipments:read'], {
  summary: 'List shipments (newest first; by order, status, carrier)',
});
// The label is stored in the documents bucket (the sandbox draws its specimen with the document renderer);
// the carrier is asked for the label (Sendcloud: within a 20 s deadline).
export const shipmentsCreate = route('shipments.create', 'POST /v1/shipments', 'Shipments', ['shipments:write'], {
  summary: 'Ship an order: the carrier makes the label (test mode: the sandbox carrier)',
  timeoutSeconds: 29,
  documents: true,
});
export const shipmentsGet = route('shipments.get', 'GET /v1/shipments/{id}', 'Shipments', ['shipments:read'], {
  summary: 'Retrieve a shipment',
});
export const ordersShipments = route('orders.shipments', 'GET /v1/orders/{id}/shipments', 'Shipments', ['shipments:read'], {
  summary: "List an order's shipments",
});
export const shipmentsLabel = route('shipments.label', 'GET /v1/shipments/{id}/label', 'Shipments', ['shipments:read'], {
  summary: 'The shipping label as PDF, or a presigned URL to it',
  timeoutSeconds: 29,
  documents: true,
});
// Rendered once with the document renderer and kept in the documents bucket, like the invoice PDF.
export const shipmentsDeliveryNote = route(
  'shipments.deliveryNote',
  'GET /v1/shipments/{id}/delivery-note',
  'Shipments',
  ['shipments:read'],
  {
    summary: "The shipment's delivery note as PDF (the shop's own, unbranded), or a presigned URL to it",
    timeoutSeconds: 29,
    documents: true,
  },
);
export const shipmentsTracking = route('shipments.tracking', 'GET /v1/shipments/{id}/tracking', 'Shipments', ['shipments:read'], {
  summary: 'Tracking events (refreshed from the carrier when a few minutes old)',
  timeoutSeconds: 29,
  writes: true,
});
export const shipmentsCancel = route('shipments.cancel', 'POST /v1/shipments/{id}/cancel', 'Shipments', ['shipments:write'], {
  summary: 'Cancel a shipment before pickup (at the carrier)',
  timeoutSeconds: 29,
});
// The carrier makes the return label (Sendcloud: within a 20 s deadline).
export const shipmentsReturnLabel = route(
  'shipments.returnLabel',
  'POST /v1/shipments/{id}/return-label',
  'Shipments',
  ['shipments:write'],
  {
    summary: 'Create a return label for a shipment at its carrier (test mode: the sandbox carrier)',
    timeoutSeconds: 29,
  },
);
// Served like the label: fetched from the carrier on first download (Sendcloud: the return parcel's label document), then from the bucket.
export const shipmentsReturnLabelPdf = route(
  'shipments.returnLabelPdf',
  'GET /v1/shipments/{id}/return-label',
  'Shipments',
  ['shipments:read'],
  {
    summary: 'The return label as PDF, or a presigned URL to it (404 until a return label is made)',
    timeoutSeconds: 29,
    documents: true,
  },
);
export const shipmentsSimulate = route('shipments.simulate', 'POST /v1/shipments/{id}/simulate', 'Shipments', ['shipments:write'], {
  summary: 'Test mode: move a sandbox shipment as a carrier callback would',
});
export const carriersList = route('carriers.list', 'GET /v1/carriers', 'Shipments', ['shipments:read'], {
  summary: 'The carriers configured for this account and mode',
});
// The account's carrier credentials: every live label and callback runs on them, so not a shipping key's to replace.
export const carriersConfigure = route('carriers.configure', 'PUT /v1/carriers/{carrier}', 'Shipments', ['account:write'], {
  summary: "Set a carrier's credentials (scope account:write; stored encrypted, never shown again)",
});
// Sendcloud calls it: no key; the body's signature (the tenant's Sendcloud secret) authenticates it.
export const carriersSendcloudWebhook = route('carriers.sendcloudWebhook', 'POST /v1/carriers/sendcloud/webhook/{token}', 'Shipments', [], {
  summary: "Sendcloud's parcel status callbacks (signed with the account's Sendcloud secret)",
  auth: 'none',
});
// Customer accounts: a storefront (publishable key) signs its customers in…
export const authRegister = route('auth.register', 'POST /v1/auth/register', 'Customer accounts', ['auth:customer'], {
  summary: 'Register a customer account: mails a code to the address (always 202; a storefront, with a publishable key)',
  storefront: true,
  mail: true,
});
export const authRegisterConfirm = route('auth.registerConfirm', 'POST /v1/auth/register/confirm', 'Customer accounts', ['auth:customer'], {
  summary: 'Confirm a registration with the mailed code: the login is made',
  storefront: true,
});
export const authLogin = route('auth.login', 'POST /v1/auth/login', 'Customer accounts', ['auth:customer'], {
  summary: 'Log a customer in: an access token and a refresh token',
  storefront: true,
  signsTokens: true,
});
export const authRefresh = route('auth.refresh', 'POST /v1/auth/refresh', 'Customer accounts', ['auth:customer'], {
  summary: 'A new access token and a new refresh token (the old one is used up)',
  storefront: true,
  signsTokens: true,
});
export const authLogout = route('auth.logout', 'POST /v1/auth/logout', 'Customer accounts', ['auth:customer'], {
  summary: "End the refresh token's session",
  storefront: true,
});
export const authPasswordReset = route('auth.passwordReset', 'POST /v1/auth/password-reset', 'Customer accounts', ['auth:customer'], {
  summary: 'Mail a password-reset code (always 202)',
  storefront: true,
  mail: true,
});
export const authPasswordResetConfirm = route(
  'auth.passwordResetConfirm',
  'POST /v1/auth/password-reset/confirm',
  'Customer accounts',
  ['auth:customer'],
  { summary: 'Set a new password with a reset code; ends every session', storefront: true },
);
// …and the signed-in customer, with the access token (customer tokens only)
export const authMe = route('auth.me', 'GET /v1/auth/me', 'Customer accounts', ['auth:customer'], {
  summary: 'The signed-in customer (customer access token)',
  customer: 'self',
});
export const authMeUpdate = route('auth.meUpdate', 'PUT /v1/auth/me', 'Customer accounts', ['auth:customer'], {
  summary: "Change the signed-in customer's name, phone or company",
  customer: 'self',
});
export const authPassword = route('auth.password', 'POST /v1/auth/password', 'Customer accounts', ['auth:customer'], {
  summary: 'Change the password (current and new); ends every other session',
  customer: 'self',
});
export const authJwks = route('auth.jwks', 'GET /v1/auth/jwks.json', 'Customer accounts', [], {
  summary: 'The public keys of customer access tokens (JWKS)',
  aliases: ['/.well-known/jwks.json'],
  auth: 'none',
});
// The calling key's account (any valid key)
export const accountGet = route('account.get', 'GET /v1/account', 'Account', [], { summary: "The calling key's account, mode and scopes" });
export const accountUpdate = route('account.update', 'PUT /v1/account', 'Account', ['account:write'], {
  summary: "Change the account's name and its company (seller) details for invoices",
});
export const invoicesList = route('invoices.list', 'GET /v1/invoices', 'Invoices', ['invoices:read'], {
  summary: 'List invoices (newest first; by due date with due_before or overdue)',
});
export const invoicesCreate = route('invoices.create', 'POST /v1/invoices', 'Invoices', ['invoices:write'], {
  summary: 'Issue an invoice for an order, or for lines without one',
});
export const invoicesGet = route('invoices.get', 'GET /v1/invoices/{id}', 'Invoices', ['invoices:read'], {
  summary: 'Retrieve an invoice',
});
// The first download renders the PDF (a cold renderer takes a few seconds on 512 MB).
export const invoicesPdf = route('invoices.pdf', 'GET /v1/invoices/{id}/pdf', 'Invoices', ['invoices:read'], {
  summary: 'The invoice as PDF (ZUGFeRD / Factur-X), or a presigned URL to it',
  timeoutSeconds: 29,
  documents: true,
});
export const invoicesXml = route('invoices.xml', 'GET /v1/invoices/{id}/xml', 'Invoices', ['invoices:read'], {
  summary: 'The invoice as XRechnung e-invoice (CII or UBL)',
  timeoutSeconds: 29,
  documents: true,
});
export const invoicesPay = route('invoices.pay', 'POST /v1/invoices/{id}/payments', 'Invoices', ['invoices:write'], {
  summary: 'Record a payment',
});
export const invoicesVoid = route('invoices.void', 'POST /v1/invoices/{id}/void', 'Invoices', ['invoices:write'], {
  summary: 'Void an invoice that has no payments',
});
export const invoicesSend = route('invoices.send', 'POST /v1/invoices/{id}/send', 'Invoices', ['invoices:write'], {
  summary: 'Email the invoice (PDF and XML) to the customer',
  timeoutSeconds: 29,
  mail: true,
  documents: true,
});
export const customersInvoices = route('customers.invoices', 'GET /v1/customers/{id}/invoices', 'Invoices', ['invoices:read'], {
  summary: "List a customer's invoices",
});
// Credit notes correct issued invoices (shared/credit-notes/), under the invoices' scopes.
// Credit notes of one invoice are serialised on it (and on the year's number): under a burst the
// last of many waits for the others' rounds, so the route has the gateway's full 29 s.
export const creditNotesCreate = route('credit-notes.create', 'POST /v1/invoices/{id}/credit-notes', 'Invoices', ['invoices:write'], {
  summary: 'Issue a credit note for an invoice: all of it, or chosen lines, quantities and amounts',
  timeoutSeconds: 29,
});
export const creditNotesList = route('credit-notes.list', 'GET /v1/credit-notes', 'Invoices', ['invoices:read'], {
  summary: 'List credit notes (newest first)',
});
export const creditNotesGet = route('credit-notes.get', 'GET /v1/credit-notes/{id}', 'Invoices', ['invoices:read'], {
  summary: 'Retrieve a credit note',
});
export const creditNotesPdf = route('credit-notes.pdf', 'GET /v1/credit-notes/{id}/pdf', 'Invoices', ['invoices:read'], {
  summary: 'The credit note as PDF (ZUGFeRD / Factur-X), or a presigned URL to it',
  timeoutSeconds: 29,
  documents: true,
});
export const creditNotesXml = route('credit-notes.xml', 'GET /v1/credit-notes/{id}/xml', 'Invoices', ['invoices:read'], {
  summary: 'The credit note as XRechnung e-invoice (type 381, CII or UBL)',
  timeoutSeconds: 29,
  documents: true,
});
export const creditNotesRefund = route('credit-notes.refund', 'POST /v1/credit-notes/{id}/refunds', 'Invoices', ['invoices:write'], {
  summary: 'Record a refund of what a credit note credited of a paid amount',
});
export const auditList = route('audit.list', 'GET /v1/audit-logs', 'Audit', ['audit:read'], { summary: "List the tenant's API calls" });
// The stored outbox events, kept 30 days (shared/event-log/); functions/events/ also holds the event pipeline's entry points.
export const eventsList = route('events.list', 'GET /v1/events', 'Events', ['events:read'], {
  summary: 'List events (newest first, kept 30 days)',
});
export const eventsGet = route('events.get', 'GET /v1/events/{id}', 'Events', ['events:read'], { summary: 'Retrieve an event' });
export const jobsList = route('jobs.list', 'GET /v1/production/jobs', 'Production', ['production:read'], {
  summary: 'List production jobs in queue order (priority, due date, creation)',
});
export const jobsGet = route('jobs.get', 'GET /v1/production/jobs/{id}', 'Production', ['production:read'], {
  summary: 'Retrieve a production job with its history',
});
export const jobsUpdate = route('jobs.update', 'PUT /v1/production/jobs/{id}', 'Production', ['production:write'], {
  summary: 'Assign a job to a machine, or change its priority, due date or notes',
});
export const jobsSetStatus = route('jobs.setStatus', 'PUT /v1/production/jobs/{id}/status', 'Production', ['production:write'], {
  summary: 'Move a production job along its status machine',
});
export const machinesList = route('machines.list', 'GET /v1/production/machines', 'Production', ['production:read'], {
  summary: 'List machines',
});
export const machinesCreate = route('machines.create', 'POST /v1/production/machines', 'Production', ['production:write'], {
  summary: 'Add a machine',
});
export const machinesGet = route('machines.get', 'GET /v1/production/machines/{id}', 'Production', ['production:read'], {
  summary: 'Retrieve a machine',
});
export const machinesUpdate = route('machines.update', 'PUT /v1/production/machines/{id}', 'Production', ['production:write'], {
  summary: 'Update a machine (or set it to maintenance, offline or idle)',
});
export const machinesDelete = route('machines.delete', 'DELETE /v1/production/machines/{id}', 'Production', ['production:write'], {
  summary: 'Delete a machine no open job is assigned to',
});
export const machinesQueue = route('machines.queue', 'GET /v1/production/machines/{id}/queue', 'Production', ['production:read'], {
  summary: "A machine's running and scheduled jobs with estimated windows",
});
export const webhooksList = route('webhooks.list', 'GET /v1/webhooks', 'Webhooks', ['webhooks:read'], { summary: 'List webhooks' });
export const webhooksCreate = route('webhooks.create', 'POST /v1/webhooks', 'Webhooks', ['webhooks:write'], {
  summary: 'Register a webhook',
});
export const webhooksGet = route('webhooks.get', 'GET /v1/webhooks/{id}', 'Webhooks', ['webhooks:read'], { summary: 'Retrieve a webhook' });
export const webhooksUpdate = route('webhooks.update', 'PUT /v1/webhooks/{id}', 'Webhooks', ['webhooks:write'], {
  summary: 'Update a webhook',
});
export const webhooksDelete = route('webhooks.delete', 'DELETE /v1/webhooks/{id}', 'Webhooks', ['webhooks:write'], {
  summary: 'Delete a webhook',
});
export const webhooksRotateSecret = route('webhooks.rotateSecret', 'POST /v1/webhooks/{id}/rotate-secret', 'Webhooks', ['webhooks:write'], {
  summary: 'Rotate the signing secret',
});
export const webhooksTest = route('webhooks.test', 'POST /v1/webhooks/{id}/test', 'Webhooks', ['webhooks:write'], {
  summary: 'Send a test event',
  aliases: ['/api/v1/webhooks/{id}/test'],
});
export const webhooksDeliveries = route('webhooks.deliveries', 'GET /v1/webhooks/{id}/deliveries', 'Webhooks', ['webhooks:read'], {
  summary: "List a webhook's deliveries",
});
export const webhooksDelivery = route('webhooks.delivery', 'GET /v1/webhooks/{id}/deliveries/{deliveryId}', 'Webhooks', ['webhooks:read'], {
  summary: 'Retrieve a delivery with its attempts',
});
export const webhooksRedeliver = route(
  'webhooks.redeliver',
  'POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  'Webhooks',
  ['webhooks:write'],
  { summary: 'Send a delivery again' },
);
// Files (artwork): uploads through the API or by presigned POST, downloads by presigned GET
export const filesUpload = route('files.upload', 'POST /v1/files', 'Files', ['files:write'], {
  summary: 'Upload a file (multipart/form-data, up to 4 MiB; counted against the daily upload quota)',
  customer: 'own',
  files: true,
});
export const filesCreateUpload = route('files.createUpload', 'POST /v1/files/uploads', 'Files', ['files:write'], {
  summary:
    'Start a presigned upload (up to 2 GiB; its declared size counted against the daily upload quota): a file id and an S3 POST form',
  customer: 'own',
  files: true,
});
// Bounded work at any size: an upload over 32 MiB is hashed and moved by the file worker; up to
// that, hashing (without S3's checksum) and copying it takes a second or two.
export const filesComplete = route('files.complete', 'POST /v1/files/{id}/complete', 'Files', ['files:write'], {
  summary:
    'Complete a presigned upload: size and type checked; checksum verified here (up to 32 MiB) or by the worker (202); the file ready',
  customer: 'own',
  files: true,
});
export const filesList = route('files.list', 'GET /v1/files', 'Files', ['files:read'], {
  summary: 'List files (newest first; by order, purpose, status)',
  customer: 'own',
});
export const filesGet = route('files.get', 'GET /v1/files/{id}', 'Files', ['files:read'], {
  summary: "Retrieve a file's metadata and preflight",
  customer: 'own',
});
export const filesDownload = route('files.download', 'GET /v1/files/{id}/download', 'Files', ['files:read'], {
  summary: 'Download a file: 302 to a presigned URL (15 minutes), or the URL as JSON',
  customer: 'own',
  files: true,
});
export const filesOfOrder = route('files.ofOrder', 'GET /v1/orders/{id}/files', 'Files', ['orders:read', 'files:read'], {
  summary: "The files of an order's lines, with their preflight",
  customer: 'own',
});
export const filesDelete = route('files.delete', 'DELETE /v1/files/{id}', 'Files', ['files:write'], {
  summary: 'Delete a file (not while its order is in production)',
  files: true,
});
export const openapiGet = route('openapi.get', 'GET /v1/openapi.json', 'Meta', [], {
  summary: 'The OpenAPI 3.0.3 document of this API',
  auth: 'none',
});
// Carts: session carts (a storefront's publishable key, or a secret key with carts:*; the cart id is the
// capability), and the signed-in customer's own cart (customer tokens only). docs/carts.md
export const cartsCreate = route('carts.create', 'POST /v1/carts', 'Carts', ['carts:write'], {
  summary: 'Start a session cart (its id is the capability for it)',
  storefront: true,
});
export const cartsGet = route('carts.get', 'GET /v1/carts/{id}', 'Carts', ['carts:read'], {
  summary: 'A session cart, priced now (changed prices and unavailable lines marked)',
  storefront: true,
});
export const cartsDelete = route('carts.delete', 'DELETE /v1/carts/{id}', 'Carts', ['carts:write'], {
  summary: 'Delete a session cart',
  storefront: true,
});
export const cartsAddItem = route('carts.addItem', 'POST /v1/carts/{id}/items', 'Carts', ['carts:write'], {
  summary: 'Add a line to a session cart (priced by the calculators)',
  storefront: true,
});
export const cartsUpdateItem = route('carts.updateItem', 'PUT /v1/carts/{id}/items/{itemId}', 'Carts', ['carts:write'], {
  summary: "Change a session cart's line (priced again)",
  storefront: true,
});
export const cartsRemoveItem = route('carts.removeItem', 'DELETE /v1/carts/{id}/items/{itemId}', 'Carts', ['carts:write'], {
  summary: "Remove a session cart's line",
  storefront: true,
});
export const cartsCheckout = route('carts.checkout', 'POST /v1/carts/{id}/checkout', 'Carts', ['carts:write'], {
  summary: 'Check a session cart out into one order (a customer, or a guest by email)',
  storefront: true,
  secretScopes: ['orders:write'],
});
export const cartGet = route('cart.get', 'GET /v1/cart', 'Carts', ['carts:read'], {
  summary: "The signed-in customer's cart, priced now (created on first use)",
  customer: 'self',
});
export const cartAddItem = route('cart.addItem', 'POST /v1/cart/items', 'Carts', ['carts:write'], {
  summary: "Add a line to the signed-in customer's cart",
  customer: 'self',
});
export const cartUpdateItem = route('cart.updateItem', 'PUT /v1/cart/items/{itemId}', 'Carts', ['carts:write'], {
  summary: "Change a line of the signed-in customer's cart",
  customer: 'self',
});
export const cartRemoveItem = route('cart.removeItem', 'DELETE /v1/cart/items/{itemId}', 'Carts', ['carts:write'], {
  summary: "Remove a line of the signed-in customer's cart",
  customer: 'self',
});
export const cartMerge = route('cart.merge', 'POST /v1/cart/merge', 'Carts', ['carts:write'], {
  summary: "Merge a session cart into the signed-in customer's cart (and delete it)",
  customer: 'self',
});
export const cartCheckout = route('cart.checkout', 'POST /v1/cart/checkout', 'Carts', ['carts:write'], {
  summary: "Check the signed-in customer's cart out into one order",
  customer: 'self',
});
// Proofs and approvals (docs/proofs.md): a proof binds order lines to the exact artwork files (SHA-256) it shows;
// the customer decides with their token, the shop on their behalf with a key, or whoever holds the proof's link.
export const proofsCreate = route('proofs.create', 'POST /v1/orders/{id}/proofs', 'Proofs', ['orders:write'], {
  summary: "Make a proof of order lines, bound to their current artwork's SHA-256; supersedes their pending one; its link once",
  mail: true,
});
export const proofsList = route('proofs.list', 'GET /v1/orders/{id}/proofs', 'Proofs', ['orders:read'], {
  summary: "List an order's proofs (newest first) with their decision records",
  customer: 'own',
});
export const proofsGet = route('proofs.get', 'GET /v1/proofs/{id}', 'Proofs', ['orders:read'], {
  summary: 'Retrieve a proof with its decision record',
  customer: 'own',
});
export const proofsApprove = route('proofs.approve', 'POST /v1/proofs/{id}/approve', 'Proofs', ['orders:write'], {
  summary: "Approve a pending proof (the customer's token, or the shop on the customer's behalf); one decision per proof",
  customer: 'own',
});
export const proofsRequestChanges = route('proofs.requestChanges', 'POST /v1/proofs/{id}/request-changes', 'Proofs', ['orders:write'], {
  summary: 'Ask for changes to a pending proof (a comment required); one decision per proof',
  customer: 'own',
});
export const proofsRevokeLink = route('proofs.revokeLink', 'DELETE /v1/proofs/{id}/link', 'Proofs', ['orders:write'], {
  summary: "Revoke a proof's link: its token opens nothing from now on",
});
// Proof links: no key (the customer may have no account); the path's token is the capability (docs/proofs.md#links).
export const proofLinksGet = route('proof-links.get', 'GET /v1/proof-links/{token}', 'Proofs', [], {
  summary: "A proof by its link: the shop's name, the lines, a short-lived download of the proof document",
  auth: 'none',
  files: true,
});
export const proofLinksApprove = route('proof-links.approve', 'POST /v1/proof-links/{token}/approve', 'Proofs', [], {
  summary: "Approve a proof by its link (recorded as the link holder's decision)",
  auth: 'none',
  files: true,
});
export const proofLinksRequestChanges = route('proof-links.requestChanges', 'POST /v1/proof-links/{token}/request-changes', 'Proofs', [], {
  summary: 'Ask for changes to a proof by its link (a comment required)',
  auth: 'none',
  files: true,
});

/** Every route, in the table's order (CDK, the local gateway, the OpenAPI document, the security suite). */
export const routes: readonly RouteDefinition[] = table;

export const routesById: ReadonlyMap<string, RouteDefinition> = /* @__PURE__ */ (() => new Map(routes.map((route) => [route.id, route])))();

export function routeById(id: string): RouteDefinition {
  const route = routesById.get(id);
  if (!route) throw new Error(`Unknown route id ${id}`);
  return route;
}

/** Every path a route answers on: its canonical path and its aliases. */
export function pathsOf(route: RouteDefinition): string[] {
  return [route.path, ...(route.aliases ?? [])];
}
