import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { customerUploadQuotas, uploadQuotas } from '#shared/accounts/plans';
import { createAccount, setPlan } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { batchWriteAll, putRequest } from '#shared/db/batch';
import { MAX_EXAMINED, TOTAL_CAP } from '#shared/db/collections';
import { fileKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { MAX_MULTIPART_FILE_BYTES, SYNC_COMPLETE_MAX_BYTES } from '#shared/files/limits';
import { fileFromItem, fileItem, type FileRecord } from '#shared/files/stored';
import { pdfOf, pngOf, postToS3, sha256, storedObjects, uploadForm } from '#test/support/files';
import { call, dynamoDbWork, uniqueEmail } from '#test/support/http';
import { businessCards } from '#test/support/products';
import { signIn as signInCustomer, signUp } from '#test/support/customer-accounts';
import { eventually } from '#test/support/wait';
import { freshShop } from '#test/support/shop';

/**
 * Files over HTTP: multipart uploads through the local gateway (which passes the body base64-encoded,
 * as API Gateway does for a binary media type), presigned POSTs to the S3 emulator, completion,
 * downloads through presigned URLs, and who may see what.
 */
describe('files', () => {
  let shop: { secret: string; publishable: string; tenant: Tenant };
  let other: { secret: string };

  beforeAll(async () => {
    const created = await createAccount({ name: 'Artwork Shop', plan: 'enterprise' });
    shop = {
      secret: created.keys.secret_test.key,
      publishable: created.keys.publishable_test.key,
      tenant: { accountId: created.account.id, mode: 'test' },
    };
    other = { secret: (await createAccount({ name: 'Other Artwork Shop', plan: 'enterprise' })).keys.secret_test.key };
  });

  const download = async (key: string, id: number) => {
    const link = await call('GET', `/v1/files/${id}/download?format=url`, { key });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const object = await fetch(link.body.data.url);
    return {
      status: object.status,
      bytes: new Uint8Array(await object.arrayBuffer()),
      disposition: object.headers.get('content-disposition'),
    };
  };

  it('takes a 1 MB PDF by multipart: size and sha256 right, downloads byte-identical under its name', async () => {
    const pdf = await pdfOf({ pages: 2, padTo: 1024 * 1024 });
    const uploaded = await uploadForm(
      shop.secret,
      { bytes: pdf, name: '../../etc/Flyer: A5 <final>.pdf', type: 'application/pdf' },
      { purpose: 'artwork' },
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const file = uploaded.body.data;
    expect(file).toMatchObject({
      filename: 'Flyer_ A5 _final_.pdf',
      content_type: 'application/pdf',
      size: pdf.length,
      sha256: sha256(pdf),
      purpose: 'artwork',
      status: 'ready',
      order_id: null,
      customer_id: null,
    });
    expect(file.preflight!.status).toBe('pending');
    const fetched = await download(shop.secret, file.id);
    expect(fetched.status).toBe(200);
    expect(sha256(fetched.bytes)).toBe(sha256(pdf));
    expect(fetched.disposition).toContain('attachment;');
    expect(fetched.disposition).toContain("filename*=UTF-8''Flyer_%20A5%20_final_.pdf");
    // The object key never holds the name the client sent.
    expect((await storedObjects(shop.tenant)).some((key) => key.includes('Flyer'))).toBe(false);

    const redirect = await fetch(`${(await import('vitest')).inject('fixtures').api}/v1/files/${file.id}/download`, {
      headers: { Authorization: `Bearer ${shop.secret}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(/^http/);
  });

  it('refuses an upload over the multipart limit with 413 and a PNG declared as PDF with 415, storing nothing', async () => {
    const before = await storedObjects(shop.tenant);
    const listed = (await call('GET', '/v1/files', { key: shop.secret })).body.pagination.total;
    const tooLarge = await uploadForm(shop.secret, {
      bytes: randomBytes(MAX_MULTIPART_FILE_BYTES + 1),
      name: 'big.pdf',
      type: 'application/pdf',
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('payload_too_large');
    // Larger than a function can receive at all: refused by the gateway, before any function runs.
    const huge = await uploadForm(shop.secret, { bytes: randomBytes(5 * 1024 * 1024), name: 'huge.pdf', type: 'application/pdf' });
    expect(huge.status).toBe(413);
    const disguised = await uploadForm(shop.secret, { bytes: pngOf(4, 4), name: 'logo.pdf', type: 'application/pdf' });
    expect(disguised.status).toBe(415);
    expect(disguised.body.error.code).toBe('unsupported_media_type');
    expect(disguised.body.error.message).toContain('image/png');
    const unknown = await uploadForm(shop.secret, { bytes: Buffer.from('just some text'), name: 'notes.txt', type: 'text/plain' });
    expect(unknown.status).toBe(415);
    const missing = await fetch(`${(await import('vitest')).inject('fixtures').api}/v1/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${shop.secret}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(415);
    expect(await storedObjects(shop.tenant)).toEqual(before);
    expect((await call('GET', '/v1/files', { key: shop.secret })).body.pagination.total).toBe(listed);
    // The type comes from the bytes: a PNG sent as octet-stream is a PNG.
    const png = await uploadForm(shop.secret, { bytes: pngOf(4, 4), name: 'logo', type: 'application/octet-stream' });
    expect(png.status).toBe(201);
    expect(png.body.data.content_type).toBe('image/png');
  });

  it('refuses a multipart file declared as a type outside the accepted list with 415, as the presigned path does, whatever its bytes', async () => {
    const before = await storedObjects(shop.tenant);
    const pdf = await pdfOf({ pages: 1 });
    for (const type of ['text/html', 'application/x-msdownload', 'image/gif']) {
      const multipart = await uploadForm(shop.secret, { bytes: pdf, name: 'flyer.pdf', type });
      expect(multipart.status, `${type}: ${JSON.stringify(multipart.body)}`).toBe(415);
      expect(multipart.body.error).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining(type) });
      // The presigned path answers the same declaration the same way, before any upload.
      const presigned = await call('POST', '/v1/files/uploads', {
        key: shop.secret,
        body: { filename: 'flyer.pdf', content_type: type, size: pdf.length },
      });
      expect(presigned.status, type).toBe(415);
      expect(presigned.body.error.message).toBe(multipart.body.error.message);
    }
    expect(await storedObjects(shop.tenant)).toEqual(before);
    // A part without a type of its own is text/plain to the form encoding (RFC 7578): "look at the bytes", like octet-stream.
    const untyped = await uploadForm(shop.secret, { bytes: pdf, name: 'flyer.pdf', type: 'text/plain' });
    expect(untyped.status, JSON.stringify(untyped.body)).toBe(201);
    expect(untyped.body.data.content_type).toBe('application/pdf');
  });

  it('completes a 20 MB presigned upload with its declared sha256, byte-identical on download', async () => {
    const bytes = await pdfOf({ pages: 1, padTo: 20 * 1024 * 1024 });
    const started = await call('POST', '/v1/files/uploads', {
      key: shop.secret,
      body: { filename: 'poster.pdf', content_type: 'application/pdf', size: bytes.length, sha256: sha256(bytes), purpose: 'artwork' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { file, upload } = started.body.data;
    expect(file).toMatchObject({ status: 'pending_upload', size: bytes.length, content_type: null });
    expect(upload.max_bytes).toBe(bytes.length);
    expect(upload.fields['Content-Type']).toBe('application/pdf');
    expect(upload.fields.key).not.toContain('poster');
    // Not uploaded yet: completing is a conflict, and nothing changes.
    expect((await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret })).status).toBe(409);
    const posted = await postToS3(upload, bytes);
    expect(posted.status, posted.text).toBeLessThan(300);
    const completed = await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.data).toMatchObject({
      status: 'ready',
      content_type: 'application/pdf',
      sha256: sha256(bytes),
      size: bytes.length,
    });
    // Completing again answers the ready file.
    expect((await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret })).body.data.status).toBe('ready');
    const fetched = await download(shop.secret, file.id);
    expect(sha256(fetched.bytes)).toBe(sha256(bytes));
    expect((await storedObjects(shop.tenant)).filter((key) => key.startsWith('tmp/'))).toEqual([]);
  });

  it('completes an upload over 32 MiB off the request path: 202 processing at once, then ready, hashed by the worker, byte-identical', async () => {
    const bytes = await pdfOf({ pages: 2, padTo: SYNC_COMPLETE_MAX_BYTES + 1024 * 1024 });
    expect(bytes.length).toBeGreaterThan(SYNC_COMPLETE_MAX_BYTES);
    // Declared without a SHA-256: the file's own is computed from the object, by the worker.
    const started = await call('POST', '/v1/files/uploads', {
      key: shop.secret,
      body: { filename: 'large.pdf', content_type: 'application/pdf', size: bytes.length },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { file, upload } = started.body.data;
    expect((await postToS3(upload, bytes)).status).toBeLessThan(300);
    const completed = await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret });
    expect(completed.status, JSON.stringify(completed.body)).toBe(202);
    expect(completed.body.data).toMatchObject({ id: file.id, status: 'processing', content_type: 'application/pdf', sha256: null });
    // The request read the object's head and its first kilobyte, made three DynamoDB calls, and no more.
    expect(dynamoDbWork(completed).commands.toSorted()).toEqual(['GetItem[1]', 'PutItem', 'PutItem']);
    // Completing again while the worker verifies it answers it as it is.
    const again = await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret });
    expect([200, 202]).toContain(again.status);

    const ready = await eventually(
      () => call('GET', `/v1/files/${file.id}`, { key: shop.secret }),
      (response) => response.body.data.status !== 'processing' && response.body.data.preflight?.status !== 'pending',
      30_000,
    );
    expect(ready.body.data).toMatchObject({ status: 'ready', sha256: sha256(bytes), size: bytes.length, content_type: 'application/pdf' });
    expect(ready.body.data.preflight).toMatchObject({ status: 'passed', pages: 2 });
    expect(sha256((await download(shop.secret, file.id)).bytes)).toBe(sha256(bytes));
    expect((await storedObjects(shop.tenant)).filter((key) => key.startsWith('tmp/'))).toEqual([]);
    expect((await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret })).status).toBe(200);
  });

  it('answers a large upload with a wrong SHA-256 202 — the request does not hash it — and the worker rejects it, saying why', async () => {
    const bytes = await pdfOf({ pages: 1, padTo: SYNC_COMPLETE_MAX_BYTES + 1024 * 1024 });
    const declared = 'b'.repeat(64);
    const started = await call('POST', '/v1/files/uploads', {
      key: shop.secret,
      body: { filename: 'wrong.pdf', content_type: 'application/pdf', size: bytes.length, sha256: declared },
    });
    const { file, upload } = started.body.data;
    await postToS3(upload, bytes);
    const completed = await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret });
    expect(completed.status, JSON.stringify(completed.body)).toBe(202);
    const rejected = await eventually(
      () => call('GET', `/v1/files/${file.id}`, { key: shop.secret }),
      (response) => response.body.data.status !== 'processing',
      30_000,
    );
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      rejection: `The upload's SHA-256 is ${sha256(bytes)}, ${declared} was declared: upload it again`,
      preflight: null,
    });
    expect((await storedObjects(shop.tenant)).some((key) => key.endsWith(String(file.id).padStart(12, '0')))).toBe(false);
    expect((await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret })).status).toBe(409);
  });

  it('leaves no object behind when a large upload is deleted while the worker verifies it', async () => {
    const bytes = await pdfOf({ pages: 1, padTo: SYNC_COMPLETE_MAX_BYTES + 1024 * 1024 });
    const started = await call('POST', '/v1/files/uploads', {
      key: shop.secret,
      body: { filename: 'gone.pdf', content_type: 'application/pdf', size: bytes.length },
    });
    const { file, upload } = started.body.data;
    await postToS3(upload, bytes);
    expect((await call('POST', `/v1/files/${file.id}/complete`, { key: shop.secret })).status).toBe(202);
    expect((await call('DELETE', `/v1/files/${file.id}`, { key: shop.secret })).status).toBe(200);
    const suffix = String(file.id).padStart(12, '0');
    // Whichever came first — the worker's move or the delete — neither the record nor an object stays.
    const left = await eventually(
      async () => (await storedObjects(shop.tenant)).filter((key) => key.endsWith(suffix)),
      (keys) => keys.length === 0,
      15_000,
    );
    expect(left).toEqual([]);
    expect((await call('GET', `/v1/files/${file.id}`, { key: shop.secret })).status).toBe(404);
  });

  it('answers 422 on completion for a wrong sha256 or size, removes the upload, and takes a correct one after', async () => {
    const bytes = await pdfOf({ pages: 1 });
    const start = (body: Record<string, unknown>) =>
      call('POST', '/v1/files/uploads', { key: shop.secret, body: { filename: 'a.pdf', content_type: 'application/pdf', ...body } });
    const wrongSum = (await start({ size: bytes.length, sha256: 'a'.repeat(64) })).body.data;
    await postToS3(wrongSum.upload, bytes);
    const refused = await call('POST', `/v1/files/${wrongSum.file.id}/complete`, { key: shop.secret });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'sha256' })]);
    expect((await call('GET', `/v1/files/${wrongSum.file.id}`, { key: shop.secret })).body.data.status).toBe('pending_upload');

    const wrongSize = (await start({ size: bytes.length + 10 })).body.data;
    await postToS3(wrongSize.upload, bytes);
    const short = await call('POST', `/v1/files/${wrongSize.file.id}/complete`, { key: shop.secret });
    expect(short.status).toBe(422);
    expect(short.body.error.details).toEqual([expect.objectContaining({ field: 'size' })]);
    expect((await storedObjects(shop.tenant)).some((key) => key.endsWith(String(wrongSize.file.id).padStart(12, '0')))).toBe(false);

    // A declared type the bytes contradict: 415, the file rejected, nothing kept.
    const png = pngOf(8, 8);
    const disguised = (await start({ size: png.length })).body.data;
    await postToS3(disguised.upload, png);
    const rejected = await call('POST', `/v1/files/${disguised.file.id}/complete`, { key: shop.secret });
    expect(rejected.status).toBe(415);
    expect((await call('GET', `/v1/files/${disguised.file.id}`, { key: shop.secret })).body.data).toMatchObject({
      status: 'rejected',
      rejection: expect.stringContaining('image/png'),
    });
    // Types that are not taken are refused before any upload.
    expect((await start({ size: 10, content_type: 'text/html' })).status).toBe(415);
    expect((await start({ size: 3 * 1024 * 1024 * 1024 })).status).toBe(422);
  });

  it("keeps files to their tenant and a customer's files to that customer", async () => {
    const mine = await uploadForm(shop.secret, { bytes: pngOf(2, 2), name: 'a.png', type: 'image/png' });
    expect((await call('GET', `/v1/files/${mine.body.data.id}`, { key: other.secret })).status).toBe(404);
    expect((await call('GET', `/v1/files/${mine.body.data.id}/download`, { key: other.secret })).status).toBe(404);

    const signIn = async () => {
      const email = uniqueEmail('files');
      expect((await signUp(shop.publishable, { email, name: 'F' })).status).toBe(201);
      return (await call('POST', '/v1/auth/login', { key: shop.publishable, body: { email, password: 'correct horse battery' } })).body
        .data;
    };
    const anna = await signIn();
    const ben = await signIn();
    const annas = await uploadForm(anna.access_token, { bytes: pngOf(3, 3), name: 'anna.png', type: 'image/png' });
    expect(annas.status, JSON.stringify(annas.body)).toBe(201);
    expect(annas.body.data.customer_id).toBe(anna.customer.id);
    expect((await call('GET', `/v1/files/${annas.body.data.id}`, { key: anna.access_token })).status).toBe(200);
    expect((await call('GET', `/v1/files/${annas.body.data.id}`, { key: ben.access_token })).status).toBe(404);
    expect((await call('GET', `/v1/files/${mine.body.data.id}`, { key: anna.access_token })).status).toBe(404);
    const listed = await call('GET', '/v1/files', { key: anna.access_token });
    expect(listed.body.data.map((file: { id: number }) => file.id)).toEqual([annas.body.data.id]);
    // The shop sees them all; a customer may not delete.
    expect((await call('GET', `/v1/files/${annas.body.data.id}`, { key: shop.secret })).status).toBe(200);
    expect((await call('DELETE', `/v1/files/${annas.body.data.id}`, { key: anna.access_token })).status).toBe(403);
  });

  it('lists newest first with purpose and status filters, and deletes the object with the record', async () => {
    const proof = await uploadForm(shop.secret, { bytes: pngOf(2, 2), name: 'proof.png', type: 'image/png' }, { purpose: 'proof' });
    const proofs = await call('GET', '/v1/files?purpose=proof&status=ready', { key: shop.secret });
    expect(proofs.status).toBe(200);
    expect(proofs.body.data.map((file: { id: number }) => file.id)).toEqual([proof.body.data.id]);
    const pending = await call('GET', '/v1/files?status=pending_upload', { key: shop.secret });
    expect(pending.body.data.every((file: { status: string }) => file.status === 'pending_upload')).toBe(true);
    const all = await call('GET', '/v1/files?per_page=2', { key: shop.secret });
    expect(all.body.data[0]!.id).toBe(proof.body.data.id);
    expect(all.body.pagination.has_more).toBe(true);

    const removed = await call('DELETE', `/v1/files/${proof.body.data.id}`, { key: shop.secret });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: proof.body.data.id, deleted: true });
    expect((await call('GET', `/v1/files/${proof.body.data.id}`, { key: shop.secret })).status).toBe(404);
    expect((await storedObjects(shop.tenant)).some((key) => key.endsWith(String(proof.body.data.id).padStart(12, '0')))).toBe(false);
  });
});

