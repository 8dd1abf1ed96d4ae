/**
 * The files bucket: objects are keyed by the file's id only (shared/db/keys.ts `fileKeys`).
 * Uploads through the API are put directly; large ones arrive by a presigned POST under `tmp/`
 * and are copied to their final key once checked. Downloads are presigned GETs.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  type HeadObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { s3 } from '#shared/clients/s3';
import { config } from '#shared/config';
import { attachmentDisposition } from './filename';
import { PRESIGNED_SECONDS } from './limits';

const bucket = () => config().filesBucket;

export async function putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes, ContentType: contentType }));
}

export async function deleteObject(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
}

/** The object's size and (on AWS, for a checksummed upload) its SHA-256, or undefined when it is not there. */
export async function headObject(key: string): Promise<{ size: number; sha256: string | undefined } | undefined> {
  let head: HeadObjectCommandOutput;
  try {
    head = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key, ChecksumMode: 'ENABLED' }));
  } catch (error) {
    if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound') return undefined;
    throw error;
  }
  // A whole-object SHA-256 is base64 without a `-<parts>` suffix (multipart checksums have one).
  const checksum =
    head.ChecksumSHA256 && !head.ChecksumSHA256.includes('-') ? Buffer.from(head.ChecksumSHA256, 'base64').toString('hex') : undefined;
  return { size: Number(head.ContentLength ?? 0), sha256: checksum };
}

/** The object's first `bytes` bytes (a ranged GET): enough to tell its type. */
export async function readHead(key: string, bytes: number): Promise<Uint8Array> {
  const object = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${bytes - 1}` }));
  return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
}

/** The whole object, as bytes (preflight, within its size bound). */
export async function readObject(key: string): Promise<Uint8Array> {
  const object = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
}

const isMissing = (error: unknown) => ['NoSuchKey', 'NotFound'].includes((error as { name?: string }).name ?? '');

/** The whole object, or undefined when there is none under the key (any other failure throws). */
export async function readObjectIfPresent(key: string): Promise<Uint8Array | undefined> {
  try {
    return await readObject(key);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The SHA-256 (hex) of the object, streamed through the hash without holding it in memory. */
export async function hashObject(key: string): Promise<string> {
  const object = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  const hash = createHash('sha256');
  for await (const chunk of object.Body as Readable) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function copyObject(from: string, to: string, contentType: string): Promise<void> {
  await s3().send(
    new CopyObjectCommand({
      Bucket: bucket(),
      Key: to,
      CopySource: `${bucket()}/${from.split('/').map(encodeURIComponent).join('/')}`,
      ContentType: contentType,
      MetadataDirective: 'REPLACE',
    }),
  );
}

export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
  expires_at: string;
  max_bytes: number;
}

/**
 * A presigned POST for exactly one object: the key and the content type fixed by the policy, the
 * size bounded to exactly `size` (`content-length-range`), and with a declared SHA-256 the
 * checksum S3 verifies while it receives the file (`x-amz-checksum-sha256`).
 */
export async function presignedPost(
  key: string,
  contentType: string,
  size: number,
  sha256: string | undefined,
  now = new Date(),
): Promise<PresignedPost> {
  const checksum = sha256 ? Buffer.from(sha256, 'hex').toString('base64') : undefined;
  const fields: Record<string, string> = {
    'Content-Type': contentType,
    ...(checksum ? { 'x-amz-checksum-algorithm': 'SHA256', 'x-amz-checksum-sha256': checksum } : {}),
  };
  const post = await createPresignedPost(s3(), {
    Bucket: bucket(),
    Key: key,
    Fields: fields,
    Conditions: [
      ['content-length-range', size, size],
      ['eq', '$Content-Type', contentType],
      ...(checksum
        ? [
            ['eq', '$x-amz-checksum-algorithm', 'SHA256'] as ['eq', string, string],
            ['eq', '$x-amz-checksum-sha256', checksum] as ['eq', string, string],
          ]
        : []),
    ],
    Expires: PRESIGNED_SECONDS,
  });
  return {
    url: post.url,
    fields: post.fields,
    expires_at: new Date(now.getTime() + PRESIGNED_SECONDS * 1000).toISOString(),
    max_bytes: size,
  };
}

/** A presigned GET that downloads the file under its name (`Content-Disposition: attachment`). */
export async function presignedDownload(
  key: string,
  contentType: string,
  filename: string,
  now = new Date(),
): Promise<{ url: string; expires_at: string }> {
  const url = await getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucket(),
      Key: key,
      ResponseContentDisposition: attachmentDisposition(filename),
      ResponseContentType: contentType,
    }),
    { expiresIn: PRESIGNED_SECONDS },
  );
  return { url, expires_at: new Date(now.getTime() + PRESIGNED_SECONDS * 1000).toISOString() };
}
