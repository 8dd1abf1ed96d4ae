import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_CHECK_MESSAGE_LENGTH, ParseGuard, PdfLimitError, PREFLIGHT_LIMITS } from '#shared/files/preflight/bounds';
import { mixedSizesMessage, pageSizeGroups, preflightOf } from '#shared/files/preflight/checks';
import { pdfFacts } from '#shared/files/preflight/pdf';
import { pdfOf } from '#test/support/files';
import {
  brokenObjectsPdf,
  cyclicPageTreePdf,
  digitRunPdf,
  inflatingPdf,
  manyPagesPdf,
  nestedPdf,
  rawPdf,
  sharedPageTreePdf,
  streamBody,
} from '#test/support/preflight-files';
import { DOCUMENT_TEST_TIMEOUT_MS } from '#test/support/timeouts';

// A document test: its own timeout (test/support/timeouts.ts).
vi.setConfig({ testTimeout: DOCUMENT_TEST_TIMEOUT_MS });

/**
 * Preflight of hostile PDFs (docs/files.md#bounds): every file ends in bounded time and memory,
 * with a result that says which bound it crossed — failed when the file is built to be unreadable,
 * skipped when it is only larger than preflight reads — and messages of bounded length.
 */
const NOW = new Date('2026-03-01T10:00:00.000Z');
const MiB = 1024 * 1024;

/** The bound a PDF crosses (the error pdfFacts throws), and how long it took. */
async function crossed(bytes: Uint8Array, limits = PREFLIGHT_LIMITS, clock = Date.now) {
  const started = performance.now();
  const error = await pdfFacts(bytes, limits, clock).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return { error: error as PdfLimitError | undefined, ms: performance.now() - started };
}

const expectBounded = (preflight: { checks: { message: string }[] }) => {
  for (const check of preflight.checks) expect(check.message.length).toBeLessThanOrEqual(MAX_CHECK_MESSAGE_LENGTH);
};

afterEach(() => vi.restoreAllMocks());

describe('the guard', () => {
  it('stops once the time is up, and throws the same bound at every later step', () => {
    let now = 0;
    const guard = new ParseGuard({ ...PREFLIGHT_LIMITS, ms: 100 }, () => now);
    for (let step = 0; step < 5000; step++) guard.tick();
    now = 101;
    expect(() => {
      for (let step = 0; step < 5000; step++) guard.tick();
    }).toThrow(PdfLimitError);
    expect(guard.stopped).toMatchObject({ limit: 'ms', outcome: 'skipped' });
    expect(() => guard.enter()).toThrow(guard.stopped!);
  });

  it('counts objects, nesting and skipped objects against their bounds', () => {
    const guard = new ParseGuard({ ...PREFLIGHT_LIMITS, depth: 3, invalidObjects: 2 });
    guard.enter();
    guard.enter();
    guard.enter();
    expect(() => guard.enter()).toThrow(/more than 3 levels deep/);

    const broken = new ParseGuard({ ...PREFLIGHT_LIMITS, invalidObjects: 2 });
    for (let index = 0; index < 2; index++) {
      broken.enter();
      broken.leave(true);
    }
    broken.enter();
    expect(() => broken.leave(true)).toThrow(/More than 2 objects of the PDF cannot be read/);

    const many = new ParseGuard({ ...PREFLIGHT_LIMITS, objects: 10 });
    for (let index = 0; index < 10; index++) {
      many.enter();
      many.leave(false);
    }
    expect(() => many.enter()).toThrow(expect.objectContaining({ limit: 'objects', outcome: 'skipped' }));
  });

  it('gives each stream what is left of the file’s inflation allowance', () => {
    const guard = new ParseGuard({ ...PREFLIGHT_LIMITS, streamBytes: 10, inflatedBytes: 25 });
    expect(guard.allowance()).toBe(10);
    guard.spend(10);
    guard.spend(10);
    expect(guard.allowance()).toBe(5);
    expect(() => guard.overInflated()).toThrow(expect.objectContaining({ limit: 'inflatedBytes' }));
  });
});

