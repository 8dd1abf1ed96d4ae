import { SQSClient } from '@aws-sdk/client-sqs';
import { withoutSdkLogging } from './quiet';

let client: SQSClient | undefined;

/** One SQS client per process, created on first use (endpoints come from `AWS_ENDPOINT_URL_SQS` locally). */
export function sqs(): SQSClient {
  client ??= withoutSdkLogging(new SQSClient({ maxAttempts: 3 }));
  return client;
}

/** For fault-injection tests: swap the client. */
export function setSqs(next: SQSClient | undefined): void {
  client = next;
}
