import { describe, expect, it } from 'vitest';
import { eventKinds, resourceTypeOf } from '#shared/events/catalogue';
import { eventPut } from '#shared/events/outbox';

const tenant = { accountId: 'acct_1', mode: 'live' as const };

describe('the event catalogue', () => {
  it('holds all 19 kinds the spec lists, each with a resource type', () => {
    expect(eventKinds).toHaveLength(19);
    expect(new Set(eventKinds).size).toBe(19);
    for (const kind of eventKinds) expect(resourceTypeOf[kind]).toBeTruthy();
  });
});

describe('the outbox writer', () => {
  it('puts the resource under its type name in a conditional put keyed by tenant', () => {
    const { event, item } = eventPut(tenant, 'customer.created', { id: 1 }, {}, new Date('2026-01-01T00:00:00Z'));
    expect(event.id).toMatch(/^evt_/);
    expect(event.data).toEqual({ customer: { id: 1 } });
    const put = item.Put!;
    expect(put.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(put.Item!.pk).toBe(`T#acct_1#live#EVENT#${event.id}`);
    expect(put.Item).toMatchObject({ kind: 'customer.created', mode: 'live', account_id: 'acct_1', created_at: '2026-01-01T00:00:00.000Z' });
    expect(put.Item!.expires_at).toBe(Date.parse('2026-01-31T00:00:00Z') / 1000);
  });

  it('gives events time-ordered, unique ids', async () => {
    const first = eventPut(tenant, 'customer.updated', {}).event.id;
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = eventPut(tenant, 'customer.updated', {}).event.id;
    expect(second > first).toBe(true);
  });
});
