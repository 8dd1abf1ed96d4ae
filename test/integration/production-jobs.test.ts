import { beforeAll, describe, expect, inject, it } from 'vitest';
import { JobSchema } from '#shared/production/schema';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { getJob, getMachine, jobsOfOrder, moveJob, newMachine, produceJob } from '#test/support/production';
import { storedTotal } from '#test/support/store';
import { confirmedOrder, eventsOf, freshShop, type Shop } from '#test/support/shop';
import type { StoredEventItem } from '#test/support/store';

/** Production jobs over HTTP: created from orders, moved along their machine, coupled to the order. */
describe('production jobs', () => {
  let own: Shop;
  let customer: { id: number };
  let products: { id: number }[];
  beforeAll(async () => {
    own = await freshShop('Production Shop');
    customer = await newCustomer(own.secretTest);
    products = [await newProduct(own.secretTest, { name: 'Flyer A5' }), await newProduct(own.secretTest, { name: 'Poster A2' })];
  });

  const key = () => own.secretTest;

  /** An order of `lines` lines (quantities 100, 200, …), for confirmedOrder. */
  const linesOrder = (lines: number) => ({
    customer_id: customer.id,
    items: Array.from({ length: lines }, (_, index) => ({ product_id: products[index % 2]!.id, quantity: 100 * (index + 1) })),
  });

  const kinds = (events: StoredEventItem[]) => events.map((event) => String(event.kind)).sort();

  it('creates one queued job per line when an order is confirmed, each with a production.job.created event', async () => {
    const order = await newOrder(key(), {
      customer_id: customer.id,
      due_date: '2026-12-24',
      items: [
        { product_id: products[0]!.id, quantity: 500 },
        { product_id: products[1]!.id, quantity: 20 },
        { product_id: products[0]!.id, quantity: 1000 },
      ],
    });
    const queuedBefore = await storedTotal(own.tenant, 'jobs:queued');
    const events = await eventsOf(own.tenant, async () =>
      expect((await putOrder(key(), order.id, { status: 'confirmed' })).status).toBe(200),
    );
    expect(kinds(events)).toEqual(['order.updated', 'production.job.created', 'production.job.created', 'production.job.created']);

    const jobs = await jobsOfOrder(key(), order.id);
    expect(jobs).toHaveLength(3);
    for (const job of jobs) JobSchema.strict().parse(job);
    expect(jobs.map((job) => [job.order_item_id, job.product_id, job.quantity, job.status, job.priority, job.due_date])).toEqual([
      [1, products[0]!.id, 500, 'queued', 'normal', '2026-12-24'],
      [2, products[1]!.id, 20, 'queued', 'normal', '2026-12-24'],
      [3, products[0]!.id, 1000, 'queued', 'normal', '2026-12-24'],
    ]);
    expect(jobs[0]).toMatchObject({ order_id: order.id, order_number: order.order_number, machine_id: null, reprints: 0 });
    expect(jobs[0]!.history).toEqual([
      { status: 'queued', at: jobs[0]!.created_at, note: `Order ${order.order_number} confirmed`, by: expect.stringMatching(/^sk_test_/) },
    ]);
    // Each event carries its job as the API shows it.
    const created = events.filter((event) => event.kind === 'production.job.created').map((event) => event.data.production_job);
    expect(created.sort((a, b) => a.id - b.id)).toEqual(jobs);
    expect(await storedTotal(own.tenant, 'jobs:queued')).toBe(queuedBefore + 3);
  });

  it('walks a job to completed with its times and history; the order starts and finishes production exactly once', async () => {
    const order = await confirmedOrder(key(), linesOrder(2));
    const [first, second] = await jobsOfOrder(key(), order.id, 2);
    const machine = await newMachine(key());

    const startEvents = await eventsOf(own.tenant, async () => {
      expect((await moveJob(key(), first.id, { status: 'scheduled', machine_id: machine.id })).status).toBe(200);
      const printing = await moveJob(key(), first.id, { status: 'printing', note: 'Plates ready' });
      expect(printing.status).toBe(200);
      expect(printing.body.data.started_at).toEqual(expect.any(String));
    });
    expect(kinds(startEvents)).toEqual(['order.updated', 'production.started']);
    const started = startEvents.find((event) => event.kind === 'production.started')!.data;
    expect(started.order).toEqual({ id: order.id, order_number: order.order_number, status: 'in_production' });
    expect(started.production_job).toMatchObject({ id: first.id, status: 'printing' });
    expect((await call('GET', `/v1/orders/${order.id}`, { key: key() })).body.data).toMatchObject({ status: 'in_production', version: 3 });
    expect(await getMachine(key(), machine.id)).toMatchObject({ status: 'running', current_job_id: first.id });

    const firstDone = await eventsOf(own.tenant, async () => {
      for (const status of ['finishing', 'quality_check', 'completed'])
        expect((await moveJob(key(), first.id, { status })).status).toBe(200);
    });
    expect(kinds(firstDone)).toEqual(['production.job.completed']);
    expect(await getMachine(key(), machine.id)).toMatchObject({ status: 'idle', current_job_id: null });
    const done = await getJob(key(), first.id);
    expect(done).toMatchObject({
      status: 'completed',
      completed_at: expect.any(String),
      machine_id: machine.id,
      estimated_minutes: 10 + 10,
    });
    expect(done.history.map((entry: { status: string }) => entry.status)).toEqual([
      'queued',
      'scheduled',
      'printing',
      'finishing',
      'quality_check',
      'completed',
    ]);
    expect(done.history[2]).toMatchObject({ note: 'Plates ready', by: expect.stringMatching(/^sk_test_/) });
    expect((await call('GET', `/v1/orders/${order.id}`, { key: key() })).body.data.status).toBe('in_production');

    // The second job: printing again starts nothing new; its completion finishes the order.
    const lastDone = await eventsOf(own.tenant, () => produceJob(key(), second.id, machine.id));
    expect(kinds(lastDone)).toEqual(['order.updated', 'production.completed', 'production.job.completed']);
    const finished = lastDone.find((event) => event.kind === 'production.completed')!.data;
    expect(finished.order).toEqual({ id: order.id, order_number: order.order_number, status: 'ready' });
    const ready = (await call('GET', `/v1/orders/${order.id}`, { key: key() })).body.data;
    expect(ready).toMatchObject({ status: 'ready', version: 4 });
    expect(lastDone.find((event) => event.kind === 'order.updated')!.data.order).toEqual(ready);
    // The order goes on by hand as before.
    expect((await putOrder(key(), order.id, { status: 'shipped' })).status).toBe(200);
  });

  it('refuses to move an order to ready by hand while jobs are open, naming them', async () => {
    const order = await confirmedOrder(key(), linesOrder(2));
    const jobs = await jobsOfOrder(key(), order.id);
    expect((await putOrder(key(), order.id, { status: 'in_production' })).status).toBe(200);
    const refused = await putOrder(key(), order.id, { status: 'ready' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect(refused.body.error.message).toContain(`job ${jobs[0]!.id} (queued), job ${jobs[1]!.id} (queued)`);
    expect(refused.body.error.details).toHaveLength(2);
    // Cancelled jobs do not hold the order; with none completed it is not moved, and may then go on by hand.
    for (const job of jobs) expect((await moveJob(key(), job.id, { status: 'cancelled' })).status).toBe(200);
    expect((await call('GET', `/v1/orders/${order.id}`, { key: key() })).body.data.status).toBe('in_production');
    expect((await putOrder(key(), order.id, { status: 'ready' })).status).toBe(200);
  });

  it('moves the order to ready when the last open job is cancelled after another completed', async () => {
    const order = await confirmedOrder(key(), linesOrder(2));
    const [first, second] = await jobsOfOrder(key(), order.id, 2);
    const machine = await newMachine(key());
    await produceJob(key(), first.id, machine.id);
    const events = await eventsOf(own.tenant, async () =>
      expect((await moveJob(key(), second.id, { status: 'cancelled' })).status).toBe(200),
    );
    expect(kinds(events)).toEqual(['order.updated', 'production.completed']);
    expect((await call('GET', `/v1/orders/${order.id}`, { key: key() })).body.data.status).toBe('ready');
  });

  it('lets one of two jobs racing into printing on one machine start; the other gets 409', async () => {
    const order = await confirmedOrder(key(), linesOrder(2));
    const [first, second] = await jobsOfOrder(key(), order.id, 2);
    const machine = await newMachine(key());
    for (const job of [first, second])
      expect((await moveJob(key(), job.id, { status: 'scheduled', machine_id: machine.id })).status).toBe(200);
    const responses = await Promise.all([first, second].map((job) => moveJob(key(), job.id, { status: 'printing' })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const winner = [first, second][responses.findIndex((response) => response.status === 200)];
    const loser = responses.find((response) => response.status === 409)!;
    expect(loser.body.error.message).toContain(`it is running job ${winner!.id}; one machine runs one job at a time`);
    expect(await getMachine(key(), machine.id)).toMatchObject({ status: 'running', current_job_id: winner!.id });
    const statuses = await Promise.all([first, second].map(async (job) => (await getJob(key(), job.id)).status));
    expect(statuses.sort()).toEqual(['printing', 'scheduled']);
  });

  it('refuses a start on a machine in maintenance', async () => {
    const order = await confirmedOrder(key(), linesOrder(1));
    const [job] = await jobsOfOrder(key(), order.id, 1);
    const machine = await newMachine(key(), { status: 'maintenance' });
    expect((await moveJob(key(), job.id, { status: 'scheduled', machine_id: machine.id })).status).toBe(200);
    const refused = await moveJob(key(), job.id, { status: 'printing' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      `Job ${job.id} cannot start on machine ${machine.id}: it is maintenance; no job can start on it until it is idle`,
    );
    expect((await getJob(key(), job.id)).status).toBe('scheduled');
  });

  it('answers a move the machine does not allow with 409 and the allowed states', async () => {
    const order = await confirmedOrder(key(), linesOrder(1));
    const [job] = await jobsOfOrder(key(), order.id, 1);
    const skipped = await moveJob(key(), job.id, { status: 'printing' });
    expect(skipped.status).toBe(409);
    expect(skipped.body.error).toMatchObject({
      code: 'invalid_transition',
      message: 'A job cannot move from queued to printing; allowed next states: scheduled, failed, cancelled',
    });
    await produceJob(key(), job.id, (await newMachine(key())).id);
    const again = await moveJob(key(), job.id, { status: 'printing' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: 'invalid_transition',
      details: [{ field: 'status', message: 'completed is final; no further state is allowed' }],
    });
  });

  it('queues a failed job again as a reprint, and returns a held job to the state it left', async () => {
    const order = await confirmedOrder(key(), linesOrder(1));
    const [job] = await jobsOfOrder(key(), order.id, 1);
    const machine = await newMachine(key());
    await moveJob(key(), job.id, { status: 'scheduled', machine_id: machine.id });
    await moveJob(key(), job.id, { status: 'printing' });
    const held = await moveJob(key(), job.id, { status: 'on_hold', note: 'Waiting for paper' });
    expect(held.body.data).toMatchObject({ status: 'on_hold', held_from: 'printing' });
    expect(await getMachine(key(), machine.id)).toMatchObject({ status: 'idle', current_job_id: null });
    const wrongWay = await moveJob(key(), job.id, { status: 'finishing' });
    expect(wrongWay.body.error.message).toBe(
      'A job cannot move from on_hold to finishing; allowed next states: printing, failed, cancelled',
    );
    expect((await moveJob(key(), job.id, { status: 'printing' })).body.data).toMatchObject({ status: 'printing', held_from: null });
    expect(await getMachine(key(), machine.id)).toMatchObject({ status: 'running', current_job_id: job.id });

    const failed = await moveJob(key(), job.id, { status: 'failed', note: 'Colour off' });
    expect(failed.status).toBe(200);
    expect(await getMachine(key(), machine.id)).toMatchObject({ status: 'idle' });
    const reprint = await moveJob(key(), job.id, { status: 'queued' });
    expect(reprint.status).toBe(200);
    expect(reprint.body.data).toMatchObject({ status: 'queued', reprints: 1, started_at: null, machine_id: machine.id });
    // The order does not finish while its failed job waits; the reprint completes it.
    await produceJob(key(), job.id, machine.id);
    expect((await call('GET', `/v1/orders/${order.id}`, { key: key() })).body.data.status).toBe('ready');
  });

  it('needs a machine to schedule, and refuses a machine id the tenant does not have', async () => {
    const order = await confirmedOrder(key(), linesOrder(1));
    const [job] = await jobsOfOrder(key(), order.id, 1);
    const missing = await moveJob(key(), job.id, { status: 'scheduled' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toEqual([{ field: 'machine_id', message: `required: job ${job.id} has no machine yet` }]);
    // Ids are per tenant: another tenant's machine 1 is not ours; an id we never issued is unknown.
    const unknown = await moveJob(key(), job.id, { status: 'scheduled', machine_id: 999_999 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([{ field: 'machine_id', message: 'No machine with id 999999' }]);
    expect((await getJob(key(), job.id)).status).toBe('queued');
  });

  it('refuses bad bodies with 422 and field details', async () => {
    const order = await confirmedOrder(key(), linesOrder(1));
    const [job] = await jobsOfOrder(key(), order.id, 1);
    const bad = await moveJob(key(), job.id, { status: 'printed', extra: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'status', message: expect.stringContaining('must be one of queued, scheduled') },
        { field: 'extra', message: 'Unknown field' },
      ]),
    );
    const empty = await call('PUT', `/v1/production/jobs/${job.id}`, { key: key(), body: {} });
    expect(empty.status).toBe(422);
    const badDate = await call('PUT', `/v1/production/jobs/${job.id}`, { key: key(), body: { due_date: '2026-02-30' } });
    expect(badDate.body.error.details).toEqual([{ field: 'due_date', message: 'must be a real calendar date' }]);
  });

  it("answers 404 for another tenant's job, and for an id that is not one", async () => {
    const order = await confirmedOrder(key(), linesOrder(1));
    const [job] = await jobsOfOrder(key(), order.id, 1);
    const other = inject('fixtures').other.secretTest;
    expect((await call('GET', `/v1/production/jobs/${job.id}`, { key: other })).status).toBe(404);
    expect((await moveJob(other, job.id, { status: 'cancelled' })).status).toBe(404);
    expect((await call('PUT', `/v1/production/jobs/${job.id}`, { key: other, body: { priority: 'rush' } })).status).toBe(404);
    expect((await call('GET', '/v1/production/jobs/abc', { key: key() })).status).toBe(404);
    expect((await getJob(key(), job.id)).status).toBe('queued');
  });

  it('cancels the open jobs of a cancelled order and frees their machines, in the same change', async () => {
    const order = await confirmedOrder(key(), linesOrder(3));
    const [running, scheduled, done] = await jobsOfOrder(key(), order.id, 3);
    const [press, cutter] = [await newMachine(key()), await newMachine(key(), { name: 'Cutter', type: 'cutter' })];
    await produceJob(key(), done.id, press.id);
    await moveJob(key(), running.id, { status: 'scheduled', machine_id: press.id });
    await moveJob(key(), running.id, { status: 'printing' });
    await moveJob(key(), scheduled.id, { status: 'scheduled', machine_id: cutter.id });
    expect(await getMachine(key(), press.id)).toMatchObject({ status: 'running', current_job_id: running.id });

    const events = await eventsOf(own.tenant, async () =>
      expect((await putOrder(key(), order.id, { status: 'cancelled' })).status).toBe(200),
    );
    expect(kinds(events)).toEqual(['order.cancelled', 'order.updated']);
    expect((await getJob(key(), running.id)).status).toBe('cancelled');
    expect((await getJob(key(), scheduled.id)).status).toBe('cancelled');
    expect((await getJob(key(), done.id)).status).toBe('completed');
    expect((await getJob(key(), running.id)).history.at(-1)).toMatchObject({
      status: 'cancelled',
      note: `Order ${order.order_number} was cancelled`,
    });
    expect(await getMachine(key(), press.id)).toMatchObject({ status: 'idle', current_job_id: null });
    // No open job holds the machines any more: both may go.
    expect((await call('DELETE', `/v1/production/machines/${press.id}`, { key: key() })).status).toBe(200);
    expect((await call('DELETE', `/v1/production/machines/${cutter.id}`, { key: key() })).status).toBe(200);
  });

  it('moves a job from printing on a press to finishing on a cutter, releasing one and claiming the other', async () => {
    const order = await confirmedOrder(key(), linesOrder(1));
    const [job] = await jobsOfOrder(key(), order.id, 1);
    const [press, cutter] = [
      await newMachine(key()),
      await newMachine(key(), { name: 'Polar', type: 'cutter', speed_per_hour: 60, setup_minutes: 5 }),
    ];
    await moveJob(key(), job.id, { status: 'scheduled', machine_id: press.id });
    await moveJob(key(), job.id, { status: 'printing' });
    const finishing = await moveJob(key(), job.id, { status: 'finishing', machine_id: cutter.id });
    expect(finishing.status).toBe(200);
    expect(finishing.body.data).toMatchObject({ machine_id: cutter.id, estimated_minutes: 5 + 100 });
    expect(await getMachine(key(), press.id)).toMatchObject({ status: 'idle', current_job_id: null });
    expect(await getMachine(key(), cutter.id)).toMatchObject({ status: 'running', current_job_id: job.id });
  });

  it('changes machine, priority, due date and notes; not the machine while the job runs, nothing but notes once it is closed', async () => {
    const order = await confirmedOrder(key(), linesOrder(1));
    const [job] = await jobsOfOrder(key(), order.id, 1);
    const [press, other] = [await newMachine(key(), { speed_per_hour: 1200, setup_minutes: 0 }), await newMachine(key())];
    const changed = await call('PUT', `/v1/production/jobs/${job.id}`, {
      key: key(),
      body: { machine_id: press.id, priority: 'rush', due_date: '2027-01-05', notes: 'Use the matt stock' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({
      machine_id: press.id,
      priority: 'rush',
      due_date: '2027-01-05',
      notes: 'Use the matt stock',
      estimated_minutes: 5,
    });
    await moveJob(key(), job.id, { status: 'scheduled' });
    await moveJob(key(), job.id, { status: 'printing' });
    const moving = await call('PUT', `/v1/production/jobs/${job.id}`, { key: key(), body: { machine_id: other.id } });
    expect(moving.status).toBe(409);
    await moveJob(key(), job.id, { status: 'cancelled' });
    const closed = await call('PUT', `/v1/production/jobs/${job.id}`, { key: key(), body: { priority: 'low' } });
    expect(closed.status).toBe(409);
    expect(closed.body.error.details).toEqual([{ field: 'priority', message: 'cannot change once the job is cancelled' }]);
    expect((await call('PUT', `/v1/production/jobs/${job.id}`, { key: key(), body: { notes: null } })).body.data.notes).toBeNull();
  });

  it('creates no jobs for an order that goes from pending straight to cancelled', async () => {
    const order = await newOrder(key(), { customer_id: customer.id, items: [{ product_id: products[0]!.id, quantity: 1 }] });
    const events = await eventsOf(own.tenant, async () =>
      expect((await putOrder(key(), order.id, { status: 'cancelled' })).status).toBe(200),
    );
    expect(kinds(events)).toEqual(['order.cancelled', 'order.updated']);
    expect(await jobsOfOrder(key(), order.id)).toEqual([]);
  });
});
