/**
 * One security suite over the whole route table (`routes` from shared/routes.ts), so a route is
 * covered the day it is added. For every route with `auth: 'key'`, on its path and each alias:
 *
 * - no Authorization, an unknown (well-formed) key, a revoked key → 401 `unauthorized`;
 * - for each scope the route needs, a key holding every scope but that one → 403
 *   `insufficient_scope` naming it;
 * - a publishable key → 403 `forbidden`, unless the route is marked `storefront`;
 * - a customer access token (of a customer of A who owns none of the fixtures) → 403 `forbidden`,
 *   unless the route is open to customers (CUSTOMER below: what each of those answers it); a
 *   customer token with one changed character → 401; the customer's own routes refuse every key;
 * - the id of a resource of account A (test mode), asked for with account B's key and with A's
 *   live key → 404, with nothing of the resource in the answer;
 * - every error in the documented shape `{ success: false, error: { code, message, details?,
 *   request_id } }`, with `X-Request-Id` equal to `error.request_id`.
 *
 * Routes that take no id, routes open to any key and public routes are listed below with the
 * reason; a route that is neither covered nor listed fails the suite. The fixtures (two accounts,
 * their keys, one resource of each type in A) are made once; the requests run concurrently,
 * bounded by vitest's maxConcurrency.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey, revokeApiKey, setPlan } from '#shared/accounts/service';
import { generateApiKey } from '#shared/auth/keys';
import { allScopes, missingScope, publishableScopes, type Scope } from '#shared/auth/scopes';
import { pathsOf, routes, type RouteDefinition } from '#shared/routes';
import { call, type ApiResponse, type ErrorResponse } from '#test/support/http';
import { pngOf, uploadForm } from '#test/support/files';
import { enableInvoicing, invoiceOrder } from '#test/support/invoices';
import { produceOrder } from '#test/support/production';
import { brochure, businessCards, smallTable } from '#test/support/products';
import { startReceiver, type Receiver } from '#test/support/receiver';
import { eventually } from '#test/support/wait';
import { signUp } from '#test/support/customer-accounts';

// ---- The explicit lists: every exception to a check, with its reason -------------------------

/** Routes with `auth: 'key'` that take no id of a resource, so there is no foreign id to try. */
const NO_FOREIGN_ID: Record<string, string> = {
  'orders.list': "lists the caller's own orders; no id in the path",
  'orders.create': 'creates an order; no id in the path (foreign customer and product ids in the body: see below)',
  'customers.list': "lists the caller's own customers; no id in the path",
  'customers.create': 'creates a customer; no id in the path',
  'products.list': "lists the caller's own products; no id in the path",
  'products.create': 'creates a product; no id in the path',
  'legacy-products.list': "lists the caller's own legacy products; no id in the path",
  'legacy-products.create': 'creates a legacy product; no id in the path',
  'account.get': "answers the calling key's own account; no id in the path",
  'audit.list': "lists the caller's own audit records; no id in the path",
  'events.list': "lists the caller's own events; no id in the path",
  'webhooks.list': "lists the caller's own registrations; no id in the path",
  'webhooks.create': 'creates a registration; no id in the path',
  'jobs.list': "lists the caller's own production jobs; no id in the path",
  'machines.list': "lists the caller's own machines; no id in the path",
  'machines.create': 'creates a machine; no id in the path',
  'account.update': "changes the calling key's own account; no id in the path",
  'invoices.list': "lists the caller's own invoices; no id in the path",
  'credit-notes.list': "lists the caller's own credit notes; no id in the path",
  'invoices.create': 'issues an invoice; no id in the path (a foreign order or customer id in the body: see below)',
  'quotes.list': "lists the caller's own quotes; no id in the path",
  'quotes.create': 'makes a quote; no id in the path (foreign customer and product ids in the body: as orders.create)',
  'auth.register': "registers a customer of the calling key's tenant; no id in the path",
  'auth.registerConfirm': 'takes a registration code of the tenant; no id in the path',
  'auth.login': "logs in a customer of the calling key's tenant; no id in the path",
  'auth.refresh': 'takes a refresh token of the tenant; no id in the path',
  'auth.logout': 'takes a refresh token of the tenant; no id in the path',
  'auth.passwordReset': 'mails a code to a customer of the tenant, if any; no id in the path',
  'auth.passwordResetConfirm': 'takes a reset code of the tenant; no id in the path',
  'auth.me': 'the signed-in customer of the access token; no id in the path',
  'auth.meUpdate': 'the signed-in customer of the access token; no id in the path',
  'auth.password': 'the signed-in customer of the access token; no id in the path',
  'files.upload': 'uploads a file of the tenant; no id in the path (a foreign order id in the form: files.test.ts)',
  'files.createUpload': 'starts an upload of the tenant; no id in the path',
  'files.list': "lists the caller's own files; no id in the path",
  'shipments.list': "lists the caller's own shipments; no id in the path",
  'shipments.create': 'ships an order; no id in the path (a foreign order id in the body: see below)',
  'carriers.list': "lists the caller's own carrier settings; no id in the path",
  'carts.create': 'starts a session cart; no id in the path',
  'cart.get': "the signed-in customer's own cart; no id in the path",
  'cart.addItem': "the signed-in customer's own cart; no id in the path",
  'cart.merge':
    "merges into the signed-in customer's own cart; the session cart's id is in the body (see the carts tests: another tenant's is 404)",
  'cart.checkout': "the signed-in customer's own cart; no id in the path",
};

/**
 * Routes whose path parameter names a kind, not a resource of the tenant: every account has its own
 * settings under the same name, so another account's key reaches its own (no foreign id to try).
 */