/**
 * The files list by cursor (`starting_after=<file id>`) over 5,200 records written straight into
 * the table, newer than three uploads over HTTP: a walk sees every file once, a page by cursor
 * reads its own keys where its page number reads every key before it, and a filter on the keys
 * (purpose, status, a customer token's own) that examines MAX_EXAMINED keys without a match
 * answers a short page whose cursor — the last file examined — goes on from there.
 */
describe('the files list by cursor', () => {
  const BULK = 5200;
  let shop: { secret: string; live: string; publishable: string; tenant: Tenant };
  let anna: { access_token: string; customer: { id: number } };
  let uploaded: number[];
  let all: number[];

  beforeAll(async () => {
    const created = await freshShop('Busy Artwork Shop');
    shop = { secret: created.secretTest, live: created.secretLive, publishable: created.publishableTest, tenant: created.tenant };
    const email = uniqueEmail('cursor');
    expect((await signUp(shop.publishable, { email, name: 'Anna' })).status).toBe(201);
    anna = (await call('POST', '/v1/auth/login', { key: shop.publishable, body: { email, password: 'correct horse battery' } })).body.data;
    // The oldest files: a proof of the shop's and two of Anna's.
    uploaded = [];
    for (const [key, fields] of [
      [shop.secret, { purpose: 'proof' }],
      [anna.access_token, {}],
      [anna.access_token, {}],
    ] as const) {
      const response = await uploadForm(key, { bytes: pngOf(2, 2), name: 'a.png', type: 'image/png' }, fields);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      uploaded.push(response.body.data.id);
    }
    const stored = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: fileKeys.file(shop.tenant, uploaded[0]!), ConsistentRead: true }),
    );
    const template = fileFromItem(stored.Item!);
    // Newer artwork of the shop's, ids after the uploads', one millisecond apart; no preflight pending
    // (the preflight worker would look for their objects).
    const later = Date.now() + 60_000;
    const records = Array.from({ length: BULK }, (_, index): FileRecord => {
      const at = new Date(later + index).toISOString();
      return { ...template, id: 1000 + index, purpose: 'artwork', customer_id: null, preflight: null, created_at: at, updated_at: at };
    });
    await batchWriteAll(records.map((record) => putRequest(fileItem(shop.tenant, record))));
    all = [...records.map((record) => record.id).toReversed(), ...uploaded.toReversed()];
  }, 120_000);

  async function list(query: string, key = shop.secret) {
    const response = await call('GET', `/v1/files?${query}`, { key });
    expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBe(200);
    return { body: response.body, work: dynamoDbWork(response) };
  }

  /** Walks by cursor to the end: the ids served, and each page's items read (at most `bound`). */
  async function walk(query: string, bound: number, key = shop.secret) {
    const ids: number[] = [];
    const pages: { items: number; next: string | null }[] = [];
    let cursor: string | null = null;
    for (let request = 0; request < 100; request++) {
      const { body, work } = await list(`${query}${cursor ? `&starting_after=${cursor}` : ''}`, key);
      ids.push(...body.data.map((file: { id: number }) => file.id));
      expect(work.items, work.commands.join(',')).toBeLessThanOrEqual(bound);
      expect(body.pagination.has_more).toBe(body.pagination.next_cursor !== null);
      cursor = body.pagination.next_cursor ?? null;
      pages.push({ items: body.data.length, next: cursor });
      if (cursor === null) return { ids, pages };
    }
    throw new Error(`${query}: no last page after 100 requests`);
  }

  it('walks every file once, newest first, each page reading the cursor, its own keys (+ one), its items and the capped count', async () => {
    const { ids } = await walk('per_page=100', 1 + 101 + 100 + TOTAL_CAP + 1);
    expect(ids).toEqual(all);
  });

  it('reads a deep page by cursor at the cost of the first, where its page number reads every key before it', async () => {
    const byNumber = await list('per_page=100&page=40');
    const byCursor = await list(`per_page=100&starting_after=${all[3899]}`);
    expect(byCursor.body.data).toEqual(byNumber.body.data);
    expect(byCursor.body.data.map((file: { id: number }) => file.id)).toEqual(all.slice(3900, 4000));
    expect(byCursor.body.pagination).toMatchObject({
      total: TOTAL_CAP,
      total_capped: true,
      has_more: true,
      next_cursor: String(all[3999]),
    });
    // The cursor file, the page's keys and one more, its items, the total counted up to the cap.
    expect(byCursor.work.commands.toSorted()).toEqual(['BatchGetItem[100]', 'GetItem[1]', `Query[${TOTAL_CAP + 1}]`, 'Query[101]']);
    expect(byNumber.work.items, byNumber.work.commands.join(',')).toBeGreaterThanOrEqual(4000);
  });

  it('goes on from the last file examined when a filter on the keys stops a page short, for a customer token too', async () => {
    // The proof is the oldest file: the first request examines MAX_EXAMINED keys and finds none.
    const proofs = await walk('purpose=proof&per_page=10', 1 + MAX_EXAMINED + 10 + TOTAL_CAP + 1);
    expect(proofs.ids).toEqual([uploaded[0]]);
    expect(proofs.pages[0]).toEqual({ items: 0, next: String(all[MAX_EXAMINED - 1]) });
    // Anna's files only, though the cursor of her first (empty) page is a file of the shop's.
    const own = await walk('per_page=10', 1 + MAX_EXAMINED + 10 + TOTAL_CAP + 1, anna.access_token);
    expect(own.ids).toEqual(uploaded.slice(1).toReversed());
    expect(own.pages[0]).toEqual({ items: 0, next: String(all[MAX_EXAMINED - 1]) });
    expect((await call('GET', `/v1/files/${all[MAX_EXAMINED - 1]}`, { key: anna.access_token })).status).toBe(404);
  });

  it("refuses a cursor the tenant does not have (another mode's id) and a cursor with a page number", async () => {
    for (const [query, field, key] of [
      [`starting_after=${1000 + BULK}`, 'starting_after', shop.secret],
      [`starting_after=${uploaded[0]}`, 'starting_after', shop.live],
      [`starting_after=${uploaded[0]}&page=2`, 'page', shop.secret],
      ['starting_after=file_1', 'starting_after', shop.secret],
    ] as const) {
      const response = await call('GET', `/v1/files?${query}`, { key });
      expect(response.status, query).toBe(422);
      expect(response.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual([field]);
    }
    const unknown = await call('GET', `/v1/files?starting_after=${1000 + BULK}`, { key: shop.secret });
    expect(unknown.body.error.details![0]!.message).toBe(`No file with id ${1000 + BULK}`);
  });
});

