/**
 * No event lost: the stream router's retries (the local stream poller's batch runner, configured
 * from shared/workers.ts exactly as the event source mapping is on AWS), the delivery sweeper and
 * `replay` (events/replay.ts, what `npm run events -- replay` runs) together deliver every event to
 * every subscribed registration however long the deliveries queue was unreachable — and replaying
 * twice sends nothing twice.
 *
 * Each test routes real stream records of its own tenant's events in this process, with SQS
 * failing here as long as it likes. The registrations it checks are paused while the local stack's
 * own router handles those events (a sentinel registration says when that is done), and activated
 * before the test routes them, so they receive the events from the test's routing only.
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchRunner } from '#local-aws/stream-poller';
import { routeStreamRecords } from '#events/router';
import { replayEvents } from '#events/replay';
import { sweepPendingDeliveries } from '#events/sweeper';
import { dynamo } from '#shared/clients/dynamodb';
import { sqs } from '#shared/clients/sqs';
import { sweepKeys, webhookKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';
import { workers, type StreamSource } from '#shared/workers';
import { call, uniqueEmail } from '#test/support/http';
import { streamRecordOf } from '#test/support/lambda-events';
import { useReceiver, type Receiver } from '#test/support/receiver';
import { storedDelivery, storedEvents } from '#test/support/store';
import { deliveryQueuesDrained, eventually } from '#test/support/wait';
import { freshShop, registerForTest, type Shop } from '#test/support/webhooks';
import type { StoredEventItem } from '#test/support/store';

const routerSource = workers.find((worker) => worker.id === 'EventRouter')!.source as StreamSource;

afterEach(() => void vi.restoreAllMocks());

/** Makes SendMessageBatch fail in this process while `down()` says so; the other calls go through. */
function sqsOutage(down: () => boolean) {
  const real = sqs().send.bind(sqs());
  let refused = 0;
  vi.spyOn(sqs(), 'send').mockImplementation(async (command: unknown) => {
    if (command instanceof SendMessageBatchCommand && down()) {
      refused++;
      throw Object.assign(new Error('SQS is unreachable'), { name: 'NetworkingError' });
    }
    return real(command as never);
  });
  return { refused: () => refused };
}

interface Scenario {
  shop: Shop;
  /** Subscribed to customer.created only, and to everything; paused while the stack's router ran. */
  created: { id: number; hook: Receiver };
  everything: { id: number; hook: Receiver };
  /** The tenant's events, oldest first, as stored. */
  events: StoredEventItem[];
  startedAt: string;
}

/** A tenant with 4 customer.created and 2 customer.updated events that the checked registrations have not received yet. */
async function scenario(name: string): Promise<Scenario> {
  const shop = await freshShop(name);
  const startedAt = new Date().toISOString();
  const [sentinel, createdHook, everythingHook] = await Promise.all([useReceiver(), useReceiver(), useReceiver()]);
  const sentinelHook = await registerForTest(shop.secretTest, { url: sentinel.url, events: ['*'] });
  const created = await registerForTest(shop.secretTest, { url: createdHook.url, events: ['customer.created'], active: false });
  const everything = await registerForTest(shop.secretTest, { url: everythingHook.url, events: ['*'], active: false });
  // A registration for other kinds gets none of these events, whatever happens.
  await registerForTest(shop.secretTest, { url: everythingHook.url, events: ['order.created'] });
  const ids: number[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await call('POST', '/v1/customers', {
      key: shop.secretTest,
      body: { name: `Customer ${i}`, email: uniqueEmail('lost') },
    });
    ids.push(response.body.data.id);
  }
  for (const id of ids.slice(0, 2)) await call('PUT', `/v1/customers/${id}`, { key: shop.secretTest, body: { notes: 'changed' } });
  await sentinel.waitFor(6);
  const events = await eventually(
    () => storedEvents(shop.tenant),
    (list) => list.length === 6,
  );
  // The stack's router is done with these events once the sentinel's deliveries are recorded as succeeded.
  for (const event of events) {
    await eventually(
      async () => (await storedDelivery(shop.tenant, deliveryIdFor(event.event_id, shop.tenant, sentinelHook.id)))?.status,
      (status) => status === 'succeeded',
    );
  }
  for (const webhook of [created, everything])
    await call('PUT', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest, body: { active: true } });
  return {
    shop,
    created: { id: created.id, hook: createdHook },
    everything: { id: everything.id, hook: everythingHook },
    events: events.sort((a, b) => String(a.event_id).localeCompare(String(b.event_id))),
    startedAt,
  };
}

