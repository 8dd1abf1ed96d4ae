import * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { eventsGet, eventsList } from '#shared/routes';
import { EVENT_ID_PATTERN, EventListQuerySchema, EventSchema } from './schema';

const eventPath = /* @__PURE__ */ z.object({
  id: z
    .string()
    .regex(EVENT_ID_PATTERN)
    .meta({ description: 'Event id (evt_…)', param: { name: 'id', in: 'path' } }),
});

// Handlers import this module as a namespace (`import * as eventOperations`) and the schemas are
// marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
export const list = { route: eventsList, query: EventListQuerySchema, list: true } satisfies Operation;
export const get = { route: eventsGet, params: eventPath, errors: [404] } satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  list: EventSchema,
  get: EventSchema,
} satisfies Record<string, z.ZodType>;
