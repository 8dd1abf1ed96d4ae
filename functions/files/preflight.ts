import type { DynamoDBStreamEvent } from 'aws-lambda';
import { preflightRecords } from '#shared/files/preflight/worker';

/**
 * Table stream (large uploads handed over by their completion; ready files whose preflight is
 * pending) → the upload verified and moved, the print checks recorded on the file. A file's own
 * trouble ends in a recorded result; this throws only when S3 or DynamoDB fails, so that the record
 * is retried per its mapping (shared/workers.ts).
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await preflightRecords(event.Records);
};