const NOT_A_RESOURCE_ID: Record<string, string> = {
  'carriers.configure': '{carrier} names a carrier (sendcloud): each account and mode sets its own credentials there',
};

/**
 * Routes on which a secret key needs scopes beyond the route's (`secretScopes`), with the reason: a
 * secret key does more there than the storefront the route's scopes are sized for.
 */
const SECRET_KEY_SCOPES: Record<string, { scopes: Scope[]; why: string }> = {
  'carts.checkout': {
    scopes: ['orders:write'],
    why: "a secret key orders for a customer it names, copying the customer's addresses: an order's creation, as orders.create",
  },
};

/** Every scope a key needs on the route: a secret key's, `secretScopes` included (all the keys of this suite's scope checks are secret). */
const scopesOf = (route: RouteDefinition): Scope[] => [...route.scopes, ...(route.secretScopes ?? [])];

/** Routes with `auth: 'key'` and no scope: any valid key may call them. */
const ANY_KEY: Record<string, string> = {
  'account.get': 'describes the calling key itself (account, mode, scopes, limits): every key may know what it is',
};

/**
 * Routes that change what the whole account runs on need `account:write`, not the scope of one
 * domain: a key made for shipping (`shipments:write`) ships, but does not replace the account's
 * carrier credentials. Every call to them is in the audit log (without the body).
 */
const ACCOUNT_SETTINGS: Record<string, string> = {
  'account.update': "changes the account's name and company details (the seller on every invoice)",
  'carriers.configure': "replaces a carrier's credentials and callback secret: every live label and callback runs on them",
};

/** Routes with `auth: 'none'`: public documents, answered without a key. */
const PUBLIC: Record<string, string> = {
  'openapi.get': 'the OpenAPI document is public, like the docs it is generated for',
  'auth.jwks': 'the public keys of customer tokens: anyone verifying a token needs them (RFC 7517)',
};

/**
 * Routes with `auth: 'none'` that a carrier calls: no key (the carrier has none of ours), but the
 * body's signature under the tenant's carrier secret; unsigned calls answer 401.
 */
const CARRIER_CALLBACKS: Record<string, string> = {
  'carriers.sendcloudWebhook': "Sendcloud's parcel callbacks, signed with the account's carrier callback secret (Sendcloud-Signature)",
};

/**
 * Routes with `auth: 'none'` that a proof link's holder calls (docs/proofs.md#links): no key (the
 * customer may have no account), the path's token is the capability; a token that opens nothing —
 * malformed, unknown, another tenant's, revoked or expired — answers 404, the same for all.
 */
const PROOF_LINKS: Record<string, string> = {
  'proof-links.get': "a proof by its link's token: the shop's name, the lines, the document's download",
  'proof-links.approve': "a link holder's approval, by the link's token",
  'proof-links.requestChanges': "a link holder's request for changes, by the link's token",
};

/** The routes a storefront (publishable key, in a browser) calls today: the catalogue and its prices. */
const STOREFRONT = [
  'auth.register',
  'auth.registerConfirm',
  'auth.login',
  'auth.refresh',
  'auth.logout',
  'auth.passwordReset',
  'auth.passwordResetConfirm',
  'products.list',
  'products.get',
  'products.calculate',
  'legacy-products.list',
  'legacy-products.get',
  'legacy-products.calculate',
  'carts.create',
  'carts.get',
  'carts.delete',
  'carts.addItem',
  'carts.updateItem',
  'carts.removeItem',
  'carts.checkout',
];

/**
 * The routes a customer access token may call (`customer` in the route table), and what the
 * suite's customer — a customer of A with a login, who owns none of the fixtures — gets from each:
 * its own account, the catalogue, its own orders; the fixtures' ids are another customer's.
 * `served`: neither 401 nor 403 (the route's own validation may still refuse the probe body).
 */
const CUSTOMER: Record<string, { access: NonNullable<RouteDefinition['customer']>; answer: number | 'served'; why: string }> = {
  'auth.me': { access: 'self', answer: 200, why: 'its own record' },
  'auth.meUpdate': { access: 'self', answer: 200, why: 'its own name' },
  'auth.password': { access: 'self', answer: 422, why: 'the probe sends a wrong current password' },
  'orders.list': { access: 'own', answer: 200, why: 'its own orders (none)' },
  'orders.create': { access: 'own', answer: 403, why: "the probe body names the fixture's customer, not the caller" },
  'orders.get': { access: 'own', answer: 404, why: "the fixture order is another customer's" },
  'addresses.list': { access: 'path', answer: 404, why: "the fixture customer's id is not the caller's" },
  'addresses.create': { access: 'path', answer: 404, why: "the fixture customer's id is not the caller's" },
  'addresses.get': { access: 'path', answer: 404, why: "the fixture customer's id is not the caller's" },
  'addresses.update': { access: 'path', answer: 404, why: "the fixture customer's id is not the caller's" },
  'addresses.delete': { access: 'path', answer: 404, why: "the fixture customer's id is not the caller's" },
  'products.list': { access: 'catalogue', answer: 200, why: 'the catalogue' },
  'products.get': { access: 'catalogue', answer: 200, why: 'the catalogue' },
  'products.calculate': { access: 'catalogue', answer: 'served', why: 'a price (the probe body lacks a required option)' },
  'legacy-products.list': { access: 'catalogue', answer: 200, why: 'the catalogue' },
  'legacy-products.get': { access: 'catalogue', answer: 200, why: 'the catalogue' },
  'legacy-products.calculate': { access: 'catalogue', answer: 'served', why: 'a price' },
  'files.upload': { access: 'own', answer: 'served', why: 'its own upload (the probe is not an accepted type: 415)' },
  'files.createUpload': { access: 'own', answer: 201, why: 'its own pending upload' },
  'files.complete': { access: 'own', answer: 404, why: "the fixture file is the shop's, not the caller's" },
  'files.list': { access: 'own', answer: 200, why: 'its own files (none)' },
  'files.get': { access: 'own', answer: 404, why: "the fixture file is the shop's, not the caller's" },
  'files.download': { access: 'own', answer: 404, why: "the fixture file is the shop's, not the caller's" },
  'files.ofOrder': { access: 'own', answer: 404, why: "the fixture order is another customer's" },
  'cart.get': { access: 'self', answer: 200, why: 'its own cart (empty until its first line)' },
  'cart.addItem': { access: 'self', answer: 201, why: 'a line in its own cart' },
  'cart.updateItem': { access: 'self', answer: 'served', why: 'line 1 of its own cart (404 until the probe of cart.addItem made it)' },
  'cart.removeItem': { access: 'self', answer: 'served', why: 'line 1 of its own cart (404 until the probe of cart.addItem made it)' },
  'cart.merge': { access: 'self', answer: 404, why: 'the probe names a session cart nobody has' },
  'cart.checkout': { access: 'self', answer: 422, why: "the probe's version is not a cart's" },
  'proofs.list': { access: 'own', answer: 404, why: "the fixture order is another customer's" },
  'proofs.get': { access: 'own', answer: 404, why: "the fixture proof is another customer's" },
  'proofs.approve': { access: 'own', answer: 404, why: "the fixture proof is another customer's" },
  'proofs.requestChanges': { access: 'own', answer: 404, why: "the fixture proof is another customer's" },
};

