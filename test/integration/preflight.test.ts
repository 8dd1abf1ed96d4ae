import type { DynamoDBRecord } from 'aws-lambda';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { fileKeys } from '#shared/db/keys';
import { preflightRecord } from '#shared/files/preflight/worker';
import { readFile } from '#shared/files/repository';
import { pdfOf, pngOf, postToS3, sha256, uploadForm } from '#test/support/files';
import { call } from '#test/support/http';
import { encryptedPdfOf, jpegOf } from '#test/support/preflight-files';
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
    expect(file.body.data.preflight.status, JSON.stringify(file.body.data.preflight)).not.toBe('pending');
    return file.body.data;
  };

  it('gives a 1 MB PDF uploaded by multipart its page count and page size', async () => {
    const file = await upload(await pdfOf({ pages: 2, padTo: 1024 * 1024 }), 'flyer.pdf', 'application/pdf');
    const checkedFile = await checked(file.id);
    expect(checkedFile.preflight).toMatchObject({ status: 'passed', pages: 2, encrypted: false });
    expect(checkedFile.preflight.page_sizes).toEqual([
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
    expect(first.preflight.page_sizes).toEqual([
      { page: 1, width_mm: 210, height_mm: 297, trim_width_mm: 204, trim_height_mm: 291 },
      { page: 2, width_mm: 210, height_mm: 297, trim_width_mm: 204, trim_height_mm: 291 },
      { page: 3, width_mm: 210, height_mm: 297, trim_width_mm: 204, trim_height_mm: 291 },
      { page: 4, width_mm: 148, height_mm: 210, trim_width_mm: null, trim_height_mm: null },
    ]);
    expect(first.preflight.checks).toContainEqual({
      code: 'page_size',
      result: 'warning',
      message: 'Mixed page sizes: 204 × 291 mm (3 pages), 148 × 210 mm (1 page)',
    });

    const second = await checked(locked.id);
    expect(second.preflight).toMatchObject({ status: 'failed', encrypted: true, pages: 2 });
    expect(second.preflight.checks).toContainEqual(expect.objectContaining({ code: 'encryption', result: 'failed' }));
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
    expect(lowFile.preflight.checks).toEqual([
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
    expect(file.preflight.checks[0].message).toContain('the file states no resolution');
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
