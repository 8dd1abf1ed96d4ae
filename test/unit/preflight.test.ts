import type { DynamoDBRecord } from 'aws-lambda';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_PAGES, pageSizeGroups, preflightOf, statusOf } from '#shared/files/preflight/checks';
import { ImageHeaderError, jpegFacts, pngFacts, tiffFacts } from '#shared/files/preflight/images';
import { pdfFacts, PdfReadError } from '#shared/files/preflight/pdf';
import { awaitsPreflight, awaitsVerification, fileOfKey, runCheck } from '#shared/files/preflight/worker';
import { fileItem, PENDING_TTL_SECONDS, type FileRecord } from '#shared/files/stored';
import { matchesFilter, workers, type StreamSource } from '#shared/workers';
import { pdfOf, pngOf } from '#test/support/files';
import { encryptedPdfOf, jpegOf, tiffOf } from '#test/support/preflight-files';

const NOW = new Date('2026-03-01T10:00:00.000Z');

describe('PNG headers', () => {
  it('read the pixel size and the pHYs resolution (pixels per metre) as dpi, rounded to a tenth', () => {
    expect(pngFacts(pngOf(40, 30, 300))).toEqual({ width: 40, height: 30, dpi: 300 });
    expect(pngFacts(pngOf(40, 30, 72))).toEqual({ width: 40, height: 30, dpi: 72 });
    expect(pngFacts(pngOf(40, 30))).toEqual({ width: 40, height: 30, dpi: null });
  });

  it('take a pHYs of unit 0 (an aspect ratio only) as no resolution', () => {
    const png = Buffer.from(pngOf(4, 4, 300));
    const at = png.indexOf('pHYs', 0, 'latin1');
    png[at + 4 + 8] = 0;
    expect(pngFacts(png).dpi).toBeNull();
  });

  it('refuse a truncated or foreign header', () => {
    expect(() => pngFacts(pngOf(4, 4).subarray(0, 20))).toThrow(ImageHeaderError);
    expect(() => pngFacts(new Uint8Array(64))).toThrow(ImageHeaderError);
  });
});

describe('JPEG headers', () => {
  it('read the frame size and the JFIF density in dpi or dots per cm', () => {
    expect(jpegFacts(jpegOf(1200, 800, { jfif: { units: 1, x: 300, y: 300 } }))).toEqual({ width: 1200, height: 800, dpi: 300 });
    expect(jpegFacts(jpegOf(1200, 800, { jfif: { units: 2, x: 118, y: 118 } })).dpi).toBe(299.7);
    expect(jpegFacts(jpegOf(1200, 800, { jfif: { units: 1, x: 300, y: 150 } })).dpi).toBe(150);
  });

  it('fall back to the EXIF resolution when JFIF states only an aspect ratio, and to none without either', () => {
    expect(jpegFacts(jpegOf(640, 480, { jfif: { units: 0, x: 1, y: 1 }, exif: { x: 240, y: 240 } }))).toEqual({
      width: 640,
      height: 480,
      dpi: 240,
    });
    expect(jpegFacts(jpegOf(640, 480, { exif: { x: 118.11, y: 118.11, unit: 3 } })).dpi).toBe(300);
    expect(jpegFacts(jpegOf(640, 480, { jfif: { units: 0, x: 1, y: 1 } })).dpi).toBeNull();
    expect(jpegFacts(jpegOf(640, 480)).dpi).toBeNull();
  });

  it('refuse a file without a frame header before its scan, or one cut short', () => {
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0, 0xff, 0xd9]);
    expect(() => jpegFacts(noFrame)).toThrow(ImageHeaderError);
    expect(() => jpegFacts(jpegOf(10, 10).subarray(0, 6))).toThrow(ImageHeaderError);
  });
});

describe('TIFF headers', () => {
  it('read width, length and the resolution with its unit, in both byte orders', () => {
    expect(tiffFacts(tiffOf(2480, 3508, { x: 300 }))).toEqual({ width: 2480, height: 3508, dpi: 300 });
    expect(tiffFacts(tiffOf(2480, 3508, { x: 300, unit: 2, little: false }))).toEqual({ width: 2480, height: 3508, dpi: 300 });
    expect(tiffFacts(tiffOf(100, 100, { x: 28.35, unit: 3 })).dpi).toBe(72);
    expect(tiffFacts(tiffOf(100, 100, { x: 300, unit: 1 })).dpi).toBeNull();
    expect(tiffFacts(tiffOf(100, 100)).dpi).toBeNull();
  });

  it('refuse a TIFF without a pixel size', () => {
    expect(() => tiffFacts(tiffOf(0, 0, { x: 300 }))).toThrow(ImageHeaderError);
  });
});

