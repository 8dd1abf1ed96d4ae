import * as z from 'zod';
import { textProblem } from './text';

/**
 * Ids in paths and query strings are positive integers up to 2^53 − 1 (the largest a JSON number
 * holds exactly): a longer one would be rounded to another id, so it is refused like any
 * malformed id. `Number.isSafeInteger` sees the rounding (9007199254740993 → …992 is not safe).
 */
export const isIdText = (value: string): boolean => /^[1-9]\d{0,15}$/.test(value) && Number.isSafeInteger(Number(value));

/** Ids in query strings arrive as text; beyond 2^53 − 1 they would be rounded to another id. */
export const queryId = (name: string) =>
  z
    .string()
    .refine(isIdText, `${name} must be a positive integer of at most 16 digits (up to 9007199254740991)`)
    .transform(Number)
    .meta({ example: '42' });

/** Path ids are positive integers; anything else is treated as "no such resource" (404). */
export const pathId = /* @__PURE__ */ z.string().refine(isIdText).transform(Number);

export const timestamp = /* @__PURE__ */ z.string().meta({ description: 'ISO 8601 UTC', example: '2026-11-21T10:15:00.000Z' });

/** Refuses text that cannot be stored faithfully (shared/schemas/text.ts); `multiline` for free text. */
export const storableText =
  (multiline = false) =>
  (value: string, ctx: z.core.$RefinementCtx<string>): void => {
    const problem = textProblem(value, multiline);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };

/** A single-line string input of at most `max` characters (no control characters, valid Unicode). */
export const lineText = (max: number, multiline?: boolean) =>
  z.string().trim().max(max, `must be at most ${max} characters`).superRefine(storableText(multiline));

/**
 * Optional text that may be cleared with null. `multiline`: free text (notes, descriptions), where
 * line breaks and tabs are allowed; everything else is one line.
 */
export const optionalText = (max: number, options: { multiline?: boolean } = {}) => lineText(max, options.multiline).nullable().optional();

export const requiredText = (max: number) => lineText(max).min(1, 'must not be empty');

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

/** A product has at most this many options, so a choice of options names at most this many. */
export const MAX_PRODUCT_OPTIONS = 20;

/**
 * Option code → value code, as `calculate` and order lines take it: at most one entry per option
 * of a product (MAX_PRODUCT_OPTIONS), so a request cannot send a map of a million entries.
 */
export const optionChoices = (example: Record<string, string>) => {
  const code = z.string().max(50).superRefine(storableText());
  return z
    .record(code, code)
    .refine((choices) => Object.keys(choices).length <= MAX_PRODUCT_OPTIONS, `must choose at most ${MAX_PRODUCT_OPTIONS} options`)
    .meta({ description: 'Option code → value code', example, maxProperties: MAX_PRODUCT_OPTIONS });
};

/** The `{id}` path parameter of a resource, documented as `description`. */
export const idPath = (description: string) => z.object({ id: pathId.meta({ description, param: { name: 'id', in: 'path' } }) });

/** The answer to a DELETE: the id and `deleted: true`. */
export const DeletedSchema = /* @__PURE__ */ z.object({ id: z.number().int(), deleted: z.literal(true) }).meta({ id: 'Deleted' });

/** An id in a request body: a positive integer up to 2^53 − 1, documented as `description`. */
export const bodyId = (description: string) =>
  z.number().int('must be an integer').min(1, 'must be a positive integer').max(Number.MAX_SAFE_INTEGER).meta({ description });

/**
 * How a query bound that takes a date or a date-time is documented (`created_from`, `created_to`):
 * a string in one of the two formats, as the server parses it.
 */
export const dateOrDateTimeDoc = { oneOf: [{ format: 'date' }, { format: 'date-time' }] };

/** A calendar date `YYYY-MM-DD` (a due date has no time of day). */
export const calendarDate = /* @__PURE__ */ (() =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD', abort: true })
    .refine(
      (value) => !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().slice(0, 10) === value,
      'must be a real calendar date',
    )
    .meta({ format: 'date', example: '2026-12-01' }))();
