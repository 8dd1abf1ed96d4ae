/**
 * The writes production adds to an order's transaction, at their worst: an order of the most
 * lines confirmed, and cancelled with every job open on a machine of its own and every line's
 * product holding stock, stay within DynamoDB's 100 items per transaction (and each item once);
 * a job at every maximum stays far below 400 KB.
 */
import { describe, expect, it } from 'vitest';
import { DYNAMODB_ITEM_LIMIT, itemBytes } from '#shared/db/item-size';
import type { TransactItem } from '#shared/db/table';
import { MAX_ORDER_LINES } from '#shared/orders/schema';
import { orderUpdate, statusMoveItems, type OrderRecord } from '#shared/orders/stored';
import { stockReleaseItems } from '#shared/products/stock';
import { movedJob, withHistory } from '#shared/production/job-records';
import { cancellationPlan, confirmationPlan } from '#shared/production/order-jobs';
import { JOB_STATUSES, isOpenJob, type JobStatus } from '#shared/production/status';
import { MAX_JOB_HISTORY, jobPut, type JobRecord } from '#shared/production/stored';
import { orderRecord } from '#test/support/records';

const tenant = { accountId: 'acct_0123456789abcdef', mode: 'live' as const };
const now = '2026-11-24T08:00:00.000Z';
const wide = (length: number) => '€'.repeat(length);

const line = (index: number) => ({
  id: index + 1,
  product_id: 1000 + index,
  legacy: null,
  description: wide(500),
  quantity: 10_000_000,
  unit_price: 1,
  setup_fee: 0,
  price_source: 'product' as const,
  options: {},
  file_ids: [],
  files: [],
  total: 10_000_000,
  tax_category: 'standard' as const,
  tax_rate: 19,
  tax_exemption_reason: null,
  hs_code: null,
  origin_country: null,
  customs_description: null,
});

const order: OrderRecord = orderRecord({
  items: Array.from({ length: MAX_ORDER_LINES }, (_, index) => line(index)),
  due_date: '2026-12-24',
  created_at: now,
  updated_at: now,
  reserved: Array.from({ length: MAX_ORDER_LINES }, (_, index) => ({ product_id: 1000 + index, quantity: 10 })),
});

const itemOf = (part: TransactItem | { item: TransactItem }): TransactItem => ('item' in part ? part.item : part);
const keyOf = (item: TransactItem) =>
  JSON.stringify((item.Put?.Item && { pk: item.Put.Item.pk, sk: item.Put.Item.sk }) ?? item.Update?.Key);

describe("production's part of an order's transaction", () => {
  it('fits a confirmation of the most lines in one transaction, each item once', () => {
    const ids = Array.from({ length: MAX_ORDER_LINES }, (_, index) => 500 + index);
    const confirmed: OrderRecord = { ...order, status: 'confirmed', version: 2 };
    const plan = confirmationPlan(tenant, confirmed, ids, 'sk_live_abcd', now);
    const items = [
      orderUpdate(tenant, order, confirmed, plan.extras),
      ...statusMoveItems(tenant, order, 'pending', 'confirmed'),
      ...plan.parts.map(itemOf),
      { Put: { TableName: 't', Item: { pk: 'event', sk: 'order.updated' } } }, // the order's own event
    ];
    expect(plan.jobIds).toEqual(ids);
    expect(items.length).toBeLessThanOrEqual(100);
    expect(new Set(items.map(keyOf)).size).toBe(items.length);
  });

  it('fits a cancellation with every job open on a machine of its own and all stock returned', () => {
    const statuses = JOB_STATUSES.filter(isOpenJob);
    const jobs: JobRecord[] = order.items.map((orderLine, index) => {
      const status: JobStatus = statuses[index % statuses.length]!;
      return {
        ...baseJob(500 + index, orderLine.id),
        status,
        machine_id: 900 + index,
        held_from: status === 'on_hold' ? 'printing' : null,
      };
    });
    const plan = cancellationPlan(tenant, jobs, 'sk_live_abcd', now);
    const cancelled: OrderRecord = { ...order, status: 'cancelled', version: 2 };
    const items = [
      orderUpdate(tenant, order, cancelled, plan.extras),
      ...statusMoveItems(tenant, order, 'confirmed', 'cancelled'),
      ...stockReleaseItems(tenant, order.reserved).map(itemOf),
      ...plan.parts.map(itemOf),
      { Put: { TableName: 't', Item: { pk: 'event', sk: 'order.updated' } } },
      { Put: { TableName: 't', Item: { pk: 'event', sk: 'order.cancelled' } } },
    ];
    expect(items.length).toBeLessThanOrEqual(100);
    expect(new Set(items.map(keyOf)).size).toBe(items.length);
    // Running jobs free their machines; every machine loses its open job.
    const machineUpdates = plan.parts.map(itemOf).filter((item) => String(item.Update?.Key?.pk).includes('#MACHINE#'));
    expect(machineUpdates).toHaveLength(MAX_ORDER_LINES);
  });
});

function baseJob(id: number, lineId: number): JobRecord {
  return {
    id,
    order_id: order.id,
    order_item_id: lineId,
    order_number: order.order_number,
    product_id: 1,
    description: wide(500),
    quantity: 10_000_000,
    file_ids: [],
    status: 'queued',
    held_from: null,
    machine_id: null,
    priority: 'normal',
    due_date: '2026-12-24',
    estimated_minutes: null,
    started_at: null,
    completed_at: null,
    reprints: 0,
    notes: null,
    awaiting_approval: false,
    history: [],
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

describe('a job item', () => {
  it(`keeps its last ${MAX_JOB_HISTORY} moves`, () => {
    let history = baseJob(1, 1).history;
    for (let index = 0; index < MAX_JOB_HISTORY + 10; index++)
      history = withHistory(history, { status: 'queued', at: `${index}`, note: null, by: 'sk' });
    expect(history).toHaveLength(MAX_JOB_HISTORY);
    expect(history[0]!.at).toBe('10');
  });

  it('stays far below 400 KB at every maximum', () => {
    let job: JobRecord = { ...baseJob(Number.MAX_SAFE_INTEGER, 25), notes: wide(5000), machine_id: Number.MAX_SAFE_INTEGER };
    for (let index = 0; index < MAX_JOB_HISTORY; index++) {
      job = movedJob(job, { to: 'failed', machineId: job.machine_id, note: wide(500), by: `sk_live_${'x'.repeat(24)}`, now });
    }
    const bytes = itemBytes(jobPut(tenant, job).Put!.Item!);
    expect(bytes).toBeLessThan(150 * 1024);
    expect(bytes).toBeLessThan(DYNAMODB_ITEM_LIMIT);
  });
});
