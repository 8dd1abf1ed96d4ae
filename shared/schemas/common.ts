import * as z from 'zod';

/** Path ids are positive integers; anything else is treated as "no such resource" (404). */
export const pathId = /* @__PURE__ */ z
  .string()
  .regex(/^[1-9]\d{0,15}$/)
  .transform(Number);

export const timestamp = /* @__PURE__ */ z.string().meta({ description: 'ISO 8601 UTC', example: '2026-11-21T10:15:00.000Z' });

/** Optional text that may be cleared with null. */
export const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).nullable().optional();

export const requiredText = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const ErrorSchema = /* @__PURE__ */ z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().meta({ example: 'validation_failed' }),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: 'Error' });

/** The `{id}` path parameter of a resource, documented as `description`. */
export const idPath = (description: string) => z.object({ id: pathId.meta({ description, param: { name: 'id', in: 'path' } }) });

/** The answer to a DELETE: the id and `deleted: true`. */
export const DeletedSchema = /* @__PURE__ */ z.object({ id: z.number().int(), deleted: z.literal(true) }).meta({ id: 'Deleted' });
