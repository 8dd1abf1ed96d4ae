/**
 * The answer a test's call gets, typed from the contracts: `call('GET', `/v1/orders/${id}`)` finds
 * the operation whose route is `GET /v1/orders/{id}` and types the body as that operation's answer
 * (shared/<resource>/contract.ts: its `responses` schema, in the envelope, a list's with its
 * pagination). Only types: nothing here runs.
 *
 * A call's path is matched segment by segment: a `{param}` of the route takes any one segment, a
 * literal segment only itself, and a literal route wins over a parameter (`/v1/customers/search`
 * is the search, not a customer). A path the checker cannot read (a plain `string`, a route the
 * table does not have) gets `LooseBody`: an envelope whose data is `unknown`.
 *
 * The body is typed as the success body and the error body at once: a test asserts the status
 * first (`expect(response.status).toBe(422)`), which TypeScript cannot narrow on, and then reads
 * `body.error` or `body.data`.
 */
import type * as z from 'zod';
import type { ContractModule } from '#shared/openapi/contracts';
import type { ErrorSchema } from '#shared/schemas/common';
import type { PaginationSchema } from '#shared/schemas/pagination';

export type ErrorBody = z.output<typeof ErrorSchema>['error'];
export type Pagination = z.output<typeof PaginationSchema>;

interface OperationShape {
  method: string;
  path: string;
  data: unknown;
  list: boolean;
  envelope: boolean;
}

/** Each operation of one contract module, with its method, path and the type of its answer's `data`. */
type OperationsOf<Contract> = Contract extends { responses: infer Responses }
  ? {
      [Name in keyof Contract & keyof Responses]: Contract[Name] extends { route: { method: infer Method; path: infer Path } }
        ? {
            method: Method;
            path: Path | (Contract[Name] extends { route: { aliases: (infer Alias)[] } } ? Alias : never);
            data: Responses[Name] extends z.ZodType ? z.output<Responses[Name]> : never;
            list: Contract[Name] extends { list: true } ? true : false;
            envelope: Contract[Name] extends { envelope: false } ? false : true;
          }
        : never;
    }[keyof Contract & keyof Responses]
  : never;

/** Every documented operation, as a union. */
export type ApiOperation = OperationsOf<ContractModule>;

type Segments<Path extends string> = Path extends `${infer Head}/${infer Rest}` ? [Head, ...Segments<Rest>] : [Path];
type WithoutQuery<Path extends string> = Path extends `${infer Base}?${string}` ? Base : Path;

/** Whether a call's segments fit a route's: `{param}` takes any non-empty segment, a literal only itself. */
type SegmentsFit<Call extends string[], Route extends string[]> = Call extends [infer C extends string, ...infer CallRest extends string[]]
  ? Route extends [infer R extends string, ...infer RouteRest extends string[]]
    ? R extends `{${string}}`
      ? C extends ''
        ? false
        : SegmentsFit<CallRest, RouteRest>
      : C extends R
        ? SegmentsFit<CallRest, RouteRest>
        : false
    : false
  : Route extends []
    ? true
    : false;

/** Each path a route answers on: its own and its aliases (`/legacy-products/{id}` beside `/v1/…`). */
type RoutePaths<Candidate extends OperationShape> = Candidate['path'] extends infer RoutePath extends string
  ? RoutePath extends unknown
    ? Segments<RoutePath>
    : never
  : never;

type Fitting<Method extends string, Path extends string> = ApiOperation extends infer Candidate
  ? Candidate extends OperationShape
    ? Candidate['method'] extends Method
      ? true extends SegmentsFit<Segments<Path>, RoutePaths<Candidate>>
        ? Candidate
        : never
      : never
    : never
  : never;

/** The route written exactly as called (`Extract` alone would also take every route the call's `${string}` covers). */
type Exact<Method extends string, Path extends string> = ApiOperation extends infer Candidate
  ? Candidate extends OperationShape
    ? Candidate['method'] extends Method
      ? true extends (
          Candidate['path'] extends infer RoutePath
            ? RoutePath extends unknown
              ? [Path, RoutePath] extends [RoutePath, Path]
                ? true
                : false
              : never
            : never
        )
        ? Candidate
        : never
      : never
    : never
  : never;

/** The operation a call reaches: the route written exactly as called, else the routes its segments fit. */
export type OperationOf<Method extends string, Path extends string> = [Exact<Method, WithoutQuery<Path>>] extends [never]
  ? Fitting<Method, WithoutQuery<Path>>
  : Exact<Method, WithoutQuery<Path>>;

type SuccessBody<Operation extends OperationShape> = Operation['envelope'] extends false
  ? Operation['data']
  : Operation['list'] extends true
    ? { success: true; data: Operation['data'][]; pagination: Pagination }
    : { success: true; data: Operation['data'] };

/** What a path the checker cannot read answers: the envelope, its data unknown until the test says. */
export interface LooseBody {
  success: boolean;
  data: unknown;
  pagination: Pagination;
  error: ErrorBody;
}

/** The body of a call's answer: its operation's success body and the error body together (see above). */
export type BodyOf<Method extends string, Path extends string> = Path extends unknown ? OneBodyOf<Method, Path> : never;

type OneBodyOf<Method extends string, Path extends string> = [OperationOf<Method, Path>] extends [never]
  ? LooseBody
  : OperationOf<Method, Path> extends infer Operation extends OperationShape
    ? SuccessBody<Operation> & { success: boolean; error: ErrorBody }
    : never;

/** The `data` of a call's answer, for a helper that passes it on. */
export type DataOf<Method extends string, Path extends string> = BodyOf<Method, Path> extends { data: infer Data } ? Data : unknown;
