/**
 * Hostile inputs to every route, generated from the OpenAPI document (`buildOpenApiDocument`, so
 * a route is covered the day it is documented): for each operation, each path parameter, each
 * query parameter and each field of its request body gets boundary and junk values — huge,
 * negative and fractional numbers, 2^53 + 1, empty and very long strings, unpaired surrogates,
 * NUL and control characters, malformed percent-encoding, wrong types, unknown keys, `__proto__`,
 * deep nesting, arrays for objects — and the whole body gets junk of its own (malformed JSON,
 * other JSON types, the wrong media type, CSV junk). A few thousand requests with a secret `*`
 * key of an account of the suite's own, at bounded concurrency.
 *
 * Every answer must be below 500, and every 4xx the documented error body (`{ success: false,
 * error: { code, message, details?, request_id } }`) with `X-Request-Id` equal to its request id.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { ErrorSchema } from '#shared/schemas/common';
import { call } from '#test/support/http';
import type { DataOf } from '#test/support/api-types';
import { brochure, businessCards, smallTable } from '#test/support/products';
import { startReceiver, type Receiver } from '#test/support/receiver';
import { eventually } from '#test/support/wait';
import { freshShop } from '#test/support/shop';

const { api } = inject('fixtures');

/** The part of an OpenAPI schema object the fuzzer reads. */
interface Schema {
  $ref?: string;
  type?: string;
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  [keyword: string]: unknown;
}
interface Operation {
  operationId: string;
  parameters?: { name: string; in: 'path' | 'query'; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Probe {
  label: string;
  method: string;
  path: string;
  body?: string | Buffer;
  contentType?: string;
}

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

// ---- Junk ------------------------------------------------------------------------------------

/** Path parameter values, as they appear in the URL (already percent-encoded where it matters). */
const PATH_JUNK = [
  '%ff',
  '%',
  '%E0%A4%A',
  '%ED%A0%80', // an encoded unpaired surrogate
  '%00',
  '%2F',
  '0',
  '-1',
  '1.5',
  '1e3',
  '9007199254740992',
  '9007199254740993',
  '99999999999999999999',
  'abc',
  '__proto__',
  '%20%201',
  'x'.repeat(2000),
];

/** Query parameter values, as they appear in the URL. */
const QUERY_JUNK = [
  '99999999999999999999',
  '85899346',
  '1000000000000',
  '-1',
  '0',
  '1.5',
  '9007199254740993',
  '',
  'x'.repeat(4000),
  '%ff',
  '%ED%A0%80',
  '%00',
  'a%0Ab',
  'true',
  '%5B%5D',
  '__proto__',
  '2026-02-30',
  '9999-99-99T99:99:99Z',
];

/** Raw JSON number texts JSON.stringify cannot write: rounded, out of range, or negative zero. */
const RAW_NUMBERS = ['9007199254740993', '1e400', '-1e400', '-0', '1.0000000000000001', '123456789012345678901234567890'];

/** Field values (the raw numbers go in as placeholders replaced after JSON.stringify). */
const FIELD_JUNK: unknown[] = [
  1e308,
  -1,
  1.5,
  0,
  2 ** 53 + 1,
  '',
  'x'.repeat(100_000),
  '\ud800',
  'a\udc00b',
  '\u0000',
  'a\u001bb\u007f',
  ' ',
  true,
  null,
  [],
  {},
  [[[1]]],
  { __proto__: null, nested: { deeper: ['x'] } },
  '1',
  ...RAW_NUMBERS.map((raw) => ({ raw })),
];

/** Whole JSON bodies. */
const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const BODY_JUNK: { label: string; body: string; contentType?: string }[] = [
  { label: 'malformed JSON', body: '{"a":' },
  { label: 'an array', body: '[]' },
  { label: 'a string', body: '"text"' },
  { label: 'a number', body: '123' },
  { label: 'null', body: 'null' },
  { label: 'an empty object', body: '{}' },
  { label: 'an unknown key', body: '{"zz_unknown":1}' },
  { label: '__proto__', body: '{"__proto__":{"admin":true}}' },
  { label: 'constructor.prototype', body: '{"constructor":{"prototype":{"admin":true}}}' },
  { label: 'deeply nested arrays', body: deep(20_000) },
  { label: 'deeply nested objects', body: deepObject(5_000) },
  { label: '2000 unknown keys', body: JSON.stringify(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]))) },
  { label: 'a BOM before JSON', body: '\ufeff{}' },
  { label: 'an unpaired surrogate key', body: '{"\\ud800":1}' },
  { label: 'JSON as text/plain', body: '{}', contentType: 'text/plain' },
  { label: 'JSON as form data', body: 'a=1', contentType: 'application/x-www-form-urlencoded' },
];