/** The events' stream records, as the stream delivers them, `ageSeconds` old. */
const recordsOf = (events: StoredEventItem[], ageSeconds = 0): DynamoDBRecord[] =>
  events.map((item) => streamRecordOf(item, { dynamodb: { ApproximateCreationDateTime: Math.floor(Date.now() / 1000) - ageSeconds } }));

/** Every checked registration got every event it subscribes to, once, and each delivery succeeded. */
async function expectEverythingDelivered(s: Scenario) {
  const createdEvents = s.events.filter((event) => event.kind === 'customer.created').map((event) => event.event_id);
  const allEvents = s.events.map((event) => event.event_id);
  await s.created.hook.waitFor(createdEvents.length);
  await s.everything.hook.waitFor(allEvents.length);
  await deliveryQueuesDrained();
  const received = (hook: Receiver) => hook.requests.map((request) => JSON.parse(request.rawBody).event_id).sort();
  expect(received(s.created.hook)).toEqual([...createdEvents].sort());
  expect(received(s.everything.hook)).toEqual([...allEvents].sort());
  for (const [webhookId, eventIds] of [
    [s.created.id, createdEvents],
    [s.everything.id, allEvents],
  ] as const) {
    for (const eventId of eventIds) {
      const delivery = await eventually(
        () => storedDelivery(s.shop.tenant, deliveryIdFor(eventId, s.shop.tenant, webhookId)),
        (item) => item?.status === 'succeeded',
      );
      expect(delivery, `${eventId} → webhook ${webhookId}`).toMatchObject({ status: 'succeeded', attempt_count: 1 });
      expect(delivery?.gsi3pk).toBeUndefined(); // out of the pending-deliveries index
    }
  }
}

describe('the stream router', () => {
  it('retries through an SQS outage longer than its old budget of 10 retries and then delivers everything', async () => {
    const s = await scenario('No Event Lost: outage');
    expect(routerSource.retryAttempts).toBe(-1);
    // Down for the first 40 sends: the batch, its halves, and one record more than 10 retries over.
    let sends = 0;
    const outage = sqsOutage(() => ++sends <= 40);
    const givenUp: Record<string, unknown>[] = [];
    const run = batchRunner({
      name: 'test-router',
      source: routerSource,
      invoke: (event) => routeStreamRecords(event.Records),
      onFailure: async (failure) => void givenUp.push(failure),
      streamArn: 'arn:test',
      signal: new AbortController().signal,
      log: () => undefined,
      backoffMs: () => 5,
    });
    await run(recordsOf(s.events));
    expect(outage.refused()).toBe(40);
    expect(givenUp).toEqual([]);
    await expectEverythingDelivered(s);
  });

  it('gives a batch up only once its records are older than the maximum age, to the on-failure queue', async () => {
    const s = await scenario('No Event Lost: expired');
    const givenUp: Record<string, unknown>[] = [];
    const invoked = vi.fn();
    const run = batchRunner({
      name: 'test-router',
      source: routerSource,
      invoke: invoked,
      onFailure: async (failure) => void givenUp.push(failure),
      streamArn: 'arn:test',
      signal: new AbortController().signal,
      log: () => undefined,
    });
    await run(recordsOf(s.events, routerSource.maxRecordAgeSeconds + 60));
    expect(invoked).not.toHaveBeenCalled();
    expect(givenUp).toEqual([expect.objectContaining({ batchSize: 6, reason: 'record age exceeded the maximum' })]);
    expect(s.created.hook.requests).toEqual([]);

    // What the failure queue's alarm asks for: replay the range. Every event reaches every subscribed registration…
    const first = await replayEvents({ tenant: s.shop.tenant, from: s.startedAt });
    // 6 events to the sentinel (already delivered), 4 + 6 new deliveries to the two checked registrations.
    expect(first).toEqual({ events: 6, created: 10, rearmed: 0, finished: 6 });
    await expectEverythingDelivered(s);

    // …and a second replay sends nothing again.
    const second = await replayEvents({ tenant: s.shop.tenant, from: s.startedAt });
    expect(second).toEqual({ events: 6, created: 0, rearmed: 0, finished: 16 });
    await deliveryQueuesDrained();
    expect(s.created.hook.requests).toHaveLength(4);
    expect(s.everything.hook.requests).toHaveLength(6);
  });

  it('replays one registration only, and a time range only', async () => {
    const s = await scenario('No Event Lost: one webhook');
    const latest = s.events.at(-1)!;
    const result = await replayEvents({
      tenant: s.shop.tenant,
      from: latest.created_at,
      to: latest.created_at,
      webhookId: s.everything.id,
    });
    expect(result).toEqual({ events: 1, created: 1, rearmed: 0, finished: 0 });
    const [request] = await s.everything.hook.waitFor(1);
    expect(JSON.parse(request!.rawBody).event_id).toBe(latest.event_id);
    await deliveryQueuesDrained();
    expect(s.created.hook.requests).toEqual([]);
  });
});

