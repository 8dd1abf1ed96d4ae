/**
 * The Lambda bundles themselves (built exactly as CDK builds them, stand-ins included) run
 * against the real local engines: what is deployed is what works, not only the sources.
 */
import { build } from 'esbuild';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { apiEvent, benchContext, type ProxyHandler } from '#bench/latency';
import { esbuildOptions } from '#infra/bundling';
import { resolveApiKey } from '#shared/accounts/service';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { uniqueEmail } from '#test/support/http';

const root = resolve(import.meta.dirname, '../..');

const built: string[] = [];
afterAll(() => Promise.all(built.map((dir) => rm(dir, { recursive: true, force: true }))));

async function bundled(entry: string): Promise<ProxyHandler> {
  const dir = await mkdtemp(join(tmpdir(), 'bundle-'));
  built.push(dir);
  const file = join(dir, 'index.mjs');
  await build(esbuildOptions(join(root, entry), file));
  return (await import(pathToFileURL(file).href)).handler as ProxyHandler;
}

describe('bundled handlers', () => {
  it('create (with Idempotency-Key) and read a customer exactly as deployed', { timeout: 60_000 }, async () => {
    const resolution = await resolveApiKey(inject('fixtures').shop.secretTest);
    if (resolution.status !== 'ok') throw new Error('fixture key does not resolve');
    const principal = resolution.principal;
    const [create, get] = await Promise.all([bundled('functions/customers/create.ts'), bundled('functions/customers/get.ts')]);

    const body = { name: 'Bundled', email: uniqueEmail('bundled') };
    const createEvent = () => {
      const event = apiEvent(principal, 'POST', '/v1/customers', '/v1/customers', null, body);
      event.headers['Idempotency-Key'] = `bundle-${body.email}`;
      return event;
    };
    const first = await create(createEvent(), benchContext('customers.create'));
    expect(first.statusCode, first.body).toBe(201);
    const replay = await create(createEvent(), benchContext('customers.create'));
    expect(replay.statusCode).toBe(201);
    expect(replay.headers?.['Idempotent-Replayed']).toBe('true');
    expect(JSON.parse(replay.body)).toEqual(JSON.parse(first.body));

    const id = JSON.parse(first.body).data.id as number;
    const read = await get(
      apiEvent(principal, 'GET', '/v1/customers/{id}', `/v1/customers/${id}`, { id: String(id) }),
      benchContext('customers.get'),
    );
    expect(read.statusCode).toBe(200);
    expect(JSON.parse(read.body).data).toMatchObject({ id, email: body.email });
    expect(read.headers?.['X-RateLimit-Limit']).toBeDefined();
  });

  // A bundle keeps only the route rows its operations name, and its `routes` lists only those (shared/routes.ts):
  // the OpenAPI handler's operations name every row, so its document is the whole table, in the table's order.
  it('serves the OpenAPI document of the sources, byte for byte, from its bundle', { timeout: 60_000 }, async () => {
    const resolution = await resolveApiKey(inject('fixtures').shop.secretTest);
    if (resolution.status !== 'ok') throw new Error('fixture key does not resolve');
    const openapi = await bundled('functions/openapi/get.ts');
    const served = await openapi(
      apiEvent(resolution.principal, 'GET', '/v1/openapi.json', '/v1/openapi.json', null),
      benchContext('openapi.get'),
    );
    expect(served.statusCode).toBe(200);
    const { servers } = JSON.parse(served.body) as { servers: unknown };
    expect(served.body).toBe(JSON.stringify({ ...buildOpenApiDocument(), servers }));
  });
});
