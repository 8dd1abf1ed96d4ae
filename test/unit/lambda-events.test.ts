/**
 * The stored Lambda events (test/fixtures/) stay what the code writes and reads: the stream
 * INSERT's image is an outbox item as the outbox writes it, the MODIFY is a delivery as the router
 * creates it and as recording its first attempt leaves it, the REMOVE is that event's TTL expiry,
 * the SQS bodies are delivery messages, the API Gateway event's authorizer context is a principal;
 * no stream worker is fed the MODIFY or the REMOVE; and the loader hands out copies.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { principalFromContext } from '#shared/auth/principal';
import { defineEvent } from '#shared/events/catalogue';
import { eventPut } from '#shared/events/outbox';
import { eventFromItem } from '#shared/events/stored-event';
import { newDeliveryPut, attemptUpdate } from '#shared/webhooks/delivery-repository';
import { parseDeliveryMessage } from '#shared/webhooks/messages';
import { deliveryFromItem, pendingDelivery } from '#shared/webhooks/stored';
import { physicalName, queues } from '#shared/resources';
import { matchesFilter, workers } from '#shared/workers';
import {
  apiGatewayEvent,
  apiRequestEvent,
  outboxEventItem,
  sqsPoisonRecord,
  sqsRecord,
  streamModifyRecord,
  streamRecord,
  streamRecordOf,
  streamRemoveRecord,
} from '#test/support/lambda-events';

const image = () => unmarshall(streamRecord().dynamodb!.NewImage as Record<string, never>);
const tenant = { accountId: 'acct_Fx7Qm2Lk9Pw4Rt6Z', mode: 'test' as const };

describe('the stored stream record', () => {
  it('is an INSERT with both images configured, keyed like its item', () => {
    const record = streamRecord();
    expect(record).toMatchObject({ eventName: 'INSERT', eventSource: 'aws:dynamodb', dynamodb: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
    expect(record.dynamodb!.Keys).toEqual({ pk: record.dynamodb!.NewImage!.pk, sk: record.dynamodb!.NewImage!.sk });
  });

  it('carries an outbox EVENT item with exactly the attributes the outbox writes', () => {
    const written = eventPut(tenant, defineEvent('customer.created', z.object({ customer: z.object({ id: z.number() }) })), {
      customer: { id: 42 },
    }).item.Put!.Item!;
    expect(Object.keys(image()).sort()).toEqual(Object.keys(written).sort());
    expect(image()).toMatchObject({ entity: 'EVENT', pk: `T#${tenant.accountId}#test#EVENT#${image().event_id}` });
  });

  it('is read back by the router as the event it stores', () => {
    const event = eventFromItem(image());
    expect(event).toMatchObject({ kind: 'customer.created', tenant, test: false, data: JSON.parse(String(image().data_json)) });
    expect(Object.values(event!)).toContain(image().event_id);
  });

  it('is re-addressed by outboxEventItem to another tenant, kind and event id', () => {
    const other = { accountId: 'acct_other', mode: 'live' as const };
    const item = outboxEventItem(other, 'stock.low', { product: { id: 7 } });
    expect(Object.keys(item).sort()).toEqual(Object.keys(image()).sort());
    expect(eventFromItem(item)).toMatchObject({ kind: 'stock.low', tenant: other, data: { product: { id: 7 } } });
    expect(item.event_id).not.toBe(image().event_id);
    expect(streamRecordOf(item).dynamodb!.Keys!.pk).toEqual({ S: `T#acct_other#live#EVENT#${String(item.event_id)}` });
  });

  it('reports a MODIFY with both images and a REMOVE with the old one only', () => {
    const modify = streamRecordOf(image(), { eventName: 'MODIFY' }).dynamodb!;
    expect(modify.OldImage).toBeDefined();
    expect(modify.NewImage).toBeDefined();
    const remove = streamRecordOf(image(), { eventName: 'REMOVE' }).dynamodb!;
    expect(remove.OldImage).toBeDefined();
    expect(remove.NewImage).toBeUndefined();
  });
});

describe('the stored MODIFY and REMOVE', () => {
  const item = (image: unknown) => unmarshall(image as Record<string, never>);
  const message = () => parseDeliveryMessage(sqsRecord().body)!;
  /** The delivery the stored SQS message names, as the router creates it for the stored INSERT's event. */
  const delivery = () =>
    pendingDelivery({
      id: message().delivery_id,
      webhook_id: message().webhook_id,
      event_id: String(image().event_id),
      event: String(image().kind),
      test: false,
      token: message().token,
      created_at: '2025-11-24T10:15:31.000Z',
      expires_at: Number(image().expires_at),
    });
  /** An update's `SET #fN = :fN …` and `REMOVE #fN …` (shared/db/update-expression.ts) applied to an item. */
  const applied = (
    update: {
      UpdateExpression?: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues?: Record<string, unknown>;
    },
    to: Record<string, unknown>,
  ) => {
    const result = { ...to };
    const [, sets = '', removes = ''] = /^(?:SET (.*?))?(?: ?REMOVE (.*))?$/.exec(update.UpdateExpression!)!;
    for (const [, name, value] of sets.matchAll(/(#\w+) = (:\w+)/g))
      result[update.ExpressionAttributeNames![name!]!] = update.ExpressionAttributeValues![value!];
    for (const [name] of removes.matchAll(/#\w+/g)) delete result[update.ExpressionAttributeNames![name]!];
    return result;
  };

  it('MODIFY: the delivery the stored SQS message names, as created, then as its first attempt (200) left it', () => {
    const record = streamModifyRecord();
    expect(record).toMatchObject({ eventName: 'MODIFY', eventSource: 'aws:dynamodb', dynamodb: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
    const { Keys, OldImage, NewImage } = record.dynamodb!;
    expect(Keys).toEqual({ pk: OldImage!.pk, sk: OldImage!.sk });
    expect(Keys).toEqual({ pk: NewImage!.pk, sk: NewImage!.sk });
    const created = newDeliveryPut(tenant, delivery()).Put!.Item!;
    expect(item(OldImage)).toEqual(created);
    const attempt = deliveryFromItem(item(NewImage)).attempts[0]!;
    expect(item(NewImage)).toEqual(applied(attemptUpdate(tenant, delivery(), attempt, { status: 'succeeded' }).Update!, created));
    expect(deliveryFromItem(item(NewImage))).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status_code: 200 });
  });

  it("REMOVE: the stored INSERT's event deleted by its TTL — old image only, by DynamoDB's service", () => {
    const record = streamRemoveRecord();
    expect(record).toMatchObject({
      eventName: 'REMOVE',
      userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
      dynamodb: { StreamViewType: 'NEW_AND_OLD_IMAGES', Keys: streamRecord().dynamodb!.Keys },
    });
    expect(record.dynamodb!.OldImage).toEqual(streamRecord().dynamodb!.NewImage);
    expect(record.dynamodb!.NewImage).toBeUndefined();
    expect(record.dynamodb!.ApproximateCreationDateTime).toBeGreaterThanOrEqual(Number(image().expires_at));
  });

  it('feed no stream worker (their filter patterns), unlike the stored INSERT', () => {
    const streamWorkers = workers.flatMap((worker) => (worker.source.kind === 'table-stream' ? [worker.source.filter] : []));
    expect(streamWorkers.length).toBeGreaterThan(1);
    expect(streamWorkers.some((filter) => matchesFilter(filter, streamRecord()))).toBe(true);
    for (const filter of streamWorkers) {
      expect(matchesFilter(filter, streamModifyRecord())).toBe(false);
      expect(matchesFilter(filter, streamRemoveRecord())).toBe(false);
    }
  });
});

describe('the stored SQS messages', () => {
  it('is a deliveries-queue message', () => {
    expect(parseDeliveryMessage(sqsRecord().body)).toMatchObject({ v: 1, account_id: tenant.accountId, mode: 'test', webhook_id: 3 });
  });

  it('poison: the same message on the DLQ after its 20 receives (maxReceiveCount), moved by SQS, not by the worker', () => {
    const poison = sqsPoisonRecord();
    expect(parseDeliveryMessage(poison.body)).toEqual(parseDeliveryMessage(sqsRecord().body));
    expect(Number(poison.attributes.ApproximateReceiveCount)).toBeGreaterThan(queues.deliveries.deadLetter.maxReceiveCount);
    expect(poison.attributes).toMatchObject({ DeadLetterQueueSourceArn: sqsRecord().eventSourceARN });
    expect(poison.eventSourceARN).toMatch(new RegExp(`:${physicalName('dev', queues.deliveries.deadLetter.id)}$`));
    expect(poison.messageAttributes.reason).toBeUndefined();
  });
});

describe('the stored API Gateway event', () => {
  it("carries an authorizer context the guard reads as the fixture's principal", () => {
    expect(principalFromContext(apiGatewayEvent().requestContext.authorizer)).toMatchObject({
      ...tenant,
      kind: 'secret',
      scopes: ['*'],
      limits: { perMinute: 500 },
    });
  });

  it('builds requests for a route template, with the principal given', () => {
    const event = apiRequestEvent({
      method: 'PUT',
      resource: '/v1/customers/{id}/addresses/{addressId}',
      pathParameters: { id: '7', addressId: '2' },
      body: { city: 'Bern' },
      principal: { kind: 'publishable', scopes: ['products:read'] },
    });
    expect(event).toMatchObject({
      httpMethod: 'PUT',
      path: '/v1/customers/7/addresses/2',
      body: '{"city":"Bern"}',
      pathParameters: { id: '7', addressId: '2' },
    });
    expect(event.headers['Content-Type']).toBe('application/json');
    expect(principalFromContext(event.requestContext.authorizer)).toMatchObject({ kind: 'publishable', scopes: ['products:read'] });
  });
});

describe('the loader', () => {
  it('hands out deep copies, with overrides merged and undefined removing a field', () => {
    const first = apiGatewayEvent({ headers: { 'X-Test': '1', Accept: undefined } });
    first.requestContext.identity.sourceIp = '198.51.100.1';
    const second = apiGatewayEvent();
    expect(first.headers).toMatchObject({ 'X-Test': '1', 'User-Agent': 'curl/8.5.0' });
    expect(first.headers.Accept).toBeUndefined();
    expect(second.headers.Accept).toBe('application/json');
    expect(second.requestContext.identity.sourceIp).toBe('203.0.113.10');
  });
});
