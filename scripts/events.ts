/**
 * `npm run events -- <command> [options]`: operate the event pipeline.
 *
 *   replay --account ID --mode test|live --from TIME [--to TIME] [--webhook ID]
 *       re-routes the tenant's stored events of that time range to its webhook registrations
 *       (or to one), idempotently: deliveries that exist are not created again, finished ones are
 *       not sent again, pending ones are enqueued again (events/replay.ts)
 *   sweep [--grace SECONDS]
 *       re-arms now the pending deliveries whose queue message was lost (what the scheduled
 *       sweeper does every 5 minutes, events/sweeper.ts)
 *   seal-secrets [--account ID]
 *       seals every stored secret as its kind under its own encryption context: webhook signing
 *       secrets still in plaintext or sealed under the shared context of older values (current and
 *       previous), carrier settings (the secret key, and the callback secret they lacked) for
 *       every account or one, and — without --account — the customer-token signing keys;
 *       conditional writes, idempotent (shared/webhooks/seal-stored.ts,
 *       shared/shipments/seal-stored.ts, shared/customer-auth/key-store.ts)
 *
 * Works against the running local stack (found through <DATA_DIR>/endpoints.json, or — when none
 * runs there and DATA_DIR is not set — the one stack `npm start` registered under another data
 * folder) or, with `--stage NAME`, against a deployed stage with your AWS credentials (table and
 * deliveries queue by their physical names). `--json` prints JSON. A mistyped option or a stray
 * word is refused with the usage (exit code 2).
 */
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { env, resetConfig } from '#shared/config';
import { DomainError } from '#shared/errors';
import { secretsKeyEnv } from '#shared/crypto/env';
import { resealSigningKeys } from '#shared/customer-auth/key-store';
import { sealStoredCarrierSecrets } from '#shared/shipments/seal-stored';
import { sealStoredSecrets } from '#shared/webhooks/seal-stored';
import { physicalName, queues, table } from '#shared/resources';
import { replayEvents } from '#events/replay';
import { sweepPendingDeliveries } from '#events/sweeper';
import { commandLine, fail, findLocalStack } from './cli';

const usage = `usage: npm run events -- <replay|sweep|seal-secrets> [options] [--json] [--stage NAME]
  replay  --account ID --mode test|live --from TIME [--to TIME] [--webhook ID]
          TIME: an ISO 8601 date-time (2026-11-21T10:00:00Z) or a date (2026-11-21: from its start / to its end, UTC)
  sweep   [--grace SECONDS]   (default 900: deliveries overdue by more than that are re-armed)
  seal-secrets [--account ID]   (seals stored secrets each under its kind's own context: webhook secrets, carrier settings
                                 and, without --account, the customer-token signing keys; every account without --account)
([…] marks an optional part: type it without the brackets.)`;

const options = {
  account: { type: 'string' },
  mode: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  webhook: { type: 'string' },
  grace: { type: 'string' },
  stage: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
type OptionName = keyof typeof options;

const commandOptions: Record<string, readonly OptionName[]> = {
  replay: ['account', 'mode', 'from', 'to', 'webhook'],
  sweep: ['grace'],
  'seal-secrets': ['account'],
};
const globalOptions: readonly OptionName[] = ['stage', 'json', 'help'];

const { values, command, need, usageError } = commandLine({ program: 'events', usage, options, commandOptions, globalOptions });

/** An option's time: an ISO date-time with Z or an offset, or a date (its start for --from, its end for --to). */
function time(name: 'from' | 'to'): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))) {
    return name === 'from' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) {
    usageError(`--${name} must be an ISO 8601 date-time with Z or an offset, or a date YYYY-MM-DD`);
  }
  return new Date(value).toISOString();
}

/** Points the SDK clients and the config at the running local stack or at a deployed stage. */
async function connect(): Promise<void> {
  if (values.stage) {
    process.env[env.stage] = values.stage;
    process.env[env.tableName] = physicalName(values.stage, table.id);
    // The stage's secrets key (infra/secrets.ts) seals webhook secrets; KMS takes its alias.
    process.env[secretsKeyEnv.kmsKeyId] ??= `alias/print-shop-${values.stage}-webhook-secrets`;
    const sqs = new SQSClient({});
    try {
      const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: physicalName(values.stage, queues.deliveries.id) }));
      process.env[env.deliveriesQueueUrl] = QueueUrl!;
    } finally {
      sqs.destroy();
    }
  } else {
    Object.assign(process.env, findLocalStack('events', values.json === true).env);
  }
  resetConfig();
}

