/**
 * The pure parts of bounded lists: the audit cursor, event id ranges of a time range, the
 * pending-deliveries keys and the staged-price-versions keys (the two cross-tenant sweep indexes).
 */
import { describe, expect, it } from 'vitest';
import { cursorTime, decodeAuditCursor, encodeAuditCursor } from '#shared/audit/cursor';
import { AuditListQuerySchema } from '#shared/audit/schema';
import {
  deliveryOfKey,
  DUE_SHARDS,
  legacyPriceSweepKeys,
  legacyPriceVersionOfKey,
  legacyProductKeys,
  STAGING_SHARDS,
  sweepKeys,
  tenantKeys,
  webhookKeys,
} from '#shared/db/keys';
import { idRange } from '#shared/event-log/repository';
import { EventListQuerySchema } from '#shared/event-log/schema';
import { idTime, prefixedId } from '#shared/ids';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';

describe('the audit cursor', () => {
  const cursor = { after: '2026-11-21T10:15:00.123Z#req-1', from: '2026-11-14T10:15:00.000Z' };

  it('round-trips, opaque and safe in a query string', () => {
    const text = encodeAuditCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeAuditCursor(text)).toEqual(cursor);
    expect(cursorTime(cursor)).toBe('2026-11-21T10:15:00.123Z');
  });

  it('refuses anything it did not hand out', () => {
    for (const text of ['', 'a b', '%%%', 'e30', Buffer.from('{"a":"x","f":"y"}').toString('base64url'), 'x'.repeat(1001)]) {
      expect(decodeAuditCursor(text), text).toBeUndefined();
    }
    const parsed = AuditListQuerySchema.safeParse({ starting_after: 'e30' });
    expect(parsed.success).toBe(false);
    expect(AuditListQuerySchema.safeParse({ starting_after: encodeAuditCursor(cursor) }).data?.starting_after).toEqual(cursor);
  });

  it('goes with page 1 only', () => {
    expect(AuditListQuerySchema.safeParse({ page: '2' }).success).toBe(false);
    expect(AuditListQuerySchema.safeParse({ page: '1' }).success).toBe(true);
  });
});

describe('event id ranges', () => {
  it('turn a time range into the ids created within it, both ends included', () => {
    const at = Date.parse('2026-11-21T10:15:00.000Z');
    const [lower, upper] = idRange({ from: new Date(at).toISOString(), to: new Date(at + 1000).toISOString() });
    const inside = [`evt_${idTime(at)}00000000000000`, `evt_${idTime(at + 1000)}zzzzzzzzzzzzzz`];
    const outside = [`evt_${idTime(at - 1)}zzzzzzzzzzzzzz`, `evt_${idTime(at + 1001)}00000000000000`];
    for (const id of inside) expect(lower <= id && id <= upper, id).toBe(true);
    for (const id of outside) expect(lower <= id && id <= upper, id).toBe(false);
    const [all, none] = idRange({});
    expect(all <= prefixedId('evt') && prefixedId('evt') <= none).toBe(true);
  });

  it('sort like the times they encode', () => {
    expect(idTime(1) < idTime(2)).toBe(true);
    expect(idTime(Date.parse('2026-01-01')) < idTime(Date.parse('2027-01-01'))).toBe(true);
    // The id's time lies between the clock read before and after it was made (the clock may tick between).
    const before = idTime(Date.now()).slice(0, 8);
    const made = prefixedId('evt').slice(4, 12);
    const after = idTime(Date.now()).slice(0, 8);
    expect(before <= made && made <= after, `${before} ≤ ${made} ≤ ${after}`).toBe(true);
  });

  it('are asked for with a cursor of an event id, by page 1 only', () => {
    expect(EventListQuerySchema.safeParse({ starting_after: prefixedId('evt') }).success).toBe(true);
    expect(EventListQuerySchema.safeParse({ starting_after: 'evt_x' }).success).toBe(false);
    expect(EventListQuerySchema.safeParse({ page: '2' }).success).toBe(false);
    expect(EventListQuerySchema.parse({ created_from: '2026-11-01', created_to: '2026-11-02' })).toMatchObject({
      created_from: '2026-11-01T00:00:00.000Z',
      created_to: '2026-11-02T23:59:59.999Z',
    });
  });
});

