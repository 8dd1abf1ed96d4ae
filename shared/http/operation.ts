import type { z } from 'zod';

/**
 * What one route takes and returns. Handlers take their operation from their resource's contract
 * module; the OpenAPI document is generated from the same objects, and tests check responses
 * against `response`.
 */
export interface Operation {
  route: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The `data` of a successful response (an element when `list` is true). */
  response: z.ZodType;
  list?: boolean;
  status?: 200 | 201;
  /** Error statuses worth documenting beyond the common ones (401, 403, 422, 429, 500). */
  errors?: number[];
}

export const defineOperations = <T extends Record<string, Operation>>(operations: T): T => operations;
