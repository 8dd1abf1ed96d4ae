import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withoutSdkLogging } from './quiet';

let client: DynamoDBDocumentClient | undefined;
let base: DynamoDBClient | undefined;

/** The plain client under the document client (for libraries that marshal themselves). */
export function dynamoBase(): DynamoDBClient {
  // The document client shares this client's middleware stack, so it is quiet too.
  base ??= withoutSdkLogging(new DynamoDBClient({ maxAttempts: 3 }));
  return base;
}

/**
 * One document client per process, created on first use so that the local runner and tests can
 * set endpoints first. Endpoints come from the SDK's own `AWS_ENDPOINT_URL_DYNAMODB` variable.
 */
export function dynamo(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(dynamoBase(), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return client;
}

/** For fault-injection tests and benchmarks: swap the client. */
export function setDynamo(next: DynamoDBDocumentClient | undefined): void {
  client = next;
  if (!next) base = undefined;
}