describe('the pending-deliveries index keys', () => {
  const tenant = { accountId: 'acct_Fx7Qm2Lk9Pw4Rt6Z', mode: 'live' as const };

  it('spread deliveries over every shard, each always in the same one', () => {
    const shards = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const id = deliveryIdFor(prefixedId('evt'), tenant, i);
      const { gsi3pk } = sweepKeys.pendingDue(id, '2026-11-21T10:15:00.000Z');
      expect(sweepKeys.pendingDue(id, '2027-01-01T00:00:00.000Z').gsi3pk).toBe(gsi3pk);
      shards.add(gsi3pk);
    }
    expect([...shards].sort()).toEqual(Array.from({ length: DUE_SHARDS }, (_, shard) => sweepKeys.dueShard(shard)).sort());
  });

  it('sort by due time, and dueBefore bounds them', () => {
    const id = deliveryIdFor(prefixedId('evt'), tenant, 1);
    const early = sweepKeys.pendingDue(id, '2026-11-21T10:15:00.000Z').gsi3sk;
    expect(early < sweepKeys.dueBefore('2026-11-21T10:15:00.000Z')).toBe(true);
    expect(early < sweepKeys.dueBefore('2026-11-21T10:14:59.999Z')).toBe(false);
  });

  it('name their delivery by its key, and nothing else', () => {
    const id = deliveryIdFor(prefixedId('evt'), tenant, 3);
    expect(deliveryOfKey(webhookKeys.delivery(tenant, id))).toEqual({ tenant, deliveryId: id });
    expect(deliveryOfKey(webhookKeys.deliveryRequest(tenant, id, 'token'))).toBeUndefined();
    expect(deliveryOfKey(tenantKeys.event(tenant, 'evt_1'))).toBeUndefined();
  });
});

describe('the staged-price-versions index keys', () => {
  const tenant = { accountId: 'acct_Fx7Qm2Lk9Pw4Rt6Z', mode: 'test' as const };
  const at = '2026-11-21T10:15:00.000Z';

  it('spread consecutive products and versions over every shard', () => {
    const shards = new Set<string>();
    for (let id = 1; id <= STAGING_SHARDS; id++) shards.add(legacyPriceSweepKeys.staged(id, 1, at).gsi3pk);
    expect([...shards].sort()).toEqual(
      Array.from({ length: STAGING_SHARDS }, (_, shard) => legacyPriceSweepKeys.stagingShard(shard)).sort(),
    );
    expect(legacyPriceSweepKeys.staged(7, 2, at).gsi3pk).not.toBe(legacyPriceSweepKeys.staged(7, 3, at).gsi3pk);
  });

  it('sort by time: an ISO cutoff bounds the entries started strictly before it', () => {
    const entry = legacyPriceSweepKeys.staged(12, 3, at).gsi3sk;
    expect(entry < '2026-11-21T10:15:00.001Z').toBe(true);
    expect(entry < at).toBe(false);
    expect(legacyPriceSweepKeys.staged(999, 99, '2026-11-21T10:14:59.999Z').gsi3sk < entry).toBe(true);
  });

  it('name their tenant, product and version by the record key, and nothing else', () => {
    expect(legacyPriceVersionOfKey(legacyProductKeys.legacyPriceVersion(tenant, 42, 7))).toEqual({ tenant, id: 42, version: 7 });
    expect(legacyPriceVersionOfKey(legacyProductKeys.legacyProduct(tenant, 42))).toBeUndefined();
    expect(
      legacyPriceVersionOfKey(legacyProductKeys.legacyPrice(tenant, 42, 7, { format: 'A4', color: '4/4', quantity: 1, pages: 2 })),
    ).toBeUndefined();
    expect(legacyPriceVersionOfKey({ ...webhookKeys.delivery(tenant, 'wh_1'), sk: 'PRICE_VERSION#000000000001' })).toBeUndefined();
  });
});
