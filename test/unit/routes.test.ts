import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as table from '#shared/routes';
import { handlerOf, routes } from '#shared/routes';
import { allOperations } from '#shared/openapi/contracts';
import { buildOpenApiDocument } from '#shared/openapi/document';

describe('the route table', () => {
  it('has unique ids and unique method + path pairs', () => {
    expect(new Set(routes.map((route) => route.id)).size).toBe(routes.length);
    const pairs = routes.flatMap((route) => [route.path, ...(route.aliases ?? [])].map((path) => `${route.method} ${path}`));
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('is its rows: each row is a named export (for an operation to name) and in `routes` once', () => {
    const exported = Object.values(table).filter((value) => routes.includes(value as table.RouteDefinition));
    expect(new Set(exported).size).toBe(routes.length);
    expect(exported).toHaveLength(routes.length);
  });

  it('names each handler after its route id', () => {
    expect(handlerOf('orders.list')).toBe('functions/orders/list.ts');
    expect(handlerOf('customers.quotes')).toBe('functions/customers/quotes.ts');
    expect(handlerOf('auth.passwordResetConfirm')).toBe('functions/auth/password-reset-confirm.ts');
    expect(handlerOf('legacy-products.calculate')).toBe('functions/legacy-products/calculate.ts');
    for (const route of routes) expect(route.handler, route.id).toBe(handlerOf(route.id));
  });

  it('points every route at a handler module that exists', () => {
    for (const route of routes) expect(existsSync(resolve(import.meta.dirname, '../..', route.handler)), route.handler).toBe(true);
  });

  it("gives every authenticated route at least one scope, except the caller's own account", () => {
    const anyKey = new Set(['account.get']);
    for (const route of routes.filter((r) => r.auth === 'key' && !anyKey.has(r.id)))
      expect(route.scopes.length, route.id).toBeGreaterThan(0);
  });

  it('documents every route: a summary and a tag', () => {
    for (const route of routes) {
      expect(route.summary.trim(), route.id).not.toBe('');
      expect(route.tag.trim(), route.id).not.toBe('');
    }
  });

  it('has exactly one operation (schemas) per route', () => {
    const operationRoutes = allOperations.map((operation) => operation.route.id).sort();
    expect(operationRoutes).toEqual(routes.map((route) => route.id).sort());
  });
});

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('is OpenAPI 3.0.3 and documents every route and alias with its method', () => {
    expect(document.openapi).toBe('3.0.3');
    for (const route of routes) {
      for (const path of [route.path, ...(route.aliases ?? [])]) {
        expect(document.paths?.[path]?.[route.method.toLowerCase() as 'get'], `${route.method} ${path}`).toBeDefined();
      }
    }
  });

  it('never mentions the removed product field names', () => {
    const text = JSON.stringify(document);
    for (const name of ['"sku"', '"category_id"', '"min_quantity"']) expect(text).not.toContain(name);
  });
});

/**
 * POST routes that answer new tokens: an idempotency record stores the answer to replay it, and
 * tokens must never be stored in the clear (nor a used refresh token answered again).
 */
const ISSUES_TOKENS: Record<string, string> = {
  'auth.login': 'answers a session (access and refresh token)',
  'auth.refresh': 'answers a new token pair; a replay would undo the rotation',
  'proofs.create': "answers the proof link's token once (only its SHA-256 is stored; an idempotency record would keep it in the clear)",
};

/**
 * POST routes a carrier calls (no key, so no tenant to scope an Idempotency-Key to): a repeated
 * callback is recognised by its own content instead (the same report twice is one).
 */
const CARRIER_CALLBACKS: Record<string, string> = {
  'carriers.sendcloudWebhook': "Sendcloud's signed callback: a repeated one is the same report (parcel, status, timestamp)",
};

/**
 * POST routes a proof link's holder calls (no key, so no tenant to scope an Idempotency-Key to): a
 * proof takes one decision, so a repeat is refused by the proof's own state (409), never applied twice.
 */
const PROOF_LINKS: Record<string, string> = {
  'proof-links.approve': 'one decision per proof: a repeated approval answers 409',
  'proof-links.requestChanges': 'one decision per proof: a repeated request answers 409',
};

describe('POST handlers', () => {
  it('all opt in to Idempotency-Key (only their bundles carry the idempotency code), but the ones that issue tokens', () => {
    for (const route of routes.filter(
      (r) => r.method === 'POST' && !(r.id in ISSUES_TOKENS) && !(r.id in CARRIER_CALLBACKS) && !(r.id in PROOF_LINKS),
    )) {
      const source = readFileSync(resolve(import.meta.dirname, '../..', route.handler), 'utf8');
      expect(source, route.handler).toMatch(/idempotency: idempotent\(/);
    }
  });

  it('and no other handler does', () => {
    for (const route of routes.filter(
      (r) => r.method !== 'POST' || r.id in ISSUES_TOKENS || r.id in CARRIER_CALLBACKS || r.id in PROOF_LINKS,
    )) {
      const source = readFileSync(resolve(import.meta.dirname, '../..', route.handler), 'utf8');
      expect(source, route.handler).not.toMatch(/idempotent\(/);
    }
  });
});
