/** Turns shipped log messages back into audit records and stores them (at-least-once, idempotent). */
import { putAuditRecords } from './repository';
import { parseAuditLine } from './sink';

export async function shipAuditMessages(messages: readonly string[]): Promise<number> {
  const records = messages.map(parseAuditLine).filter((parsed) => parsed !== undefined);
  if (records.length) await putAuditRecords(records);
  return records.length;
}