/**
 * Path segment before an id parameter → the fixture resource whose id goes there. A route with an
 * id of another resource type needs a fixture here (made in beforeAll), or a reason above.
 */
type ResourceType =
  | 'customers'
  | 'addresses'
  | 'orders'
  | 'products'
  | 'legacy-products'
  | 'webhooks'
  | 'deliveries'
  | 'events'
  | 'jobs'
  | 'machines'
  | 'invoices'
  | 'credit-notes'
  | 'quotes'
  | 'files'
  | 'shipments'
  | 'carriers'
  | 'carts'
  | 'items'
  | 'lines'
  | 'proofs';

/**
 * Request bodies of the routes that take one: valid-looking, so a request refused by the guard is
 * refused for the right reason, and a foreign id reaches the lookup (validation runs before it).
 */
type Body = { json: unknown } | { raw: string; contentType: string };
const bodies = (fixture: Fixture): Record<string, Body> => ({
  'orders.create': {
    json: {
      customer_id: fixture.ids.customers,
      items: [{ product_id: fixture.ids.products, quantity: 100, options: { paper: 'matt300' } }],
    },
  },
  'orders.update': { json: { notes: 'changed by the security suite' } },
  'orders.replaceLineFiles': { json: { file_ids: [fixture.ids.files] } },
  'customers.create': { json: { name: 'Security Probe', email: `probe.${randomUUID()}@example.com` } },
  'customers.update': { json: { name: 'Changed by the security suite' } },
  'addresses.create': {
    json: { type: 'shipping', name: 'Probe', line1: 'Hafenstraße 9', postal_code: '20457', city: 'Hamburg', country: 'DE' },
  },
  'addresses.update': { json: { city: 'Bern' } },
  'products.create': { json: businessCards() },
  'products.update': { json: { name: 'Changed by the security suite' } },
  'products.calculate': { json: { quantity: 100 } },
  'legacy-products.create': { json: brochure() },
  'legacy-products.calculate': { json: { format: 'A5', color: '4/4', quantity: 100, pages: 8 } },
  'legacy-products.prices': { raw: 'format,color,quantity,pages,price\nA5,4/4,100,8,1', contentType: 'text/csv' },
  'webhooks.create': { json: { url: 'https://hooks.example.com/probe', events: ['*'] } },
  'webhooks.update': { json: { description: 'changed by the security suite' } },
  'webhooks.test': { json: { event: 'invoice.paid' } },
  'jobs.update': { json: { notes: 'changed by the security suite' } },
  'jobs.setStatus': { json: { status: 'failed', note: 'set by the security suite' } },
  'machines.create': { json: { name: 'Probe press', type: 'digital_press', speed_per_hour: 1000 } },
  'machines.update': { json: { name: 'Changed by the security suite' } },
  'account.update': { json: { company: { phone: '+49 30 0000000' } } },
  'invoices.create': { json: { customer_id: fixture.ids.customers, items: [{ description: 'Probe', quantity: 1, unit_price: 1 }] } },
  'invoices.pay': { json: { amount: 0.01, method: 'cash' } },
  'invoices.send': { json: {} },
  'credit-notes.create': { json: { reason: 'Probe', items: [{ position: 1, amount: 0.01 }] } },
  'credit-notes.refund': { json: { amount: 0.01, method: 'cash' } },
  'quotes.create': {
    json: {
      customer_id: fixture.ids.customers,
      items: [{ product_id: fixture.ids.products, quantity: 100, options: { paper: 'matt300' } }],
    },
  },
  'quotes.update': { json: { notes: 'changed by the security suite' } },
  'quotes.reject': { json: { reason: 'set by the security suite' } },
  'shipments.create': {
    json: {
      order_id: fixture.ids.orders,
      carrier: 'sandbox',
      service: 'probe',
      parcels: [{ weight_g: 1, length_mm: 1, width_mm: 1, height_mm: 1 }],
    },
  },
  'shipments.simulate': { json: { status: 'delivered' } },
  'shipments.returnLabel': { json: { service: 'dpd:return/return' } },
  'carriers.configure': { json: { public_key: 'probe', secret_key: 'set by the security suite' } },
  // Refused by validation (a common password, a malformed email, an empty token) when a key gets through: nothing is created.
  'auth.register': { json: { email: 'probe@example.com', password: 'password123', name: 'Probe' } },
  'auth.registerConfirm': { json: { code: '' } },
  'auth.login': { json: { email: 'not-an-email', password: 'whatever it is' } },
  'auth.refresh': { json: { refresh_token: '' } },
  'auth.logout': { json: { refresh_token: '' } },
  'auth.passwordReset': { json: { email: 'nobody@example.com' } },
  'auth.passwordResetConfirm': { json: { token: '', password: 'whatever it is' } },
  'auth.meUpdate': { json: { name: 'Changed by the security suite' } },
  'auth.password': { json: { current_password: 'not the password', new_password: 'a brand new passphrase' } },
  'files.upload': {
    raw: '--probe\r\nContent-Disposition: form-data; name="file"; filename="probe.png"\r\nContent-Type: image/png\r\n\r\nnot a png\r\n--probe--\r\n',
    contentType: 'multipart/form-data; boundary=probe',
  },
  'files.createUpload': { json: { filename: 'probe.pdf', content_type: 'application/pdf', size: 100 } },
  'carts.create': { json: { items: [] } },
  'carts.addItem': { json: { product_id: fixture.ids.products, quantity: 100, options: { paper: 'matt300' } } },
  'carts.updateItem': { json: { quantity: 200 } },
  // Refused when a key gets through (a version that is not one, checked once the cart is found): nothing is ordered.
  'carts.checkout': { json: { version: 'probe', email: 'probe@example.com', name: 'Probe' } },
  'cart.addItem': { json: { product_id: fixture.ids.products, quantity: 100, options: { paper: 'matt300' } } },
  'cart.updateItem': { json: { quantity: 200 } },
  'cart.merge': { json: { cart_id: `cart_${'0'.repeat(24)}` } },
  'cart.checkout': { json: { version: 'probe' } },
  // The fixture order's line 1 has no artwork: a key that gets through is refused (422) before anything is made.
  'proofs.create': { json: { line_ids: [1], file_id: fixture.ids.files } },
  'proofs.approve': { json: { comment: 'probe' } },
  'proofs.requestChanges': { json: { comment: 'set by the security suite' } },
});

