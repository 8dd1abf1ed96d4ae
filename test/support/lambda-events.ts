/**
 * The stored Lambda events of test/fixtures/ — an API Gateway REST (v1 proxy) event; DynamoDB
 * stream records (NEW_AND_OLD_IMAGES) of each kind: the INSERT of an outbox EVENT item, the MODIFY
 * of a webhook delivery whose first attempt is recorded, the REMOVE of that EVENT item by its TTL;
 * an SQS message of the deliveries queue, and a poison one: a delivery message that kept failing
 * until SQS moved it to the DLQ — as typed, deep-cloned copies with overrides, so tests never
 * hand-build (and cast) events. The MODIFY and REMOVE were recorded from DynamoDB Local's stream
 * (the REMOVE given the `userIdentity` AWS puts on TTL deletions); test/unit/lambda-events.test.ts
 * checks every fixture against the code that writes and reads it.
 *
 * Overrides are merged deeply into plain objects; arrays, `null` and other values replace what the
 * fixture has, and an `undefined` value removes the field.
 */
import { readFileSync } from 'node:fs';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { APIGatewayProxyEvent, AttributeValue, DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { principalToContext, type Principal, type Tenant } from '#shared/auth/principal';
import { tenantKeys } from '#shared/db/keys';
import { prefixedId } from '#shared/ids';

export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;

const fixtureDir = new URL('../fixtures/', import.meta.url);
const raw = new Map<string, string>();
/** A fresh parse on every call: callers may mutate what they get. */
function load<T>(file: string): T {
  let text = raw.get(file);
  if (text === undefined) raw.set(file, (text = readFileSync(new URL(file, fixtureDir), 'utf8')));
  return JSON.parse(text) as T;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** `base` with `overrides` merged in (both deep-cloned first, so neither is shared with the result). */
export function merge<T>(base: T, overrides?: NoInfer<DeepPartial<T>>): T {
  const result = structuredClone(base) as Record<string, unknown>;
  if (!overrides) return result as T;
  for (const [key, value] of Object.entries(structuredClone(overrides) as Record<string, unknown>)) {
    if (value === undefined) delete result[key];
    else if (isPlainObject(value) && isPlainObject(result[key])) result[key] = merge(result[key], value);
    else result[key] = value;
  }
  return result as T;
}

/**
 * An API Gateway REST proxy event: `GET /v1/customers/42` with a secret test key's authorizer
 * context (test/fixtures/api-gateway-rest-event.json).
 */
export function apiGatewayEvent(overrides?: DeepPartial<APIGatewayProxyEvent>): APIGatewayProxyEvent {
  return merge(load<APIGatewayProxyEvent>('api-gateway-rest-event.json'), overrides);
}

/** The authorizer context API Gateway hands the handler for `principal` (the fixture's key, changed by `overrides`). */
export function authorizerContext(overrides: Partial<Principal> = {}): Record<string, string> {
  const context = load<APIGatewayProxyEvent>('api-gateway-rest-event.json').requestContext.authorizer as Record<string, string>;
  const principal: Principal = {
    accountId: context.accountId!,
    mode: context.mode as Principal['mode'],
    keyId: context.keyId!,
    keyPrefix: context.keyPrefix!,
    kind: context.kind as Principal['kind'],
    scopes: context.scopes!.split(','),
    plan: context.plan!,
    limits: { perMinute: Number(context.ratePerMinute) },
    accountAllowedIps: [],
    keyAllowedIps: [],
    ...overrides,
  };
  return { principalId: principal.keyId, ...principalToContext(principal) };
}

/**
 * An API request as the handler receives it: `method` on `resource` (a route's path template,
 * its `{params}` filled from `pathParameters`), with the principal's authorizer context and a
 * JSON `body` (serialised; pass a string to send it as it is).
 */
export function apiRequestEvent(
  request: {
    method: string;
    resource: string;
    pathParameters?: Record<string, string>;
    query?: Record<string, string>;
    body?: unknown;
    headers?: Record<string, string>;
    principal?: Partial<Principal> | null;
  },
  overrides?: DeepPartial<APIGatewayProxyEvent>,
): APIGatewayProxyEvent {
  const path = request.resource.replace(/\{(\w+)\}/g, (_match, name: string) => request.pathParameters?.[name] ?? `{${name}}`);
  const body = request.body === undefined ? null : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  const base = apiGatewayEvent({
    resource: request.resource,
    path,
    httpMethod: request.method,
    pathParameters: request.pathParameters ?? null,
    queryStringParameters: request.query ?? null,
    multiValueQueryStringParameters: request.query
      ? Object.fromEntries(Object.entries(request.query).map(([name, value]) => [name, [value]]))
      : null,
    body,
    requestContext: { resourcePath: request.resource, httpMethod: request.method, path: `/dev${path}` },
  });
  base.requestContext.authorizer = request.principal === null ? null : authorizerContext(request.principal);
  const headers = { ...(body === null ? {} : { 'Content-Type': 'application/json' }), ...request.headers };
  base.headers = { ...base.headers, ...headers };
  base.multiValueHeaders = {
    ...base.multiValueHeaders,
    ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
  };
  return merge(base, overrides);
}

/** The stored stream event: one INSERT of a `customer.created` outbox EVENT item (test/fixtures/dynamodb-stream-event-insert.json). */
export function streamEvent(...records: DynamoDBRecord[]): DynamoDBStreamEvent {
  const event = load<DynamoDBStreamEvent>('dynamodb-stream-event-insert.json');
  return records.length ? { Records: records } : event;
}

/** The stored stream record (an outbox EVENT insert), with overrides. */
export function streamRecord(overrides?: DeepPartial<DynamoDBRecord>): DynamoDBRecord {
  return merge(load<DynamoDBStreamEvent>('dynamodb-stream-event-insert.json').Records[0]!, overrides);
}

/**
 * The stored MODIFY (test/fixtures/dynamodb-stream-event-modify.json): the webhook delivery that the
 * stored SQS message names, its first attempt recorded (200) — pending to succeeded, both images.
 */
export function streamModifyRecord(overrides?: DeepPartial<DynamoDBRecord>): DynamoDBRecord {
  return merge(load<DynamoDBStreamEvent>('dynamodb-stream-event-modify.json').Records[0]!, overrides);
}

/**
 * The stored REMOVE (test/fixtures/dynamodb-stream-event-remove.json): the stored INSERT's outbox
 * EVENT item deleted by its TTL — the old image only, and `userIdentity` naming DynamoDB's service.
 */
export function streamRemoveRecord(overrides?: DeepPartial<DynamoDBRecord>): DynamoDBRecord {
  return merge(load<DynamoDBStreamEvent>('dynamodb-stream-event-remove.json').Records[0]!, overrides);
}

/**
 * The stored stream record carrying `item` instead of the fixture's: its new image (and keys)
 * replaced whole, not merged. `eventName` MODIFY adds the fixture's image as the old image,
 * REMOVE moves the item to the old image — as a NEW_AND_OLD_IMAGES stream reports them.
 */
export function streamRecordOf(item: Record<string, unknown>, overrides: DeepPartial<DynamoDBRecord> = {}): DynamoDBRecord {
  const fixture = streamRecord();
  const image = marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>;
  const keys = { pk: image.pk!, sk: image.sk! };
  const eventName = overrides.eventName ?? 'INSERT';
  const images =
    eventName === 'REMOVE'
      ? { OldImage: image, NewImage: undefined }
      : eventName === 'MODIFY'
        ? { OldImage: fixture.dynamodb!.NewImage!, NewImage: image }
        : { NewImage: image };
  const record = merge(fixture, { eventName, dynamodb: { Keys: keys } } as DeepPartial<DynamoDBRecord>);
  record.dynamodb = { ...record.dynamodb, ...images };
  if (!record.dynamodb.NewImage) delete record.dynamodb.NewImage;
  return merge(record, overrides);
}

/**
 * An outbox EVENT item shaped exactly like the stored stream record's new image, for `tenant`,
 * with a fresh event id and `kind` / `data` of the test's choosing — to put in the table (the
 * local stream router then sees its insert) or to wrap with `streamRecordOf`. Independent of the
 * outbox writer's signature; test/unit/lambda-events.test.ts checks the fixture against the writer.
 */
export function outboxEventItem(tenant: Tenant, kind: string, data: Record<string, unknown>, now = new Date()): Record<string, unknown> {
  const fixture = unmarshall(streamRecord().dynamodb!.NewImage as Record<string, never>);
  const eventId = prefixedId('evt');
  const retention = Number(fixture.expires_at) - Date.parse(String(fixture.created_at)) / 1000;
  return {
    ...fixture,
    ...tenantKeys.event(tenant, eventId),
    event_id: eventId,
    kind,
    account_id: tenant.accountId,
    mode: tenant.mode,
    created_at: now.toISOString(),
    data,
    data_json: JSON.stringify(data),
    expires_at: Math.floor(now.getTime() / 1000) + retention,
    gsi1pk: tenantKeys.eventsCollection(tenant),
    gsi1sk: eventId,
    gsi2pk: tenantKeys.eventsOfKind(tenant, kind),
    gsi2sk: eventId,
  };
}

/** The stored SQS event: one deliveries-queue message (test/fixtures/sqs-event-delivery-message.json). */
export function sqsEvent(...records: SQSRecord[]): SQSEvent {
  const event = load<SQSEvent>('sqs-event-delivery-message.json');
  return records.length ? { Records: records } : event;
}

/** The stored SQS record, with overrides; `body` may be given as an object (it is serialised). */
export function sqsRecord(overrides: Omit<DeepPartial<SQSRecord>, 'body'> & { body?: string | Record<string, unknown> } = {}): SQSRecord {
  const { body, ...rest } = overrides;
  const record = merge(load<SQSEvent>('sqs-event-delivery-message.json').Records[0]!, rest as DeepPartial<SQSRecord>);
  if (body !== undefined) record.body = typeof body === 'string' ? body : JSON.stringify(body);
  return record;
}

/**
 * The stored poison message (test/fixtures/sqs-event-poison-message.json): the stored delivery
 * message as the DLQ handler receives it after SQS moved it there — its 20 receives
 * (maxReceiveCount) spent without a delete, `DeadLetterQueueSourceArn` set, and no `reason`
 * attribute (the one the delivery worker adds when it moves a delivery itself).
 */
export function sqsPoisonRecord(
  overrides: Omit<DeepPartial<SQSRecord>, 'body'> & { body?: string | Record<string, unknown> } = {},
): SQSRecord {
  const { body, ...rest } = overrides;
  const record = merge(load<SQSEvent>('sqs-event-poison-message.json').Records[0]!, rest as DeepPartial<SQSRecord>);
  if (body !== undefined) record.body = typeof body === 'string' ? body : JSON.stringify(body);
  return record;
}

/** The delivery message in the stored SQS record's body, parsed. */
export const fixtureDeliveryMessage = (): Record<string, unknown> => JSON.parse(sqsRecord().body) as Record<string, unknown>;
