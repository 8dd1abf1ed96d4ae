/**
 * The composed handler (`defineHandler`, shared/http/handler.ts) and the order of its effects:
 * request scope → guard (principal, key kind, IP allowlist, rate limit, scopes) → JSON body →
 * validation → work → the one error mapping. The rate limiter and the audit sink are mocked;
 * events come from the stored API Gateway fixture (test/fixtures/api-gateway-rest-event.json)
 * with an authorizer context built by principalToContext.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { emitAudit } from '#shared/audit/sink';
import type { Principal } from '#shared/auth/principal';
import { DomainError, NotFoundError } from '#shared/errors';
import { created, ok, type HttpResult } from '#shared/http/envelope';
import { defineHandler, type ApiRequest } from '#shared/http/handler';
import { DEADLINE_MARGIN_MS, GATEWAY_TIMEOUT_MS } from '#shared/http/middleware/request-scope';
import { consumeRequest, type RateDecision } from '#shared/limits/rate-limit';
import { storefrontQuota } from '#shared/limits/quota';
import { customersCreate, customersGet, customersList, productsList, routeById } from '#shared/routes';
import { defineOperations } from '#shared/schemas/operation';
import { apiRequestEvent } from '#test/support/lambda-events';

vi.mock('#shared/limits/rate-limit', () => ({ consumeRequest: vi.fn(), peekRequest: vi.fn() }));
vi.mock('#shared/audit/sink', () => ({ emitAudit: vi.fn() }));

const consume = vi.mocked(consumeRequest);
const state = { limit: 500, remaining: 499, reset: 1_763_979_360 };
const allowed: RateDecision = { allowed: true, state };
const refused: RateDecision = { allowed: false, state: { ...state, remaining: 0 }, retryAfter: 7 };

/** A decision the test hands out when it chooses. */
function deferredDecision() {
  let decide!: (decision: RateDecision) => void;
  const decision = new Promise<RateDecision>((resolve) => (decide = resolve));
  return { decision, decide };
}

/** Lets every pending callback run (middy's awaits, promise chains); no clock involved. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

// Operations of real routes (the handler reads the route's method and scopes from the table), with schemas of the test's own.
const operations = defineOperations({
  write: { route: customersCreate, body: z.strictObject({ name: z.string().min(1) }), response: z.unknown(), status: 201 },
  read: {
    route: customersList,
    query: z.strictObject({ page: z.coerce.number().int().positive().optional() }),
    response: z.unknown(),
    list: true,
  },
  readById: { route: customersGet, params: z.object({ id: z.coerce.number().int().positive() }), response: z.unknown() },
  storefrontRead: { route: productsList, response: z.unknown(), list: true },
});

const context = {} as Context;

function request(
  operation: keyof typeof operations,
  options: { body?: unknown; query?: Record<string, string>; id?: string; principal?: Partial<Principal> } = {},
): APIGatewayProxyEvent {
  const route = operations[operation].route;
  return apiRequestEvent({
    method: route.method,
    resource: route.path,
    pathParameters: options.id === undefined ? undefined : { id: options.id },
    query: options.query,
    body: options.body,
    principal: options.principal ?? {},
  });
}

const bodyOf = (response: APIGatewayProxyResult) =>
  JSON.parse(response.body) as {
    success: boolean;
    data?: unknown;
    error?: { code: string; message: string; details?: unknown[]; request_id: string };
  };

/** The documented error body, with X-Request-Id equal to its request_id and the rate-limit headers. */
function expectErrorResponse(response: APIGatewayProxyResult, event: APIGatewayProxyEvent, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = bodyOf(response);
  expect(body).toEqual({
    success: false,
    error: {
      code,
      message: expect.any(String),
      ...(body.error?.details ? { details: expect.any(Array) } : {}),
      request_id: event.requestContext.requestId,
    },
  });
  expect(response.headers?.['X-Request-Id']).toBe(event.requestContext.requestId);
  expect(response.headers?.['Content-Type']).toMatch(/^application\/json/);
  expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '500', 'X-RateLimit-Reset': String(state.reset) });
  return body.error!;
}