// ---- Fixtures -------------------------------------------------------------------------------

interface Fixture {
  /** Account A: owns the resources. */
  a: { accountId: string; secretTest: string; secretLive: string; publishableTest: string; revoked: string };
  /** Account B: empty, so no id of A can name anything of B's. */
  b: { secretTest: string };
  unknownKey: string;
  /** A signed-in customer of A (test mode) who owns none of the fixtures, and that token with one character changed. */
  customerToken: string;
  tamperedToken: string;
  /** Keys of A holding every scope except the one named (and, for a read scope, its write scope). */
  lacking: Map<Scope, string>;
  ids: Record<ResourceType, number | string>;
  /** Strings that only A's resources contain: none may appear in an answer to anyone else. */
  secrets: string[];
  /** The link token of A's fixture proof. */
  proofLink: string;
}

let fixture: Fixture;
let receiver: Receiver | undefined;

const keyRoutes = routes.filter((route) => route.auth === 'key');
const paramsOf = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
const takesId = (route: RouteDefinition) => paramsOf(route.path).length > 0;

/** Every scope but `scope`; without a read scope's write scope too, since write includes read. */
const scopesWithout = (scope: Scope): Scope[] =>
  allScopes.filter(
    (granted) => granted !== '*' && granted !== scope && !(scope.endsWith(':read') && granted === scope.replace(/:read$/, ':write')),
  );

