/**
 * Which stream records the router acts on, on the stored stream fixture
 * (test/fixtures/dynamodb-stream-event-insert.json) through `routeStreamRecords`, with the
 * modules it reads and writes through mocked: EVENT inserts and DELIVERY_REQUEST inserts are
 * picked; MODIFY and REMOVE records and inserts of anything else are ignored.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routeStreamRecords } from '#events/router';
import { writeConditionallyBatched } from '#shared/db/conditional-writes';
import { readDelivery } from '#shared/webhooks/delivery-repository';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';
import { sendDeliveryMessages } from '#shared/webhooks/messages';
import { listWebhooks, readWebhook } from '#shared/webhooks/repository';
import { streamEvent, streamModifyRecord, streamRecord, streamRecordOf, streamRemoveRecord } from '#test/support/lambda-events';

vi.mock('#shared/webhooks/repository', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  listWebhooks: vi.fn(),
  readWebhook: vi.fn(),
}));
vi.mock('#shared/webhooks/delivery-repository', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  readDelivery: vi.fn(),
  rearmPending: vi.fn(),
}));
vi.mock('#shared/webhooks/messages', async (importOriginal) => ({ ...(await importOriginal<object>()), sendDeliveryMessages: vi.fn() }));
vi.mock('#shared/db/conditional-writes', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  writeConditionallyBatched: vi.fn(),
}));

/** The fixture's outbox item, unmarshalled. */
const fixtureItem = () => unmarshall(streamRecord().dynamodb!.NewImage as Record<string, never>);
const fixtureTenant = () => ({ accountId: String(fixtureItem().account_id), mode: fixtureItem().mode as 'test' | 'live' });

/** A redelivery request as the API writes it (shared/webhooks/delivery-repository.ts requestRedelivery). */
const redeliveryRequest = (deliveryId = 'wh_0NqZk3AbHe3357mVwcz9zSLL') => ({
  pk: `T#${fixtureTenant().accountId}#test#DELIVERY#${deliveryId}`,
  sk: 'REQUEST#Tk3Rq9Lm2Vx8Zp4N',
  entity: 'DELIVERY_REQUEST',
  account_id: fixtureTenant().accountId,
  mode: 'test',
  delivery_id: deliveryId,
  webhook_id: 3,
  token: 'Tk3Rq9Lm2Vx8Zp4N',
  created_at: '2025-11-24T10:16:00.000Z',
  expires_at: 1_766_571_360,
});

/** A registration subscribed to everything (only the fields the router looks at). */
type Registration = Awaited<ReturnType<typeof listWebhooks>>[number];
const subscriber = (id: number) => ({ id, url: 'https://hooks.example.com/print-shop', events: ['*'], active: true }) as Registration;

beforeEach(() => {
  vi.mocked(listWebhooks).mockReset().mockResolvedValue([]);
  vi.mocked(readWebhook).mockReset().mockResolvedValue(undefined);
  vi.mocked(readDelivery).mockReset().mockResolvedValue(undefined);
  vi.mocked(sendDeliveryMessages).mockReset().mockResolvedValue(undefined);
  vi.mocked(writeConditionallyBatched)
    .mockReset()
    .mockImplementation(async (groups) => groups.map(() => true));
});

/** What the router did with `records`: the tenants whose registrations it read, the deliveries it read. */
async function route(records: DynamoDBRecord[]) {
  await routeStreamRecords(records);
  return {
    eventsFor: vi.mocked(listWebhooks).mock.calls.map(([tenant]) => tenant),
    redeliveriesOf: vi.mocked(readDelivery).mock.calls.map(([, id]) => id),
    messages: vi.mocked(sendDeliveryMessages).mock.calls.flatMap(([messages]) => messages),
  };
}

