import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { handler } from '#functions/audit/ship';
import { AUDIT_LINE_PREFIX, emitAudit, parseAuditLine } from '#shared/audit/sink';
import { countStoredAuditRecords as countAuditRecords } from '#test/support/audit';

const tenant = { accountId: `acct_ship_${Date.now()}`, mode: 'live' as const };

const startedAt = new Date().toISOString();
const record = (requestId: string) => ({
  request_id: requestId,
  created_at: startedAt,
  key_id: 'key_1',
  key_prefix: 'sk_live_abcd',
  customer_id: null,
  actor: null,
  method: 'GET',
  path: '/v1/customers',
  route: 'customers.list',
  status: 200,
  source_ip: '203.0.113.9',
  user_agent: 'test',
  duration_ms: 3,
  changes: [],
});

const line = (requestId: string) => JSON.stringify({ audit: { account_id: tenant.accountId, mode: tenant.mode, ...record(requestId) } });

function subscriptionEvent(messageType: string, messages: string[]) {
  const data = {
    messageType,
    owner: '1',
    logGroup: 'g',
    logStream: 's',
    subscriptionFilters: ['audit'],
    logEvents: messages.map((message, i) => ({ id: String(i), timestamp: Date.now(), message })),
  };
  return { awslogs: { data: gzipSync(JSON.stringify(data)).toString('base64') } };
}

const range = { from: new Date(Date.now() - 3600_000).toISOString(), to: new Date(Date.now() + 3600_000).toISOString() };

describe('the audit shipper', () => {
  it('stores the audit lines of a CloudWatch Logs batch and ignores everything else', async () => {
    const event = subscriptionEvent('DATA_MESSAGE', [
      line('r-1'),
      '{"level":"INFO","message":"request"}',
      'START RequestId: x',
      `${AUDIT_LINE_PREFIX}broken`,
      line('r-2'),
    ]);
    expect(await handler(event)).toEqual({ stored: 2 });
    expect(await countAuditRecords(tenant, range)).toBe(2);
  });

  it('stores a record shipped twice only once (log delivery is at-least-once)', async () => {
    await handler(subscriptionEvent('DATA_MESSAGE', [line('r-3')]));
    await handler(subscriptionEvent('DATA_MESSAGE', [line('r-3')]));
    expect(await countAuditRecords(tenant, range)).toBe(3);
  });

  it('ignores the control message CloudWatch sends when a subscription is created', async () => {
    expect(await handler(subscriptionEvent('CONTROL_MESSAGE', ['CWL CONTROL MESSAGE']))).toEqual({ stored: 0 });
  });

  it('reads back exactly what the sink wrote', () => {
    let written = '';
    const original = process.stdout.write;
    process.stdout.write = ((chunk: string) => {
      written += chunk;
      return true;
    }) as typeof process.stdout.write;
    try {
      emitAudit(tenant, record('r-4'));
    } finally {
      process.stdout.write = original;
    }
    expect(written.endsWith('\n')).toBe(true);
    expect(parseAuditLine(written)).toEqual({ tenant, record: record('r-4') });
  });
});