describe('hostile PDFs', () => {
  it('stops an object stream that inflates a thousandfold (311 KB to 300 MiB) at 32 MB, before it finishes', async () => {
    const bomb = inflatingPdf(300);
    expect(bomb.length).toBeLessThan(400_000);
    const { error, ms } = await crossed(bomb);
    expect(error).toBeInstanceOf(PdfLimitError);
    expect(error).toMatchObject({ limit: 'streamBytes', outcome: 'failed' });
    expect(error!.message).toBe('A compressed object stream of the PDF inflates to more than 32 MB: it is not read');
    // Inflating 300 MiB whole takes seconds and 300 MiB more memory; stopped at 32 MB it is a few tens of ms.
    expect(ms).toBeLessThan(1500);
    const preflight = await preflightOf('application/pdf', bomb, NOW);
    expect(preflight).toMatchObject({ status: 'failed', pages: null, page_sizes: [] });
    expect(preflight.checks).toEqual([{ code: 'readable', result: 'failed', message: error!.message }]);
  });

  it('bounds the inflation of all streams together, and reads a file whose streams stay within both bounds', async () => {
    const limits = { ...PREFLIGHT_LIMITS, streamBytes: 4 * MiB, inflatedBytes: 6 * MiB };
    expect((await crossed(inflatingPdf(3, 3), limits)).error).toMatchObject({ limit: 'inflatedBytes', outcome: 'failed' });
    // pdf-lib's own object streams (useObjectStreams, the default) inflate within them: read as before.
    const compressed = await (await PDFDocument.load(await pdfOf({ pages: 3 }))).save();
    expect(await pdfFacts(compressed, limits)).toMatchObject({ pages: 3, encrypted: false });
  });

  it('skips a PDF of 20,000 pages: more than the 10,000 preflight reads, saying what its page tree counts', async () => {
    const { error, ms } = await crossed(manyPagesPdf(20_000));
    expect(error).toMatchObject({ limit: 'pages', outcome: 'skipped' });
    expect(error!.message).toBe('Not checked: more than 10,000 pages (its page tree counts 20,000); preflight reads at most 10,000');
    expect(ms).toBeLessThan(5000);
    const preflight = await preflightOf('application/pdf', manyPagesPdf(20_000), NOW);
    expect(preflight).toMatchObject({ status: 'skipped', pages: null, page_sizes: [] });
    expect(preflight.checks).toEqual([{ code: 'limits', result: 'warning', message: error!.message }]);
  });

  it('reads 10,000 pages in three sizes and summarises them in one bounded message', async () => {
    const preflight = await preflightOf('application/pdf', manyPagesPdf(10_000), NOW);
    expect(preflight).toMatchObject({ status: 'warnings', pages: 10_000 });
    expect(preflight.page_sizes).toHaveLength(500);
    expect(preflight.checks).toContainEqual({ code: 'pages', result: 'passed', message: '10,000 pages' });
    expect(preflight.checks).toContainEqual({
      code: 'page_size',
      result: 'warning',
      message: 'Mixed page sizes: 148 × 210 mm (1 page), 210 × 148 mm (1 page), 210 × 297 mm (9,998 pages)',
    });
  });

  it('fails a page tree that loops, and one whose nodes are shared (2^40 pages from 4 KB), at once', async () => {
    const loop = await crossed(cyclicPageTreePdf());
    expect(loop.error).toMatchObject({ limit: 'pageTree', outcome: 'failed' });
    expect(loop.error!.message).toBe("The PDF's page tree is not a tree: a node is reached twice (it loops, or is shared)");
    const shared = await crossed(sharedPageTreePdf(40));
    expect(shared.error).toMatchObject({ limit: 'pageTree', outcome: 'failed' });
    expect(shared.ms).toBeLessThan(1000);
    expectBounded(await preflightOf('application/pdf', sharedPageTreePdf(40), NOW));
  });

  it('fails arrays nested 100,000 deep, and a page tree deeper than its bound', async () => {
    const nested = await crossed(nestedPdf(100_000));
    expect(nested.error).toMatchObject({ limit: 'depth', outcome: 'failed' });
    expect(nested.error!.message).toBe('The PDF nests arrays or dictionaries more than 100 levels deep');
    const chain = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      ...Array.from({ length: 80 }, (_, level) => `<< /Type /Pages /Count 1 /Kids [${level + 3} 0 R] /MediaBox [0 0 595 842] >>`),
      '<< /Type /Page >>',
    ]);
    expect((await crossed(chain)).error).toMatchObject({ limit: 'pageTree', message: "The PDF's page tree is more than 64 levels deep" });
  });

  it('reads junk of 200,000 digits in linear time, and stops any read at its time bound', async () => {
    // pdf-lib alone reads the rest of the run from each of its bytes: 2 × 10¹⁰ steps.
    const junk = digitRunPdf(200_000);
    const read = await crossed(junk);
    expect(read.error).toBeUndefined();
    expect(read.ms).toBeLessThan(3000);
    // A clock that moves a millisecond each time it is read: the guard reads it every 1,024 steps.
    let now = 0;
    const slow = await crossed(manyPagesPdf(5000), { ...PREFLIGHT_LIMITS, ms: 1 }, () => now++);
    expect(slow.error).toMatchObject({ limit: 'ms', outcome: 'skipped', message: 'Not checked: reading the PDF took longer than 0.001 s' });
  });

  it('fails a PDF of hundreds of broken objects after 100, with a bounded number of warnings', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { error } = await crossed(brokenObjectsPdf(1000));
    expect(error).toMatchObject({ limit: 'invalidObjects', outcome: 'failed', message: 'More than 100 objects of the PDF cannot be read' });
    expect(warn.mock.calls.length).toBeLessThanOrEqual(2 * 101 + 2);
    // Object streams that cannot be decoded count among them.
    const undecodable = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
      ...Array.from({ length: 200 }, () => streamBody('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', Buffer.from('not deflate'))),
    ]);
    expect((await crossed(undecodable)).error).toMatchObject({ limit: 'invalidObjects' });
  });

  it("does not decode a cross-reference stream's table, whatever size it claims", async () => {
    const liar = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
      streamBody('/Type /XRef /Size 2000000000 /W [1 4 2] /Root 1 0 R', new Uint8Array(7)),
    ]);
    const { error, ms } = await crossed(liar);
    expect(error).toBeUndefined();
    expect(ms).toBeLessThan(1000);
    expect(await pdfFacts(liar)).toMatchObject({ pages: 1 });
  });

  it('refuses a name longer than its bound', async () => {
    const named = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /${'N'.repeat(300)} 1 >>`,
    ]);
    expect((await crossed(named)).error).toMatchObject({ limit: 'nameBytes', outcome: 'failed' });
  });
});

describe('page size messages', () => {
  const page = (width: number, height: number) => ({
    page: 1,
    width_mm: width,
    height_mm: height,
    trim_width_mm: null,
    trim_height_mm: null,
  });

  it('name every size up to five, in order of appearance', () => {
    expect(mixedSizesMessage(pageSizeGroups([page(210, 297), page(210, 297), page(148, 210)]))).toBe(
      'Mixed page sizes: 210 × 297 mm (2 pages), 148 × 210 mm (1 page)',
    );
  });

  it('name the five most common of more, and count the rest', () => {
    const sizes = [
      ...Array.from({ length: 9990 }, () => page(210, 297)),
      ...Array.from({ length: 10 }, (_, index) => page(100 + index * 10, 100)),
    ];
    const message = mixedSizesMessage(pageSizeGroups(sizes));
    expect(message).toBe(
      'Mixed page sizes (11 sizes): 210 × 297 mm (9,990 pages), 100 × 100 mm (1 page), 110 × 100 mm (1 page), 120 × 100 mm (1 page), ' +
        '130 × 100 mm (1 page), and 6 more sizes (6 pages)',
    );
    // 10,000 sizes, one a page: still one short message.
    const all = mixedSizesMessage(pageSizeGroups(Array.from({ length: 10_000 }, (_, index) => page(100 + index * 2, 100))));
    expect(all.length).toBeLessThanOrEqual(MAX_CHECK_MESSAGE_LENGTH);
    expect(all).toContain('and 9,995 more sizes (9,995 pages)');
  });
});
