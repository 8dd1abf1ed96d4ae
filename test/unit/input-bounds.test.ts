/**
 * No input reaches a 500, and inputs are bounded before they cost anything — the pure parts:
 * text that cannot be stored faithfully is refused by every text schema, ids beyond 2^53 − 1 and
 * pages beyond MAX_PAGE are refused, option maps are bounded, validation errors list a bounded
 * number of details, the JSON body parser refuses `__proto__` as a field (and survives deep
 * nesting), and the OpenAPI document names the caller's base URL and marks the spec aliases.
 */
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { CustomerCreateSchema, CustomerListQuerySchema, CustomerUpdateSchema } from '#shared/customers/schema';
import { ValidationError, type DomainError } from '#shared/errors';
import { toErrorResult } from '#shared/http/error-mapping';
import { forbiddenKeyPaths, jsonBody } from '#shared/http/middleware/json-body';
import { textBody } from '#shared/http/raw-body';
import { parseOrThrow } from '#shared/http/validation';
import { LegacyCalculateBodySchema, LegacyProductCreateSchema } from '#shared/legacy-products/schema';
import { buildOpenApiDocument, serverUrlOf } from '#shared/openapi/document';
import { OrderCreateSchema, OrderListQuerySchema } from '#shared/orders/schema';
import { CalculateBodySchema, ProductCreateSchema, ProductListQuerySchema } from '#shared/products/schema';
import { idPath, MAX_PRODUCT_OPTIONS, optionalText, requiredText } from '#shared/schemas/common';
import { MAX_PAGE, paginationQuery } from '#shared/schemas/pagination';
import { TEXT_MESSAGE, textProblem } from '#shared/schemas/text';
import { WebhookCreateSchema } from '#shared/webhooks/schema';
import { handler as openApiHandler } from '#functions/openapi/get';
import { apiGatewayEvent, apiRequestEvent } from '#test/support/lambda-events';

const messagesOf = (schema: z.ZodType, input: unknown): string[] => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('text that cannot be stored faithfully', () => {
  it('is an unpaired surrogate or a control character; free text may hold line breaks and tabs', () => {
    expect(textProblem('Anna Schmidt')).toBeUndefined();
    expect(textProblem('emoji 😀 and ümlauts')).toBeUndefined();
    for (const bad of ['\ud800', 'a\udc00', 'x\ud83d', '\u0000', 'a\u0007b', 'a\u001bb', '\u007f', '\u0085', 'line\nbreak', 'tab\there']) {
      expect(textProblem(bad), JSON.stringify(bad)).toBeDefined();
    }
    expect(textProblem('line\nbreak\r\nand\ttab', true)).toBeUndefined();
    expect(textProblem('NUL\u0000', true)).toBeDefined();
    expect(textProblem('\ud800', true)).toBeDefined();
  });

  it('is refused with a 422 detail by the shared text schemas', () => {
    expect(messagesOf(requiredText(10), '\ud800')).toEqual([`: ${TEXT_MESSAGE}`]);
    expect(messagesOf(requiredText(10), 'a\u0000b')).toEqual([`: ${TEXT_MESSAGE}`]);
    expect(messagesOf(optionalText(10), 'a\nb')).toHaveLength(1);
    expect(messagesOf(optionalText(10, { multiline: true }), 'a\nb')).toEqual([]);
    expect(messagesOf(optionalText(10, { multiline: true }), 'a\u0000b')).toHaveLength(1);
  });

  it('is refused everywhere text reaches an item or a key: names, notes, codes, URLs, legacy prices, filters', () => {
    const cases: [z.ZodType, unknown, string][] = [
      [CustomerCreateSchema, { name: '\ud800', email: 'a@example.com' }, 'name'],
      [CustomerUpdateSchema, { notes: 'fine\nbut\u0000' }, 'notes'],
      [CustomerListQuerySchema, { email: 'a\u0000@example.com' }, 'email'],
      [CustomerListQuerySchema, { q: '\udfff' }, 'q'],
      [LegacyCalculateBodySchema, { format: '\ud800', color: '4/4', quantity: 100, pages: 8 }, 'format'],
      [
        LegacyProductCreateSchema,
        { name: 'Brochure', prices: [{ format: 'A4', color: '\ud800', quantity: 1, pages: 1, price: 1 }] },
        'prices.0.color',
      ],
      [LegacyProductCreateSchema, { name: 'Brochure', brands: ['a\u0001'] }, 'brands.0'],
      [LegacyProductCreateSchema, { name: 'Brochure', image: 'https://cdn.example.com/\ud800.jpg' }, 'image'],
      [ProductCreateSchema, { name: 'Cards', category: 'cards\u0000', base_price: 1 }, 'category'],
      [ProductListQuerySchema, { q: 'x\ud800' }, 'q'],
      [WebhookCreateSchema, { url: 'https://example.com/\u0000', events: ['*'] }, 'url'],
      [CalculateBodySchema, { quantity: 1, options: { 'paper\u0000': 'gloss' } }, 'options'],
    ];
    for (const [schema, input, field] of cases) {
      const messages = messagesOf(schema, input);
      expect(
        messages.some((message) => message.startsWith(field)),
        `${field}: ${JSON.stringify(messages)}`,
      ).toBe(true);
    }
  });
});