describe('files on order lines', () => {
  let shop: { secret: string; publishable: string };
  let otherSecret: string;
  let productId: number;
  let customerId: number;

  beforeAll(async () => {
    const created = await createAccount({ name: 'Order Files Shop', plan: 'enterprise' });
    shop = { secret: created.keys.secret_test.key, publishable: created.keys.publishable_test.key };
    otherSecret = (await createAccount({ name: 'Other Order Files Shop', plan: 'enterprise' })).keys.secret_test.key;
    productId = (await call('POST', '/v1/products', { key: shop.secret, body: businessCards() })).body.data.id;
    customerId = (await call('POST', '/v1/customers', { key: shop.secret, body: { name: 'Files Customer', email: uniqueEmail('files') } }))
      .body.data.id;
  });

  const line = (fileIds: number[]) => ({ product_id: productId, quantity: 100, options: { paper: 'matt300' }, file_ids: fileIds });

  it("keeps copies of a line's files on the order, lists them with their preflight, and gives them to the line's job", async () => {
    const pdf = await pdfOf({ pages: 1 });
    const artwork = (await uploadForm(shop.secret, { bytes: pdf, name: 'cards.pdf', type: 'application/pdf' })).body.data;
    const order = await call('POST', '/v1/orders', { key: shop.secret, body: { customer_id: customerId, items: [line([artwork.id])] } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.data.items[0]).toMatchObject({
      file_ids: [artwork.id],
      files: [{ id: artwork.id, filename: 'cards.pdf', content_type: 'application/pdf', size: pdf.length, sha256: sha256(pdf) }],
    });
    const files = await call('GET', `/v1/orders/${order.body.data.id}/files`, { key: shop.secret });
    expect(files.status).toBe(200);
    expect(files.body.data.map((file: { id: number; preflight: unknown }) => file.id)).toEqual([artwork.id]);
    expect(files.body.data[0]!.preflight).toBeTruthy();

    expect((await call('PUT', `/v1/orders/${order.body.data.id}`, { key: shop.secret, body: { status: 'confirmed' } })).status).toBe(200);
    const jobs = await call('GET', `/v1/production/jobs?order_id=${order.body.data.id}`, { key: shop.secret });
    expect(jobs.body.data[0]!.file_ids).toEqual([artwork.id]);
  });

  it("refuses another tenant's file, a file not ready and an unknown one with 422 naming the line", async () => {
    // Ids are per tenant: the other shop's file gets an id this shop has not reached.
    for (let index = 0; index < 5; index++) await uploadForm(otherSecret, { bytes: pngOf(2, 2), name: 'x.png', type: 'image/png' });
    const foreign = (await uploadForm(otherSecret, { bytes: pngOf(2, 2), name: 'x.png', type: 'image/png' })).body.data;
    const pending = (
      await call('POST', '/v1/files/uploads', { key: shop.secret, body: { filename: 'p.pdf', content_type: 'application/pdf', size: 10 } })
    ).body.data.file;
    const refused = await call('POST', '/v1/orders', {
      key: shop.secret,
      body: { customer_id: customerId, items: [line([]), line([foreign.id]), line([pending.id, 999_999])] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      { field: 'items.1.file_ids.0', message: `No file with id ${foreign.id}` },
      { field: 'items.2.file_ids.0', message: `File ${pending.id} is pending_upload: only a ready file can be printed` },
      { field: 'items.2.file_ids.1', message: 'No file with id 999999' },
    ]);
    // Quotes check them the same way.
    const quote = await call('POST', '/v1/quotes', { key: shop.secret, body: { customer_id: customerId, items: [line([foreign.id])] } });
    expect(quote.status).toBe(422);
    expect(quote.body.error.details).toEqual([{ field: 'items.0.file_ids.0', message: `No file with id ${foreign.id}` }]);
  });

  it("lets a customer token order with its own files only, and read its own order's files", async () => {
    const email = uniqueEmail('order-files');
    expect((await signUp(shop.publishable, { email, name: 'O' })).status).toBe(201);
    const session = (await call('POST', '/v1/auth/login', { key: shop.publishable, body: { email, password: 'correct horse battery' } }))
      .body.data;
    const own = (await uploadForm(session.access_token, { bytes: pngOf(5, 5), name: 'mine.png', type: 'image/png' })).body.data;
    const shops = (await uploadForm(shop.secret, { bytes: pngOf(5, 5), name: 'shop.png', type: 'image/png' })).body.data;
    const refused = await call('POST', '/v1/orders', { key: session.access_token, body: { items: [line([shops.id])] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([{ field: 'items.0.file_ids.0', message: `No file with id ${shops.id}` }]);
    const placed = await call('POST', '/v1/orders', { key: session.access_token, body: { items: [line([own.id])] } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const listed = await call('GET', `/v1/orders/${placed.body.data.id}/files`, { key: session.access_token });
    expect(listed.body.data.map((file: { id: number }) => file.id)).toEqual([own.id]);
  });
});

/**
 * Daily upload quotas per tenant and plan (docs/files.md#quotas): the day's count and bytes are one
 * counter item, moved by one conditional write per upload, so uploads that race for the last of a
 * day's quota get exactly what is left. The counter is set near the starter plan's figures first.
 */
describe('daily upload quotas', () => {
  const quota = uploadQuotas.starter;
  let shop: { secret: string; publishable: string; tenant: Tenant };

  beforeAll(async () => {
    const created = await createAccount({ name: 'Quota Print', plan: 'starter' });
    // Rate limits apart: these tests are about the upload quota.
    await setPlan(created.account.id, 'starter', 1_000_000);
    shop = {
      secret: created.keys.secret_test.key,
      publishable: created.keys.publishable_test.key,
      tenant: { accountId: created.account.id, mode: 'test' },
    };
  });

  const today = () => new Date().toISOString().slice(0, 10);
  const tomorrow = () => `${new Date(Date.parse(today()) + 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`;
  const counter = async () =>
    (await dynamo().send(new GetCommand({ TableName: tableName(), Key: fileKeys.uploadQuota(shop.tenant, today()), ConsistentRead: true })))
      .Item;
  const seed = (files: number, bytes: number) =>
    dynamo().send(new PutCommand({ TableName: tableName(), Item: { ...fileKeys.uploadQuota(shop.tenant, today()), files, bytes } }));
  const listed = async () => (await call('GET', '/v1/files', { key: shop.secret })).body.pagination.total as number;

  it("lets exactly what is left of the day's count through when uploads race, and answers the rest 429 naming the limit", async () => {
    await seed(quota.files - 3, 0);
    const before = await listed();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => uploadForm(shop.secret, { bytes: pngOf(2, 2), name: `${index}.png`, type: 'image/png' })),
    );
    expect(answers.map((answer) => answer.status).toSorted()).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body.error).toMatchObject({
      code: 'upload_quota_exceeded',
      message: `The daily upload quota is used up: ${quota.files} files a day on the starter plan; it starts again at ${tomorrow()}`,
      details: [{ field: 'files_per_day', message: `${quota.files} of ${quota.files} uploaded today` }],
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(await counter()).toMatchObject({ files: quota.files, bytes: 3 * pngOf(2, 2).length });
    expect(await listed()).toBe(before + 3);
    // The presigned path counts against the same quota.
    const presigned = await call('POST', '/v1/files/uploads', {
      key: shop.secret,
      body: { filename: 'a.pdf', content_type: 'application/pdf', size: 10 },
    });
    expect(presigned.status).toBe(429);
    expect(presigned.body.error.code).toBe('upload_quota_exceeded');
  });

  it("refuses an upload that would pass the day's bytes with 413 naming the limit, on both ways in, and takes one that fits exactly", async () => {
    await seed(0, quota.bytes - 1000);
    const over = await call('POST', '/v1/files/uploads', {
      key: shop.secret,
      body: { filename: 'big.pdf', content_type: 'application/pdf', size: 1001 },
    });
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({
      code: 'upload_volume_exceeded',
      message: `The daily upload volume would be exceeded: ${quota.bytes} bytes a day on the starter plan; it starts again at ${tomorrow()}`,
      details: [{ field: 'bytes_per_day', message: `${quota.bytes - 1000} of ${quota.bytes} uploaded today; this upload has 1001` }],
    });
    const fits = await call('POST', '/v1/files/uploads', {
      key: shop.secret,
      body: { filename: 'fits.pdf', content_type: 'application/pdf', size: 1000 },
    });
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    const multipart = await uploadForm(shop.secret, { bytes: pngOf(2, 2), name: 'a.png', type: 'image/png' });
    expect(multipart.status).toBe(413);
    expect(multipart.body.error.code).toBe('upload_volume_exceeded');
    expect(await counter()).toMatchObject({ files: 1, bytes: quota.bytes });
  });

  it("counts a customer's uploads on the customer's own quota: customers never use up the shop's day, nor one another's", async () => {
    const own = customerUploadQuotas.starter;
    const [mallory, anna] = [
      await signInCustomer(shop.publishable, { email: uniqueEmail('mallory') }),
      await signInCustomer(shop.publishable, { email: uniqueEmail('anna') }),
    ];
    const customerCounter = async (id: number) =>
      (
        await dynamo().send(
          new GetCommand({ TableName: tableName(), Key: fileKeys.uploadQuota(shop.tenant, today(), id), ConsistentRead: true }),
        )
      ).Item;
    await seed(0, 0);
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...fileKeys.uploadQuota(shop.tenant, today(), mallory.id), files: own.files - 1, bytes: 0 },
      }),
    );
    const png = () => ({ bytes: pngOf(2, 2), name: 'art.png', type: 'image/png' });
    expect((await uploadForm(mallory.token, png())).status).toBe(201);
    const refused = await uploadForm(mallory.token, png());
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'upload_quota_exceeded',
      message: `The daily upload quota is used up: ${own.files} files a day for each customer of this shop; it starts again at ${tomorrow()}`,
    });
    const presigned = await call('POST', '/v1/files/uploads', {
      key: mallory.token,
      body: { filename: 'art.pdf', content_type: 'application/pdf', size: 10 },
    });
    expect(presigned.status).toBe(429);
    // The shop and another customer upload as before; the shop's counter holds none of the customers' uploads.
    expect((await uploadForm(anna.token, png())).status).toBe(201);
    expect((await uploadForm(shop.secret, png())).status).toBe(201);
    expect(await counter()).toMatchObject({ files: 1, bytes: pngOf(2, 2).length });
    expect(await customerCounter(mallory.id)).toMatchObject({ files: own.files });
    expect(await customerCounter(anna.id)).toMatchObject({ files: 1 });
    // And a full shop quota does not stop a customer.
    await seed(quota.files, 0);
    expect((await uploadForm(shop.secret, png())).status).toBe(429);
    expect((await uploadForm(anna.token, png())).status).toBe(201);
  });

  it('counts nothing for an upload refused for what it is', async () => {
    await seed(0, 0);
    const refused = await uploadForm(shop.secret, { bytes: Buffer.from('just text'), name: 'a.txt', type: 'application/octet-stream' });
    expect(refused.status).toBe(415);
    expect(await counter()).toMatchObject({ files: 0, bytes: 0 });
  });
});
