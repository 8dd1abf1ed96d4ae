/**
 * The route table: the single source of truth for endpoints. CDK builds API Gateway resources and
 * one function per route from it, the local gateway mounts the same handlers from it, handlers read
 * their required scopes from it, and the OpenAPI document is checked against it.
 *
 * Each route is a named export marked pure, and an operation (shared/<resource>/contract.ts) names
 * its route object: a handler bundle then carries its own route only, not the whole table.
 */
import type { Scope } from './auth/scopes';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  /** Stable id, `<group>.<operation>`; also the OpenAPI operationId. */
  id: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/v1/customers/{id}`. */
  path: string;
  /** Further paths served by the same handler (spec aliases). */
  aliases?: string[];
  /** Handler module relative to the project root; it exports `handler`. */
  handler: string;
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

/**
 * A route of the table below. Its `handler` is written as the module under `functions/` without
 * `.ts` (`orders/list` for `functions/orders/list.ts`); the definition holds the full path.
 */
const r = (route: Omit<RouteDefinition, 'auth'> & { auth?: RouteDefinition['auth'] }): RouteDefinition => ({
  auth: 'key',
  ...route,
  handler: `functions/${route.handler}.ts`,
});

// Orders
export const ordersList = /* @__PURE__ */ r({
  id: 'orders.list',
  method: 'GET',
  path: '/v1/orders',
  handler: 'orders/list',
  scopes: ['orders:read'],
  customer: 'own',
});
export const ordersCreate = /* @__PURE__ */ r({
  id: 'orders.create',
  method: 'POST',
  path: '/v1/orders',
  handler: 'orders/create',
  scopes: ['orders:write'],
  customer: 'own',
});
export const ordersGet = /* @__PURE__ */ r({
  id: 'orders.get',
  method: 'GET',
  path: '/v1/orders/{id}',
  handler: 'orders/get',
  scopes: ['orders:read'],
  customer: 'own',
});
export const ordersUpdate = /* @__PURE__ */ r({
  id: 'orders.update',
  method: 'PUT',
  path: '/v1/orders/{id}',
  handler: 'orders/update',
  scopes: ['orders:write'],
});

// Customers
export const customersList = /* @__PURE__ */ r({
  id: 'customers.list',
  method: 'GET',
  path: '/v1/customers',
  handler: 'customers/list',
  scopes: ['customers:read'],
});
export const customersCreate = /* @__PURE__ */ r({
  id: 'customers.create',
  method: 'POST',
  path: '/v1/customers',
  handler: 'customers/create',
  scopes: ['customers:write'],
});
export const customersGet = /* @__PURE__ */ r({
  id: 'customers.get',
  method: 'GET',
  path: '/v1/customers/{id}',
  handler: 'customers/get',
  scopes: ['customers:read'],
});
export const customersUpdate = /* @__PURE__ */ r({
  id: 'customers.update',
  method: 'PUT',
  path: '/v1/customers/{id}',
  handler: 'customers/update',
  scopes: ['customers:write'],
});
export const customersDelete = /* @__PURE__ */ r({
  id: 'customers.delete',
  method: 'DELETE',
  path: '/v1/customers/{id}',
  handler: 'customers/delete',
  scopes: ['customers:write'],
});
export const customersOrders = /* @__PURE__ */ r({
  id: 'customers.orders',
  method: 'GET',
  path: '/v1/customers/{id}/orders',
  handler: 'customers/orders',
  scopes: ['customers:read', 'orders:read'],
});

// Customer addresses
export const addressesList = /* @__PURE__ */ r({
  id: 'addresses.list',
  method: 'GET',
  path: '/v1/customers/{id}/addresses',
  handler: 'addresses/list',
  scopes: ['customers:read'],
  customer: 'path',
});
export const addressesCreate = /* @__PURE__ */ r({
  id: 'addresses.create',
  method: 'POST',
  path: '/v1/customers/{id}/addresses',
  handler: 'addresses/create',
  scopes: ['customers:write'],
  customer: 'path',
});
export const addressesGet = /* @__PURE__ */ r({
  id: 'addresses.get',
  method: 'GET',
  path: '/v1/customers/{id}/addresses/{addressId}',
  handler: 'addresses/get',
  scopes: ['customers:read'],
  customer: 'path',
});
export const addressesUpdate = /* @__PURE__ */ r({
  id: 'addresses.update',
  method: 'PUT',
  path: '/v1/customers/{id}/addresses/{addressId}',
  handler: 'addresses/update',
  scopes: ['customers:write'],
  customer: 'path',
});
export const addressesDelete = /* @__PURE__ */ r({
  id: 'addresses.delete',
  method: 'DELETE',
  path: '/v1/customers/{id}/addresses/{addressId}',
  handler: 'addresses/delete',
  scopes: ['customers:write'],
  customer: 'path',
});

// Products
export const productsList = /* @__PURE__ */ r({
  id: 'products.list',
  method: 'GET',
  path: '/v1/products',
  handler: 'products/list',
  scopes: ['products:read'],
  storefront: true,
  customer: 'catalogue',
});
export const productsCreate = /* @__PURE__ */ r({
  id: 'products.create',
  method: 'POST',
  path: '/v1/products',
  handler: 'products/create',
  scopes: ['products:write'],
});
export const productsGet = /* @__PURE__ */ r({
  id: 'products.get',
  method: 'GET',
  path: '/v1/products/{id}',
  handler: 'products/get',
  scopes: ['products:read'],
  storefront: true,
  customer: 'catalogue',
});
export const productsUpdate = /* @__PURE__ */ r({
  id: 'products.update',
  method: 'PUT',
  path: '/v1/products/{id}',
  handler: 'products/update',
  scopes: ['products:write'],
});
export const productsDelete = /* @__PURE__ */ r({
  id: 'products.delete',
  method: 'DELETE',
  path: '/v1/products/{id}',
  handler: 'products/delete',
  scopes: ['products:write'],
});
export const productsCalculate = /* @__PURE__ */ r({
  id: 'products.calculate',
  method: 'POST',
  path: '/v1/products/{id}/calculate',
  handler: 'products/calculate',
  scopes: ['products:read'],
  storefront: true,
  customer: 'catalogue',
});

// Legacy products: the spec shows them without the /v1 prefix; both prefixes reach the same handlers.
export const legacyProductsList = /* @__PURE__ */ r({
  id: 'legacy-products.list',
  method: 'GET',
  path: '/v1/legacy-products',
  aliases: ['/legacy-products'],
  handler: 'legacy-products/list',
  scopes: ['products:read'],
  storefront: true,
  customer: 'catalogue',
});
export const legacyProductsCreate = /* @__PURE__ */ r({
  id: 'legacy-products.create',
  method: 'POST',
  path: '/v1/legacy-products',
  aliases: ['/legacy-products'],
  handler: 'legacy-products/create',
  scopes: ['products:write'],
  timeoutSeconds: 120,
});
export const legacyProductsGet = /* @__PURE__ */ r({
  id: 'legacy-products.get',
  method: 'GET',
  path: '/v1/legacy-products/{id}',
  aliases: ['/legacy-products/{id}'],
  handler: 'legacy-products/get',
  scopes: ['products:read'],
  storefront: true,
  customer: 'catalogue',
});
export const legacyProductsCalculate = /* @__PURE__ */ r({
  id: 'legacy-products.calculate',
  method: 'POST',
  path: '/v1/legacy-products/{id}/calculate',
  aliases: ['/legacy-products/{id}/calculate'],
  handler: 'legacy-products/calculate',
  scopes: ['products:read'],
  storefront: true,
  customer: 'catalogue',
});
export const legacyProductsPrices = /* @__PURE__ */ r({
  id: 'legacy-products.prices',
  method: 'PUT',
  path: '/v1/legacy-products/{id}/prices',
  aliases: ['/legacy-products/{id}/prices'],
  handler: 'legacy-products/prices',
  scopes: ['products:write'],
  timeoutSeconds: 120,
});

// Quotes
export const quotesList = /* @__PURE__ */ r({
  id: 'quotes.list',
  method: 'GET',
  path: '/v1/quotes',
  handler: 'quotes/list',
  scopes: ['quotes:read'],
});
export const quotesCreate = /* @__PURE__ */ r({
  id: 'quotes.create',
  method: 'POST',
  path: '/v1/quotes',
  handler: 'quotes/create',
  scopes: ['quotes:write'],
});
export const quotesGet = /* @__PURE__ */ r({
  id: 'quotes.get',
  method: 'GET',
  path: '/v1/quotes/{id}',
  handler: 'quotes/get',
  scopes: ['quotes:read'],
});
export const quotesUpdate = /* @__PURE__ */ r({
  id: 'quotes.update',
  method: 'PUT',
  path: '/v1/quotes/{id}',
  handler: 'quotes/update',
  scopes: ['quotes:write'],
});
export const quotesAccept = /* @__PURE__ */ r({
  id: 'quotes.accept',
  method: 'POST',
  path: '/v1/quotes/{id}/accept',
  handler: 'quotes/accept',
  // Creates the order: the caller needs to be able to write orders, too.
  scopes: ['quotes:write', 'orders:write'],
});
export const quotesReject = /* @__PURE__ */ r({
  id: 'quotes.reject',
  method: 'POST',
  path: '/v1/quotes/{id}/reject',
  handler: 'quotes/reject',
  scopes: ['quotes:write'],
});
export const quotesPdf = /* @__PURE__ */ r({
  id: 'quotes.pdf',
  method: 'GET',
  path: '/v1/quotes/{id}/pdf',
  handler: 'quotes/pdf',
  scopes: ['quotes:read'],
  documents: true,
  timeoutSeconds: 29,
});
export const customersQuotes = /* @__PURE__ */ r({
  id: 'customers.quotes',
  method: 'GET',
  path: '/v1/customers/{id}/quotes',
  handler: 'customers/quotes',
  scopes: ['quotes:read'],
});

// Shipments (and the carriers they travel with)
export const shipmentsList = /* @__PURE__ */ r({
  id: 'shipments.list',
  method: 'GET',
  path: '/v1/shipments',
  handler: 'shipments/list',
  scopes: ['shipments:read'],
});
export const shipmentsCreate = /* @__PURE__ */ r({
  id: 'shipments.create',
  method: 'POST',
  path: '/v1/shipments',
  handler: 'shipments/create',
  scopes: ['shipments:write'],
  // The label is stored in the documents bucket (the sandbox draws its specimen with the document renderer).
  documents: true,
  // The carrier is asked for the label (Sendcloud: within a 20 s deadline).
  timeoutSeconds: 29,
});
export const shipmentsGet = /* @__PURE__ */ r({
  id: 'shipments.get',
  method: 'GET',
  path: '/v1/shipments/{id}',
  handler: 'shipments/get',
  scopes: ['shipments:read'],
});
export const ordersShipments = /* @__PURE__ */ r({
  id: 'orders.shipments',
  method: 'GET',
  path: '/v1/orders/{id}/shipments',
  handler: 'orders/shipments',
  scopes: ['shipments:read'],
});
export const shipmentsLabel = /* @__PURE__ */ r({
  id: 'shipments.label',
  method: 'GET',
  path: '/v1/shipments/{id}/label',
  handler: 'shipments/label',
  scopes: ['shipments:read'],
  documents: true,
  timeoutSeconds: 29,
});
export const shipmentsTracking = /* @__PURE__ */ r({
  id: 'shipments.tracking',
  method: 'GET',
  path: '/v1/shipments/{id}/tracking',
  handler: 'shipments/tracking',
  scopes: ['shipments:read'],
  writes: true,
  timeoutSeconds: 29,
});
export const shipmentsCancel = /* @__PURE__ */ r({
  id: 'shipments.cancel',
  method: 'POST',
  path: '/v1/shipments/{id}/cancel',
  handler: 'shipments/cancel',
  scopes: ['shipments:write'],
  timeoutSeconds: 29,
});
export const shipmentsSimulate = /* @__PURE__ */ r({
  id: 'shipments.simulate',
  method: 'POST',
  path: '/v1/shipments/{id}/simulate',
  handler: 'shipments/simulate',
  scopes: ['shipments:write'],
});
export const carriersList = /* @__PURE__ */ r({
  id: 'carriers.list',
  method: 'GET',
  path: '/v1/carriers',
  handler: 'carriers/list',
  scopes: ['shipments:read'],
});
export const carriersConfigure = /* @__PURE__ */ r({
  id: 'carriers.configure',
  method: 'PUT',
  path: '/v1/carriers/{carrier}',
  handler: 'carriers/configure',
  // The account's carrier credentials: every live label and callback runs on them, so not a shipping key's to replace.
  scopes: ['account:write'],
});
export const carriersSendcloudWebhook = /* @__PURE__ */ r({
  id: 'carriers.sendcloudWebhook',
  method: 'POST',
  path: '/v1/carriers/sendcloud/webhook/{token}',
  handler: 'carriers/sendcloud-webhook',
  scopes: [],
  // Sendcloud calls it: no key; the body's signature (the tenant's Sendcloud secret) authenticates it.
  auth: 'none',
});

// Customer accounts: a storefront (publishable key) signs its customers in
const auth = (id: string, path: string, handler: string, extra: Partial<RouteDefinition> = {}) =>
  r({ id, method: 'POST', path, handler: `auth/${handler}`, scopes: ['auth:customer'], storefront: true, ...extra });
export const authRegister = /* @__PURE__ */ auth('auth.register', '/v1/auth/register', 'register', { mail: true });
export const authRegisterConfirm = /* @__PURE__ */ auth('auth.registerConfirm', '/v1/auth/register/confirm', 'register-confirm');
export const authLogin = /* @__PURE__ */ auth('auth.login', '/v1/auth/login', 'login', { signsTokens: true });
export const authRefresh = /* @__PURE__ */ auth('auth.refresh', '/v1/auth/refresh', 'refresh', { signsTokens: true });
export const authLogout = /* @__PURE__ */ auth('auth.logout', '/v1/auth/logout', 'logout');
export const authPasswordReset = /* @__PURE__ */ auth('auth.passwordReset', '/v1/auth/password-reset', 'password-reset', { mail: true });
export const authPasswordResetConfirm = /* @__PURE__ */ auth(
  'auth.passwordResetConfirm',
  '/v1/auth/password-reset/confirm',
  'password-reset-confirm',
);
// …and the signed-in customer, with the access token (customer tokens only)
const me = (id: string, method: HttpMethod, path: string, handler: string) =>
  r({ id, method, path, handler: `auth/${handler}`, scopes: ['auth:customer'], customer: 'self' });
export const authMe = /* @__PURE__ */ me('auth.me', 'GET', '/v1/auth/me', 'me');
export const authMeUpdate = /* @__PURE__ */ me('auth.meUpdate', 'PUT', '/v1/auth/me', 'me-update');
export const authPassword = /* @__PURE__ */ me('auth.password', 'POST', '/v1/auth/password', 'password');
export const authJwks = /* @__PURE__ */ r({
  id: 'auth.jwks',
  method: 'GET',
  path: '/v1/auth/jwks.json',
  aliases: ['/.well-known/jwks.json'],
  handler: 'auth/jwks',
  scopes: [],
  auth: 'none',
});

// The calling key's account (any valid key)
export const accountGet = /* @__PURE__ */ r({ id: 'account.get', method: 'GET', path: '/v1/account', handler: 'account/get', scopes: [] });
export const accountUpdate = /* @__PURE__ */ r({
  id: 'account.update',
  method: 'PUT',
  path: '/v1/account',
  handler: 'account/update',
  scopes: ['account:write'],
});

// Invoices
export const invoicesList = /* @__PURE__ */ r({
  id: 'invoices.list',
  method: 'GET',
  path: '/v1/invoices',
  handler: 'invoices/list',
  scopes: ['invoices:read'],
});
export const invoicesCreate = /* @__PURE__ */ r({
  id: 'invoices.create',
  method: 'POST',
  path: '/v1/invoices',
  handler: 'invoices/create',
  scopes: ['invoices:write'],
});
export const invoicesGet = /* @__PURE__ */ r({
  id: 'invoices.get',
  method: 'GET',
  path: '/v1/invoices/{id}',
  handler: 'invoices/get',
  scopes: ['invoices:read'],
});
export const invoicesPdf = /* @__PURE__ */ r({
  id: 'invoices.pdf',
  method: 'GET',
  path: '/v1/invoices/{id}/pdf',
  handler: 'invoices/pdf',
  scopes: ['invoices:read'],
  documents: true,
  // The first download renders the PDF (a cold renderer takes a few seconds on 512 MB).
  timeoutSeconds: 29,
});
export const invoicesXml = /* @__PURE__ */ r({
  id: 'invoices.xml',
  method: 'GET',
  path: '/v1/invoices/{id}/xml',
  handler: 'invoices/xml',
  scopes: ['invoices:read'],
  documents: true,
  timeoutSeconds: 29,
});
export const invoicesPay = /* @__PURE__ */ r({
  id: 'invoices.pay',
  method: 'POST',
  path: '/v1/invoices/{id}/payments',
  handler: 'invoices/pay',
  scopes: ['invoices:write'],
});
export const invoicesVoid = /* @__PURE__ */ r({
  id: 'invoices.void',
  method: 'POST',
  path: '/v1/invoices/{id}/void',
  handler: 'invoices/void',
  scopes: ['invoices:write'],
});
export const invoicesSend = /* @__PURE__ */ r({
  id: 'invoices.send',
  method: 'POST',
  path: '/v1/invoices/{id}/send',
  handler: 'invoices/send',
  scopes: ['invoices:write'],
  documents: true,
  mail: true,
  timeoutSeconds: 29,
});
export const customersInvoices = /* @__PURE__ */ r({
  id: 'customers.invoices',
  method: 'GET',
  path: '/v1/customers/{id}/invoices',
  handler: 'customers/invoices',
  scopes: ['invoices:read'],
});

// Audit log
export const auditList = /* @__PURE__ */ r({
  id: 'audit.list',
  method: 'GET',
  path: '/v1/audit-logs',
  handler: 'audit/list',
  scopes: ['audit:read'],
});

// Events (the stored outbox events, kept 30 days; domain folder shared/event-log/). Their handlers sit in
// functions/events/ beside the event pipeline's entry points (stream router, delivery, dead letters, sweeper).
export const eventsList = /* @__PURE__ */ r({
  id: 'events.list',
  method: 'GET',
  path: '/v1/events',
  handler: 'events/list',
  scopes: ['events:read'],
});
export const eventsGet = /* @__PURE__ */ r({
  id: 'events.get',
  method: 'GET',
  path: '/v1/events/{id}',
  handler: 'events/get',
  scopes: ['events:read'],
});

// Production
export const jobsList = /* @__PURE__ */ r({
  id: 'jobs.list',
  method: 'GET',
  path: '/v1/production/jobs',
  handler: 'jobs/list',
  scopes: ['production:read'],
});
export const jobsGet = /* @__PURE__ */ r({
  id: 'jobs.get',
  method: 'GET',
  path: '/v1/production/jobs/{id}',
  handler: 'jobs/get',
  scopes: ['production:read'],
});
export const jobsUpdate = /* @__PURE__ */ r({
  id: 'jobs.update',
  method: 'PUT',
  path: '/v1/production/jobs/{id}',
  handler: 'jobs/update',
  scopes: ['production:write'],
});
export const jobsSetStatus = /* @__PURE__ */ r({
  id: 'jobs.setStatus',
  method: 'PUT',
  path: '/v1/production/jobs/{id}/status',
  handler: 'jobs/set-status',
  scopes: ['production:write'],
});
export const machinesList = /* @__PURE__ */ r({
  id: 'machines.list',
  method: 'GET',
  path: '/v1/production/machines',
  handler: 'machines/list',
  scopes: ['production:read'],
});
export const machinesCreate = /* @__PURE__ */ r({
  id: 'machines.create',
  method: 'POST',
  path: '/v1/production/machines',
  handler: 'machines/create',
  scopes: ['production:write'],
});
export const machinesGet = /* @__PURE__ */ r({
  id: 'machines.get',
  method: 'GET',
  path: '/v1/production/machines/{id}',
  handler: 'machines/get',
  scopes: ['production:read'],
});
export const machinesUpdate = /* @__PURE__ */ r({
  id: 'machines.update',
  method: 'PUT',
  path: '/v1/production/machines/{id}',
  handler: 'machines/update',
  scopes: ['production:write'],
});
export const machinesDelete = /* @__PURE__ */ r({
  id: 'machines.delete',
  method: 'DELETE',
  path: '/v1/production/machines/{id}',
  handler: 'machines/delete',
  scopes: ['production:write'],
});
export const machinesQueue = /* @__PURE__ */ r({
  id: 'machines.queue',
  method: 'GET',
  path: '/v1/production/machines/{id}/queue',
  handler: 'machines/queue',
  scopes: ['production:read'],
});

// Webhooks
export const webhooksList = /* @__PURE__ */ r({
  id: 'webhooks.list',
  method: 'GET',
  path: '/v1/webhooks',
  handler: 'webhooks/list',
  scopes: ['webhooks:read'],
});
export const webhooksCreate = /* @__PURE__ */ r({
  id: 'webhooks.create',
  method: 'POST',
  path: '/v1/webhooks',
  handler: 'webhooks/create',
  scopes: ['webhooks:write'],
});
export const webhooksGet = /* @__PURE__ */ r({
  id: 'webhooks.get',
  method: 'GET',
  path: '/v1/webhooks/{id}',
  handler: 'webhooks/get',
  scopes: ['webhooks:read'],
});
export const webhooksUpdate = /* @__PURE__ */ r({
  id: 'webhooks.update',
  method: 'PUT',
  path: '/v1/webhooks/{id}',
  handler: 'webhooks/update',
  scopes: ['webhooks:write'],
});
export const webhooksDelete = /* @__PURE__ */ r({
  id: 'webhooks.delete',
  method: 'DELETE',
  path: '/v1/webhooks/{id}',
  handler: 'webhooks/delete',
  scopes: ['webhooks:write'],
});
export const webhooksRotateSecret = /* @__PURE__ */ r({
  id: 'webhooks.rotateSecret',
  method: 'POST',
  path: '/v1/webhooks/{id}/rotate-secret',
  handler: 'webhooks/rotate-secret',
  scopes: ['webhooks:write'],
});
export const webhooksTest = /* @__PURE__ */ r({
  id: 'webhooks.test',
  method: 'POST',
  path: '/v1/webhooks/{id}/test',
  aliases: ['/api/v1/webhooks/{id}/test'],
  handler: 'webhooks/test',
  scopes: ['webhooks:write'],
});
export const webhooksDeliveries = /* @__PURE__ */ r({
  id: 'webhooks.deliveries',
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries',
  handler: 'webhooks/deliveries',
  scopes: ['webhooks:read'],
});
export const webhooksDelivery = /* @__PURE__ */ r({
  id: 'webhooks.delivery',
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}',
  handler: 'webhooks/delivery',
  scopes: ['webhooks:read'],
});
export const webhooksRedeliver = /* @__PURE__ */ r({
  id: 'webhooks.redeliver',
  method: 'POST',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  handler: 'webhooks/redeliver',
  scopes: ['webhooks:write'],
});

// Files (artwork): uploads through the API or by presigned POST, downloads by presigned GET
export const filesUpload = /* @__PURE__ */ r({
  id: 'files.upload',
  method: 'POST',
  path: '/v1/files',
  handler: 'files/upload',
  scopes: ['files:write'],
  customer: 'own',
  files: true,
});
export const filesCreateUpload = /* @__PURE__ */ r({
  id: 'files.createUpload',
  method: 'POST',
  path: '/v1/files/uploads',
  handler: 'files/create-upload',
  scopes: ['files:write'],
  customer: 'own',
  files: true,
});
export const filesComplete = /* @__PURE__ */ r({
  id: 'files.complete',
  method: 'POST',
  path: '/v1/files/{id}/complete',
  handler: 'files/complete',
  scopes: ['files:write'],
  customer: 'own',
  // Bounded work at any size: an upload over 32 MiB is hashed and moved by the file worker; up to
  // that, hashing (without S3's checksum) and copying it takes a second or two.
  files: true,
});
export const filesList = /* @__PURE__ */ r({
  id: 'files.list',
  method: 'GET',
  path: '/v1/files',
  handler: 'files/list',
  scopes: ['files:read'],
  customer: 'own',
});
export const filesGet = /* @__PURE__ */ r({
  id: 'files.get',
  method: 'GET',
  path: '/v1/files/{id}',
  handler: 'files/get',
  scopes: ['files:read'],
  customer: 'own',
});
export const filesDownload = /* @__PURE__ */ r({
  id: 'files.download',
  method: 'GET',
  path: '/v1/files/{id}/download',
  handler: 'files/download',
  scopes: ['files:read'],
  customer: 'own',
  files: true,
});
export const filesOfOrder = /* @__PURE__ */ r({
  id: 'files.ofOrder',
  method: 'GET',
  path: '/v1/orders/{id}/files',
  handler: 'files/of-order',
  scopes: ['orders:read', 'files:read'],
  customer: 'own',
});
export const filesDelete = /* @__PURE__ */ r({
  id: 'files.delete',
  method: 'DELETE',
  path: '/v1/files/{id}',
  handler: 'files/delete',
  scopes: ['files:write'],
  files: true,
});

// Documents
export const openapiGet = /* @__PURE__ */ r({
  id: 'openapi.get',
  method: 'GET',
  path: '/v1/openapi.json',
  handler: 'openapi/get',
  scopes: [],
  auth: 'none',
});

// Carts: session carts (a storefront's publishable key, or a secret key with carts:*; the cart id is the
// capability), and the signed-in customer's own cart (customer tokens only). docs/carts.md
const sessionCart = (
  id: string,
  method: HttpMethod,
  path: string,
  handler: string,
  scope: 'carts:read' | 'carts:write',
  extra: Pick<RouteDefinition, 'secretScopes'> = {},
) => r({ id, method, path, handler: `carts/${handler}`, scopes: [scope], storefront: true, ...extra });
export const cartsCreate = /* @__PURE__ */ sessionCart('carts.create', 'POST', '/v1/carts', 'create', 'carts:write');
export const cartsGet = /* @__PURE__ */ sessionCart('carts.get', 'GET', '/v1/carts/{id}', 'get', 'carts:read');
export const cartsDelete = /* @__PURE__ */ sessionCart('carts.delete', 'DELETE', '/v1/carts/{id}', 'delete', 'carts:write');
export const cartsAddItem = /* @__PURE__ */ sessionCart('carts.addItem', 'POST', '/v1/carts/{id}/items', 'add-item', 'carts:write');
export const cartsUpdateItem = /* @__PURE__ */ sessionCart(
  'carts.updateItem',
  'PUT',
  '/v1/carts/{id}/items/{itemId}',
  'update-item',
  'carts:write',
);
export const cartsRemoveItem = /* @__PURE__ */ sessionCart(
  'carts.removeItem',
  'DELETE',
  '/v1/carts/{id}/items/{itemId}',
  'remove-item',
  'carts:write',
);
export const cartsCheckout = /* @__PURE__ */ sessionCart('carts.checkout', 'POST', '/v1/carts/{id}/checkout', 'checkout', 'carts:write', {
  secretScopes: ['orders:write'],
});
const customerCart = (id: string, method: HttpMethod, path: string, handler: string, scope: 'carts:read' | 'carts:write') =>
  r({ id, method, path, handler: `cart/${handler}`, scopes: [scope], customer: 'self' });
export const cartGet = /* @__PURE__ */ customerCart('cart.get', 'GET', '/v1/cart', 'get', 'carts:read');
export const cartAddItem = /* @__PURE__ */ customerCart('cart.addItem', 'POST', '/v1/cart/items', 'add-item', 'carts:write');
export const cartUpdateItem = /* @__PURE__ */ customerCart(
  'cart.updateItem',
  'PUT',
  '/v1/cart/items/{itemId}',
  'update-item',
  'carts:write',
);
export const cartRemoveItem = /* @__PURE__ */ customerCart(
  'cart.removeItem',
  'DELETE',
  '/v1/cart/items/{itemId}',
  'remove-item',
  'carts:write',
);
export const cartMerge = /* @__PURE__ */ customerCart('cart.merge', 'POST', '/v1/cart/merge', 'merge', 'carts:write');
export const cartCheckout = /* @__PURE__ */ customerCart('cart.checkout', 'POST', '/v1/cart/checkout', 'checkout', 'carts:write');

/** Every route, in the table's order (CDK, the local gateway, the OpenAPI document, the security suite). */
export const routes: readonly RouteDefinition[] = [
  ordersList,
  ordersCreate,
  ordersGet,
  ordersUpdate,
  customersList,
  customersCreate,
  customersGet,
  customersUpdate,
  customersDelete,
  customersOrders,
  addressesList,
  addressesCreate,
  addressesGet,
  addressesUpdate,
  addressesDelete,
  productsList,
  productsCreate,
  productsGet,
  productsUpdate,
  productsDelete,
  productsCalculate,
  legacyProductsList,
  legacyProductsCreate,
  legacyProductsGet,
  legacyProductsCalculate,
  legacyProductsPrices,
  quotesList,
  quotesCreate,
  quotesGet,
  quotesUpdate,
  quotesAccept,
  quotesReject,
  quotesPdf,
  customersQuotes,
  shipmentsList,
  shipmentsCreate,
  shipmentsGet,
  ordersShipments,
  shipmentsLabel,
  shipmentsTracking,
  shipmentsCancel,
  shipmentsSimulate,
  carriersList,
  carriersConfigure,
  carriersSendcloudWebhook,
  authRegister,
  authRegisterConfirm,
  authLogin,
  authRefresh,
  authLogout,
  authPasswordReset,
  authPasswordResetConfirm,
  authMe,
  authMeUpdate,
  authPassword,
  authJwks,
  accountGet,
  accountUpdate,
  invoicesList,
  invoicesCreate,
  invoicesGet,
  invoicesPdf,
  invoicesXml,
  invoicesPay,
  invoicesVoid,
  invoicesSend,
  customersInvoices,
  auditList,
  eventsList,
  eventsGet,
  jobsList,
  jobsGet,
  jobsUpdate,
  jobsSetStatus,
  machinesList,
  machinesCreate,
  machinesGet,
  machinesUpdate,
  machinesDelete,
  machinesQueue,
  webhooksList,
  webhooksCreate,
  webhooksGet,
  webhooksUpdate,
  webhooksDelete,
  webhooksRotateSecret,
  webhooksTest,
  webhooksDeliveries,
  webhooksDelivery,
  webhooksRedeliver,
  filesUpload,
  filesCreateUpload,
  filesComplete,
  filesList,
  filesGet,
  filesDownload,
  filesOfOrder,
  filesDelete,
  openapiGet,
  cartsCreate,
  cartsGet,
  cartsDelete,
  cartsAddItem,
  cartsUpdateItem,
  cartsRemoveItem,
  cartsCheckout,
  cartGet,
  cartAddItem,
  cartUpdateItem,
  cartRemoveItem,
  cartMerge,
  cartCheckout,
];

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
