/** Files for the file tests: real PDFs (pdf-lib), tiny images, and uploads as a client sends them. */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { inject } from 'vitest';
import type { Tenant } from '#shared/auth/principal';
import { s3 } from '#shared/clients/s3';
import { config } from '#shared/config';
import type { BodyOf } from './api-types';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Points per millimetre (PDF user space). */
const PT_PER_MM = 72 / 25.4;

/**
 * A PDF of `pages` pages of `size` millimetres (A4 by default), padded to about `padTo` bytes with
 * an attachment of random bytes (incompressible, so the file really is that large).
 */
export async function pdfOf(
  options: { pages?: number; size?: [number, number]; padTo?: number; trim?: boolean } = {},
): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const [width, height] = options.size ?? [210, 297];
  for (let index = 0; index < (options.pages ?? 1); index++) {
    const page = document.addPage([width * PT_PER_MM, height * PT_PER_MM]);
    page.drawText(`Page ${index + 1}`, { x: 50, y: 50, size: 24 });
    if (options.trim) page.setTrimBox(3 * PT_PER_MM, 3 * PT_PER_MM, (width - 6) * PT_PER_MM, (height - 6) * PT_PER_MM);
  }
  if (options.padTo) await document.attach(randomBytes(options.padTo), 'padding.bin', { mimeType: 'application/octet-stream' });
  return document.save({ useObjectStreams: false });
}

/** A PNG of `width` × `height` grey pixels; with `dpi`, a pHYs chunk stating it. */
export function pngOf(width: number, height: number, dpi?: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0; // filter type 0
  const physical = Buffer.alloc(9);
  if (dpi) {
    const perMetre = Math.round(dpi / 0.0254);
    physical.writeUInt32BE(perMetre, 0);
    physical.writeUInt32BE(perMetre, 4);
    physical[8] = 1; // unit: metre
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(dpi ? [chunk('pHYs', physical)] : []),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A `multipart/form-data` upload, as a browser sends it. */
export async function uploadForm(
  key: string,
  file: { bytes: Uint8Array; name: string; type: string },
  fields: Record<string, string> = {},
): Promise<{ status: number; body: BodyOf<'POST', '/v1/files'>; headers: Headers }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([file.bytes], { type: file.type }), file.name);
  const response = await fetch(`${inject('fixtures').api}/v1/files`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** The objects of a tenant in the files bucket (final and pending). */
export async function storedObjects(tenant: Tenant): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of [`files/${tenant.accountId}/${tenant.mode}/`, `tmp/uploads/${tenant.accountId}/${tenant.mode}/`]) {
    const listed = await s3().send(new ListObjectsV2Command({ Bucket: config().filesBucket, Prefix: prefix }));
    keys.push(...(listed.Contents ?? []).map((object) => object.Key!));
  }
  return keys;
}

/** Sends a presigned POST form (the fields, then the file) to S3, as a browser would. */
export async function postToS3(upload: { url: string; fields: Record<string, string> }, bytes: Uint8Array, name = 'upload.bin') {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.set(name, value);
  form.set('file', new Blob([bytes]), name);
  const response = await fetch(upload.url, { method: 'POST', body: form });
  return { status: response.status, text: await response.text() };
}