describe('the stream router picks', () => {
  it('an INSERT of an outbox EVENT item (the stored fixture) and enqueues one delivery per subscriber', async () => {
    vi.mocked(listWebhooks).mockResolvedValue([
      subscriber(3),
      { ...subscriber(4), active: false },
      { ...subscriber(5), events: ['order.created'] },
    ]);
    const { eventsFor, redeliveriesOf, messages } = await route(streamEvent().Records);
    const tenant = fixtureTenant();
    expect(eventsFor).toEqual([tenant]);
    expect(redeliveriesOf).toEqual([]);
    const eventId = String(fixtureItem().event_id);
    expect(messages).toEqual([
      {
        v: 1,
        account_id: tenant.accountId,
        mode: 'test',
        webhook_id: 3,
        delivery_id: deliveryIdFor(eventId, tenant, 3),
        token: expect.any(String),
        event_id: eventId,
      },
    ]);
  });

  it('an INSERT of a DELIVERY_REQUEST item, and reads the delivery it names', async () => {
    const { eventsFor, redeliveriesOf, messages } = await route([streamRecordOf(redeliveryRequest())]);
    expect(eventsFor).toEqual([]);
    expect(redeliveriesOf).toEqual(['wh_0NqZk3AbHe3357mVwcz9zSLL']);
    expect(messages).toEqual([]); // the delivery is gone (readDelivery found nothing): nothing to send
  });

  it('both kinds out of a mixed batch, in one pass', async () => {
    const records = [
      streamRecord({ eventName: 'MODIFY' }),
      streamRecord(),
      streamRecordOf({ pk: 'T#acct_x#test#CUSTOMER#7', sk: 'CUSTOMER', entity: 'CUSTOMER', id: 7 }),
      streamRecordOf(redeliveryRequest('wh_0NqZk3AbQw8Er5TyUi9Op1As')),
      streamRecordOf(fixtureItem(), { eventName: 'REMOVE' }),
    ];
    const { eventsFor, redeliveriesOf } = await route(records);
    expect(eventsFor).toEqual([fixtureTenant()]);
    expect(redeliveriesOf).toEqual(['wh_0NqZk3AbQw8Er5TyUi9Op1As']);
  });
});

describe('the stream router ignores', () => {
  const ignored: [string, () => DynamoDBRecord][] = [
    ['the stored MODIFY (a delivery: its first attempt recorded)', () => streamModifyRecord()],
    ['the stored REMOVE (an EVENT item: its TTL expiry)', () => streamRemoveRecord()],
    ['a MODIFY of an EVENT item', () => streamRecordOf(fixtureItem(), { eventName: 'MODIFY' })],
    ['a REMOVE of an EVENT item (its TTL expiry)', () => streamRecordOf(fixtureItem(), { eventName: 'REMOVE' })],
    ['a MODIFY of a DELIVERY_REQUEST item', () => streamRecordOf(redeliveryRequest(), { eventName: 'MODIFY' })],
    [
      'an INSERT of a customer',
      () => streamRecordOf({ pk: 'T#acct_x#test#CUSTOMER#7', sk: 'CUSTOMER', entity: 'CUSTOMER', id: 7, name: 'Anna' }),
    ],
    ['an INSERT of a delivery', () => streamRecordOf({ ...redeliveryRequest(), sk: 'DELIVERY', entity: 'DELIVERY' })],
    ['an INSERT of an item without an entity', () => streamRecordOf({ pk: 'T#acct_x#test#META', sk: 'SEQ#customer', value: 8 })],
    ['an INSERT of an EVENT item without a kind', () => streamRecordOf({ ...fixtureItem(), kind: undefined })],
    ['an INSERT of an EVENT item of no known mode', () => streamRecordOf({ ...fixtureItem(), mode: 'staging' })],
    ['an INSERT whose stream record has no new image', () => streamRecord({ dynamodb: { NewImage: undefined } })],
  ];

  it.each(ignored)('%s', async (_name, record) => {
    const { eventsFor, redeliveriesOf, messages } = await route([record()]);
    expect(eventsFor).toEqual([]);
    expect(redeliveriesOf).toEqual([]);
    expect(vi.mocked(readWebhook)).not.toHaveBeenCalled();
    expect(messages).toEqual([]);
  });
});
