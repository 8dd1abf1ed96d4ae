import { S3Client } from '@aws-sdk/client-s3';
import { config } from '#shared/config';
import { withoutSdkLogging } from './quiet';

let client: S3Client | undefined;

/**
 * One S3 client per process, created on first use (endpoints come from `AWS_ENDPOINT_URL_S3`
 * locally, where path-style addressing lets a `localhost` endpoint work as well as an IP address).
 */
export function s3(): S3Client {
  client ??= withoutSdkLogging(new S3Client({ maxAttempts: 3, ...(config().localMode ? { forcePathStyle: true } : {}) }));
  return client;
}

/** For fault-injection tests: swap the client. */
export function setS3(next: S3Client | undefined): void {
  client = next;
}
