/**
 * Proofs and approvals through the real handlers (docs/proofs.md): a proof binds order lines to
 * their artwork's SHA-256; one immutable decision per proof, by the shop's key, the customer's
 * token or the proof link; the production gate holds a line's job out of printing until an
 * approved proof covers exactly its current artwork.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '#test/support/http';
import { pdfOf, pngOf, sha256, uploadForm } from '#test/support/files';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { jobsOfOrder, moveJob, newMachine } from '#test/support/production';
import { eventsOf, freshShop, type Shop } from '#test/support/shop';
import { ofKind } from '#test/support/store';
import { mailMark, mailsTo, signIn } from '#test/support/customer-accounts';

let shop: Shop;
let other: Shop;
let product: { id: number };
let customer: { id: number; email: string };
let document: { id: number };

/** A ready file of the shop's (its bytes' SHA-256 is what lines copy). */
async function upload(key: string, bytes: Uint8Array, name: string, type: string) {
  const answer = await uploadForm(key, { bytes, name, type });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  expect(answer.body.data.status).toBe('ready');
  return answer.body.data;
}

/** An order of one line printing `fileId`, for `customerId` (the suite's customer by default). */
const orderWith = (fileId: number, customerId = customer.id) =>
  newOrder(shop.secretTest, { customer_id: customerId, items: [{ product_id: product.id, quantity: 100, file_ids: [fileId] }] });

const proofOf = (orderId: number, body: Record<string, unknown> = {}) =>
  call('POST', `/v1/orders/${orderId}/proofs`, { key: shop.secretTest, body: { line_ids: [1], file_id: document.id, ...body } });

