import * as z from 'zod';
import { eventKinds } from '#shared/events/catalogue';
import { dateOrDateTimeDoc } from '#shared/schemas/common';
import { paginationQuery } from '#shared/schemas/pagination';
import { responseSchema } from '#shared/schemas/response';
import { storedEvent } from './stored';

/** `evt_` + 8 base62 characters of milliseconds + 14 random ones (shared/ids.ts). */
export const EVENT_ID_PATTERN = /^evt_[0-9A-Za-z]{22}$/;

/** An event as responses show it: derived from the stored field list (stored.ts). */
export const EventSchema = /* @__PURE__ */ responseSchema(storedEvent, {
  id: 'Event',
  description: 'Something that happened in the account: the same event the webhooks deliver (`event_id`, `event`, `data`)',
});

const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const date = /^\d{4}-\d{2}-\d{2}$/;

/** A date (the start or the end of that day, UTC) or an ISO 8601 date-time with `Z` or an offset; becomes an ISO UTC string. */
const createdBound = (bound: 'from' | 'to') =>
  z
    .string()
    .trim()
    .refine(
      (value) =>
        (date.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)) ||
        (dateTime.test(value) && !Number.isNaN(Date.parse(value))),
      'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset',
    )
    .transform((value) => {
      if (value.length > 10) return new Date(value).toISOString();
      return bound === 'from' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
    })
    .meta({
      description: `Events created ${bound === 'from' ? 'at or after' : 'at or before'} this time (a date covers the whole day, UTC)`,
      example: '2026-11-01',
      ...dateOrDateTimeDoc,
    });

export const EventListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      page: paginationQuery.page.meta({ maximum: 1, description: 'Always 1: events page by cursor (starting_after)' }),
      type: z
        .enum(eventKinds, { error: `must be an event kind: ${eventKinds.join(', ')}` })
        .optional()
        .meta({ description: 'Only events of this kind' }),
      created_from: createdBound('from').optional(),
      created_to: createdBound('to').optional(),
      starting_after: z
        .string()
        .regex(EVENT_ID_PATTERN, 'must be an event id (evt_…)')
        .optional()
        .meta({ description: "Cursor: the events after (older than) this one — the previous page's pagination.next_cursor" }),
    })
    .superRefine((query, ctx) => {
      if (query.created_from !== undefined && query.created_to !== undefined && query.created_from > query.created_to) {
        ctx.addIssue({ code: 'custom', path: ['created_to'], message: 'must not be before created_from' });
      }
      if (query.page !== 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['page'],
          message: 'events page by cursor: pass starting_after=<pagination.next_cursor of the previous page>',
        });
      }
    }))();

export type Event = z.output<typeof EventSchema>;
export type EventListQuery = z.output<typeof EventListQuerySchema>;
