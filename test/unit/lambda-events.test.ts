/**
 * The stored Lambda events (test/fixtures/) stay what the code writes and reads: the stream
 * record's image is an outbox item as the outbox writes it, the SQS body is a delivery message,
 * the API Gateway event's authorizer context is a principal; and the loader hands out copies.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { principalFromContext } from '#shared/auth/principal';
import { defineEvent } from '#shared/events/catalogue';
import { eventPut } from '#shared/events/outbox';
import { eventFromItem } from '#shared/events/stored-event';
import { parseDeliveryMessage } from '#shared/webhooks/messages';
import { apiGatewayEvent, apiRequestEvent, outboxEventItem, sqsRecord, streamRecord, streamRecordOf } from '#test/support/lambda-events';

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

describe('the stored SQS message', () => {
  it('is a deliveries-queue message', () => {
    expect(parseDeliveryMessage(sqsRecord().body)).toMatchObject({ v: 1, account_id: tenant.accountId, mode: 'test', webhook_id: 3 });
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
