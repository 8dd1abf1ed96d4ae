import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { dynamo } from '#shared/clients/dynamodb';
import { batchWriteAll, putRequest } from '#shared/db/batch';
import { productionKeys, tenantKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { MachineQueueSchema, MachineSchema } from '#shared/production/schema';
import { JOBS, jobFromItem, jobListEntryPut, jobPut, jobStatusCounter, queueKeyOf, type JobRecord } from '#shared/production/stored';
import { call, dynamoDbWork, type Query } from '#test/support/http';
import { walkByCursor } from '#test/support/cursor-walk';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { getMachine, jobsOfOrder, moveJob, newMachine } from '#test/support/production';
import { freshShop, type Shop } from '#test/support/webhooks';
import type { DataOf } from '#test/support/api-types';

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
    const fields = bad.body.error.details!.map((detail: { field: string }) => detail.field).sort();
    expect(fields).toEqual(['capabilities.colors', 'capabilities.other.Bad Name', 'name', 'speed_per_hour', 'type']);
    const machine = await newMachine(key());
    const running = await call('PUT', `/v1/production/machines/${machine.id}`, { key: key(), body: { status: 'running' } });
    expect(running.status).toBe(422);
    expect(running.body.error.details![0]!.field).toBe('status');
  });

  it('lists machines by type and status with totals', async () => {
    const shop = await freshShop('Machine Lists');
    const press = await newMachine(shop.secretTest, { name: 'Press' });
    const cutter = await newMachine(shop.secretTest, { name: 'Cutter', type: 'cutter' });
    const offline = await newMachine(shop.secretTest, { name: 'Old press', status: 'offline' });
    const list = async (query: Query) => {
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

  it('pages machines by cursor, a machine keeping its place when it leaves the filter between two pages', async () => {
    const shop = await freshShop('Machine Cursors');
    const made: { id: number; type: string }[] = [];
    for (const type of ['digital_press', 'cutter', 'digital_press', 'folder', 'digital_press', 'cutter', 'digital_press']) {
      made.push({ ...(await newMachine(shop.secretTest, { name: `${type} ${made.length + 1}`, type })), type });
    }
    // By type, then creation (ids in creation order).
    const byType = (machines: typeof made) => machines.toSorted((a, b) => a.type.localeCompare(b.type) || a.id - b.id).map(({ id }) => id);
    // The cursor machine, the page's keys and one more, its items, the total (a counter, or counted on the keys).
    const walk = (query: string) =>
      walkByCursor(`/v1/production/machines?per_page=2${query}`, shop.secretTest, { calls: 4, items: 1 + 3 + 2 + made.length + 1 });
    expect(await walk('')).toEqual(byType(made));
    const presses = made.filter((machine) => machine.type === 'digital_press');
    expect(await walk('&type=digital_press')).toEqual(byType(presses));
    expect(await walk('&status=idle&type=cutter')).toEqual(byType(made.filter((machine) => machine.type === 'cutter')));
    // A cutter as the cursor of the presses: "cutter" sorts before "digital_press", so the presses from their first.
    const cutter = made.find((machine) => machine.type === 'cutter')!;
    const fromCutter = await call('GET', `/v1/production/machines?type=digital_press&per_page=2&starting_after=${cutter.id}`, {
      key: shop.secretTest,
    });
    expect(fromCutter.body.data.map((machine: { id: number }) => machine.id)).toEqual(byType(presses).slice(0, 2));

    // A press ends the first page of the idle ones, then goes into maintenance: the next page goes on after its place.
    const first = await call('GET', '/v1/production/machines?status=idle&type=digital_press&per_page=2', { key: shop.secretTest });
    const last = first.body.data[1]!.id;
    expect((await call('PUT', `/v1/production/machines/${last}`, { key: shop.secretTest, body: { status: 'maintenance' } })).status).toBe(
      200,
    );
    const next = await call('GET', `/v1/production/machines?status=idle&type=digital_press&per_page=2&starting_after=${last}`, {
      key: shop.secretTest,
    });
    expect(next.body.data.map((machine: { id: number }) => machine.id)).toEqual(byType(presses).slice(2, 4));
    expect(next.body.pagination).toMatchObject({ total: presses.length - 1, has_more: false, next_cursor: null });

    for (const [query, field, requestKey] of [
      [`starting_after=${made.at(-1)!.id + 1}`, 'starting_after', shop.secretTest],
      [`starting_after=${made[0]!.id}`, 'starting_after', shop.secretLive],
      [`starting_after=${made[0]!.id}&page=2`, 'page', shop.secretTest],
    ] as const) {
      const response = await call('GET', `/v1/production/machines?${query}`, { key: requestKey });
      expect(response.status, query).toBe(422);
      expect(response.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual([field]);
    }
    const unknown = await call('GET', `/v1/production/machines?starting_after=${made.at(-1)!.id + 1}`, { key: shop.secretTest });
    expect(unknown.body.error.details![0]!.message).toBe(`No machine with id ${made.at(-1)!.id + 1}`);
  });

  it('refuses to delete a machine with open jobs, and to set it to maintenance while a job runs on it', async () => {
    const customer = await newCustomer(key());
    const product = await newProduct(key());
    const order = await newOrder(key(), { customer_id: customer.id, items: [{ product_id: product.id, quantity: 10 }] });
    await putOrder(key(), order.id, { status: 'confirmed' });
    const [job] = await jobsOfOrder(key(), order.id, 1);
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
  let jobs: DataOf<'GET', '/v1/production/jobs/{id}'>[];
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

  const list = async (query: Query) => {
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
    expect(bad.body.error.details!.map((detail: { field: string }) => detail.field).sort()).toEqual(['due_before', 'machine_id']);
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
    expect(Date.parse(reordered.entries[0]!.estimated_end) - Date.parse(reordered.as_of)).toBe(130 * 60_000);
    expect((await list('')).ids[0]).toBe(b);
  });

  it('puts the running job first in the queue, from when it started', async () => {
    const [, , , d] = jobs.map((job) => job.id);
    expect((await moveJob(shop.secretTest, d!, { status: 'printing' })).status).toBe(200);
    const queue = (await call('GET', `/v1/production/machines/${cutter.id}/queue`, { key: shop.secretTest })).body.data;
    expect(queue.machine).toMatchObject({ status: 'running', current_job_id: d });
    expect(queue.entries).toHaveLength(1);
    expect(queue.entries[0]).toMatchObject({ position: 1, job: { id: d, status: 'printing' }, estimated_minutes: 16 });
    expect(Date.parse(queue.entries[0]!.estimated_start)).toBeLessThanOrEqual(Date.parse(queue.as_of));
  });
});

/**
 * Job lists by cursor (`starting_after=<job id>`) over 300 jobs written straight into the table as
 * their creation writes them (the job and its list entry), besides an order's three real jobs: every
 * filter — the jobs due before a date too, one key range per priority — is walked to its end, each
 * page reading the cursor job, its own keys (+ one), its items and its total, counted by the local
 * gateway's DynamoDB counters.
 */
describe('job lists by cursor', () => {
  const BULK = 300;
  const PRIORITIES = ['low', 'normal', 'high', 'rush'] as const;
  const STATUSES = ['queued', 'scheduled', 'printing', 'completed'] as const;
  const start = Date.parse('2026-06-01T00:00:00.000Z');
  let shop: Shop;
  let order: { id: number };
  let real: JobRecord[];
  let jobs: JobRecord[];
  let press: { id: number };
  let cutter: { id: number };

  beforeAll(async () => {
    shop = await freshShop('Job Cursors');
    const customer = await newCustomer(shop.secretTest);
    const product = await newProduct(shop.secretTest);
    press = await newMachine(shop.secretTest, { name: 'Press' });
    cutter = await newMachine(shop.secretTest, { name: 'Cutter', type: 'cutter' });
    order = await newOrder(shop.secretTest, {
      customer_id: customer.id,
      items: [60, 120, 180].map((quantity) => ({ product_id: product.id, quantity })),
    });
    expect((await putOrder(shop.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
    // The order's jobs first in the queue: rush, due long before every written job.
    for (const job of await jobsOfOrder(shop.secretTest, order.id)) {
      const changed = await call('PUT', `/v1/production/jobs/${job.id}`, {
        key: shop.secretTest,
        body: { priority: 'rush', due_date: '2026-01-01' },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    }
    const stored = async (id: number) =>
      jobFromItem((await dynamo().send(new GetCommand({ TableName: tableName(), Key: productionKeys.job(shop.tenant, id) }))).Item!);
    real = await Promise.all((await jobsOfOrder(shop.secretTest, order.id)).map((job) => stored(job.id)));
    const template = real[0]!;
    const last = Math.max(...real.map((job) => job.id));
    const made = Array.from({ length: BULK }, (_, index): JobRecord => {
      const id = last + 1 + index;
      const status = STATUSES[id % 4]!;
      const createdAt = new Date(start + id * 1000).toISOString();
      return {
        ...template,
        id,
        status,
        machine_id: status === 'queued' ? null : id % 3 === 0 ? cutter.id : press.id,
        priority: PRIORITIES[Math.floor(id / 4) % 4]!,
        due_date: id % 5 === 0 ? null : `2026-12-${String(((id * 7) % 28) + 1).padStart(2, '0')}`,
        created_at: createdAt,
        updated_at: createdAt,
      };
    });
    jobs = [...real, ...made];
    const counters = new Map<string, number>([[JOBS, jobs.length]]);
    for (const job of jobs) counters.set(jobStatusCounter(job.status), (counters.get(jobStatusCounter(job.status)) ?? 0) + 1);
    await batchWriteAll([
      ...made.flatMap((job) => [jobPut(shop.tenant, job), jobListEntryPut(shop.tenant, job)].map((put) => putRequest(put.Put!.Item!))),
      ...[...counters].map(([counter, total]) => putRequest({ ...tenantKeys.total(shop.tenant, counter), total })),
    ]);
  }, 120_000);

  const inQueue = (list: JobRecord[]) => list.toSorted((a, b) => (queueKeyOf(a) < queueKeyOf(b) ? -1 : 1)).map(({ id }) => id);
  const dueBefore = (day: string) => (job: JobRecord) => job.due_date !== null && job.due_date < day;

  async function list(query: string, key = shop.secretTest) {
    const response = await call('GET', `/v1/production/jobs?${query}`, { key });
    expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBe(200);
    return { body: response.body, work: dynamoDbWork(response) };
  }

  /**
   * Walks a list by cursor to its end. A page reads the cursor job (one GetItem), its keys and one
   * more, its items (one BatchGetItem) and its total (a counter, or a count of at most `counted`
   * keys); with a due date bound one Query and one count per priority range it reaches (`ranges`).
   */
  const walk = (query: string, { perPage = 25, counted = 0, ranges = false } = {}) =>
    walkByCursor(`/v1/production/jobs?per_page=${perPage}&${query}`, shop.secretTest, {
      calls: ranges ? 1 + 4 + 4 + 1 : 4,
      items: 1 + perPage + 1 + perPage + Math.max(1, counted) + (ranges ? 4 : 0),
    });

  it('walks every list to its end: each job once, in queue order, each page reading only its own keys', async () => {
    expect(await walk('')).toEqual(inQueue(jobs));
    expect(await walk('status=scheduled', { perPage: 7 })).toEqual(inQueue(jobs.filter((job) => job.status === 'scheduled')));
    const onPress = jobs.filter((job) => job.machine_id === press.id);
    expect(await walk(`machine_id=${press.id}`, { counted: onPress.length })).toEqual(inQueue(onPress));
    const printing = onPress.filter((job) => job.status === 'printing');
    expect(await walk(`machine_id=${press.id}&status=printing`, { counted: printing.length })).toEqual(inQueue(printing));
    // One key range per priority, read one after the other; a cursor page starts in its own priority's range.
    const due = jobs.filter(dueBefore('2026-12-15'));
    expect(await walk('due_before=2026-12-15', { perPage: 20, counted: due.length, ranges: true })).toEqual(inQueue(due));
    const dueQueued = due.filter((job) => job.status === 'queued');
    expect(await walk('due_before=2026-12-15&status=queued', { perPage: 9, counted: dueQueued.length, ranges: true })).toEqual(
      inQueue(dueQueued),
    );
    const dueOnCutter = due.filter((job) => job.machine_id === cutter.id);
    expect(await walk(`due_before=2026-12-15&machine_id=${cutter.id}`, { perPage: 4, counted: dueOnCutter.length, ranges: true })).toEqual(
      inQueue(dueOnCutter),
    );
  });

  it('reads a deep page by cursor at the cost of the first, where its page number reads every key before it', async () => {
    const all = inQueue(jobs);
    const byNumber = await list('per_page=20&page=10');
    const byCursor = await list(`per_page=20&starting_after=${all[179]}`);
    expect(byCursor.body.data).toEqual(byNumber.body.data);
    expect(byCursor.body.data.map((job: { id: number }) => job.id)).toEqual(all.slice(180, 200));
    expect(byCursor.body.pagination).toMatchObject({ page: 1, total: jobs.length, has_more: true, next_cursor: String(all[199]) });
    // The cursor job, the page's 20 keys and one more, its 20 items, the counter.
    expect(byCursor.work.commands.toSorted()).toEqual(['BatchGetItem[20]', 'GetItem[1]', 'GetItem[1]', 'Query[21]']);
    expect(byNumber.work.items, byNumber.work.commands.join(',')).toBeGreaterThanOrEqual(200);
    // Due before a date: a cursor in the lowest priority reads that one range only (the others lie before it).
    const due = inQueue(jobs.filter(dueBefore('2026-12-15')));
    const lowest = jobs.filter((job) => job.priority === 'low' && dueBefore('2026-12-15')(job));
    const cursor = inQueue(lowest)[0]!;
    const tail = await list(`due_before=2026-12-15&per_page=100&starting_after=${cursor}`);
    expect(tail.body.data.map((job: { id: number }) => job.id)).toEqual(due.slice(due.indexOf(cursor) + 1));
    expect(tail.body.pagination).toMatchObject({ total: due.length, has_more: false, next_cursor: null });
  });

  it("pages an order's jobs (read whole) by cursor too, and keeps the place of a job that left the list between two pages", async () => {
    const ofOrder = inQueue(real);
    expect(await walk(`order_id=${order.id}`, { perPage: 1 })).toEqual(ofOrder);
    const queued = await list('status=queued&per_page=2');
    const dueQueued = await list('status=queued&due_before=2026-12-15&per_page=2');
    expect(queued.body.data.map((job: { id: number }) => job.id)).toEqual(ofOrder.slice(0, 2));
    expect(dueQueued.body.data.map((job: { id: number }) => job.id)).toEqual(ofOrder.slice(0, 2));
    // The page's last job is scheduled meanwhile: the next page of the queued ones goes on after its place.
    expect((await moveJob(shop.secretTest, ofOrder[1]!, { status: 'scheduled', machine_id: cutter.id })).status).toBe(200);
    const next = await list(`status=queued&per_page=2&starting_after=${ofOrder[1]}`);
    const stillQueued = inQueue(jobs.filter((job) => job.status === 'queued' && job.id !== ofOrder[1]));
    expect(next.body.data.map((job: { id: number }) => job.id)).toEqual(stillQueued.slice(1, 3));
    const nextDue = await list(`status=queued&due_before=2026-12-15&per_page=2&starting_after=${ofOrder[1]}`);
    expect(nextDue.body.data.map((job: { id: number }) => job.id)).toEqual(
      stillQueued.filter((id) => dueBefore('2026-12-15')(jobs.find((job) => job.id === id)!)).slice(1, 3),
    );
    const orderJobs = await list(`order_id=${order.id}&status=queued&starting_after=${ofOrder[1]}`);
    expect(orderJobs.body.data.map((job: { id: number }) => job.id)).toEqual([ofOrder[2]]);
  });

  it("refuses a cursor the tenant does not have (another account's or mode's id) and a cursor with a page number", async () => {
    const other = await freshShop('Job Cursors Elsewhere');
    for (const [query, field, key] of [
      [`starting_after=${jobs.at(-1)!.id + 1}`, 'starting_after', shop.secretTest],
      [`starting_after=${real[0]!.id}`, 'starting_after', other.secretTest],
      [`starting_after=${real[0]!.id}`, 'starting_after', shop.secretLive],
      [`due_before=2026-12-15&starting_after=${real[0]!.id}`, 'starting_after', other.secretTest],
      [`starting_after=${real[0]!.id}&page=2`, 'page', shop.secretTest],
    ] as const) {
      const response = await call('GET', `/v1/production/jobs?${query}`, { key });
      expect(response.status, query).toBe(422);
      expect(
        response.body.error.details!.map((detail: { field: string }) => detail.field),
        query,
      ).toEqual([field]);
    }
    const unknown = await call('GET', `/v1/production/jobs?starting_after=${jobs.at(-1)!.id + 1}`, { key: shop.secretTest });
    expect(unknown.body.error.details![0]!.message).toBe(`No production job with id ${jobs.at(-1)!.id + 1}`);
  });
});
