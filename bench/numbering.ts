/**
 * The numbering section: bursts of concurrent invoice creates for one tenant (`createInvoice`
 * in-process against DynamoDB Local in memory), each create taking the next gap-free number in turn
 * (shared/db/gap-free.ts). Reports the creates per second one tenant reaches, the latency of a
 * burst's creates (p50, p99: the last in the queue waits for all before it), and the floor: one
 * create alone, and the raw TransactWriteItems of the same size that one turn cannot beat.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { performance } from 'node:perf_hooks';
import { distribution, round, type Distribution } from './stats';

export interface NumberingFigures {
  burstSize: number;
  bursts: number;
  /** Creates per second of one tenant during a burst (the burst's size over its duration), median of the bursts. */
  createsPerSecond: number;
  /** Each create's latency from the burst's start, over every burst. */
  burstLatencyMs: Distribution;
  /** A create alone (no queue). */
  aloneMs: Distribution;
  /** The raw TransactWriteItems of an invoice's size (five items), one at a time: the ceiling is about 1 / this. */
  transactionMs: Distribution;
  /** Answers other than 201-equivalent (a thrown error) over all bursts; 0 expected. */
  failures: number;
}

export async function benchNumbering(burstSize = 50, bursts = 5): Promise<NumberingFigures> {
  const { createAccount } = await import('#shared/accounts/service');
  const { updateAccountSettings } = await import('#shared/accounts/service');
  const { AccountUpdateSchema } = await import('#shared/accounts/schema');
  const { createCustomer } = await import('#shared/customers/service');
  const { createInvoice } = await import('#shared/invoices/service');
  const { InvoiceCreateSchema } = await import('#shared/invoices/schema');
  const { dynamo } = await import('#shared/clients/dynamodb');
  const { tableName } = await import('#shared/db/table');

  const created = await createAccount({ name: 'Bench Numbering', plan: 'enterprise' });
  await updateAccountSettings(
    created.account.id,
    AccountUpdateSchema.parse({
      company: {
        legal_name: 'Bench Druck GmbH',
        address: { name: 'Bench Druck GmbH', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
        vat_id: 'DE123456789',
        email: 'billing@bench.example',
        phone: '+49 30 1234567',
      },
    }),
  );
  const tenant = { accountId: created.account.id, mode: 'test' as const };
  const customer = await createCustomer(tenant, { name: 'Bench Customer', email: 'bench@example.com' });
  const input = InvoiceCreateSchema.parse({ customer_id: customer.id, items: [{ description: 'Flyers', quantity: 1, unit_price: 10 }] });
  let failures = 0;
  const create = async (): Promise<number> => {
    const started = performance.now();
    await createInvoice(tenant, input).catch(() => failures++);
    return performance.now() - started;
  };

  // Warm up the client and the engine's paths.
  for (let index = 0; index < 5; index++) await create();
  const alone: number[] = [];
  for (let index = 0; index < 20; index++) alone.push(await create());

  const transaction: number[] = [];
  for (let index = 0; index < 20; index++) {
    const started = performance.now();
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: Array.from({ length: 5 }, (_, item) => ({
          Put: { TableName: tableName(), Item: { pk: `BENCH#NUMBERING#${index}`, sk: `ITEM#${item}`, payload: 'x'.repeat(800) } },
        })),
      }),
    );
    transaction.push(performance.now() - started);
  }

  const latencies: number[] = [];
  const rates: number[] = [];
  for (let burst = 0; burst < bursts; burst++) {
    const started = performance.now();
    const burstLatencies = await Promise.all(Array.from({ length: burstSize }, () => create()));
    const duration = performance.now() - started;
    latencies.push(...burstLatencies);
    rates.push(burstSize / (duration / 1000));
  }
  rates.sort((a, b) => a - b);
  return {
    burstSize,
    bursts,
    createsPerSecond: round(rates[Math.floor(rates.length / 2)]!, 1),
    burstLatencyMs: roundAll(distribution(latencies)),
    aloneMs: roundAll(distribution(alone)),
    transactionMs: roundAll(distribution(transaction)),
    failures,
  };
}

const roundAll = (figure: Distribution): Distribution => ({
  p50: round(figure.p50, 1),
  p90: round(figure.p90, 1),
  p99: round(figure.p99, 1),
  n: figure.n,
});