async function newProof(orderId: number, body: Record<string, unknown> = {}) {
  const answer = await proofOf(orderId, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

const approve = (proofId: number, key = shop.secretTest, body: Record<string, unknown> = {}) =>
  call('POST', `/v1/proofs/${proofId}/approve`, { key, body, headers: { 'User-Agent': 'ProofTest/1.0' } });

/** A confirmed order's job, scheduled on a new machine: the next move is printing. */
async function scheduledJob(orderId: number) {
  const [job] = await jobsOfOrder(shop.secretTest, orderId, 1);
  const machine = await newMachine(shop.secretTest);
  const scheduled = await moveJob(shop.secretTest, job.id, { status: 'scheduled', machine_id: machine.id });
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
  return job;
}

beforeAll(async () => {
  [shop, other] = await Promise.all([freshShop('Proof Shop'), freshShop('Other Shop')]);
  [product, customer, document] = await Promise.all([
    newProduct(shop.secretTest),
    newCustomer(shop.secretTest),
    pdfOf().then((bytes) => upload(shop.secretTest, bytes, 'soft-proof.pdf', 'application/pdf')),
  ]);
}, 60_000);

describe('a proof', () => {
  it('binds the lines to their current artwork (SHA-256 from the lines, never the client) and answers its link once', async () => {
    const artwork = pngOf(2, 2);
    const file = await upload(shop.secretTest, artwork, 'flyer.png', 'image/png');
    const order = await orderWith(file.id);
    const proof = await newProof(order.id, { message: 'Please check the bleed.' });
    expect(proof).toMatchObject({
      order_id: order.id,
      customer_id: customer.id,
      line_ids: [1],
      file_id: document.id,
      artwork: [{ line_id: 1, file_id: file.id, filename: 'flyer.png', sha256: sha256(artwork) }],
      message: 'Please check the bleed.',
      requires_approval: true,
      state: 'pending',
      decisions: [],
      notified: false,
    });
    expect(proof.link.token).toMatch(new RegExp(`^${shop.accountId}\\.test\\.[A-Za-z0-9_-]{43}$`));
    expect(proof.link.url).toMatch(new RegExp(`/v1/proof-links/${proof.link.token}$`));
    // Read back: no token, the same proof.
    const read = await call('GET', `/v1/proofs/${proof.id}`, { key: shop.secretTest });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(proof.link.token);
    expect(read.body.data.artwork).toEqual(proof.artwork);
    const listed = await call('GET', `/v1/orders/${order.id}/proofs`, { key: shop.secretTest });
    expect(listed.body.data.map((entry) => entry.id)).toEqual([proof.id]);
  });

  it("refuses an unknown line, a line without artwork and a document the shop does not have (422), another tenant's order (404)", async () => {
    const file = await upload(shop.secretTest, pngOf(2, 3), 'cards.png', 'image/png');
    const order = await newOrder(shop.secretTest, {
      customer_id: customer.id,
      items: [
        { product_id: product.id, quantity: 100, file_ids: [file.id] },
        { product_id: product.id, quantity: 50 },
      ],
    });
    const foreign = await upload(other.secretTest, await pdfOf(), 'theirs.pdf', 'application/pdf');
    const refused = await proofOf(order.id, { line_ids: [3, 2], file_id: foreign.id });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      { field: 'line_ids.0', message: `Order ${order.order_number} has no line 3` },
      { field: 'line_ids.1', message: 'line 2 has no artwork file to proof' },
    ]);
    const unknownDocument = await proofOf(order.id, { file_id: 999_999 });
    expect(unknownDocument.status).toBe(422);
    expect(unknownDocument.body.error.details).toEqual([{ field: 'file_id', message: 'No file with id 999999' }]);
    const elsewhere = await call('POST', `/v1/orders/${order.id}/proofs`, {
      key: other.secretTest,
      body: { line_ids: [1], file_id: foreign.id },
    });
    expect(elsewhere.status).toBe(404);
  });

  it('supersedes the lines’ pending proof in the same write: the superseded one takes no decision (409)', async () => {
    const file = await upload(shop.secretTest, pngOf(3, 2), 'poster.png', 'image/png');
    const order = await orderWith(file.id);
    const first = await newProof(order.id);
    const second = await newProof(order.id);
    const old = await call('GET', `/v1/proofs/${first.id}`, { key: shop.secretTest });
    expect(old.body.data).toMatchObject({ state: 'superseded', superseded_by: second.id });
    const refused = await approve(first.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('a newer proof replaced it');
    expect((await approve(second.id)).status).toBe(200);
  });
});

describe('decisions', () => {
  it('record who, when, from where, the comment and the exact hashes approved; once: a second decision is 409', async () => {
    const artwork = pngOf(4, 4);
    const file = await upload(shop.secretTest, artwork, 'label.png', 'image/png');
    const order = await orderWith(file.id);
    const proof = await newProof(order.id);
    const events = await eventsOf(shop.tenant, async () => {
      const approved = await approve(proof.id, shop.secretTest, { comment: 'Looks good.', name: 'Anna' });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body.data.state).toBe('approved');
    });
    const read = await call('GET', `/v1/proofs/${proof.id}`, { key: shop.secretTest });
    expect(read.body.data.decisions).toEqual([
      {
        proof_id: proof.id,
        decision: 'approved',
        decided_by: { kind: 'customer', customer_id: customer.id, via: 'secret_key', key_prefix: expect.any(String), name: 'Anna' },
        decided_at: expect.any(String),
        ip_address: expect.stringMatching(/\d/),
        user_agent: 'ProofTest/1.0',
        comment: 'Looks good.',
        artwork: [{ line_id: 1, file_id: file.id, filename: 'label.png', sha256: sha256(artwork) }],
      },
    ]);
    const [event] = ofKind(events, 'proof.approved');
    expect(event?.data.decision).toEqual(read.body.data.decisions[0]);
    expect(event?.data.proof.state).toBe('approved');
    const again = await call('POST', `/v1/proofs/${proof.id}/request-changes`, { key: shop.secretTest, body: { comment: 'Wait' } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('already approved');
    const after = await call('GET', `/v1/proofs/${proof.id}`, { key: shop.secretTest });
    expect(after.body.data.decisions).toEqual(read.body.data.decisions);
  });

  it('asks for changes with a comment (422 without), and emits proof.changes_requested with the record', async () => {
    const file = await upload(shop.secretTest, pngOf(5, 4), 'menu.png', 'image/png');
    const order = await orderWith(file.id);
    const proof = await newProof(order.id);
    const bare = await call('POST', `/v1/proofs/${proof.id}/request-changes`, { key: shop.secretTest, body: {} });
    expect(bare.status).toBe(422);
    const events = await eventsOf(shop.tenant, async () => {
      const asked = await call('POST', `/v1/proofs/${proof.id}/request-changes`, {
        key: shop.secretTest,
        body: { comment: 'The logo should be larger.' },
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect(asked.body.data.state).toBe('changes_requested');
    });
    const [event] = ofKind(events, 'proof.changes_requested');
    expect(event?.data.decision).toMatchObject({ decision: 'changes_requested', comment: 'The logo should be larger.' });
    expect(ofKind(events, 'proof.approved')).toEqual([]);
  });

  it('of two concurrent approvals, writes one record and one event: the other answers 409', async () => {
    const file = await upload(shop.secretTest, pngOf(6, 4), 'race.png', 'image/png');
    const order = await orderWith(file.id);
    const proof = await newProof(order.id);
    const events = await eventsOf(shop.tenant, async () => {
      const answers = await Promise.all([approve(proof.id), approve(proof.id), approve(proof.id)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    });
    expect(ofKind(events, 'proof.approved')).toHaveLength(1);
    const read = await call('GET', `/v1/proofs/${proof.id}`, { key: shop.secretTest });
    expect(read.body.data.decisions).toHaveLength(1);
  });

  it("takes the signed-in customer's decision on their own proof; another customer's proof is 404", async () => {
    const signed = await signIn(shop.publishableTest, { email: `proof.${Date.now()}@example.com`, name: 'Signed Customer' });
    const file = await upload(shop.secretTest, pngOf(7, 4), 'own.png', 'image/png');
    const own = await orderWith(file.id, signed.id);
    const theirs = await orderWith(file.id);
    const [ownProof, theirProof] = [await newProof(own.id), await newProof(theirs.id)];
    expect((await call('GET', `/v1/orders/${own.id}/proofs`, { key: signed.token })).status).toBe(200);
    expect((await call('GET', `/v1/orders/${theirs.id}/proofs`, { key: signed.token })).status).toBe(404);
    expect((await call('GET', `/v1/proofs/${theirProof.id}`, { key: signed.token })).status).toBe(404);
    expect((await approve(theirProof.id, signed.token)).status).toBe(404);
    const approved = await approve(ownProof.id, signed.token);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.decisions[0]?.decided_by).toMatchObject({ kind: 'customer', customer_id: signed.id, via: 'customer_token' });
    // Another tenant's key finds nothing.
    expect((await call('GET', `/v1/proofs/${ownProof.id}`, { key: other.secretTest })).status).toBe(404);
  });
});

describe('the production gate', () => {
  it('holds the job out of printing (409 naming the proof) until the proof is approved; the job shows it and is listed', async () => {
    const file = await upload(shop.secretTest, pngOf(8, 4), 'gate.png', 'image/png');
    const order = await orderWith(file.id);
    expect((await putOrder(shop.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
    const job = await scheduledJob(order.id);
    const proof = await newProof(order.id);
    const waiting = await call('GET', `/v1/production/jobs/${job.id}`, { key: shop.secretTest });
    expect(waiting.body.data.awaiting_approval).toBe(true);
    const listed = await call('GET', '/v1/production/jobs?awaiting_approval=true', { key: shop.secretTest });
    expect(listed.body.data.map((entry) => entry.id)).toContain(job.id);
    const held = await moveJob(shop.secretTest, job.id, { status: 'printing' });
    expect(held.status).toBe(409);
    expect(held.body.error.message).toContain(`proof ${proof.id}`);
    expect(held.body.error.details).toEqual([{ field: 'proof_id', message: `proof ${proof.id}: awaiting_approval` }]);
    expect((await approve(proof.id)).status).toBe(200);
    const released = await call('GET', `/v1/production/jobs/${job.id}`, { key: shop.secretTest });
    expect(released.body.data.awaiting_approval).toBe(false);
    const afterList = await call('GET', '/v1/production/jobs?awaiting_approval=true', { key: shop.secretTest });
    expect(afterList.body.data.map((entry) => entry.id)).not.toContain(job.id);
    const printing = await moveJob(shop.secretTest, job.id, { status: 'printing' });
    expect(printing.status, JSON.stringify(printing.body)).toBe(200);
  });

  it('holds the job when the artwork was replaced after the approval, until a proof of the new artwork is approved', async () => {
    const first = await upload(shop.secretTest, pngOf(9, 4), 'v1.png', 'image/png');
    const second = await upload(shop.secretTest, pngOf(9, 5), 'v2.png', 'image/png');
    const order = await orderWith(first.id);
    const approvedProof = await newProof(order.id);
    expect((await approve(approvedProof.id)).status).toBe(200);
    // The artwork replaced after the approval (lines change while the order is pending), then confirmed.
    const replaced = await putOrder(shop.secretTest, order.id, {
      items: [{ product_id: product.id, quantity: 100, file_ids: [second.id] }],
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect((await putOrder(shop.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
    const job = await scheduledJob(order.id);
    expect((await call('GET', `/v1/production/jobs/${job.id}`, { key: shop.secretTest })).body.data.awaiting_approval).toBe(true);
    const held = await moveJob(shop.secretTest, job.id, { status: 'printing' });
    expect(held.status).toBe(409);
    expect(held.body.error.message).toContain('artwork changed after proof');
    // A new proof binds the new artwork; approved, the job prints.
    const fresh = await newProof(order.id);
    expect(fresh.artwork[0]?.sha256).toBe(sha256(pngOf(9, 5)));
    expect((await moveJob(shop.secretTest, job.id, { status: 'printing' })).status).toBe(409);
    expect((await approve(fresh.id)).status).toBe(200);
    expect((await moveJob(shop.secretTest, job.id, { status: 'printing' })).status).toBe(200);
  });

  it('lists a job made by the confirmation as waiting, and no longer once its order is cancelled', async () => {
    const file = await upload(shop.secretTest, pngOf(14, 4), 'cancel.png', 'image/png');
    const order = await orderWith(file.id);
    await newProof(order.id);
    expect((await putOrder(shop.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
    const [job] = await jobsOfOrder(shop.secretTest, order.id, 1);
    expect(job.awaiting_approval).toBe(true);
    const waiting = await call('GET', `/v1/production/jobs?awaiting_approval=true&order_id=${order.id}`, { key: shop.secretTest });
    expect(waiting.body.data.map((entry) => entry.id)).toEqual([job.id]);
    expect((await putOrder(shop.secretTest, order.id, { status: 'cancelled' })).status).toBe(200);
    const cancelled = await call('GET', `/v1/production/jobs/${job.id}`, { key: shop.secretTest });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', awaiting_approval: false });
    const listed = await call('GET', '/v1/production/jobs?awaiting_approval=true', { key: shop.secretTest });
    expect(listed.body.data.map((entry) => entry.id)).not.toContain(job.id);
  });

  it('does not hold a line whose proof requires no approval, nor a line without a proof', async () => {
    const file = await upload(shop.secretTest, pngOf(10, 4), 'free.png', 'image/png');
    const order = await orderWith(file.id);
    await newProof(order.id, { requires_approval: false });
    expect((await putOrder(shop.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
    const job = await scheduledJob(order.id);
    expect((await moveJob(shop.secretTest, job.id, { status: 'printing' })).status).toBe(200);
  });
});

describe('proof links', () => {
  it('show the shop, the proof, the lines and a download of the document, and take one decision as the link holder', async () => {
    const file = await upload(shop.secretTest, pngOf(11, 4), 'link.png', 'image/png');
    const order = await orderWith(file.id);
    const proof = await newProof(order.id, { message: 'For your approval' });
    const path = `/v1/proof-links/${proof.link.token}` as const;
    const view = await call('GET', path, { key: null });
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body.data).toMatchObject({
      shop: { name: 'Proof Shop' },
      proof: { id: proof.id, order_number: order.order_number, state: 'pending', message: 'For your approval' },
      lines: [{ line_id: 1, quantity: 100, artwork: [{ filename: 'link.png', sha256: sha256(pngOf(11, 4)) }] }],
      document: { filename: 'soft-proof.pdf', content_type: 'application/pdf' },
      decision: null,
    });
    const downloaded = await fetch(view.body.data.document.url);
    expect(downloaded.status).toBe(200);
    expect(new Uint8Array(await downloaded.arrayBuffer()).slice(0, 5)).toEqual(new TextEncoder().encode('%PDF-'));
    const approved = await call('POST', `${path}/approve`, { key: null, body: { name: 'Anna at the counter' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.proof.state).toBe('approved');
    const again = await call('POST', `${path}/request-changes`, { key: null, body: { comment: 'Too late' } });
    expect(again.status).toBe(409);
    const read = await call('GET', `/v1/proofs/${proof.id}`, { key: shop.secretTest });
    expect(read.body.data.decisions[0]?.decided_by).toEqual({
      kind: 'link_holder',
      customer_id: null,
      via: 'link',
      key_prefix: null,
      name: 'Anna at the counter',
    });
  });

  it('refuse a wrong, guessed, foreign-tenant, revoked or expired token alike (404), leaking nothing', async () => {
    const file = await upload(shop.secretTest, pngOf(12, 4), 'refuse.png', 'image/png');
    const order = await orderWith(file.id);
    const revoked = await newProof(order.id);
    const expiring = await newProof(order.id, { expires_at: new Date(Date.now() + 1500).toISOString() });
    const [, , secret] = revoked.link.token.split('.');
    expect((await call('DELETE', `/v1/proofs/${revoked.id}/link`, { key: shop.secretTest })).body.data.link_revoked_at).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const tokens = [
      revoked.link.token,
      expiring.link.token,
      `${shop.accountId}.test.${'A'.repeat(43)}`,
      `${other.accountId}.test.${secret}`,
      `${shop.accountId}.live.${secret}`,
      'not-a-token',
    ];
    for (const token of tokens) {
      for (const answer of [
        await call('GET', `/v1/proof-links/${token}`, { key: null }),
        await call('POST', `/v1/proof-links/${token}/approve`, { key: null, body: {} }),
      ]) {
        expect(answer.status, token).toBe(404);
        expect(answer.body.error.message).toBe('No proof link with this token: it is wrong, has expired or was revoked');
        expect(JSON.stringify(answer.body)).not.toContain(order.order_number);
      }
    }
    // The expired proof is shown as such, and takes no decision through the API either.
    const expired = await call('GET', `/v1/proofs/${expiring.id}`, { key: shop.secretTest });
    expect(expired.body.data.state).toBe('expired');
    expect((await approve(expiring.id)).status).toBe(409);
  });

  it('are mailed to the customer with notify: true', async () => {
    const file = await upload(shop.secretTest, pngOf(13, 4), 'mail.png', 'image/png');
    const order = await orderWith(file.id);
    const mark = mailMark();
    const proof = await newProof(order.id, { notify: true });
    expect(proof.notified).toBe(true);
    const [mail] = mailsTo(customer.email, mark);
    expect(mail?.header('subject')).toContain(order.order_number);
    expect(mail?.text).toContain(proof.link.url);
  });
});