beforeEach(() => {
  consume.mockReset();
  consume.mockResolvedValue(allowed);
  vi.mocked(emitAudit).mockClear();
});

describe('a request over the rate limit', () => {
  it('is answered 429 even when its body is invalid (a write: admission is decided before the body is read)', async () => {
    consume.mockResolvedValue(refused);
    const work = vi.fn(async () => created({}));
    const handler = defineHandler(operations.write, work);
    const event = request('write', { body: { name: '', unknown: true } });
    const response = await handler(event, context);
    expectErrorResponse(response, event, 429, 'rate_limited');
    expect(response.headers?.['Retry-After']).toBe('7');
    expect(response.headers?.['X-RateLimit-Remaining']).toBe('0');
    expect(work).not.toHaveBeenCalled();
  });

  it('is answered 429 even when its query is invalid (a read: validation ran while admission was pending)', async () => {
    const { decision, decide } = deferredDecision();
    consume.mockReturnValue(decision);
    const work = vi.fn(async () => ok([]));
    const handler = defineHandler(operations.read, work);
    const event = request('read', { query: { page: 'zero', colour: 'red' } });
    const answer = handler(event, context);
    await settle(); // validation has failed by now; the refusal comes later and still wins
    decide(refused);
    expectErrorResponse(await answer, event, 429, 'rate_limited');
    expect(work).not.toHaveBeenCalled();
  });

  it('is answered 429 when a read has already done its work', async () => {
    consume.mockResolvedValue(refused);
    const work = vi.fn(async () => ok({ id: 42 }));
    const event = request('readById', { id: '42' });
    const response = await defineHandler(operations.readById, work)(event, context);
    expectErrorResponse(response, event, 429, 'rate_limited');
    expect(bodyOf(response).data).toBeUndefined(); // nothing of the work's answer leaks
  });

  it('with an invalid body but within the limit, is the validation error (the control case)', async () => {
    const event = request('write', { body: { name: '', unknown: true } });
    const response = await defineHandler(operations.write, async () => created({}))(event, context);
    const error = expectErrorResponse(response, event, 422, 'validation_failed');
    expect(error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'unknown' }), expect.objectContaining({ field: 'name' })]),
    );
  });
});

describe('admission and work', () => {
  it('a write (POST) does not start its work before admission resolves', async () => {
    const { decision, decide } = deferredDecision();
    consume.mockReturnValue(decision);
    const work = vi.fn(async (request: ApiRequest<typeof operations.write>) => created({ name: request.body.name }));
    const event = request('write', { body: { name: 'Anna' } });
    const answer = defineHandler(operations.write, work)(event, context);
    await settle();
    await settle();
    expect(work).not.toHaveBeenCalled();
    decide(allowed);
    const response = await answer;
    expect(response.statusCode).toBe(201);
    expect(bodyOf(response)).toEqual({ success: true, data: { name: 'Anna' } });
    expect(work).toHaveBeenCalledOnce();
  });

  it('a read (GET) runs its work while admission is still pending, and answers once it is decided', async () => {
    const { decision, decide } = deferredDecision();
    consume.mockReturnValue(decision);
    let admitted = false;
    void decision.then(() => (admitted = true));
    const work = vi.fn(async () => {
      expect(admitted).toBe(false); // the work runs concurrently with the limiter
      return ok({ id: 42 });
    });
    const event = request('readById', { id: '42' });
    let answered = false;
    const answer = defineHandler(operations.readById, work)(event, context).finally(() => (answered = true));
    await vi.waitFor(() => expect(work).toHaveBeenCalledOnce());
    await settle();
    expect(answered).toBe(false); // the answer waits for the decision
    decide(allowed);
    const response = await answer;
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'X-Request-Id': event.requestContext.requestId, 'X-RateLimit-Remaining': '499' });
  });
});