describe('ids beyond 2^53 − 1', () => {
  const path = idPath('Order id');

  it('are refused in paths (a 404 like any malformed id), not rounded to another id', () => {
    expect(path.parse({ id: '9007199254740991' })).toEqual({ id: 9007199254740991 });
    for (const id of ['9007199254740992', '9007199254740993', '9999999999999999', '99999999999999999', '0', '-1', '1.5', 'abc', '']) {
      expect(path.safeParse({ id }).success, id).toBe(false);
    }
  });

  it('are refused in query strings and bodies', () => {
    expect(messagesOf(OrderListQuerySchema, { starting_after: '9007199254740993' })).toEqual([
      'starting_after: starting_after must be a positive integer of at most 16 digits (up to 9007199254740991)',
    ]);
    expect(messagesOf(OrderListQuerySchema, { customer_id: '9007199254740991' })).toEqual([]);
    // JSON.parse rounds 9007199254740993 to …992, which is no longer a safe integer: refused, never another id.
    const body = JSON.parse('{"customer_id": 9007199254740993, "items": [{"product_id": 9007199254740993, "quantity": 1}]}');
    expect([...new Set(messagesOf(OrderCreateSchema, body).map((message) => message.split(':')[0]))]).toEqual([
      'customer_id',
      'items.0.product_id',
    ]);
  });
});

describe('pages', () => {
  const query = z.strictObject({ ...paginationQuery });

  it(`end at ${MAX_PAGE}, so page × per_page stays far inside DynamoDB's range`, () => {
    expect(query.parse({ page: String(MAX_PAGE), per_page: '100' })).toEqual({ page: MAX_PAGE, per_page: 100 });
    for (const page of [String(MAX_PAGE + 1), '85899346', '1000000000000', '9'.repeat(400)]) {
      expect(messagesOf(query, { page }), page).toEqual([`page: page must be at most ${MAX_PAGE}`]);
    }
    expect(MAX_PAGE * 100).toBeLessThan(2 ** 31 - 1);
  });

  it('are documented as bounded integers', () => {
    const list = buildOpenApiDocument().paths!['/v1/products']!.get as { parameters: { name: string; schema: unknown }[] };
    const page = list.parameters.find((parameter) => parameter.name === 'page');
    expect(page?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 });
  });
});

describe('option maps', () => {
  const choices = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`option${index}`, 'value']));

  it(`hold at most ${MAX_PRODUCT_OPTIONS} entries (one per option a product may have)`, () => {
    expect(messagesOf(CalculateBodySchema, { quantity: 1, options: choices(MAX_PRODUCT_OPTIONS) })).toEqual([]);
    expect(messagesOf(CalculateBodySchema, { quantity: 1, options: choices(MAX_PRODUCT_OPTIONS + 1) })).toEqual([
      `options: must choose at most ${MAX_PRODUCT_OPTIONS} options`,
    ]);
    const line = { product_id: 1, quantity: 1, options: choices(10_000) };
    expect(messagesOf(OrderCreateSchema, { customer_id: 1, items: [line] })).toEqual([
      `items.0.options: must choose at most ${MAX_PRODUCT_OPTIONS} options`,
    ]);
  });
});

describe('validation errors are bounded', () => {
  it('list at most 50 details, say how many there were, and never build the rest', () => {
    const body = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`unknown_${index}`, 1]));
    const error = thrown(() => parseOrThrow(CustomerCreateSchema, body, 'request body')) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toHaveLength(50);
    expect(error.message).toBe('The request body is invalid (100002 problems; the first 50 are listed)');
  });

  it('keep any error body small: details capped, field names and messages cut', () => {
    const huge = 'k'.repeat(1_000_000);
    const details = Array.from({ length: 10_000 }, (_, index) => ({ field: `${huge}${index}`, message: huge }));
    const result = toErrorResult(new ValidationError('Bad', details), 'req-1');
    expect(result.body.length).toBeLessThan(64 * 1024);
    const body = JSON.parse(result.body);
    expect(body.error.details).toHaveLength(50);
    expect(body.error.message).toBe('Bad (10000 problems; the first 50 are listed)');
    expect(body.error.details[0].field.length).toBeLessThanOrEqual(200);
  });
});