describe('PDF facts (pdf-lib)', () => {
  it('count the pages and give each one its MediaBox, and its TrimBox when it has one, in mm', async () => {
    const facts = await pdfFacts(await pdfOf({ pages: 2, size: [148, 210], trim: true }));
    expect(facts).toMatchObject({ pages: 2, encrypted: false });
    expect(facts.sizes).toEqual([
      { page: 1, width_mm: 148, height_mm: 210, trim_width_mm: 142, trim_height_mm: 204 },
      { page: 2, width_mm: 148, height_mm: 210, trim_width_mm: 142, trim_height_mm: 204 },
    ]);
    expect((await pdfFacts(await pdfOf({ pages: 1 }))).sizes[0]).toMatchObject({ width_mm: 210, height_mm: 297, trim_width_mm: null });
  });

  it('see an encrypted PDF, and refuse bytes that are not one', async () => {
    expect(await pdfFacts(await encryptedPdfOf(2))).toMatchObject({ encrypted: true, pages: 2 });
    await expect(pdfFacts(Buffer.from('%PDF-1.7\nnot really a PDF'))).rejects.toThrow(PdfReadError);
  });
});

describe('the preflight of a PDF', () => {
  it('passes a readable, unencrypted PDF of one page size', async () => {
    const preflight = await preflightOf('application/pdf', await pdfOf({ pages: 3 }), NOW);
    expect(preflight).toMatchObject({
      status: 'passed',
      pages: 3,
      encrypted: false,
      width_px: null,
      dpi: null,
      checked_at: NOW.toISOString(),
    });
    expect(preflight.checks).toEqual([
      { code: 'encryption', result: 'passed', message: 'Not encrypted' },
      { code: 'pages', result: 'passed', message: '3 pages' },
      { code: 'page_size', result: 'passed', message: 'Every page is 210 × 297 mm' },
    ]);
    expect(preflight.page_sizes).toHaveLength(3);
  });

  it('warns of mixed page sizes, naming each with its page count', async () => {
    const document = await PDFDocument.load(await pdfOf({ pages: 2 }));
    document.addPage([148 * (72 / 25.4), 210 * (72 / 25.4)]);
    const preflight = await preflightOf('application/pdf', await document.save(), NOW);
    expect(preflight.status).toBe('warnings');
    expect(preflight.checks).toContainEqual({
      code: 'page_size',
      result: 'warning',
      message: 'Mixed page sizes: 210 × 297 mm (2 pages), 148 × 210 mm (1 page)',
    });
  });

  it('compares the trimmed size when pages have a TrimBox, within 1 mm', () => {
    const page = (width: number, height: number, trim?: [number, number]) => ({
      page: 1,
      width_mm: width,
      height_mm: height,
      trim_width_mm: trim?.[0] ?? null,
      trim_height_mm: trim?.[1] ?? null,
    });
    expect(pageSizeGroups([page(216, 303, [210, 297]), page(210, 297), page(210.6, 297.4)])).toEqual([
      { width: 210, height: 297, pages: 3 },
    ]);
    expect(pageSizeGroups([page(210, 297), page(297, 210)])).toHaveLength(2);
  });

  it('fails an encrypted PDF, one without pages and one that cannot be read', async () => {
    const encrypted = await preflightOf('application/pdf', await encryptedPdfOf(), NOW);
    expect(encrypted).toMatchObject({ status: 'failed', encrypted: true, pages: 1 });
    expect(encrypted.checks).toContainEqual(expect.objectContaining({ code: 'encryption', result: 'failed' }));

    const blank = await PDFDocument.create();
    const empty = await preflightOf('application/pdf', await blank.save({ addDefaultPage: false }), NOW);
    expect(empty).toMatchObject({ status: 'failed', pages: 0, page_sizes: [] });
    expect(empty.checks).toContainEqual({ code: 'pages', result: 'failed', message: 'The PDF has no pages' });

    const broken = await preflightOf('application/pdf', Buffer.from('%PDF-1.4\n%%EOF'), NOW);
    expect(broken).toMatchObject({ status: 'failed', pages: null, encrypted: null });
    expect(broken.checks).toEqual([{ code: 'readable', result: 'failed', message: expect.stringContaining('could not be') }]);
  });

  it(`lists at most the first ${MAX_LISTED_PAGES} pages, counting and comparing them all`, async () => {
    const document = await PDFDocument.create();
    for (let index = 0; index < MAX_LISTED_PAGES; index++) document.addPage([595, 842]);
    document.addPage([420, 595]);
    const preflight = await preflightOf('application/pdf', await document.save(), NOW);
    expect(preflight.pages).toBe(MAX_LISTED_PAGES + 1);
    expect(preflight.page_sizes).toHaveLength(MAX_LISTED_PAGES);
    expect(preflight.status).toBe('warnings');
  });
});