describe('errors thrown by the work', () => {
  it('are mapped last: the error body, X-Request-Id and the rate-limit headers', async () => {
    const event = request('readById', { id: '42' });
    const response = await defineHandler(operations.readById, async () => {
      throw new NotFoundError('customer', 42);
    })(event, context);
    const error = expectErrorResponse(response, event, 404, 'not_found');
    expect(error.message).toBe('No customer with id 42');
    expect(vi.mocked(emitAudit)).toHaveBeenCalledWith(
      { accountId: expect.any(String), mode: 'test' },
      expect.objectContaining({ status: 404, route: 'customers.get', request_id: event.requestContext.requestId }),
    );
  });

  it('never leak an unknown error: 500 internal_error with the same headers', async () => {
    const event = request('write', { body: { name: 'Anna' } });
    const response = await defineHandler(operations.write, async (): Promise<HttpResult> => {
      throw new Error('ECONNREFUSED 10.0.0.7:8000 print-shop-prod-table');
    })(event, context);
    expectErrorResponse(response, event, 500, 'internal_error');
    expect(response.body).not.toContain('ECONNREFUSED');
  });
});

describe('a request that runs out of time or crashes', () => {
  /** A Lambda context whose deadline is `remainingMs` away. */
  const lambdaContext = (remainingMs: number): Context => {
    const deadline = Date.now() + remainingMs;
    return { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) } as Context;
  };
  const audited = () => vi.mocked(emitAudit).mock.calls.map(([, record]) => record.status);
  const received = (event: APIGatewayProxyEvent, at: number) => ({
    ...event,
    requestContext: { ...event.requestContext, requestTimeEpoch: at },
  });

  it('is answered 504 timeout and recorded shortly before Lambda would stop it, once, whatever the work does later', async () => {
    let finishWork!: (result: HttpResult) => void;
    const work = new Promise<HttpResult>((resolve) => (finishWork = resolve));
    const event = received(request('write', { body: { name: 'Anna' } }), Date.now());
    const started = Date.now();
    const response = await defineHandler(operations.write, () => work)(event, lambdaContext(DEADLINE_MARGIN_MS + 200));
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MARGIN_MS + 200);
    const error = expectErrorResponse(response, event, 504, 'timeout');
    expect(error.message).toMatch(/^Timed out/);
    expect(audited()).toEqual([504]);
    expect(vi.mocked(emitAudit)).toHaveBeenCalledWith(
      { accountId: expect.any(String), mode: 'test' },
      expect.objectContaining({ status: 504, route: 'customers.create', request_id: event.requestContext.requestId }),
    );
    // The work finishing afterwards records nothing more.
    finishWork(created({ name: 'Anna' }));
    await settle();
    await settle();
    expect(audited()).toEqual([504]);
  });

  it('is recorded as the 504 API Gateway answers after 29 s on a route allowed to run longer, while its work goes on', async () => {
    const event = received(request('write', { body: { name: 'Anna' } }), Date.now() - (GATEWAY_TIMEOUT_MS - 100));
    const response = await defineHandler(operations.write, async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return created({ name: 'Anna' });
    })(event, lambdaContext(300_000));
    expect(response.statusCode).toBe(201); // the import finished (API Gateway had answered 504 already)
    expect(audited()).toEqual([504]);
  });

  it('answers an ordinary request as usual and records it once', async () => {
    const event = received(request('write', { body: { name: 'Anna' } }), Date.now());
    const response = await defineHandler(operations.write, async () => created({ name: 'Anna' }))(event, lambdaContext(10_000));
    expect(response.statusCode).toBe(201);
    expect(audited()).toEqual([201]);
  });

  it('is answered and recorded as the bare 500 when the work crashes', async () => {
    const event = received(request('write', { body: { name: 'Anna' } }), Date.now());
    const response = await defineHandler(operations.write, async (): Promise<HttpResult> => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    })(event, lambdaContext(10_000));
    expectErrorResponse(response, event, 500, 'internal_error');
    expect(audited()).toEqual([500]);
  });
});

