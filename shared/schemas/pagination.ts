import * as z from 'zod';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

/** Query strings arrive as text; only plain positive integers are accepted (no silent clamping). */
const integerString = (name: string, max?: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a positive integer`)
    .transform(Number)
    .pipe(
      max === undefined
        ? z.number().int().min(1, `${name} must be at least 1`)
        : z.number().int().min(1, `${name} must be at least 1`).max(max, `${name} must be at most ${max}`),
    );

export const paginationQuery = /* @__PURE__ */ (() => ({
  page: integerString('page').optional().default(1).meta({ description: 'Page number, starting at 1', example: 1 }),
  per_page: integerString('per_page', MAX_PER_PAGE)
    .optional()
    .default(DEFAULT_PER_PAGE)
    .meta({ description: `Page size, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE})`, example: DEFAULT_PER_PAGE }),
}))();

export const PaginationSchema = /* @__PURE__ */ z
  .object({
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    total_pages: z.number().int(),
  })
  .meta({ id: 'Pagination' });

export type Pagination = z.output<typeof PaginationSchema>;
