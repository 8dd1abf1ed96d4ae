import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { itemBytes } from '#shared/db/item-size';
import { fileKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { MAX_CHECK_MESSAGE_LENGTH } from '#shared/files/preflight/bounds';
import { preflightRecord } from '#shared/files/preflight/worker';
import { readFile } from '#shared/files/repository';
import { fileItem } from '#shared/files/stored';
import { pdfOf, pngOf, postToS3, sha256, uploadForm } from '#test/support/files';
import { call } from '#test/support/http';
import {
  cyclicPageTreePdf,
  encryptedPdfOf,
  inflatingPdf,
  jpegOf,
  manyPagesPdf,
  nestedPdf,
  sharedPageTreePdf,
} from '#test/support/preflight-files';
import { eventually } from '#test/support/wait';

/**
 * Preflight end to end: files uploaded through the local gateway (and one by presigned POST) get
 * their print checks from the FilePreflight worker, which the local runtime feeds from the table's
 * stream through the worker table's filter pattern — exactly as its event source mapping on AWS.
 */
describe('file preflight', () => {
  let shop: { secret: string; tenant: Tenant };

  beforeAll(async () => {
    const created = await createAccount({ name: 'Preflight Print', plan: 'enterprise' });
    shop = { secret: created.keys.secret_test.key, tenant: { accountId: created.account.id, mode: 'test' } };
  });

  const upload = async (bytes: Uint8Array, name: string, type: string) => {
    const response = await uploadForm(shop.secret, { bytes, name, type });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data as { id: number; preflight: { status: string } };
  };

  /** The file once its preflight is no longer pending (the worker runs off the request path). */
  const checked = async (id: number) => {
    const file = await eventually(
      () => call('GET', `/v1/files/${id}`, { key: shop.secret }),
      (response) => response.status === 200 && response.body.data.preflight?.status !== 'pending',
      20_000,
    );
    expect(file.status).toBe(200);
    expect(file.body.data.preflight!.status, JSON.stringify(file.body.data.preflight)).not.toBe('pending');
    return file.body.data;
  };

  it('gives a 1 MB PDF uploaded by multipart its page count and page size', async () => {
    const file = await upload(await pdfOf({ pages: 2, padTo: 1024 * 1024 }), 'flyer.pdf', 'application/pdf');
    const checkedFile = await checked(file.id);
    expect(checkedFile.preflight).toMatchObject({ status: 'passed', pages: 2, encrypted: false });
    expect(checkedFile.preflight!.page_sizes).toEqual([
      { page: 1, width_mm: 210, height_mm: 297, trim_width_mm: null, trim_height_mm: null },
      { page: 2, width_mm: 210, height_mm: 297, trim_width_mm: null, trim_height_mm: null },
    ]);
  });

  it('records pages, page sizes and a mixed-size warning for a multi-page PDF; fails an encrypted one', async () => {
    const mixed = await PDFDocument.load(await pdfOf({ pages: 3, trim: true }));
    mixed.addPage([148 * (72 / 25.4), 210 * (72 / 25.4)]);
    const [brochure, locked] = await Promise.all([
      upload(await mixed.save(), 'brochure.pdf', 'application/pdf'),
      upload(await encryptedPdfOf(2), 'locked.pdf', 'application/pdf'),
    ]);
    expect(brochure.preflight.status).toBe('pending');

    const first = await checked(brochure.id);
    expect(first.status).toBe('ready');
    expect(first.preflight).toMatchObject({
      status: 'warnings',
      pages: 4,
      encrypted: false,
      width_px: null,
      dpi: null,
      checked_at: expect.any(String),
    });
    expect(first.preflight!.page_sizes).toEqual([
      { page: 1, width_mm: 210, height_mm: 297, trim_width_mm: 204, trim_height_mm: 291 },
      { page: 2, width_mm: 210, height_mm: 297, trim_width_mm: 204, trim_height_mm: 291 },
      { page: 3, width_mm: 210, height_mm: 297, trim_width_mm: 204, trim_height_mm: 291 },
      { page: 4, width_mm: 148, height_mm: 210, trim_width_mm: null, trim_height_mm: null },
    ]);
    expect(first.preflight!.checks).toContainEqual({
      code: 'page_size',
      result: 'warning',
      message: 'Mixed page sizes: 204 × 291 mm (3 pages), 148 × 210 mm (1 page)',
    });

    const second = await checked(locked.id);
    expect(second.preflight).toMatchObject({ status: 'failed', encrypted: true, pages: 2 });
    expect(second.preflight!.checks).toContainEqual(expect.objectContaining({ code: 'encryption', result: 'failed' }));
    // The shop decides: a failed preflight leaves the file ready and downloadable.
    expect(second.status).toBe('ready');
    expect((await call('GET', `/v1/files/${locked.id}/download?format=url`, { key: shop.secret })).status).toBe(200);
  });

  it('warns of a 72-dpi PNG and passes a 300-dpi one, with their pixel sizes; skips an SVG', async () => {
    const [low, high, vector] = await Promise.all([
      upload(pngOf(720, 360, 72), 'low.png', 'image/png'),
      upload(pngOf(1240, 1754, 300), 'high.png', 'image/png'),
      upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'logo.svg', 'image/svg+xml'),
    ]);
    const lowFile = await checked(low.id);
    expect(lowFile.preflight).toMatchObject({ status: 'warnings', width_px: 720, height_px: 360, dpi: 72, pages: null });
    expect(lowFile.preflight!.checks).toEqual([
      {
        code: 'resolution',
        result: 'warning',
        message: '720 × 360 px at 72 dpi, under the 300 dpi print needs (254 × 127 mm; at 300 dpi 61 × 30.5 mm)',
      },
    ]);
    expect((await checked(high.id)).preflight).toMatchObject({ status: 'passed', width_px: 1240, height_px: 1754, dpi: 300 });
    expect((await checked(vector.id)).preflight).toMatchObject({
      status: 'skipped',
      checks: [{ code: 'type', result: 'warning', message: 'Not checked: no print checks apply to SVG files' }],
    });
  });

  it('checks a presigned upload once it is completed, and a JPEG without a stated resolution', async () => {
    const jpeg = jpegOf(3000, 2000);
    const started = await call('POST', '/v1/files/uploads', {
      key: shop.secret,
      body: { filename: 'photo.jpg', content_type: 'image/jpeg', size: jpeg.length, sha256: sha256(jpeg) },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.data.file.preflight).toBeNull();
    expect((await postToS3(started.body.data.upload, jpeg)).status).toBeLessThan(300);
    expect((await call('POST', `/v1/files/${started.body.data.file.id}/complete`, { key: shop.secret })).status).toBe(200);
    const file = await checked(started.body.data.file.id);
    expect(file.preflight).toMatchObject({ status: 'warnings', width_px: 3000, height_px: 2000, dpi: null });
    expect(file.preflight!.checks[0]!.message).toContain('the file states no resolution');
  });

  it('checks a normal PDF uploaded with hostile ones, and ends each hostile one failed or skipped with its reason, every item bounded', async () => {
    const started = Date.now();
    const [normal, pages, bomb, loop, shared, nested] = await Promise.all([
      upload(await pdfOf({ pages: 2 }), 'normal.pdf', 'application/pdf'),
      upload(manyPagesPdf(20_000), 'pages.pdf', 'application/pdf'),
      upload(inflatingPdf(300), 'bomb.pdf', 'application/pdf'),
      upload(cyclicPageTreePdf(), 'loop.pdf', 'application/pdf'),
      upload(sharedPageTreePdf(40), 'shared.pdf', 'application/pdf'),
      upload(nestedPdf(100_000), 'nested.pdf', 'application/pdf'),
    ]);
    expect((await checked(normal.id)).preflight).toMatchObject({ status: 'passed', pages: 2 });
    const outcomes = {
      [pages.id]: {
        status: 'skipped',
        code: 'limits',
        message: 'Not checked: more than 10,000 pages (its page tree counts 20,000); preflight reads at most 10,000',
      },
      [bomb.id]: {
        status: 'failed',
        code: 'readable',
        message: 'A compressed object stream of the PDF inflates to more than 32 MB: it is not read',
      },
      [loop.id]: {
        status: 'failed',
        code: 'readable',
        message: "The PDF's page tree is not a tree: a node is reached twice (it loops, or is shared)",
      },
      [shared.id]: {
        status: 'failed',
        code: 'readable',
        message: "The PDF's page tree is not a tree: a node is reached twice (it loops, or is shared)",
      },
      [nested.id]: { status: 'failed', code: 'readable', message: 'The PDF nests arrays or dictionaries more than 100 levels deep' },
    };
    for (const [id, outcome] of Object.entries(outcomes)) {
      const file = await checked(Number(id));
      expect(file.status, id).toBe('ready');
      expect(file.preflight, id).toMatchObject({ status: outcome.status, page_sizes: [] });
      expect(file.preflight!.checks, id).toEqual([
        { code: outcome.code, result: outcome.status === 'failed' ? 'failed' : 'warning', message: outcome.message },
      ]);
    }
    // All six within seconds, one after the other on the stream; what is stored stays small.
    expect(Date.now() - started).toBeLessThan(20_000);
    for (const file of [normal, pages, bomb, loop, shared, nested]) {
      const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: fileKeys.file(shop.tenant, file.id) }));
      expect(itemBytes(Item!)).toBeLessThan(4096);
      for (const check of (Item!.preflight as { checks: { message: string }[] }).checks) {
        expect(check.message.length).toBeLessThanOrEqual(MAX_CHECK_MESSAGE_LENGTH);
      }
    }
  });

  it("does not hold another tenant's file behind a hostile one", async () => {
    const other = await createAccount({ name: 'Other Preflight Print', plan: 'enterprise' });
    const otherKey = other.keys.secret_test.key;
    await upload(sharedPageTreePdf(40), 'shared.pdf', 'application/pdf');
    await upload(inflatingPdf(1000), 'bomb.pdf', 'application/pdf');
    const theirs = await uploadForm(otherKey, { bytes: await pdfOf({ pages: 1 }), name: 'theirs.pdf', type: 'application/pdf' });
    expect(theirs.status).toBe(201);
    const started = Date.now();
    const file = await eventually(
      () => call('GET', `/v1/files/${theirs.body.data.id}`, { key: otherKey }),
      (response) => response.body.data.preflight!.status !== 'pending',
      20_000,
    );
    expect(file.body.data.preflight!.status).toBe('passed');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('sets a file aside once the worker stopped on it without a result: its record, retried, records it skipped and checks nothing', async () => {
    // What a worker that ran out of time or memory leaves: a ready file, its preflight pending, its start marked.
    const template = await readFile(shop.tenant, (await upload(pngOf(4, 4, 300), 'seed.png', 'image/png')).id, true);
    const id = template!.id + 1000;
    const at = new Date().toISOString();
    const stuck = { ...template!, id, preflight: { ...template!.preflight!, status: 'pending' as const, checks: [], checked_at: null } };
    await dynamo().send(new PutCommand({ TableName: tableName(), Item: { ...fileItem(shop.tenant, stuck), worker_started_at: at } }));
    const { pk, sk } = fileKeys.file(shop.tenant, id);
    const retried = { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } } } } as DynamoDBRecord;
    expect(await preflightRecord(retried)).toBe('gave-up');
    const file = await readFile(shop.tenant, id, true);
    expect(file?.preflight).toMatchObject({
      status: 'skipped',
      checks: [
        {
          code: 'limits',
          result: 'warning',
          message: `Not checked: the check stopped without a result (out of time or memory), started ${at}; it is not tried again`,
        },
      ],
    });
    expect(file?.worker_started_at).toBeNull();
    // Replayed once more: nothing left to do.
    expect(await preflightRecord(retried)).toBe('not-pending');
  });

  it('changes nothing when a record is replayed', async () => {
    const file = await upload(pngOf(10, 10, 300), 'again.png', 'image/png');
    await checked(file.id);
    const before = await readFile(shop.tenant, file.id, true);
    const { pk, sk } = fileKeys.file(shop.tenant, file.id);
    const replayed = { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } } } } as DynamoDBRecord;
    expect(await preflightRecord(replayed)).toBe('not-pending');
    expect(await readFile(shop.tenant, file.id, true)).toEqual(before);
  });
});