describe('the guard', () => {
  it('refuses a request without a principal with 401 and no rate-limit headers (no tenant to count)', async () => {
    const event = request('read', { principal: {} });
    event.requestContext.authorizer = null;
    const response = await defineHandler(operations.read, async () => ok([]))(event, context);
    expect(response.statusCode).toBe(401);
    expect(bodyOf(response).error).toEqual({
      code: 'unauthorized',
      message: expect.any(String),
      request_id: event.requestContext.requestId,
    });
    expect(response.headers?.['X-RateLimit-Limit']).toBeUndefined();
    expect(consume).not.toHaveBeenCalled();
  });

  it('refuses a publishable key on a route not marked for storefronts with 403 forbidden, before the scopes', async () => {
    const work = vi.fn(async () => ok([]));
    const event = request('read', {
      principal: {
        kind: 'publishable',
        keyPrefix: 'pk_test_Fixt',
        scopes: ['products:read', 'carts:read', 'carts:write', 'auth:customer'],
      },
    });
    const response = await defineHandler(operations.read, work)(event, context);
    expect(response.statusCode).toBe(403);
    const error = bodyOf(response).error!; // not insufficient_scope, which it also lacks
    expect(error).toMatchObject({ code: 'forbidden', request_id: event.requestContext.requestId });
    expect(error.message).toBe('publishable keys can only call storefront routes; use a secret key');
    expect(response.headers?.['X-Request-Id']).toBe(event.requestContext.requestId);
    expect(work).not.toHaveBeenCalled();
    // Refused before the rate limit: a storefront key never spends (or sees) the secret keys' quota.
    expect(consume).not.toHaveBeenCalled();
    expect(response.headers?.['X-RateLimit-Limit']).toBeUndefined();
  });

  it('lets a publishable key call a storefront route within its scopes', async () => {
    expect(routeById('products.list').storefront).toBe(true);
    const event = request('storefrontRead', { principal: { kind: 'publishable', scopes: ['products:read'] } });
    const response = await defineHandler(operations.storefrontRead, async () => ok([]), { quota: storefrontQuota })(event, context);
    expect(response.statusCode).toBe(200);
    // Counted against the key's own quota for this client, not the account's.
    expect(consume).toHaveBeenCalledWith(
      expect.objectContaining({ holder: { kind: 'publishable', keyId: expect.any(String), client: expect.any(String) } }),
    );
  });

  it('answers a publishable key over its limit on a storefront route with 429', async () => {
    consume.mockResolvedValue(refused);
    const event = request('storefrontRead', { principal: { kind: 'publishable', scopes: ['products:read'] } });
    const response = await defineHandler(operations.storefrontRead, async () => ok([]), { quota: storefrontQuota })(event, context);
    expectErrorResponse(response, event, 429, 'rate_limited');
  });

  it('insists that exactly the storefront routes count publishable keys per client', () => {
    expect(() => defineHandler(operations.storefrontRead, async () => ok([]))).toThrow(/storefront/);
    expect(() => defineHandler(operations.read, async () => ok([]), { quota: storefrontQuota })).toThrow(/storefront/);
  });

  it('names the missing scope in a 403 insufficient_scope', async () => {
    const event = request('write', { body: { name: 'Anna' }, principal: { scopes: ['customers:read', 'orders:write'] } });
    const response = await defineHandler(operations.write, async () => created({}))(event, context);
    const error = expectErrorResponse(response, event, 403, 'insufficient_scope');
    expect(error.message).toContain('customers:write');
    expect(error.details).toEqual([{ field: 'scope', message: 'requires customers:write' }]);
  });

  it('maps a DomainError from anywhere in the stack the same way', async () => {
    const event = request('readById', { id: 'abc' }); // a malformed id names nothing: 404
    const response = await defineHandler(operations.readById, async () => {
      throw new DomainError('conflict', 'unreachable');
    })(event, context);
    expectErrorResponse(response, event, 404, 'not_found');
  });
});
