import * as z from 'zod';

/** Path ids are positive integers; anything else is treated as "no such resource" (404). */
export const pathId = z.string().regex(/^[1-9]\d{0,15}$/).transform(Number);

export const timestamp = z.string().meta({ description: 'ISO 8601 UTC', example: '2026-11-21T10:15:00.000Z' });

/** Optional text that may be cleared with null. */
export const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).nullable().optional();

export const requiredText = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const ErrorSchema = z
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