describe('the preflight of an image', () => {
  it('passes 300 dpi and more, with the size it prints at', async () => {
    const preflight = await preflightOf('image/png', pngOf(2480, 10, 300), NOW);
    expect(preflight).toMatchObject({ status: 'passed', width_px: 2480, height_px: 10, dpi: 300, pages: null });
    expect(preflight.checks).toEqual([{ code: 'resolution', result: 'passed', message: '2480 × 10 px at 300 dpi (210 × 0.8 mm)' }]);
  });

  it('warns under 300 dpi, and when the file states no resolution, saying so', async () => {
    const low = await preflightOf('image/jpeg', jpegOf(720, 720, { jfif: { units: 1, x: 72, y: 72 } }), NOW);
    expect(low).toMatchObject({ status: 'warnings', dpi: 72 });
    expect(low.checks[0]!.message).toContain('under the 300 dpi print needs');
    const unknown = await preflightOf('image/tiff', tiffOf(300, 300), NOW);
    expect(unknown).toMatchObject({ status: 'warnings', dpi: null, width_px: 300 });
    expect(unknown.checks[0]!.message).toContain('the file states no resolution');
  });

  it('fails a header that cannot be read', async () => {
    const preflight = await preflightOf('image/png', pngOf(4, 4).subarray(0, 24), NOW);
    expect(preflight).toMatchObject({ status: 'failed', width_px: null });
    expect(preflight.checks[0]).toMatchObject({ code: 'readable', result: 'failed' });
  });
});

describe('the preflight of other types', () => {
  it('skips SVG, PostScript and ZIP, saying that no print checks apply', async () => {
    for (const [type, name] of [
      ['image/svg+xml', 'SVG'],
      ['application/postscript', 'PostScript'],
      ['application/zip', 'ZIP'],
    ] as const) {
      const preflight = await preflightOf(type, new Uint8Array(), NOW);
      expect(preflight).toMatchObject({ status: 'skipped', checked_at: NOW.toISOString() });
      expect(preflight.checks).toEqual([
        { code: 'type', result: 'warning', message: `Not checked: no print checks apply to ${name} files` },
      ]);
    }
  });

  it('sums checks up: any failure fails, else any warning warns', () => {
    const check = (result: 'passed' | 'warning' | 'failed') => ({ code: 'x', result, message: '' });
    expect(statusOf([check('passed'), check('warning'), check('failed')])).toBe('failed');
    expect(statusOf([check('passed'), check('warning')])).toBe('warnings');
    expect(statusOf([check('passed')])).toBe('passed');
  });
});

