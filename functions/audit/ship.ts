/**
 * Audit shipper: invoked by the CloudWatch Logs subscription filters on every API function's log
 * group (and, locally, by the runtime's stdout tee) with gzipped batches of log events; stores
 * the audit lines among them. A failure throws, so the delivery is retried — never dropped.
 */
import type { CloudWatchLogsDecodedData, CloudWatchLogsEvent } from 'aws-lambda';
import { gunzipSync } from 'node:zlib';
import { shipAuditMessages } from '#shared/audit/shipper';
import { logger } from '#shared/logger';

export async function handler(event: CloudWatchLogsEvent): Promise<{ stored: number }> {
  const data = JSON.parse(gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8')) as CloudWatchLogsDecodedData;
  // CloudWatch Logs sends a CONTROL_MESSAGE when a subscription is created; it carries no records.
  if (data.messageType !== 'DATA_MESSAGE') return { stored: 0 };
  const stored = await shipAuditMessages(data.logEvents.map((logEvent) => logEvent.message));
  logger.debug('audit records shipped', { stored, log_group: data.logGroup });
  return { stored };
}
