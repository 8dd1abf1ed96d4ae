import type { DynamoDBStreamEvent } from 'aws-lambda';
import { routeStreamRecords } from '#events/router';

/** Table stream → webhook deliveries. Throws on failure so the batch is retried (bisected) — never skipped. */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await routeStreamRecords(event.Records);
};
