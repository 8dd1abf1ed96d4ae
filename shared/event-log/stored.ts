/**
 * The stored outbox event as `GET /v1/events` shows it. The item is written by the outbox
 * (shared/events/outbox.ts) in the transaction of the change it reports and read back by the
 * stream router and the delivery worker (shared/events/stored-event.ts); its fields as the API
 * shows them are listed here once. Events are kept 30 days (TTL), then they are gone from the
 * list, from `GET /v1/events/{id}` and from the webhook pipeline alike.
 */
import { eventKinds } from '#shared/events/catalogue';
import { codecs as c, entity, field, type Codec, type RecordOf } from '#shared/schemas/fields';

/** The payload: the resource under its type name, as the webhook body's `data` (see WebhookEvent.<kind>). */
const payload: Codec<Record<string, unknown>> = {
  kind: 'object',
  decode: (value) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}),
  view: (value) => value,
  shape: {},
  meta: {
    description: "The resource under its type name, exactly as the webhook body's data (schemas: the WebhookEvent.<kind> components)",
    example: { customer: { id: 42, name: 'Anna Schmidt' } },
  },
};

export const storedEvent = /* @__PURE__ */ (() =>
  entity({
    id: field(c.string).fixed().storedAs('event_id').describe('Time-ordered: ids sort by creation', 'evt_0NqZk3AbHc2Lm9Pq4Rs8Tu'),
    type: field(c.enumOf(eventKinds)).fixed().storedAs('kind').describe('The event kind', 'customer.created'),
    created_at: field(c.timestamp).fixed(),
    mode: field(c.enumOf(['test', 'live'] as const)).fixed(),
    /** Set from `data_json` before the view (it keeps the resource's field order; the stored map does not). */
    data: field(payload).derived(),
    /** The payload as JSON text, as the outbox wrote it. */
    data_json: field(c.string).fixed().internal(),
    /** Samples of the test endpoint are not events of the account: never listed, never found. */
    test: field(c.boolean).fixed().internal(),
  }))();

export type EventRecord = RecordOf<typeof storedEvent.shape>;

export const eventFromItem: typeof storedEvent.read = (value) => storedEvent.read(value);

/** The event as the API shows it, its `data` in the order the outbox wrote it. */
export const presentEvent = (record: EventRecord) => storedEvent.view({ ...record, data: JSON.parse(record.data_json || '{}') });