async function created<Body extends { data: unknown }>(response: Promise<ApiResponse<Body>>, what: string): Promise<Body['data']> {
  const answer = await response;
  if (answer.status !== 201) throw new Error(`fixture ${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

beforeAll(async () => {
  const [a, b] = await Promise.all([
    createAccount({ name: 'Security A', plan: 'enterprise' }),
    createAccount({ name: 'Security B', plan: 'enterprise' }),
  ]);
  await Promise.all([setPlan(a.account.id, 'enterprise', 1_000_000), setPlan(b.account.id, 'enterprise', 1_000_000)]);
  const revocable = await createApiKey({ accountId: a.account.id, mode: 'test', kind: 'secret', scopes: ['*'] });
  await revokeApiKey(a.account.id, revocable.key_id);
  const required = [...new Set(keyRoutes.flatMap(scopesOf))];
  const lacking = new Map(
    await Promise.all(
      required.map(
        async (scope) =>
          [
            scope,
            (await createApiKey({ accountId: a.account.id, mode: 'test', kind: 'secret', scopes: scopesWithout(scope) })).key,
          ] as const,
      ),
    ),
  );

  const key = a.keys.secret_test.key;
  const marker = `sec${randomUUID().slice(0, 8)}`;
  const customer = await created(
    call('POST', '/v1/customers', { key, body: { name: `Customer ${marker}`, email: `${marker}@example.com` } }),
    'customer',
  );
  const [address, product, legacy] = await Promise.all([
    created(
      call('POST', `/v1/customers/${customer.id}/addresses`, {
        key,
        body: { type: 'billing', name: `Address ${marker}`, line1: 'Musterweg 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
      }),
      'address',
    ),
    created(call('POST', '/v1/products', { key, body: { ...businessCards(), name: `Cards ${marker}` } }), 'product'),
    created(call('POST', '/v1/legacy-products', { key, body: { ...brochure(smallTable), name: `Brochure ${marker}` } }), 'legacy product'),
  ]);
  const order = await created(
    call('POST', '/v1/orders', {
      key,
      body: {
        customer_id: customer.id,
        items: [{ product_id: product.id, quantity: 100, options: { paper: 'matt300' } }],
        notes: `Order ${marker}`,
      },
    }),
    'order',
  );

  // A confirmed order has a production job (its line's, described like the product); a machine of A's.
  const confirmed = await call('PUT', `/v1/orders/${order.id}`, { key, body: { status: 'confirmed' } });
  if (confirmed.status !== 200) throw new Error(`fixture confirmation: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  const jobs = await call('GET', `/v1/production/jobs?order_id=${order.id}`, { key });
  if (jobs.body?.data?.length !== 1) throw new Error(`fixture job: ${JSON.stringify(jobs.body)}`);
  // An invoice of A's (of that order): A has the company details invoices need.
  await enableInvoicing(a.account.id);
  const invoice = await invoiceOrder(key, order.id, { notes: `Invoice ${marker}` });
  // A credit note of A's (a cent of that invoice's first line).
  const creditNote = await created(
    call('POST', `/v1/invoices/${invoice.id}/credit-notes`, {
      key,
      body: { reason: `Credit ${marker}`, items: [{ position: 1, amount: 0.01 }] },
    }),
    'credit note',
  );
  const quote = await created(
    call('POST', '/v1/quotes', {
      key,
      body: {
        customer_id: customer.id,
        items: [{ product_id: product.id, quantity: 100, options: { paper: 'matt300' } }],
        notes: `Quote ${marker}`,
      },
    }),
    'quote',
  );
  const file = await created(
    uploadForm(key, { bytes: pngOf(2, 2), name: `File ${marker}.png`, type: 'image/png' }).then((answer) => ({
      ...answer,
      headers: new Headers(),
    })),
    'file',
  );
  // A proof of A's: a pending order whose line prints the fixture file, proofed with the same file.
  const proofed = await created(
    call('POST', '/v1/orders', {
      key,
      body: {
        customer_id: customer.id,
        items: [{ product_id: product.id, quantity: 100, options: { paper: 'matt300' }, file_ids: [file.id] }],
      },
    }),
    'order to proof',
  );
  const proof = await created(
    call('POST', `/v1/orders/${proofed.id}/proofs`, { key, body: { line_ids: [1], file_id: file.id, message: `Proof ${marker}` } }),
    'proof',
  );
  const machine = await created(
    call('POST', '/v1/production/machines', { key, body: { name: `Machine ${marker}`, type: 'cutter', speed_per_hour: 500 } }),
    'machine',
  );
  // A shipment of A's (sandbox, test mode): the order produced to ready first, then shipped.
  await produceOrder(key, order.id);
  const shipment = await created(
    call('POST', '/v1/shipments', {
      key,
      body: {
        order_id: order.id,
        address_id: address.id,
        carrier: 'sandbox',
        service: `svc-${marker}`,
        parcels: [{ weight_g: 100, length_mm: 100, width_mm: 100, height_mm: 10 }],
      },
    }),
    'shipment',
  );

  // A registration with one delivery (a test event to a receiver of its own, closed once it succeeded).
  receiver = await startReceiver();
  const webhook = await created(
    call('POST', '/v1/webhooks', { key, body: { url: receiver.url, events: ['invoice.paid'], description: `Webhook ${marker}` } }),
    'webhook',
  );
  const sent = await call('POST', `/v1/webhooks/${webhook.id}/test`, { key });
  if (sent.status !== 200) throw new Error(`fixture test event: ${sent.status} ${JSON.stringify(sent.body)}`);
  const history = await eventually(
    async () => (await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { key })).body,
    (page) => page?.data?.[0]?.status === 'succeeded',
  );
  if (history?.data?.[0]?.status !== 'succeeded') throw new Error(`fixture delivery: ${JSON.stringify(history)}`);
  await receiver.close();

  // An event of A's: the customer's creation (the events index is eventually consistent).
  const listed = await eventually(
    async () => (await call('GET', '/v1/events?type=customer.created', { key })).body,
    (page) => page?.data?.length === 1,
  );
  if ((listed?.data?.[0]?.data as { customer?: { id: number } } | undefined)?.customer?.id !== customer.id)
    throw new Error(`fixture event: ${JSON.stringify(listed)}`);

  // A customer of A with a login (none of the fixtures are theirs), signed in through A's storefront.
  const login = { email: `customer.${marker}@example.com`, password: 'correct horse battery' };
  const storefront = a.keys.publishable_test.key;
  await created(signUp(storefront, { ...login, name: 'Signed-in customer' }), 'registration');
  const session = await call('POST', '/v1/auth/login', { key: storefront, body: login });
  if (session.status !== 200) throw new Error(`fixture login: ${session.status} ${JSON.stringify(session.body)}`);
  const customerToken: string = session.body.data.access_token;

  // A session cart of A's with one line (its id is the capability: B's keys and A's live key must not find it).
  const cart = await created(
    call('POST', '/v1/carts', {
      key: storefront,
      body: { items: [{ product_id: product.id, quantity: 100, options: { paper: 'matt300' } }] },
    }),
    'cart',
  );
  const at = customerToken.length - 10;
  const tamperedToken = customerToken.slice(0, at) + (customerToken[at] === 'A' ? 'B' : 'A') + customerToken.slice(at + 1);

  fixture = {
    customerToken,
    tamperedToken,
    a: {
      accountId: a.account.id,
      secretTest: key,
      secretLive: a.keys.secret_live.key,
      publishableTest: a.keys.publishable_test.key,
      revoked: revocable.key,
    },
    b: { secretTest: b.keys.secret_test.key },
    unknownKey: generateApiKey('secret', 'test'),
    lacking,
    ids: {
      customers: customer.id,
      addresses: address.id,
      orders: order.id,
      products: product.id,
      'legacy-products': legacy.id,
      webhooks: webhook.id,
      deliveries: history.data[0].id,
      events: listed.data[0]!.id,
      jobs: jobs.body.data[0]!.id,
      machines: machine.id,
      invoices: invoice.id,
      'credit-notes': creditNote.id,
      quotes: quote.id,
      files: file.id,
      shipments: shipment.id,
      carriers: 'sendcloud',
      carts: cart.id,
      items: 1,
      lines: 1,
      proofs: proof.id,
    },
    secrets: [marker, a.account.id, webhook.secret, receiver.url],
    proofLink: proof.link.token,
  };
}, 60_000);

