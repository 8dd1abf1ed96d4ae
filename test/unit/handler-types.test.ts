/**
 * Type tests: a handler's request is typed from its operation's zod schemas. Vitest runs the
 * `expectTypeOf` calls as no-ops; `npm run typecheck` (test/ is in tsconfig.json) checks them.
 */
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import type { Principal, Tenant } from '#shared/auth/principal';
import type { HttpResult } from '#shared/http/envelope';
import { defineHandler, type ApiRequest } from '#shared/http/handler';
import { defineOperations } from '#shared/schemas/operation';
import { customersList, customersUpdate } from '#shared/routes';

const operations = defineOperations({
  update: {
    route: customersUpdate,
    params: z.object({ id: z.coerce.number().int().positive() }),
    query: z.strictObject({ expand: z.enum(['addresses', 'orders']).optional() }),
    body: z.strictObject({ name: z.string().trim(), tags: z.array(z.string()).default([]), notes: z.string().nullable().optional() }),
    response: z.object({ id: z.number() }),
  },
  list: {
    route: customersList,
    query: z.strictObject({ page: z.coerce.number().default(1) }),
    response: z.object({ id: z.number() }),
    list: true,
  },
});

type Update = ApiRequest<typeof operations.update>;
type List = ApiRequest<typeof operations.list>;

describe('ApiRequest<typeof operation>', () => {
  it('infers params, query and body as the schemas output them (coerced, defaulted, trimmed)', () => {
    expectTypeOf<Update['params']>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<Update['query']>().toEqualTypeOf<{ expand?: 'addresses' | 'orders' | undefined }>();
    expectTypeOf<Update['body']>().toEqualTypeOf<{ name: string; tags: string[]; notes?: string | null | undefined }>();
  });

  it('types what an operation has no schema for as undefined', () => {
    expectTypeOf<List['params']>().toEqualTypeOf<undefined>();
    expectTypeOf<List['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<List['query']>().toEqualTypeOf<{ page: number }>();
  });

  it('carries the caller and the request around the parsed parts', () => {
    expectTypeOf<Update['principal']>().toEqualTypeOf<Principal>();
    expectTypeOf<Update['tenant']>().toEqualTypeOf<Tenant>();
    expectTypeOf<Update['headers']>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<Update['requestId']>().toBeString();
  });

  it('is what defineHandler hands its function for that operation', () => {
    expectTypeOf(defineHandler<typeof operations.update>)
      .parameter(1)
      .toEqualTypeOf<(request: Update) => Promise<HttpResult>>();
    // Reading a field the schema does not have does not compile.
    defineHandler(operations.update, async (request) => {
      expectTypeOf(request.body.tags).toEqualTypeOf<string[]>();
      // @ts-expect-error — `email` is not in the body schema
      void request.body.email;
      return { status: 200 };
    });
    defineHandler(operations.list, async (request) => {
      // @ts-expect-error — the list operation has no path parameters
      void request.params.id;
      return { status: 200 };
    });
  });
});
