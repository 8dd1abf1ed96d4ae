/**
 * The files section: the preflight of a 50-page PDF in-process — the checks alone (pdf-lib's parse
 * and the page checks), and the deployed worker bundle invoked with a stream record against
 * DynamoDB Local and the S3 emulator (read the record, read the object, check, write) — and the
 * multipart upload throughput through the local gateway (a 4 MiB file, the API's limit, sent as a
 * browser sends it; the gateway passes it base64-encoded as API Gateway does).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { benchContext } from './latency';
import { distribution, round } from './stats';

export interface FileFigures {
  preflight: {
    pages: number;
    pdfBytes: number;
    status: string;
    checksMs: { p50: number; p90: number; n: number };
    workerMs: { p50: number; p90: number; n: number };
  };
  multipartUpload: { fileBytes: number; ms: { p50: number; p90: number; n: number }; mbPerSecondAtP50: number };
}

/** A greyscale PNG of random pixels (incompressible, like a photograph's detail). */
function noisePng(size: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = randomBytes((size + 1) * size);
  for (let row = 0; row < size; row++) rows[row * (size + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 50-page A4 brochure as layout programs write them: text and an image of its own on every page, object streams. */
async function brochure(pages: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index++) {
    const page = document.addPage([595.28, 841.89]);
    page.setTrimBox(8.5, 8.5, 578.28, 824.89);
    const image = await document.embedPng(noisePng(400));
    page.drawImage(image, { x: 50, y: 300, width: 495, height: 495 });
    page.drawText(`Page ${index + 1}: spring collection`, { x: 50, y: 250, size: 24, font });
  }
  return document.save();
}

/** A PDF of about `bytes` bytes (an incompressible attachment), at most that. */
async function paddedPdf(bytes: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage([595.28, 841.89]).drawText('Upload', { x: 50, y: 50, size: 24 });
  await document.attach(randomBytes(bytes - 4096), 'padding.bin', { mimeType: 'application/octet-stream' });
  const pdf = await document.save({ useObjectStreams: false });
  if (pdf.length > bytes) throw new Error(`padded PDF is ${pdf.length} bytes, over ${bytes}`);
  return pdf;
}

const spread = (samples: number[]) => {
  const figures = distribution(samples);
  return { p50: round(figures.p50), p90: round(figures.p90), n: figures.n };
};

export async function benchFiles(bundleFile: (id: string) => string): Promise<FileFigures> {
  const { createAccount, setPlan } = await import('#shared/accounts/service');
  const { putObject } = await import('#shared/files/objects');
  const { insertFile } = await import('#shared/files/repository');
  const { nextId } = await import('#shared/db/counters');
  const { preflightOf } = await import('#shared/files/preflight/checks');
  const { MAX_MULTIPART_FILE_BYTES } = await import('#shared/files/limits');
  const { fileKeys } = await import('#shared/db/keys');
  const { readFile } = await import('#shared/files/repository');
  const { startGateway } = await import('#local-aws/gateway');

  const created = await createAccount({ name: 'Bench Files', plan: 'enterprise' });
  await setPlan(created.account.id, 'enterprise', 10_000_000);
  const tenant = { accountId: created.account.id, mode: 'test' as const };

  const storedPdf = async (bytes: Uint8Array) => {
    const id = await nextId(tenant, 'file');
    const at = new Date().toISOString();
    await putObject(fileKeys.object(tenant, id), bytes, 'application/pdf');
    await insertFile(tenant, {
      id,
      filename: 'brochure.pdf',
      content_type: 'application/pdf',
      declared_type: 'application/pdf',
      size: bytes.length,
      sha256: null,
      purpose: 'artwork',
      order_id: null,
      customer_id: null,
      status: 'ready',
      worker_started_at: null,
      rejection: null,
      preflight: {
        status: 'pending',
        checks: [],
        pages: null,
        page_sizes: [],
        encrypted: null,
        width_px: null,
        height_px: null,
        dpi: null,
        checked_at: null,
      },
      created_at: at,
      updated_at: at,
      version: 1,
    });
    return { id };
  };

  // 1. Preflight of a 50-page PDF: the checks alone, then the worker bundle end to end.
  const PAGES = 50;
  const pdf = await brochure(PAGES);
  const checks: number[] = [];
  let status = '';
  for (let run = 0; run < 12; run++) {
    const started = performance.now();
    const result = await preflightOf('application/pdf', pdf);
    checks.push(performance.now() - started);
    status = result.status;
    if (result.pages !== PAGES) throw new Error(`preflight counted ${result.pages} pages`);
  }
  const worker = (await import(pathToFileURL(bundleFile('worker.FilePreflight')).href)).handler as (
    event: DynamoDBStreamEvent,
    context: unknown,
  ) => Promise<void>;
  const workerRuns: number[] = [];
  for (let run = 0; run < 8; run++) {
    // Stored as a completed presigned upload leaves it (the brochure is over the multipart limit): object, then record.
    const file = await storedPdf(pdf);
    const { pk, sk } = fileKeys.file(tenant, file.id);
    const event = { Records: [{ eventName: 'INSERT', dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } } } }] } as DynamoDBStreamEvent;
    const started = performance.now();
    await worker(event, benchContext('worker.FilePreflight'));
    workerRuns.push(performance.now() - started);
    const checked = await readFile(tenant, file.id, true);
    if (checked?.preflight?.pages !== PAGES) throw new Error(`the worker recorded ${JSON.stringify(checked?.preflight)}`);
  }

  // 2. Multipart uploads of 4 MiB through the local gateway.
  const { keys } = created;
  const upload = await paddedPdf(MAX_MULTIPART_FILE_BYTES);
  const gateway = await startGateway({ port: 0, debugHeaders: false });
  const uploads: number[] = [];
  try {
    for (let run = 0; run < 10; run++) {
      const form = new FormData();
      form.set('purpose', 'artwork');
      form.set('file', new Blob([upload], { type: 'application/pdf' }), 'poster.pdf');
      const started = performance.now();
      const response = await fetch(`${gateway.url}/v1/files`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.secret_test.key}` },
        body: form,
      });
      const text = await response.text();
      uploads.push(performance.now() - started);
      if (response.status !== 201) throw new Error(`upload: ${response.status} ${text.slice(0, 200)}`);
    }
  } finally {
    await gateway.close();
  }
  const uploadSpread = spread(uploads);
  return {
    preflight: { pages: PAGES, pdfBytes: pdf.length, status, checksMs: spread(checks), workerMs: spread(workerRuns) },
    multipartUpload: {
      fileBytes: upload.length,
      ms: uploadSpread,
      mbPerSecondAtP50: round(upload.length / 1024 / 1024 / (uploadSpread.p50 / 1000), 1),
    },
  };
}