afterAll(() => receiver?.close());

// ---- Requests and checks ----------------------------------------------------------------------

/** `template` with each `{param}` replaced by the id of A's resource named by the segment before it. */
function pathFor(template: string): string {
  return template.replace(/([^/]+)\/\{(\w+)\}/g, (_match, segment: string, param: string) => {
    const id = fixture.ids[segment as ResourceType];
    if (id === undefined)
      throw new Error(
        `no fixture for {${param}} after /${segment}/ in ${template}: add a resource of that type in beforeAll, or list the route in NO_FOREIGN_ID with the reason`,
      );
    return `${segment}/${id}`;
  });
}

function send(route: RouteDefinition, template: string, key: string | null) {
  const body = bodies(fixture)[route.id];
  const options = !body ? {} : 'json' in body ? { body: body.json } : { rawBody: body.raw, headers: { 'Content-Type': body.contentType } };
  return call(route.method, pathFor(template), { key, ...options });
}

/** The documented error body, and X-Request-Id equal to its request_id; returns the error. */
function expectError(check: typeof expect, response: ErrorResponse, status: number, code: string) {
  check(response.status, JSON.stringify(response.body)).toBe(status);
  check(Object.keys(response.body ?? {}).sort()).toEqual(['error', 'success']);
  check(response.body.success).toBe(false);
  const { error } = response.body;
  check(Object.keys(error).filter((name) => !['code', 'message', 'details', 'request_id'].includes(name))).toEqual([]);
  check(error).toMatchObject({ code, message: check.any(String), request_id: check.any(String) });
  check(error.message.length).toBeGreaterThan(0);
  for (const detail of error.details ?? []) check(detail).toEqual({ field: check.any(String), message: check.any(String) });
  check(response.headers.get('x-request-id')).toBe(error.request_id);
  return error;
}

/** Nothing of A's resources in an answer to someone else. */
function expectNothingLeaked(check: typeof expect, response: ApiResponse<unknown>) {
  const text = JSON.stringify(response.body);
  for (const secret of fixture.secrets) check(text.includes(secret), `answer contains ${secret}`).toBe(false);
}

const cases = keyRoutes.flatMap((route) =>
  pathsOf(route).map((template) => [`${route.id}: ${route.method} ${template}`, route, template] as const),
);

describe.concurrent('every route with a key', () => {
  describe.each(cases)('%s', (_name, route, template) => {
    it('answers 401 without Authorization', async ({ expect }) => {
      expectError(expect, await send(route, template, null), 401, 'unauthorized');
    });

    it('answers 401 to an unknown key', async ({ expect }) => {
      expectError(expect, await send(route, template, fixture.unknownKey), 401, 'unauthorized');
    });

    it('answers 401 to a revoked key', async ({ expect }) => {
      expectError(expect, await send(route, template, fixture.a.revoked), 401, 'unauthorized');
    });

    it('answers 401 to a customer token with one changed character', async ({ expect }) => {
      expectError(expect, await send(route, template, fixture.tamperedToken), 401, 'unauthorized');
    });

    const customer = CUSTOMER[route.id];
    if (customer) {
      it(`takes a customer token (${customer.access}): ${customer.answer}, ${customer.why}`, async ({ expect }) => {
        const response = await send(route, template, fixture.customerToken);
        if (customer.answer === 'served') expect([401, 403], JSON.stringify(response.body)).not.toContain(response.status);
        else expect(response.status, JSON.stringify(response.body)).toBe(customer.answer);
        if (response.status >= 400) expectError(expect, response, response.status, response.body.error.code);
        if (response.status === 404 || response.status === 403) expectNothingLeaked(expect, response);
      });
    } else {
      it('answers 403 forbidden to a customer token (not open to customers)', async ({ expect }) => {
        const error = expectError(expect, await send(route, template, fixture.customerToken), 403, 'forbidden');
        expect(error.message).toBe('a customer access token cannot call this route');
      });
    }

    if (route.customer === 'self') {
      it("answers 403 forbidden to every API key (the signed-in customer's own route)", async ({ expect }) => {
        for (const key of [fixture.a.secretTest, fixture.a.publishableTest]) {
          const error = expectError(expect, await send(route, template, key), 403, 'forbidden');
          expect(error.message).toBe("this route is the signed-in customer's: send the customer's access token");
        }
      });
    } else if (route.scopes.length > 0) {
      it(`answers 403 insufficient_scope naming each missing scope (${scopesOf(route).join(', ')})`, async ({ expect }) => {
        for (const scope of scopesOf(route)) {
          const key = fixture.lacking.get(scope)!;
          expect(missingScope(scopesWithout(scope), scopesOf(route))).toBe(scope);
          const error = expectError(expect, await send(route, template, key), 403, 'insufficient_scope');
          expect(error.message).toContain(scope);
          expect(error.details).toEqual([{ field: 'scope', message: `requires ${scope}` }]);
        }
      });
    }

    if (route.customer === 'self') {
      // Checked above, with every key.
    } else if (route.storefront) {
      it('takes a publishable key (a storefront route)', async ({ expect }) => {
        const response = await send(route, template, fixture.a.publishableTest);
        expect([401, 403], JSON.stringify(response.body)).not.toContain(response.status);
      });
    } else {
      it('answers 403 forbidden to a publishable key (not a storefront route)', async ({ expect }) => {
        const error = expectError(expect, await send(route, template, fixture.a.publishableTest), 403, 'forbidden');
        expect(error.message).toBe('publishable keys can only call storefront routes; use a secret key');
      });
    }

    // The customer's own routes refuse every key with 403 (checked above): an id in their path is the customer's.
    if (takesId(route) && !(route.id in NOT_A_RESOURCE_ID) && route.customer !== 'self') {
      it("answers 404 to another account's key and to the other mode's key, leaking nothing", async ({ expect }) => {
        for (const key of [fixture.b.secretTest, fixture.a.secretLive]) {
          const response = await send(route, template, key);
          expectError(expect, response, 404, 'not_found');
          expectNothingLeaked(expect, response);
        }
      });
    }
  });
});