/** Bodies of the CSV import. */
const CSV_JUNK: { label: string; body: string | Buffer; contentType?: string }[] = [
  { label: 'an empty body', body: '' },
  { label: 'a header only', body: 'format,color,quantity,pages,price\n' },
  { label: 'no header', body: 'A4,4/4,100,8,1\n' },
  { label: 'invalid UTF-8', body: Buffer.from([0x66, 0xff, 0xfe, 0x0a, 0xc3, 0x28]) },
  { label: 'NUL bytes', body: 'format,color,quantity,pages,price\nA4\u0000,4/4,100,8,1\n' },
  { label: 'an unclosed quote', body: 'format,color,quantity,pages,price\n"A4,4/4,100,8,1\n' },
  { label: 'a quote mid-field', body: 'format,color,quantity,pages,price\nA"4,4/4,100,8,1\n' },
  { label: 'carriage returns only', body: 'format,color,quantity,pages,price\rA4,4/4,100,8,1\r' },
  { label: '100,000 columns', body: `format,color,quantity,pages,price\n${'x,'.repeat(100_000)}\n` },
  { label: 'huge numbers', body: 'format,color,quantity,pages,price\nA4,4/4,99999999999999999999,1e400,1e400\n' },
  { label: 'negative and fractional', body: 'format,color,quantity,pages,price\nA4,4/4,-1,1.5,-0.01\n' },
  { label: 'a 1 MB cell', body: `format,color,quantity,pages,price\n${'x'.repeat(1_000_000)},4/4,1,1,1\n` },
  { label: '200,000 lines', body: `format,color,quantity,pages,price\n${'a\n'.repeat(200_000)}` },
  { label: 'over the body limit', body: 'a\n'.repeat(3 * 1024 * 1024) },
  { label: 'JSON instead of CSV', body: '{"prices":[]}', contentType: 'application/json' },
];

// ---- The OpenAPI document as requests --------------------------------------------------------

const resolve = (schema: Schema | undefined): Schema | undefined => {
  let current = schema;
  for (let hops = 0; current && hops < 10; hops++) {
    if (current.$ref) current = document.components.schemas[String(current.$ref).split('/').pop()!];
    else if (Array.isArray(current.allOf) && current.allOf.length === 1) current = current.allOf[0];
    else break;
  }
  return current;
};

/** Every field path of a body schema (objects' properties, arrays' first element), to `depth`. */
function fieldPaths(schema: Schema | undefined, depth = 4, prefix: (string | number)[] = []): (string | number)[][] {
  const resolved = resolve(schema);
  if (!resolved || depth === 0) return [];
  if (resolved.type === 'array') return fieldPaths(resolved.items, depth - 1, [...prefix, 0]);
  const paths: (string | number)[][] = [];
  for (const [name, property] of Object.entries<Schema>(resolved.properties ?? {})) {
    paths.push([...prefix, name], ...fieldPaths(property, depth - 1, [...prefix, name]));
  }
  return paths;
}

/** `base` with `value` at `path` (objects and arrays on the way created as needed). */
function withValue(base: unknown, path: (string | number)[], value: unknown): unknown {
  const root = structuredClone(base ?? {}) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = root;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
      return;
    }
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = typeof path[index + 1] === 'number' ? [{}] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return root;
}

/** JSON text of `body`, raw number placeholders replaced by their text. */
function jsonText(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.raw === 'string' && Object.keys(value).length === 1) {
      raws.push(value.raw);
      return `__raw_${raws.length - 1}__`;
    }
    return value;
  });
  return text.replace(/"__raw_(\d+)__"/g, (_match, index: string) => raws[Number(index)]!);
}

// ---- Fixtures ----------------------------------------------------------------------------------

let key: string;
let receiver: Receiver;
/** Path segment before a parameter → the id of this suite's resource of that type. */
const ids: Record<string, string> = {};
/** Valid bodies, so that each junk field is the only thing wrong. */
let validBodies: Record<string, unknown> = {};
let probes: Probe[] = [];

