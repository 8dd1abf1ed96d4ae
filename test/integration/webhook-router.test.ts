/**
 * The stream router's guarantees, with the router called directly on real stream-shaped records
 * (the local stream poller runs the same function): a replayed record does not deliver twice,
 * and a crash between writing the delivery and enqueueing it leads to a retry, not a gap.
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';
import { routeStreamRecords } from '#events/router';
import { dynamo } from '#shared/clients/dynamodb';
import { sqs } from '#shared/clients/sqs';
import { tableName } from '#shared/db/table';
import { call } from '#test/support/http';
import { outboxEventItem, streamRecordOf } from '#test/support/lambda-events';
import { useReceiver, type Receiver } from '#test/support/receiver';
import { storedDelivery } from '#test/support/store';
import { deliveryQueuesDrained, eventually } from '#test/support/wait';
import { freshShop, registerForTest, type Shop } from '#test/support/webhooks';

let shop: Shop;
beforeAll(async () => {
  shop = await freshShop('Webhook Router');
});
afterEach(() => void vi.restoreAllMocks());

/**
 * Writes a `stock.low` event and waits until the local stream router has handled its insert (a
 * sentinel webhook receives it), so the target webhook — activated only afterwards — gets the
 * event from the test's own router calls and nowhere else.
 */
async function routedEvent(target: number, sentinel: Receiver) {
  const item = outboxEventItem(shop.tenant, 'stock.low', { product: { id: 7, name: 'Flyer A5', stock: 3 } });
  const eventId = String(item.event_id);
  await dynamo().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  await eventually(async () => sentinel.requests.some((request) => JSON.parse(request.rawBody).event_id === eventId), Boolean);
  await call('PUT', `/v1/webhooks/${target}`, { key: shop.secretTest, body: { active: true } });
  // The stream record of that insert, as the stream delivers it (test/fixtures/dynamodb-stream-event-insert.json).
  return { eventId, record: streamRecordOf(item) };
}

describe('the stream router', () => {
  it('delivers a replayed stream record once', async () => {
    const [sentinel, hook] = await Promise.all([useReceiver(), useReceiver()]);
    await registerForTest(shop.secretTest, { url: sentinel.url, events: ['stock.low'] });
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['stock.low'], active: false });
    const { eventId, record } = await routedEvent(webhook.id, sentinel);

    // Both routings' messages are held back and sent afterwards, in order: a replay that happens
    // while the first message is already being handled may deliver twice (at-least-once, the same
    // delivery id, docs/webhooks.md); the guarantee checked here is that the replay leaves exactly
    // one live message chain.
    const held: SendMessageBatchCommand[] = [];
    const realSend = sqs().send.bind(sqs());
    const hold = vi.spyOn(sqs(), 'send').mockImplementation(async (command: unknown) => {
      if (command instanceof SendMessageBatchCommand) {
        held.push(command);
        return { Successful: command.input.Entries?.map((entry) => ({ Id: entry.Id, MessageId: entry.Id })), Failed: [] };
      }
      return realSend(command as never);
    });
    await routeStreamRecords([record]);
    await routeStreamRecords([record]); // Lambda retried the batch, or the poller replayed it
    hold.mockRestore();
    const id = deliveryIdFor(eventId, shop.tenant, webhook.id);
    const forTarget = held
      .flatMap((command) => command.input.Entries ?? [])
      .map((entry) => JSON.parse(entry.MessageBody!))
      .filter((message) => message.delivery_id === id);
    expect(forTarget).toHaveLength(2);
    expect(forTarget[0].token).not.toBe(forTarget[1].token);
    expect((await storedDelivery(shop.tenant, id))?.token).toBe(forTarget[1].token); // the first chain is superseded
    for (const command of held) await realSend(command);

    await hook.waitFor(1);
    // Both messages have been handled (the first one dropped as stale): nothing more can arrive.
    await deliveryQueuesDrained();
    expect(hook.requests).toHaveLength(1);
    expect(JSON.parse(hook.requests[0]!.rawBody).id).toBe(id);
    expect((await storedDelivery(shop.tenant, id))?.attempt_count).toBe(1);
  });

  it('retries after a crash between recording the delivery and enqueueing it', async () => {
    const [sentinel, hook] = await Promise.all([useReceiver(), useReceiver()]);
    await registerForTest(shop.secretTest, { url: sentinel.url, events: ['stock.low'] });
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['stock.low'], active: false });
    const { eventId, record } = await routedEvent(webhook.id, sentinel);

    const down = vi.spyOn(sqs(), 'send').mockImplementation(async () => {
      throw new Error('SQS is down');
    });
    await expect(routeStreamRecords([record])).rejects.toThrow('SQS is down');
    const id = deliveryIdFor(eventId, shop.tenant, webhook.id);
    expect((await storedDelivery(shop.tenant, id))?.status).toBe('pending'); // recorded, not sent

    down.mockRestore();
    await routeStreamRecords([record]); // the retry of the failed batch
    const [request] = await hook.waitFor(1);
    expect(JSON.parse(request!.rawBody).id).toBe(id);
    expect(
      await eventually(
        async () => (await storedDelivery(shop.tenant, id))?.status,
        (status) => status === 'succeeded',
      ),
    ).toBe('succeeded');
  });
});
