import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MachineQueueSchema, MachineSchema } from '#shared/production/schema';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { getMachine, jobsOfOrder, moveJob, newMachine } from '#test/support/production';
import { freshShop, type Shop } from '#test/support/webhooks';

describe('production machines', () => {
  let own: Shop;
  beforeAll(async () => {
    own = await freshShop('Machines Shop');
  });
  const key = () => own.secretTest;

  it('creates, reads, changes and deletes a machine', async () => {
    const created = await call('POST', '/v1/production/machines', {
      key: key(),
      body: {
        name: 'HP Indigo 12000',
        type: 'digital_press',
        speed_per_hour: 3000,
        setup_minutes: 15,
        capabilities: { max_sheet_width_mm: 750, max_sheet_height_mm: 530, colors: 7, duplex: true, other: { coating: 'uv' } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const machine = MachineSchema.strict().parse(created.body.data);
    expect(machine).toMatchObject({
      name: 'HP Indigo 12000',
      type: 'digital_press',
      status: 'idle',
      current_job_id: null,
      capabilities: { max_sheet_width_mm: 750, max_sheet_height_mm: 530, colors: 7, duplex: true, other: { coating: 'uv' } },
      speed_per_hour: 3000,
      setup_minutes: 15,
    });
    expect(await getMachine(key(), machine.id)).toEqual(created.body.data);

    const changed = await call('PUT', `/v1/production/machines/${machine.id}`, {
      key: key(),
      body: { status: 'maintenance', speed_per_hour: 2500 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ status: 'maintenance', speed_per_hour: 2500, name: 'HP Indigo 12000' });
    const deleted = await call('DELETE', `/v1/production/machines/${machine.id}`, { key: key() });
    expect(deleted.body).toEqual({ success: true, data: { id: machine.id, deleted: true } });
    expect((await call('GET', `/v1/production/machines/${machine.id}`, { key: key() })).status).toBe(404);
  });

  it('refuses bad machines with 422 and field details, and running as a status set by hand', async () => {
    const bad = await call('POST', '/v1/production/machines', {
      key: key(),
      body: { name: '', type: 'spaceship', speed_per_hour: 0, capabilities: { colors: 99, other: { 'Bad Name': 'x' } } },
    });
    expect(bad.status).toBe(422);
    const fields = bad.body.error.details.map((detail: { field: string }) => detail.field).sort();
    expect(fields).toEqual(['capabilities.colors', 'capabilities.other.Bad Name', 'name', 'speed_per_hour', 'type']);
    const machine = await newMachine(key());
    const running = await call('PUT', `/v1/production/machines/${machine.id}`, { key: key(), body: { status: 'running' } });
    expect(running.status).toBe(422);
    expect(running.body.error.details[0].field).toBe('status');
  });

  it('lists machines by type and status with totals', async () => {
    const shop = await freshShop('Machine Lists');
    const press = await newMachine(shop.secretTest, { name: 'Press' });
    const cutter = await newMachine(shop.secretTest, { name: 'Cutter', type: 'cutter' });
    const offline = await newMachine(shop.secretTest, { name: 'Old press', status: 'offline' });
    const list = async (query: string) => {
      const response = await call('GET', `/v1/production/machines${query}`, { key: shop.secretTest });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return { ids: response.body.data.map((machine: { id: number }) => machine.id), total: response.body.pagination.total };
    };
    // By type, then creation.
    expect(await list('')).toEqual({ ids: [cutter.id, press.id, offline.id], total: 3 });
    expect(await list('?type=digital_press')).toEqual({ ids: [press.id, offline.id], total: 2 });
    expect(await list('?status=idle')).toEqual({ ids: [cutter.id, press.id], total: 2 });
    expect(await list('?status=offline&type=digital_press')).toEqual({ ids: [offline.id], total: 1 });
    expect((await call('GET', '/v1/production/machines?status=broken', { key: shop.secretTest })).status).toBe(422);
  });

  it('refuses to delete a machine with open jobs, and to set it to maintenance while a job runs on it', async () => {
    const customer = await newCustomer(key());
    const product = await newProduct(key());
    const order = await newOrder(key(), { customer_id: customer.id, items: [{ product_id: product.id, quantity: 10 }] });
    await putOrder(key(), order.id, { status: 'confirmed' });
    const [job] = await jobsOfOrder(key(), order.id);
    const machine = await newMachine(key());
    await moveJob(key(), job.id, { status: 'scheduled', machine_id: machine.id });
    const refused = await call('DELETE', `/v1/production/machines/${machine.id}`, { key: key() });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([{ field: 'id', message: 'machine has 1 open job' }]);
    await moveJob(key(), job.id, { status: 'printing' });
    const maintenance = await call('PUT', `/v1/production/machines/${machine.id}`, { key: key(), body: { status: 'maintenance' } });
    expect(maintenance.status).toBe(409);
    expect(maintenance.body.error.message).toContain(`is running job ${job.id}`);
    // A rename is fine while it runs, and keeps the running status.
    const renamed = await call('PUT', `/v1/production/machines/${machine.id}`, { key: key(), body: { name: 'Indigo A' } });
    expect(renamed.body.data).toMatchObject({ name: 'Indigo A', status: 'running', current_job_id: job.id });
    await moveJob(key(), job.id, { status: 'cancelled' });
    expect((await call('DELETE', `/v1/production/machines/${machine.id}`, { key: key() })).status).toBe(200);
  });

  it("answers 404 for another tenant's machine", async () => {
    const machine = await newMachine(key());
    const other = inject('fixtures').other.secretTest;
    expect((await call('GET', `/v1/production/machines/${machine.id}`, { key: other })).status).toBe(404);
    expect((await call('PUT', `/v1/production/machines/${machine.id}`, { key: other, body: { name: 'Mine' } })).status).toBe(404);
    expect((await call('DELETE', `/v1/production/machines/${machine.id}`, { key: other })).status).toBe(404);
    expect((await call('GET', `/v1/production/machines/${machine.id}/queue`, { key: other })).status).toBe(404);
    expect((await getMachine(key(), machine.id)).name).toBe('Indigo 1');
  });
});

describe('job lists and machine queues', () => {
  let shop: Shop;
  let orders: { id: number }[];
  let jobs: Record<string, any>[];
  let press: { id: number };
  let cutter: { id: number };
  beforeAll(async () => {
    shop = await freshShop('Job Lists');
    const customer = await newCustomer(shop.secretTest);
    const product = await newProduct(shop.secretTest);
    const order = (due: string | null, quantities: number[]) =>
      newOrder(shop.secretTest, {
        customer_id: customer.id,
        due_date: due,
        items: quantities.map((quantity) => ({ product_id: product.id, quantity })),
      });
    orders = [await order('2026-12-10', [600, 1200]), await order('2026-12-01', [300]), await order(null, [60])];
    for (const { id } of orders) expect((await putOrder(shop.secretTest, id, { status: 'confirmed' })).status).toBe(200);
    jobs = (await Promise.all(orders.map((order) => jobsOfOrder(shop.secretTest, order.id)))).flat();
    // speed 600/h, setup 10: 600 units → 70 min, 1200 → 130, 300 → 40, 60 → 16.
    press = await newMachine(shop.secretTest, { name: 'Press' });
    cutter = await newMachine(shop.secretTest, { name: 'Cutter', type: 'cutter' });
    for (const job of jobs.slice(0, 3))
      expect((await moveJob(shop.secretTest, job.id, { status: 'scheduled', machine_id: press.id })).status).toBe(200);
    expect((await moveJob(shop.secretTest, jobs[3]!.id, { status: 'scheduled', machine_id: cutter.id })).status).toBe(200);
  });

  const list = async (query: string) => {
    const response = await call('GET', `/v1/production/jobs${query}`, { key: shop.secretTest });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { ids: response.body.data.map((job: { id: number }) => job.id), pagination: response.body.pagination };
  };

  it('lists all jobs in queue order: priority, then due date (none last), then creation', async () => {
    const [a, b, c, d] = jobs.map((job) => job.id);
    const all = await list('');
    expect(all.ids).toEqual([c, a, b, d]);
    expect(all.pagination).toMatchObject({ page: 1, total: 4, total_capped: false, has_more: false });
    const paged = await list('?per_page=3&page=2');
    expect(paged.ids).toEqual([d]);
  });

  it('filters by status, machine, order and due date, each returning exactly the matching jobs', async () => {
    const [a, b, c, d] = jobs.map((job) => job.id);
    expect((await list(`?machine_id=${press.id}`)).ids).toEqual([c, a, b]);
    expect((await list(`?machine_id=${cutter.id}&status=scheduled`)).ids).toEqual([d]);
    expect((await list(`?machine_id=${cutter.id}&status=printing`)).ids).toEqual([]);
    expect((await list(`?order_id=${orders[0]!.id}`)).ids).toEqual([a, b]);
    expect((await list(`?order_id=${orders[0]!.id}&status=queued`)).ids).toEqual([]);
    expect((await list('?due_before=2026-12-10')).ids).toEqual([c]);
    expect((await list('?due_before=2026-12-11')).pagination.total).toBe(3);
    expect((await list('?status=scheduled')).pagination.total).toBe(4);
    expect((await list(`?machine_id=${press.id}`)).pagination).toMatchObject({ total: 3, total_capped: false });
    expect((await list('?order_id=999999')).ids).toEqual([]);
    const bad = await call('GET', '/v1/production/jobs?machine_id=abc&due_before=tomorrow', { key: shop.secretTest });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['due_before', 'machine_id']);
  });

  it("shows a machine's queue with consecutive estimated windows; a rush job moves first", async () => {
    const [a, b, c] = jobs.map((job) => job.id);
    const response = await call('GET', `/v1/production/machines/${press.id}/queue`, { key: shop.secretTest });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const queue = MachineQueueSchema.parse(response.body.data);
    expect(queue.entries.map((entry) => entry.job.id)).toEqual([c, a, b]);
    expect(queue.entries.map((entry) => entry.estimated_minutes)).toEqual([40, 70, 130]);
    expect(queue.entries[0]!.estimated_start).toBe(queue.as_of);
    for (let index = 1; index < queue.entries.length; index++) {
      expect(queue.entries[index]!.estimated_start).toBe(queue.entries[index - 1]!.estimated_end);
    }
    expect(Date.parse(queue.entries[2]!.estimated_end) - Date.parse(queue.as_of)).toBe((40 + 70 + 130) * 60_000);

    expect((await call('PUT', `/v1/production/jobs/${b}`, { key: shop.secretTest, body: { priority: 'rush' } })).status).toBe(200);
    const reordered = (await call('GET', `/v1/production/machines/${press.id}/queue`, { key: shop.secretTest })).body.data;
    expect(reordered.entries.map((entry: { job: { id: number } }) => entry.job.id)).toEqual([b, c, a]);
    expect(reordered.entries.map((entry: { position: number }) => entry.position)).toEqual([1, 2, 3]);
    expect(Date.parse(reordered.entries[0].estimated_end) - Date.parse(reordered.as_of)).toBe(130 * 60_000);
    expect((await list('')).ids[0]).toBe(b);
  });

  it('puts the running job first in the queue, from when it started', async () => {
    const [, , , d] = jobs.map((job) => job.id);
    expect((await moveJob(shop.secretTest, d, { status: 'printing' })).status).toBe(200);
    const queue = (await call('GET', `/v1/production/machines/${cutter.id}/queue`, { key: shop.secretTest })).body.data;
    expect(queue.machine).toMatchObject({ status: 'running', current_job_id: d });
    expect(queue.entries).toHaveLength(1);
    expect(queue.entries[0]).toMatchObject({ position: 1, job: { id: d, status: 'printing' }, estimated_minutes: 16 });
    expect(Date.parse(queue.entries[0].estimated_start)).toBeLessThanOrEqual(Date.parse(queue.as_of));
  });
});