beforeAll(async () => {
  key = (await freshShop('Hostile Inputs')).secretTest;
  const created = async <const Path extends string>(method: 'POST', path: Path, body: unknown) => {
    const response = await call(method, path, { key, body });
    if (response.status !== 201) throw new Error(`fixture ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data as DataOf<'POST', Path>;
  };
  const customer = await created('POST', '/v1/customers', { name: 'Hostile Probe', email: `hostile.${randomUUID()}@example.com` });
  const address = await created('POST', `/v1/customers/${customer.id}/addresses`, {
    type: 'shipping',
    name: 'Probe',
    line1: 'Hafenstraße 9',
    postal_code: '20457',
    city: 'Hamburg',
    country: 'DE',
  });
  const product = await created('POST', '/v1/products', businessCards());
  const legacy = await created('POST', '/v1/legacy-products', brochure(smallTable));
  const order = await created('POST', '/v1/orders', {
    customer_id: customer.id,
    items: [{ product_id: product.id, quantity: 100, options: { paper: 'matt300' } }],
  });
  receiver = await startReceiver();
  const webhook = await created('POST', '/v1/webhooks', { url: receiver.url, events: ['invoice.paid'] });
  await call('POST', `/v1/webhooks/${webhook.id}/test`, { key, body: { event: 'invoice.paid' } });
  const history = await eventually(
    async () => (await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { key })).body,
    (page) => Boolean(page?.data?.[0]?.id),
  );
  Object.assign(ids, {
    customers: String(customer.id),
    addresses: String(address.id),
    orders: String(order.id),
    products: String(product.id),
    'legacy-products': String(legacy.id),
    webhooks: String(webhook.id),
    deliveries: String(history.data[0]!.id),
  });
  validBodies = {
    'orders.create': { customer_id: customer.id, items: [{ product_id: product.id, quantity: 100, options: { paper: 'matt300' } }] },
    'orders.update': { notes: 'probe' },
    'orders.replaceLineFiles': { file_ids: [1] },
    'customers.create': { name: 'Probe', email: `probe.${randomUUID()}@example.com` },
    'customers.update': { name: 'Probe' },
    'addresses.create': { type: 'billing', name: 'Probe', line1: 'Musterweg 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
    'addresses.update': { city: 'Bern' },
    'products.create': businessCards(),
    'products.update': { name: 'Probe' },
    'products.calculate': { quantity: 100, options: { paper: 'matt300' } },
    'legacy-products.create': brochure(smallTable),
    'legacy-products.calculate': { format: 'A5', color: '4/4', quantity: 100, pages: 8 },
    'webhooks.create': { url: 'http://127.0.0.1:9/probe', events: ['*'] },
    'webhooks.update': { description: 'probe' },
    'webhooks.test': { event: 'invoice.paid' },
  };
  probes = allProbes();
}, 120_000);

afterAll(() => receiver?.close());

/** `template` with each `{param}` replaced by this suite's resource id of its type (`junk` for `param`). */
function pathFor(template: string, param?: string, junk?: string): string {
  return template.replace(/([^/]+)\/\{(\w+)\}/g, (_match, segment: string, name: string) => {
    const value = name === param ? junk! : (ids[segment] ?? '1');
    return `${segment}/${value}`;
  });
}

function probesOf(template: string, method: string, operation: Operation): Probe[] {
  const probes: Probe[] = [];
  const route = operation.operationId.replace(/\.alias\d*$/, '');
  const upper = method.toUpperCase();
  const parameters = operation.parameters ?? [];
  const json = operation.requestBody?.content['application/json'];
  const csv = operation.requestBody?.content['text/csv'];
  const validBody = json ? jsonText(validBodies[route] ?? {}) : csv ? 'format,color,quantity,pages,price\nA5,4/4,100,8,1\n' : undefined;
  const contentType = json ? 'application/json' : csv ? 'text/csv' : undefined;
  const base = { method: upper, body: validBody, contentType };

  for (const parameter of parameters.filter((candidate) => candidate.in === 'path')) {
    for (const junk of PATH_JUNK) {
      probes.push({
        ...base,
        label: `${upper} ${template} path ${parameter.name}=${junk.slice(0, 20)}`,
        path: pathFor(template, parameter.name, junk),
      });
    }
  }
  const query = parameters.filter((candidate) => candidate.in === 'query');
  if (query.length) {
    const path = pathFor(template);
    for (const parameter of query) {
      for (const junk of QUERY_JUNK) {
        probes.push({
          ...base,
          label: `${upper} ${template} query ${parameter.name}=${junk.slice(0, 20)}`,
          path: `${path}?${parameter.name}=${junk}`,
        });
      }
      probes.push({
        ...base,
        label: `${upper} ${template} query ${parameter.name} twice`,
        path: `${path}?${parameter.name}=1&${parameter.name}=2`,
      });
    }
    for (const extra of ['zz_unknown=1', '__proto__=1', 'constructor=1', '__proto__[admin]=1']) {
      probes.push({ ...base, label: `${upper} ${template} query ${extra}`, path: `${path}?${extra}` });
    }
  }
  if (json) {
    const path = pathFor(template);
    const valid = validBodies[route] ?? {};
    for (const field of fieldPaths(json.schema)) {
      FIELD_JUNK.forEach((junk, index) => {
        probes.push({
          ...base,
          label: `${upper} ${template} body ${field.join('.')} junk #${index}`,
          path,
          body: jsonText(withValue(valid, field, junk)),
        });
      });
    }
    for (const junk of BODY_JUNK) {
      probes.push({
        label: `${upper} ${template} body ${junk.label}`,
        method: upper,
        path,
        body: junk.body,
        contentType: junk.contentType ?? 'application/json',
      });
    }
  }
  if (csv) {
    const path = pathFor(template);
    for (const junk of CSV_JUNK) {
      probes.push({
        label: `${upper} ${template} CSV ${junk.label}`,
        method: upper,
        path,
        body: junk.body,
        contentType: junk.contentType ?? 'text/csv',
      });
    }
  }
  return probes;
}

