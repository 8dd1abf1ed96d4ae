/**
 * Reading the stored outbox events of a tenant: its collection on gsi1 (all kinds) or its kind's
 * on gsi2, both keys-only with the event id — time-ordered — as sort key, so a time range is a
 * key range and a page is one Query of `per_page + 1` keys and one BatchGetItem. Test samples
 * are in neither collection.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { readWindow, type CollectionQuery } from '#shared/db/collections';
import { cursorKeys, tenantKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { idTime } from '#shared/ids';
import { eventFromItem, type EventRecord } from './stored';

export interface EventFilter {
  kind?: string;
  /** Inclusive ISO bounds on the creation time. */
  from?: string;
  to?: string;
}

// Event ids are `evt_` + 8 characters of milliseconds + random ones: a time is an id prefix.
const ID_PREFIX = 'evt_';
/** Sorts after every id of its millisecond (base62 characters are all below '~'). */
const AFTER_ALL = '~';

/** The id range of a time range: from the first id of `from`'s millisecond to the last of `to`'s. */
export function idRange(filter: Pick<EventFilter, 'from' | 'to'>): [string, string] {
  const lower = filter.from === undefined ? ID_PREFIX : `${ID_PREFIX}${idTime(Date.parse(filter.from))}`;
  const upper = filter.to === undefined ? `${ID_PREFIX}${AFTER_ALL}` : `${ID_PREFIX}${idTime(Date.parse(filter.to))}${AFTER_ALL}`;
  return [lower, upper];
}

/**
 * Up to `perPage` events, newest first, after the event `after` (a cursor) if given; `next` is
 * the cursor of the following page (undefined on the last).
 */
export async function listEvents(
  tenant: Tenant,
  filter: EventFilter,
  { perPage, after }: { perPage: number; after?: string },
): Promise<{ records: EventRecord[]; next: string | undefined }> {
  const partition: Pick<CollectionQuery, 'index' | 'partition'> =
    filter.kind === undefined
      ? { index: 'gsi1', partition: tenantKeys.eventsCollection(tenant) }
      : { index: 'gsi2', partition: tenantKeys.eventsOfKind(tenant, filter.kind) };
  const [lower, end] = idRange(filter);
  // The cursor must lie inside the key range DynamoDB is asked for: it becomes the range's upper end.
  const startAfter = after !== undefined && after <= end ? cursorKeys.event(tenant, after, filter.kind) : undefined;
  const upper = startAfter ? after! : end;
  if (lower > upper) return { records: [], next: undefined };
  const window = await readWindow({ ...partition, newestFirst: true, sortKeyBetween: [lower, upper] }, { perPage, startAfter });
  const records = window.items.map(eventFromItem).filter((record) => !record.test);
  return { records, next: window.next === undefined ? undefined : String(window.next[`${partition.index}sk`]) };
}

/** The event, unless it is missing, expired, another tenant's (its key is the tenant's) or a test sample. */
export async function readEvent(tenant: Tenant, eventId: string): Promise<EventRecord | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.event(tenant, eventId) }));
  const record = result.Item ? eventFromItem(result.Item) : undefined;
  return record && !record.test ? record : undefined;
}