describe('the preflight worker', () => {
  const source = workers.find((worker) => worker.id === 'FilePreflight')!.source as StreamSource;
  const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', image?: Record<string, unknown>): DynamoDBRecord =>
    ({
      eventName,
      dynamodb: { Keys: { pk: { S: 'T#acc_1#test#FILE#7' }, sk: { S: 'FILE' } }, ...(image ? { NewImage: image } : {}) },
    }) as DynamoDBRecord;
  const fileImage = (status: string, preflight?: string, started?: string) => ({
    entity: { S: 'FILE' },
    status: { S: status },
    ...(preflight ? { preflight: { M: { status: { S: preflight }, checks: { L: [] } } } } : {}),
    ...(started ? { worker_started_at: { S: started } } : {}),
  });

  it('is fed only records of files with work for it, and not of one whose work has started (its filter pattern)', () => {
    expect(matchesFilter(source.filter, record('INSERT', fileImage('ready', 'pending')))).toBe(true);
    expect(matchesFilter(source.filter, record('MODIFY', fileImage('ready', 'pending')))).toBe(true);
    // A large upload its completion handed over.
    expect(matchesFilter(source.filter, record('MODIFY', fileImage('processing', 'pending')))).toBe(true);
    expect(matchesFilter(source.filter, record('MODIFY', fileImage('processing')))).toBe(false);
    expect(matchesFilter(source.filter, record('MODIFY', fileImage('ready', 'passed')))).toBe(false);
    expect(matchesFilter(source.filter, record('MODIFY', fileImage('ready', 'skipped')))).toBe(false);
    expect(matchesFilter(source.filter, record('INSERT', fileImage('pending_upload')))).toBe(false);
    expect(matchesFilter(source.filter, record('REMOVE'))).toBe(false);
    expect(matchesFilter(source.filter, record('INSERT', { entity: { S: 'EVENT' }, status: { S: 'ready' } }))).toBe(false);
    // The worker's own mark before its work: its write does not invoke it again.
    expect(matchesFilter(source.filter, record('MODIFY', fileImage('ready', 'pending', '2026-03-01T10:00:00.000Z')))).toBe(false);
  });

  it('matches `exists: false` when the field, or an object on its path, is absent', () => {
    const pattern = { a: { b: [{ exists: false as const }] }, c: ['x'] };
    expect(matchesFilter(pattern, { c: 'x' })).toBe(true);
    expect(matchesFilter(pattern, { a: {}, c: 'x' })).toBe(true);
    expect(matchesFilter(pattern, { a: { b: 'y' }, c: 'x' })).toBe(false);
    expect(matchesFilter(pattern, { c: 'y' })).toBe(false);
  });

  it('records a check that throws on a file as failed, saying what it said', async () => {
    const preflight = await runCheck('application/pdf', new Uint8Array(), NOW, () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    expect(preflight).toMatchObject({ status: 'failed', checked_at: NOW.toISOString() });
    expect(preflight.checks).toEqual([
      { code: 'readable', result: 'failed', message: "The file could not be checked: Cannot read properties of undefined (reading 'x')" },
    ]);
  });

  it("reads the tenant and the file's id from the key, and works only on a ready file with a pending preflight", () => {
    expect(fileOfKey('T#acc_1#test#FILE#7')).toEqual({ tenant: { accountId: 'acc_1', mode: 'test' }, id: 7 });
    expect(fileOfKey('T#acc_1#live#ORDER#7')).toBeUndefined();
    expect(fileOfKey(undefined)).toBeUndefined();
    const file = { status: 'ready', content_type: 'application/pdf', preflight: { status: 'pending' } } as FileRecord;
    expect(awaitsPreflight(file)).toBe(true);
    expect(awaitsPreflight({ ...file, preflight: { ...file.preflight!, status: 'passed' } })).toBe(false);
    expect(awaitsPreflight({ ...file, status: 'processing' })).toBe(false);
    expect(awaitsPreflight(undefined)).toBe(false);
    expect(awaitsVerification({ ...file, status: 'processing' })).toBe(true);
    expect(awaitsVerification({ ...file, status: 'processing', preflight: null })).toBe(false);
    expect(awaitsVerification(file)).toBe(false);
  });

  it('keeps a TTL on the records of uploads not ready yet — pending and processing — and none on others', () => {
    const created = '2026-03-01T10:00:00.000Z';
    const base = {
      id: 7,
      purpose: 'artwork',
      customer_id: null,
      order_id: null,
      created_at: created,
      preflight: null,
    } as unknown as FileRecord;
    const expires = Date.parse(created) / 1000 + PENDING_TTL_SECONDS;
    const tenant = { accountId: 'acc_1', mode: 'test' as const };
    expect(fileItem(tenant, { ...base, status: 'pending_upload' }).expires_at).toBe(expires);
    expect(fileItem(tenant, { ...base, status: 'processing' }).expires_at).toBe(expires);
    expect(fileItem(tenant, { ...base, status: 'ready' }).expires_at).toBeUndefined();
    expect(fileItem(tenant, { ...base, status: 'rejected' }).expires_at).toBeUndefined();
  });
});
