/**
 * The documents bucket as the document routes use it: read a stored document, check that one
 * exists, store one, and sign a GET of one for 15 minutes. Keys come from shared/db/keys.ts
 * (`invoiceKeys.document`, `quoteKeys.document`): tenant first, then resource and version.
 */
import { GetObjectCommand, HeadObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3 } from '#shared/clients/s3';
import { config } from '#shared/config';

/** How long a presigned document URL is valid. */
export const PRESIGNED_URL_SECONDS = 15 * 60;

export async function readStored(key: string): Promise<Uint8Array | undefined> {
  try {
    const object = await s3().send(new GetObjectCommand({ Bucket: config().documentsBucket, Key: key }));
    return await object.Body!.transformToByteArray();
  } catch (error) {
    if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

export async function isStored(key: string): Promise<boolean> {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: config().documentsBucket, Key: key }));
    return true;
  } catch (error) {
    if (
      (error as { name?: string }).name === 'NotFound' ||
      (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
    ) {
      return false;
    }
    throw error;
  }
}

export async function store(key: string, bytes: Uint8Array, contentType: string, filename: string): Promise<void> {
  await s3().send(
    new PutObjectCommand({
      Bucket: config().documentsBucket,
      Key: key,
      Body: bytes,
      ContentType: contentType,
      ContentDisposition: `inline; filename="${filename}"`,
    }),
  );
}

/** A presigned GET of a stored document, served with its content type and file name; and when the URL expires. */
export async function presignedGet(
  key: string,
  contentType: string,
  filename: string,
  now = new Date(),
): Promise<{ url: string; expires_at: string; filename: string }> {
  const url = await getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: config().documentsBucket,
      Key: key,
      ResponseContentDisposition: `inline; filename="${filename}"`,
      ResponseContentType: contentType,
    }),
    { expiresIn: PRESIGNED_URL_SECONDS },
  );
  return { url, expires_at: new Date(now.getTime() + PRESIGNED_URL_SECONDS * 1000).toISOString(), filename };
}
