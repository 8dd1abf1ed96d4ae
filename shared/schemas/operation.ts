import type { z } from 'zod';
import type { RouteDefinition } from '#shared/routes';

/**
 * What one route takes and returns. Handlers take their operation from their resource's contract
 * module; the OpenAPI document is generated from the same objects, with each operation's response
 * schema from the contract's `responses` (apart, so that handler bundles leave it out).
 */
export interface Operation {
  /** The route it serves (a named export of shared/routes.ts: a handler bundle carries its own route only). */
  route: RouteDefinition;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The body a customer access token sends instead of `body`, on a route open to customers whose
   * body names the customer (an order: the customer is implied). Validated in `body`'s place.
   */
  customerBody?: z.ZodType;
  /**
   * A non-JSON request body (e.g. a CSV upload), read by the handler itself (shared/http/raw-body.ts);
   * only documented. Without `body` the middy stack leaves `event.body` untouched.
   */
  rawBody?: { contentType: string; schema: z.ZodType; description?: string };
  /**
   * Documents the 200 answer may be instead of JSON (a PDF, an XML file), by content type, and a
   * 302 to a presigned URL where the route redirects; its response schema then describes its JSON answer.
   */
  documents?: { contentTypes: { type: string; binary: boolean }[]; description: string; redirects?: string };
  /** Request headers of this operation alone (a carrier's signature), documented as header parameters (shared/openapi/headers.ts). */
  headers?: z.ZodObject;
  /** Its answer's `data` is a list (its schema, in the contract's `responses`, describes an element). */
  list?: boolean;
  /** False when `response` is the whole body rather than the envelope's `data` (e.g. the spec's webhook test answer). */
  envelope?: false;
  status?: 200 | 201 | 202;
  /** When the operation may also answer 202 with the same body (work going on off the request path): what that means. */
  accepted?: string;
  /**
   * When the operation may also answer 200 with the same body, besides its `status` (a repeated checkout finds its order
   * already made and answers it): what that means.
   */
  repeated?: string;
  /** Its answers carry the resource's version as `ETag: W/"<version>"` (shared/orders/preconditions.ts etagHeader). */
  etag?: true;
  /** It honours `If-Match` (shared/orders/preconditions.ts parseIfMatch): a stale version is 412 and changes nothing. */
  ifMatch?: true;
  /** Error statuses worth documenting beyond the common ones (401, 403, 422, 429, 500). */
  errors?: number[];
}

export const defineOperations = <T extends Record<string, Operation>>(operations: T): T => operations;

/** An operation with the schema of its answer's `data`, as the OpenAPI document and the response tests use it. */
export type DocumentedOperation = Operation & { response: z.ZodType };
