/**
 * Replacing a line's artwork on a confirmed order through the real handlers
 * (`PUT /v1/orders/{id}/lines/{line_id}/files`, docs/orders.md#replacing-a-lines-artwork): the
 * line's files and hashes, its job's files and wait, its proof approval marker and `order.updated`
 * change in one transaction; an approval of the old artwork no longer opens the production gate,
 * and a replacement racing a move to printing never both succeed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '#test/support/http';
import { pdfOf, pngOf, sha256, uploadForm } from '#test/support/files';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { getJob, jobsOfOrder, moveJob, newMachine } from '#test/support/production';
import { eventsOf, freshShop, type Shop } from '#test/support/shop';
import { ofKind } from '#test/support/store';

let shop: Shop;
let other: Shop;
let product: { id: number };
let customer: { id: number };
let document: { id: number };
let v1: { id: number };
let v2: { id: number };

async function upload(key: string, bytes: Uint8Array, name: string, type: string) {
  const answer = await uploadForm(key, { bytes, name, type });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

const replaceFiles = (orderId: number, fileIds: number[], lineId = 1, key = shop.secretTest) =>
  call('PUT', `/v1/orders/${orderId}/lines/${lineId}/files`, { key, body: { file_ids: fileIds } });

const approve = (proofId: number) => call('POST', `/v1/proofs/${proofId}/approve`, { key: shop.secretTest, body: {} });

async function newProof(orderId: number) {
  const answer = await call('POST', `/v1/orders/${orderId}/proofs`, {
    key: shop.secretTest,
    body: { line_ids: [1], file_id: document.id },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

/** A confirmed order printing v1 whose proof was approved, with its job scheduled: the next move is printing. */
async function approvedAndScheduled() {
  const order = await newOrder(shop.secretTest, {
    customer_id: customer.id,
    items: [{ product_id: product.id, quantity: 100, file_ids: [v1.id] }],
  });
  expect((await putOrder(shop.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
  const proof = await newProof(order.id);
  expect((await approve(proof.id)).status).toBe(200);
  const [job] = await jobsOfOrder(shop.secretTest, order.id, 1);
  const machine = await newMachine(shop.secretTest);
  expect((await moveJob(shop.secretTest, job.id, { status: 'scheduled', machine_id: machine.id })).status).toBe(200);
  return { order, proof, job };
}

beforeAll(async () => {
  [shop, other] = await Promise.all([freshShop('Artwork Shop'), freshShop('Other Artwork Shop')]);
  [product, customer, document, v1, v2] = await Promise.all([
    newProduct(shop.secretTest),
    newCustomer(shop.secretTest),
    pdfOf().then((bytes) => upload(shop.secretTest, bytes, 'soft-proof.pdf', 'application/pdf')),
    upload(shop.secretTest, pngOf(21, 4), 'v1.png', 'image/png'),
    upload(shop.secretTest, pngOf(21, 5), 'v2.png', 'image/png'),
  ]);
}, 60_000);

describe("replacing a confirmed line's artwork", () => {
  it('holds the job out of printing (409 naming the proof) until a proof of the new artwork is approved', async () => {
    const { order, proof, job } = await approvedAndScheduled();
    const events = await eventsOf(shop.tenant, async () => {
      const replaced = await replaceFiles(order.id, [v2.id]);
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
      expect(replaced.body.data.items[0]).toMatchObject({ file_ids: [v2.id], files: [{ id: v2.id, sha256: sha256(pngOf(21, 5)) }] });
      expect(replaced.body.data.total).toBe(order.total);
    });
    const updated = ofKind(events, 'order.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data.order.items[0]!.file_ids).toEqual([v2.id]);
    const waiting = await getJob(shop.secretTest, job.id);
    expect(waiting).toMatchObject({ file_ids: [v2.id], awaiting_approval: true, status: 'scheduled' });
    expect(waiting.history.at(-1)).toMatchObject({ status: 'scheduled', note: 'Artwork replaced' });
    const listed = await call('GET', `/v1/production/jobs?awaiting_approval=true&order_id=${order.id}`, { key: shop.secretTest });
    expect(listed.body.data.map((entry: { id: number }) => entry.id)).toEqual([job.id]);

    const held = await moveJob(shop.secretTest, job.id, { status: 'printing' });
    expect(held.status).toBe(409);
    expect(held.body.error.message).toContain(`proof ${proof.id}`);
    expect(held.body.error.details).toEqual([{ field: 'proof_id', message: `proof ${proof.id}: artwork_changed` }]);

    const fresh = await newProof(order.id);
    expect(fresh.artwork).toEqual([expect.objectContaining({ file_id: v2.id, sha256: sha256(pngOf(21, 5)) })]);
    expect((await moveJob(shop.secretTest, job.id, { status: 'printing' })).status).toBe(409);
    expect((await approve(fresh.id)).status).toBe(200);
    expect((await getJob(shop.secretTest, job.id)).awaiting_approval).toBe(false);
    const printing = await moveJob(shop.secretTest, job.id, { status: 'printing' });
    expect(printing.status, JSON.stringify(printing.body)).toBe(200);
  });

  it('refuses once the job is printing (a reprint decision), and on a pending, cancelled or unknown order or line', async () => {
    const { order, job } = await approvedAndScheduled();
    expect((await moveJob(shop.secretTest, job.id, { status: 'printing' })).status).toBe(200);
    const printing = await replaceFiles(order.id, [v2.id]);
    expect(printing.status).toBe(409);
    expect(printing.body.error.details).toEqual([{ field: 'job_id', message: `job ${job.id}: printing` }]);
    expect((await call('GET', `/v1/orders/${order.id}`, { key: shop.secretTest })).body.data.items[0]?.file_ids).toEqual([v1.id]);

    const pending = await newOrder(shop.secretTest, {
      customer_id: customer.id,
      items: [{ product_id: product.id, quantity: 10, file_ids: [v1.id] }],
    });
    expect((await replaceFiles(pending.id, [v2.id])).status).toBe(409);
    expect((await replaceFiles(order.id, [v2.id], 9)).status).toBe(404);
    expect((await replaceFiles(order.id, [v2.id], 1, other.secretTest)).status).toBe(404);
    expect((await putOrder(shop.secretTest, pending.id, { status: 'cancelled' })).status).toBe(200);
    expect((await replaceFiles(pending.id, [v2.id])).status).toBe(409);
  });

  it("checks the files as an order's creation does: an id the account has no file for names nothing (422)", async () => {
    const order = await newOrder(shop.secretTest, {
      customer_id: customer.id,
      items: [{ product_id: product.id, quantity: 10, file_ids: [v1.id] }],
    });
    expect((await putOrder(shop.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
    const refused = await replaceFiles(order.id, [v2.id, 987_654]);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([{ field: 'file_ids.1', message: 'No file with id 987654' }]);
    expect((await replaceFiles(order.id, [])).status).toBe(422);
    // A line without a proof: its job takes the files and does not wait.
    const replaced = await replaceFiles(order.id, [v2.id]);
    expect(replaced.status).toBe(200);
    const [job] = await jobsOfOrder(shop.secretTest, order.id, 1);
    expect(job).toMatchObject({ file_ids: [v2.id], awaiting_approval: false });
  });

  it('never lets a replacement and a move to printing both succeed', async () => {
    // The move makes fewer reads than the replacement: started later and later, the two meet at different points.
    for (const delay of [0, 5, 10, 20, 30, 45, 60, 80]) {
      const { order, job } = await approvedAndScheduled();
      const [replaced, moved] = await Promise.all([
        replaceFiles(order.id, [v2.id]),
        sleep(delay).then(() => moveJob(shop.secretTest, job.id, { status: 'printing' })),
      ]);
      expect([replaced.status, moved.status].sort(), JSON.stringify([replaced.body, moved.body])).toEqual([200, 409]);
      const [stored, after] = await Promise.all([
        call('GET', `/v1/orders/${order.id}`, { key: shop.secretTest }).then((answer) => answer.body.data),
        getJob(shop.secretTest, job.id),
      ]);
      if (moved.status === 200) {
        // Printed what was approved; the artwork stays.
        expect(after).toMatchObject({ status: 'printing', file_ids: [v1.id] });
        expect(stored.items[0]?.file_ids).toEqual([v1.id]);
      } else {
        expect(after).toMatchObject({ status: 'scheduled', file_ids: [v2.id], awaiting_approval: true });
        expect(stored.items[0]?.file_ids).toEqual([v2.id]);
      }
    }
  }, 120_000);
});
