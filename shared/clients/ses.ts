import { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '#shared/config';
import { withoutSdkLogging } from './quiet';

let client: SESv2Client | undefined;

/**
 * One SES (v2 API) client per process, created on first use, in the configured region: the sender
 * identity is verified per region, and the function's own region is the one CDK grants it in. The
 * SDK's standard retries (3 attempts, backoff) cover throttling (`TooManyRequestsException`); only
 * shared/mail/send.ts uses it, and never locally (mail goes to `.eml` files there).
 */
export function ses(): SESv2Client {
  client ??= withoutSdkLogging(new SESv2Client({ maxAttempts: 3, region: config().region }));
  return client;
}

/** For fault-injection tests: swap the client. */
export function setSes(next: SESv2Client | undefined): void {
  client = next;
}