describe('the coverage of this suite', () => {
  it('covers every route with a key: it takes an id this suite has a fixture for, or is listed in NO_FOREIGN_ID', () => {
    const uncovered: string[] = [];
    for (const route of keyRoutes) {
      if (route.id in NO_FOREIGN_ID) {
        if (takesId(route)) uncovered.push(`${route.id} takes an id: test it with a fixture instead of listing it`);
        continue;
      }
      if (!takesId(route)) uncovered.push(`${route.id} takes no id: list it in NO_FOREIGN_ID with the reason`);
      for (const template of pathsOf(route)) {
        try {
          pathFor(template);
        } catch (error) {
          uncovered.push(`${route.id}: ${(error as Error).message}`);
        }
      }
    }
    expect(uncovered).toEqual([]);
  });

  it('lists no route that does not exist (the tables stay true)', () => {
    const known = new Set(routes.map((route) => route.id));
    const listed = [
      ...Object.keys(NO_FOREIGN_ID),
      ...Object.keys(ANY_KEY),
      ...Object.keys(PUBLIC),
      ...Object.keys(CARRIER_CALLBACKS),
      ...Object.keys(PROOF_LINKS),
      ...Object.keys(NOT_A_RESOURCE_ID),
      ...Object.keys(ACCOUNT_SETTINGS),
      ...STOREFRONT,
      ...Object.keys(CUSTOMER),
      ...Object.keys(SECRET_KEY_SCOPES),
      ...Object.keys(bodies(fixture)),
    ];
    expect(listed.filter((id) => !known.has(id))).toEqual([]);
    expect(
      Object.keys(bodies(fixture)).filter((id) => !['POST', 'PUT', 'PATCH'].includes(routes.find((route) => route.id === id)!.method)),
    ).toEqual([]);
  });

  it('requires at least one scope on every route with a key, except the ones listed in ANY_KEY', () => {
    expect(
      keyRoutes
        .filter((route) => route.scopes.length === 0)
        .map((route) => route.id)
        .sort(),
    ).toEqual(Object.keys(ANY_KEY).sort());
  });

  it("requires account:write on exactly the routes listed in ACCOUNT_SETTINGS: a shipping key cannot change a carrier's credentials", async () => {
    expect(
      keyRoutes
        .filter((route) => route.scopes.includes('account:write'))
        .map((route) => route.id)
        .sort(),
    ).toEqual(Object.keys(ACCOUNT_SETTINGS).sort());
    for (const id of Object.keys(ACCOUNT_SETTINGS)) expect(routes.find((route) => route.id === id)!.scopes, id).toEqual(['account:write']);
    const shipping = await createApiKey({ accountId: fixture.a.accountId, mode: 'test', kind: 'secret', scopes: ['shipments:write'] });
    const body = { public_key: 'probe', secret_key: 'set by a shipping key' };
    const refused = await call('PUT', '/v1/carriers/sendcloud', { key: shipping.key, body });
    const error = expectError(expect, refused, 403, 'insufficient_scope');
    expect(error.details).toEqual([{ field: 'scope', message: 'requires account:write' }]);
    // It still ships and reads the carriers (shipments:write includes shipments:read).
    expect((await call('GET', '/v1/carriers', { key: shipping.key })).status).toBe(200);
  });

  it('makes public (auth: none) exactly the routes listed in PUBLIC, CARRIER_CALLBACKS and PROOF_LINKS: documents answer without a key, unsigned callbacks 401, tokens that open nothing 404', async () => {
    const open = routes.filter((route) => route.auth !== 'key');
    expect(open.map((route) => route.id).sort()).toEqual(
      [...Object.keys(PUBLIC), ...Object.keys(CARRIER_CALLBACKS), ...Object.keys(PROOF_LINKS)].sort(),
    );
    const secret = fixture.proofLink.split('.')[2]!;
    const b = (await call('GET', '/v1/account', { key: fixture.b.secretTest })).body.data.id;
    for (const route of open.filter((candidate) => candidate.id in PROOF_LINKS)) {
      // Unknown, malformed, and A's secret under B's account or A's live mode: nothing opens.
      for (const token of [
        `${fixture.a.accountId}.test.${'x'.repeat(43)}`,
        'probe',
        `${b}.test.${secret}`,
        `${fixture.a.accountId}.live.${secret}`,
      ]) {
        const path = route.path.replace(/\{\w+\}/, token);
        const response = await call(route.method, path, { key: null, ...(route.method === 'POST' ? { body: { comment: 'probe' } } : {}) });
        expectError(expect, response, 404, 'not_found');
        expectNothingLeaked(expect, response);
      }
    }
    // A's own token opens A's proof, without a key.
    expect((await call('GET', `/v1/proof-links/${fixture.proofLink}`, { key: null })).status).toBe(200);
    for (const route of open.filter((candidate) => candidate.id in PUBLIC)) {
      expect((await call(route.method, route.path, { key: null })).status, route.id).toBe(200);
    }
    for (const route of open.filter((candidate) => candidate.id in CARRIER_CALLBACKS)) {
      const token = `${fixture.a.accountId}.test.${'x'.repeat(24)}`;
      const path = route.path.replace(/\{\w+\}/, token);
      const response = await call(route.method, path, {
        key: null,
        body: { action: 'parcel_status_changed', timestamp: 1, parcel: { id: 1 } },
      });
      expectError(expect, response, 401, 'unauthorized');
      expectNothingLeaked(expect, response);
    }
  });

  it('asks a secret key for more scopes exactly on the routes listed in SECRET_KEY_SCOPES', () => {
    const more = Object.fromEntries(routes.filter((route) => route.secretScopes).map((route) => [route.id, route.secretScopes]));
    expect(more).toEqual(Object.fromEntries(Object.entries(SECRET_KEY_SCOPES).map(([id, entry]) => [id, entry.scopes])));
  });

  it('opens exactly the routes listed in CUSTOMER to customer tokens, each the way it is listed', () => {
    const open = Object.fromEntries(routes.filter((route) => route.customer).map((route) => [route.id, route.customer]));
    expect(open).toEqual(Object.fromEntries(Object.entries(CUSTOMER).map(([id, entry]) => [id, entry.access])));
  });

  it('opens exactly the storefront routes to publishable keys, each within the scopes publishable keys have', () => {
    const storefront = routes.filter((route) => route.storefront);
    expect(storefront.map((route) => route.id).sort()).toEqual([...STOREFRONT].sort());
    for (const route of storefront) expect(missingScope(publishableScopes, route.scopes), route.id).toBeUndefined();
  });
});

