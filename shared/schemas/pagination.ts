import * as z from 'zod';
import { UnknownCursorError } from '#shared/errors';
import { queryId } from './common';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;
/**
 * The deepest page a page-numbered list serves. A page is read by skipping `(page − 1) × per_page`
 * keys, so page × per_page is the read's size (and DynamoDB's `Limit`, which must stay below 2^31):
 * with this bound a request reads at most 100,000 keys, however large the number sent. Deeper
 * pages are pointless to a person; filters (and `starting_after` where a list has it) reach
 * older items.
 */
export const MAX_PAGE = 1000;

/** Query strings arrive as text; only plain positive integers are accepted (no silent clamping). */
const integerString = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a positive integer`)
    // Anything longer than the bound's digits is over it (and would lose precision as a number).
    .refine((value) => value.replace(/^0+/, '').length <= String(max).length, `${name} must be at most ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${name} must be at least 1`).max(max, `${name} must be at most ${max}`));

/** Documented as the integers they are (a query string is text, but the values are integers). */
const integerDoc = (max: number, fallback: number, description: string) => ({
  type: 'integer' as const,
  minimum: 1,
  maximum: max,
  default: fallback,
  example: fallback,
  description,
});

export const paginationQuery = /* @__PURE__ */ (() => ({
  page: integerString('page', MAX_PAGE)
    .optional()
    .default(1)
    .meta(integerDoc(MAX_PAGE, 1, `Page number, 1 to ${MAX_PAGE} (deeper pages: narrow the list with its filters)`)),
  per_page: integerString('per_page', MAX_PER_PAGE)
    .optional()
    .default(DEFAULT_PER_PAGE)
    .meta(integerDoc(MAX_PER_PAGE, DEFAULT_PER_PAGE, `Page size, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE})`)),
}))();

/**
 * `starting_after` of a list whose entries have integer ids (`entries`: what the list holds): the
 * entries after that one in the list's order — the previous page's `pagination.next_cursor`.
 */
export const idCursor = (entries: string) =>
  queryId('starting_after')
    .optional()
    .meta({
      description: `Cursor: the ${entries} after this one in the list (its id: the previous page's pagination.next_cursor); not with page > 1`,
    });

/**
 * The entry a list's `starting_after` names, read with `read`: undefined without a cursor, 422
 * (`UnknownCursorError`, naming `resource`) when the tenant has none — or none `visible` to the list.
 */
export async function cursorEntry<T>(
  id: number | undefined,
  resource: string,
  read: (id: number) => Promise<T | undefined>,
  visible: (entry: T) => boolean = () => true,
): Promise<T | undefined> {
  if (id === undefined) return undefined;
  const entry = await read(id);
  if (entry === undefined || !visible(entry)) throw new UnknownCursorError(resource, id);
  return entry;
}

/** A cursor goes with page 1 only: `page` > 1 with `starting_after` is a 422 naming `page`. */
export function cursorOnFirstPage(value: { page: number; starting_after?: unknown }, ctx: z.core.$RefinementCtx): void {
  if (value.starting_after !== undefined && value.page > 1) {
    ctx.addIssue({ code: 'custom', path: ['page'], message: 'use either page or starting_after' });
  }
}

export const PaginationSchema = /* @__PURE__ */ z
  .object({
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int().optional().meta({ description: 'Lists with a total: exact, or a lower bound when total_capped is true' }),
    total_pages: z.number().int().optional(),
    total_capped: z.boolean().optional().meta({ description: 'True when total was counted up to a cap (there are more)' }),
    has_more: z.boolean(),
    next_cursor: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'Lists that page by cursor: pass it as starting_after; null on the last page' }),
  })
  .meta({ id: 'Pagination', description: 'See docs/platform.md (Lists)' });

export type Pagination = z.output<typeof PaginationSchema>;