describe('the JSON body', () => {
  const run = async (body: string | null, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
    const event = { body, headers, isBase64Encoded: false } as never as { body: unknown };
    await jsonBody().before!({ event } as never);
    return event.body;
  };

  it('refuses __proto__ anywhere as the unknown field it is (422 naming it), without assigning it', async () => {
    for (const [text, field] of [
      ['{"name":"x","__proto__":{"admin":true}}', '__proto__'],
      ['{"items":[{"options":{"__proto__":"x"}}]}', 'items.0.options.__proto__'],
    ] as const) {
      const error = (await run(text).catch((caught: unknown) => caught)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.details).toEqual([{ field, message: 'Unknown field' }]);
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(forbiddenKeyPaths(JSON.parse('{"constructor":{"prototype":1}}'))).toEqual([]);
  });

  it('parses deep nesting without exhausting the stack, and maps the other failures to 400 and 415', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(Array.isArray(await run(deep))).toBe(true);
    expect(await run('')).toEqual({});
    // Header names arrive lower-cased (the request scope's work).
    expect(await run('{"a":1}', { 'content-type': 'application/merge-patch+json; charset=utf-8' })).toEqual({ a: 1 });
    const malformed = (await run('{"a":').catch((caught: unknown) => caught)) as DomainError;
    expect(malformed.code).toBe('invalid_json');
    const media = (await run('{}', { 'content-type': 'text/plain' }).catch((caught: unknown) => caught)) as DomainError;
    expect(media.code).toBe('unsupported_media_type');
  });
});

describe('raw (CSV) bodies', () => {
  it('are refused with 413 above their limit, before anything reads them', () => {
    const event = apiGatewayEvent({ body: 'a'.repeat(2000), headers: { 'Content-Type': 'text/csv' } });
    expect(textBody(event, ['text/csv'], 2000)).toHaveLength(2000);
    const error = thrown(() => textBody(event, ['text/csv'], 1999)) as DomainError;
    expect(error.code).toBe('payload_too_large');
  });
});

describe('the OpenAPI document', () => {
  it('names the base URL the caller used: scheme, host and stage', () => {
    expect(serverUrlOf({ host: '127.0.0.1:3000', 'x-forwarded-proto': 'http' }, '/v1/openapi.json')).toBe('http://127.0.0.1:3000');
    expect(
      serverUrlOf({ host: 'abc.execute-api.eu-central-1.amazonaws.com', 'x-forwarded-proto': 'https' }, '/v1/openapi.json', {
        path: '/dev/v1/openapi.json',
      }),
    ).toBe('https://abc.execute-api.eu-central-1.amazonaws.com/dev');
    expect(serverUrlOf({ host: 'api.example.com' }, '/v1/openapi.json')).toBe('https://api.example.com');
    expect(serverUrlOf({ host: 'evil.com/"><script>' }, '/v1/openapi.json')).toBeUndefined();
  });

  it('is built once per instance but never keeps one caller’s Host or X-Forwarded-Proto for the next', async () => {
    const ask = async (host: string, proto: string) => {
      const event = apiRequestEvent({
        method: 'GET',
        resource: '/v1/openapi.json',
        headers: { Host: host, 'X-Forwarded-Proto': proto },
        principal: null,
      });
      const result = await openApiHandler(event, {} as Context);
      return JSON.parse(result.body).servers[0].url as string;
    };
    expect(await ask('one.example.com', 'https')).toBe('https://one.example.com/dev');
    expect(await ask('127.0.0.1:3000', 'http')).toBe('http://127.0.0.1:3000/dev');
  });

  it('marks the unprefixed spec aliases as aliases of their /v1 operation', () => {
    const document = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, { deprecated?: boolean }>> };
    const alias = document.paths['/legacy-products']!.get;
    expect(alias).toMatchObject({ deprecated: true, 'x-alias-of': 'GET /v1/legacy-products' });
    expect(document.paths['/api/v1/webhooks/{id}/test']!.post).toMatchObject({
      deprecated: true,
      'x-alias-of': 'POST /v1/webhooks/{id}/test',
    });
    expect(document.paths['/v1/legacy-products']!.get!.deprecated).toBeUndefined();
  });
});