const print = (result: unknown, human: () => void) => (values.json ? console.log(JSON.stringify(result, null, 2)) : human());

async function main(): Promise<void> {
  if (values.help || !command) {
    console.log(usage);
    return;
  }
  switch (command) {
    case 'replay': {
      const accountId = need('account');
      const mode = need('mode');
      if (mode !== 'test' && mode !== 'live') usageError('--mode must be test or live');
      const from = time('from') ?? usageError('--from is required');
      const to = time('to');
      if (to !== undefined && to < from) usageError('--to must not be before --from');
      const webhookId = values.webhook === undefined ? undefined : Number(values.webhook);
      if (webhookId !== undefined && !(Number.isSafeInteger(webhookId) && webhookId > 0))
        usageError('--webhook must be a webhook id (a positive integer)');
      await connect();
      const tenant = { accountId, mode: mode as 'test' | 'live' };
      let pages = 0;
      const result = await replayEvents({
        tenant,
        from,
        to,
        webhookId,
        onProgress: (progress) => {
          if (!values.json && ++pages % 10 === 0) console.error(`… ${progress.events} events so far`);
        },
      });
      print({ account: accountId, mode, from, to: to ?? null, webhook: webhookId ?? null, ...result }, () =>
        console.log(
          `Replayed ${result.events} event(s) of ${accountId} (${mode}) from ${from}${to ? ` to ${to}` : ''}` +
            `${webhookId === undefined ? '' : ` to webhook ${webhookId}`}: ${result.created} delivery(ies) created, ` +
            `${result.rearmed} pending one(s) sent again, ${result.finished} already finished (left alone).`,
        ),
      );
      return;
    }
    case 'sweep': {
      const grace = values.grace === undefined ? undefined : Number(values.grace);
      if (grace !== undefined && !(Number.isFinite(grace) && grace >= 0)) usageError('--grace must be a number of seconds (0 or more)');
      await connect();
      const result = await sweepPendingDeliveries({ graceSeconds: grace });
      print(result, () => console.log(`${result.found} overdue pending delivery(ies) found, ${result.rearmed} re-armed and enqueued.`));
      return;
    }
    case 'seal-secrets': {
      const accountId = values.account === undefined ? undefined : need('account');
      await connect();
      const result = await sealStoredSecrets({ accountId });
      const carriers = await sealStoredCarrierSecrets({ accountId });
      // The signing keys are the stage's, not an account's: sealed again on a run over every account.
      const signingKeys = accountId === undefined ? await resealSigningKeys() : 'not-looked-at';
      print({ ...result, carriers, signing_keys: signingKeys }, () => {
        const scope = accountId ? `account ${accountId}` : `${result.accounts} account(s)`;
        const looked = `${result.registrations} webhook registration(s) of ${scope} (test and live)`;
        console.log(
          result.secrets === 0 && result.skipped === 0
            ? `Nothing to seal: no secret in plaintext or under the shared context left in ${looked}.`
            : `Sealed ${result.secrets} secret(s) on ${result.sealed} of ${looked}.`,
        );
        if (result.skipped) {
          console.log(`${result.skipped} registration(s) kept changing while being sealed and still need it: run it again.`);
        }
        console.log(`Carrier settings: ${carriers.sealed} of ${carriers.settings} sealed again.`);
        if (carriers.skipped) console.log(`${carriers.skipped} carrier setting(s) kept changing while being sealed: run it again.`);
        if (signingKeys !== 'not-looked-at') {
          console.log(
            `Customer-token signing keys: ${{ none: 'none made yet', current: 'sealed as they should be', 'sealed-now': 'sealed again' }[signingKeys]}.`,
          );
        }
      });
      if (result.skipped || carriers.skipped) process.exitCode = 1;
      return;
    }
    default:
      usageError(`unknown command ${command}`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof DomainError) fail(error.message); // e.g. --account names no account
  console.error(error);
  process.exit(1);
});