describe('ids in a request body', () => {
  it("shipments.create does not ship another account's order", async () => {
    const response = await call('POST', '/v1/shipments', {
      key: fixture.b.secretTest,
      body: {
        order_id: fixture.ids.orders,
        carrier: 'sandbox',
        service: 'probe',
        parcels: [{ weight_g: 1, length_mm: 1, width_mm: 1, height_mm: 1 }],
      },
    });
    expectError(expect, response, 404, 'not_found');
    expectNothingLeaked(expect, response);
  });

  it("orders.create does not take another account's customer or product", async () => {
    const response = await call('POST', '/v1/orders', {
      key: fixture.b.secretTest,
      body: {
        customer_id: fixture.ids.customers,
        items: [{ product_id: fixture.ids.products, quantity: 100, options: { paper: 'matt300' } }],
      },
    });
    expect([404, 422], JSON.stringify(response.body)).toContain(response.status);
    expectError(expect, response, response.status, response.body.error.code);
    expectNothingLeaked(expect, response);
  });

  it("invoices.create does not take another account's order or customer", async () => {
    // B has no company details: its refusal must still be about the ids only once it has them.
    const b = fixture.b.secretTest;
    for (const body of [
      { order_id: fixture.ids.orders },
      { customer_id: fixture.ids.customers, items: [{ description: 'Probe', quantity: 1, unit_price: 1 }] },
    ]) {
      const response = await call('POST', '/v1/invoices', { key: b, body });
      expect([404, 422], JSON.stringify(response.body)).toContain(response.status);
      expectError(expect, response, response.status, response.body.error.code);
      expectNothingLeaked(expect, response);
    }
  });
});

describe('after all those refused requests', () => {
  it("account A's resources are all still there, unchanged", async () => {
    const key = fixture.a.secretTest;
    const { ids } = fixture;
    const reads = {
      customer: `/v1/customers/${ids.customers}`,
      address: `/v1/customers/${ids.customers}/addresses/${ids.addresses}`,
      order: `/v1/orders/${ids.orders}`,
      product: `/v1/products/${ids.products}`,
      'legacy product': `/v1/legacy-products/${ids['legacy-products']}`,
      webhook: `/v1/webhooks/${ids.webhooks}`,
      delivery: `/v1/webhooks/${ids.webhooks}/deliveries/${ids.deliveries}`,
      event: `/v1/events/${ids.events}`,
      invoice: `/v1/invoices/${ids.invoices}`,
      quote: `/v1/quotes/${ids.quotes}`,
      shipment: `/v1/shipments/${ids.shipments}`,
    } as const;
    for (const [what, path] of Object.entries(reads)) {
      const response = await call('GET', path, { key });
      expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(JSON.stringify(response.body), what).not.toContain('security suite');
    }
    const webhook = (await call('GET', reads.webhook, { key })).body.data;
    expect(webhook.active).toBe(true);
    expect((await call('GET', `/v1/webhooks/${ids.webhooks}/deliveries`, { key })).body.pagination.total).toBe(1);
    // The fixture customer and the signed-in one: nobody's refused request made another.
    expect((await call('GET', '/v1/customers', { key })).body.pagination.total).toBe(2);
    const invoice = (await call('GET', reads.invoice, { key })).body.data;
    expect(invoice).toMatchObject({ status: 'open', amount_paid: 0, payments: [] });
    expect((await call('GET', reads.quote, { key })).body.data).toMatchObject({ status: 'open', order_id: null, version: 1 });
    expect((await call('GET', reads.shipment, { key })).body.data).toMatchObject({ status: 'label_created', version: 2 });
    expect((await call('GET', '/v1/carriers', { key })).body.data).toEqual([]);
  });
});