/** Every probe of every documented operation (built once the fixtures exist). */
const allProbes = (): Probe[] =>
  Object.entries(document.paths).flatMap(([template, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => probesOf(template, method, operation)),
  );

// ---- Sending and checking --------------------------------------------------------------------

/** What is wrong with an answer, or undefined. */
function problemOf(status: number, headers: Headers, text: string): string | undefined {
  if (status >= 500) return `answered ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  // The documented shape, and nothing besides it (the schema alone would strip unknown keys).
  const parsed = ErrorSchema.safeParse(body);
  const shapeOk =
    parsed.success &&
    Object.keys(body as object)
      .sort()
      .join() === 'error,success' &&
    parsed.data.error.message.length > 0 &&
    Object.keys((body as { error: object }).error).every((name) => ['code', 'message', 'details', 'request_id'].includes(name));
  if (!shapeOk) return `answered ${status} without the documented error body: ${text.slice(0, 300)}`;
  const error = parsed.data.error;
  if (headers.get('x-request-id') !== error.request_id)
    return `answered ${status} with X-Request-Id ${headers.get('x-request-id')} ≠ ${error.request_id}`;
  return undefined;
}

async function send(probe: Probe): Promise<string | undefined> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (probe.contentType && probe.body !== undefined) headers['Content-Type'] = probe.contentType;
  const response = await fetch(`${api}${probe.path}`, { method: probe.method, headers, body: probe.body });
  return problemOf(response.status, response.headers, await response.text());
}

/** Sends every probe, at most `limit` at a time; returns the problems, labelled. */
async function sendAll(list: readonly Probe[], limit: number): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < list.length) {
      const probe = list[next++]!;
      const problem = await send(probe).catch((error: unknown) => `request failed: ${(error as Error).message}`);
      if (problem) problems.push(`${probe.label}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return problems;
}

describe('hostile inputs generated from the OpenAPI document', () => {
  it('cover every documented operation with a few thousand probes', () => {
    const operations = Object.values(document.paths).flatMap((operations) => Object.values(operations));
    expect(operations.length).toBeGreaterThan(40);
    expect(probes.length).toBeGreaterThan(2000);
  });

  it('never answer 5xx, and every 4xx has the documented error body and X-Request-Id', async () => {
    const problems = await sendAll(probes, 6);
    expect(problems.slice(0, 40), `${problems.length} of ${probes.length} probes failed`).toEqual([]);
  }, 300_000);
});