describe('the delivery sweeper', () => {
  it('re-arms the deliveries a given-up batch left pending without a message, once they are overdue', async () => {
    const s = await scenario('No Event Lost: sweeper');
    // SQS down for good: the router writes the deliveries, cannot enqueue them, and gives up once
    // the records are older than the maximum age (2 s here instead of 24 h).
    sqsOutage(() => true);
    const givenUp: Record<string, unknown>[] = [];
    const run = batchRunner({
      name: 'test-router',
      source: { ...routerSource, maxRecordAgeSeconds: 2 },
      invoke: (event) => routeStreamRecords(event.Records),
      onFailure: async (failure) => void givenUp.push(failure),
      streamArn: 'arn:test',
      signal: new AbortController().signal,
      log: () => undefined,
      backoffMs: () => 100,
    });
    await run(recordsOf(s.events));
    expect(givenUp.length).toBeGreaterThan(0);
    vi.restoreAllMocks(); // SQS is back

    const stuck = [
      ...s.events
        .filter((event) => event.kind === 'customer.created')
        .map((event) => deliveryIdFor(event.event_id, s.shop.tenant, s.created.id)),
      ...s.events.map((event) => deliveryIdFor(event.event_id, s.shop.tenant, s.everything.id)),
    ];
    const tokens = new Map<string, string>();
    for (const id of stuck) {
      const delivery = await storedDelivery(s.shop.tenant, id);
      expect(delivery?.status).toBe('pending');
      tokens.set(id, delivery!.token);
    }
    // Not overdue yet: a sweep now leaves them alone (their messages could still be on the way).
    await sweepPendingDeliveries();
    for (const id of stuck) expect((await storedDelivery(s.shop.tenant, id))?.token).toBe(tokens.get(id));

    // 20 minutes later, as far as the pending-deliveries index is concerned.
    const longAgo = new Date(Date.now() - 20 * 60_000).toISOString();
    for (const id of stuck) {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: webhookKeys.delivery(s.shop.tenant, id),
          UpdateExpression: 'SET gsi3sk = :due',
          ExpressionAttributeValues: { ':due': sweepKeys.pendingDue(id, longAgo).gsi3sk },
        }),
      );
    }
    const swept = await eventually(
      () => sweepPendingDeliveries(),
      (result) => result.rearmed > 0,
    );
    expect(swept.rearmed).toBeGreaterThanOrEqual(stuck.length);
    await expectEverythingDelivered(s);
  });
});
