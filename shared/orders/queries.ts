/**
 * Query strings of the order lists. Apart from the request and response schemas (schema.ts) so
 * that only the list handlers' bundles carry them.
 */
import * as z from 'zod';
import { paginationQuery } from '#shared/schemas/pagination';
import { calendarDate } from './schema';
import { ORDER_STATUSES } from './status';

const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A list bound: a date (`2026-11-01`: the start of that day for `created_from`, its end for
 * `created_to`, both UTC) or an ISO 8601 date-time with `Z` or an offset. Becomes an ISO UTC string.
 */
const createdBound = (bound: 'from' | 'to') =>
  z
    .string()
    .trim()
    .refine((value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? calendarDate.safeParse(value).success : dateTimePattern.test(value) && !Number.isNaN(Date.parse(value))), {
      message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset',
    })
    .transform((value) => {
      if (value.length > 10) return new Date(value).toISOString();
      return bound === 'from' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
    })
    .meta({ description: `Orders created ${bound === 'from' ? 'at or after' : 'at or before'} this time (a date covers the whole day, UTC)`, example: '2026-11-01' });

/** Ids in query strings arrive as text. */
const idParam = (name: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,15}$/, `${name} must be a positive integer`)
    .transform(Number)
    .meta({ example: '42' });

const listFilters = {
  status: z.enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }).optional(),
  created_from: createdBound('from').optional(),
  created_to: createdBound('to').optional(),
  starting_after: idParam('starting_after')
    .optional()
    .meta({ description: 'Cursor: the orders after this one in the list (its id, e.g. the last of the previous page); not with page > 1' }),
};

type ListFilterValues = { created_from?: string; created_to?: string; starting_after?: number; page: number };

function consistentRange(value: ListFilterValues, ctx: z.core.$RefinementCtx): void {
  if (value.created_from !== undefined && value.created_to !== undefined && value.created_from > value.created_to) {
    ctx.addIssue({ code: 'custom', path: ['created_to'], message: 'must not be before created_from' });
  }
  if (value.starting_after !== undefined && value.page > 1) {
    ctx.addIssue({ code: 'custom', path: ['page'], message: 'use either page or starting_after' });
  }
}

export const OrderListQuerySchema = z
  .strictObject({ ...paginationQuery, ...listFilters, customer_id: idParam('customer_id').optional().meta({ description: "One customer's orders" }) })
  .superRefine(consistentRange);

export const CustomerOrdersQuerySchema = z.strictObject({ ...paginationQuery, ...listFilters }).superRefine(consistentRange);

export type OrderListQuery = z.output<typeof OrderListQuerySchema>;
export type CustomerOrdersQuery = z.output<typeof CustomerOrdersQuerySchema>;
