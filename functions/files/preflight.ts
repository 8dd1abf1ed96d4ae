import type { DynamoDBStreamEvent } from 'aws-lambda';
import { preflightRecords } from '#shared/files/preflight/worker';

/**
 * Table stream (ready files whose preflight is pending) → the print checks recorded on the file.
 * Throws on a failure to read or write, so the record is retried per its mapping (shared/workers.ts).
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await preflightRecords(event.Records);
};
