/**
 * `npm run accounts -- <command> [options]`: manage accounts and API keys.
 *
 *   create --name NAME --plan starter|professional|enterprise
 *   list
 *   create-key --account ID --mode test|live [--kind secret|publishable] [--scopes a,b]
 *   revoke-key --account ID --key KEY_ID
 *   set-plan --account ID --plan PLAN [--rpm N] [--rph N]
 *   set-allowed-ips --account ID --cidrs 203.0.113.0/24,2001:db8::/32 [--key KEY_ID]   (--cidrs "" lifts it)
 *
 * Works against the running local stack (found through <DATA_DIR>/endpoints.json) or, with
 * `--stage NAME`, against a deployed stage using your AWS credentials. `--json` prints JSON.
 */
import { parseArgs } from 'node:util';
import { physicalName, table } from '#shared/resources';
import { env, resetConfig } from '#shared/config';
import { DomainError } from '#shared/errors';
import * as accounts from '#shared/accounts/service';
import { readEndpoints } from '#local-aws/state';
import { createUsageKey, moveUsageKey } from './aws/usage-keys';

const usage = `usage: npm run accounts -- <create|list|create-key|revoke-key|set-plan|set-allowed-ips> [options] [--json] [--stage NAME]
  create      --name NAME --plan starter|professional|enterprise
  list
  create-key  --account ID --mode test|live [--kind secret|publishable] [--scopes orders:read,customers:write]
  revoke-key  --account ID --key KEY_ID
  set-plan    --account ID --plan PLAN [--rpm N] [--rph N]   (custom per-minute figure, hourly cap)
  set-allowed-ips --account ID --cidrs 203.0.113.0/24,2001:db8::/32 [--key KEY_ID]   (--cidrs "" lifts it)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    plan: { type: 'string' },
    account: { type: 'string' },
    mode: { type: 'string' },
    kind: { type: 'string' },
    scopes: { type: 'string' },
    key: { type: 'string' },
    rpm: { type: 'string' },
    rph: { type: 'string' },
    cidrs: { type: 'string' },
    stage: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function need(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || !value) fail(`--${name} is required\n${usage}`);
  return value;
}

function connect() {
  if (values.stage) {
    // A deployed stage: the default AWS credential chain and the stage's table name.
    process.env[env.tableName] = physicalName(values.stage, table.id);
    process.env[env.stage] = values.stage;
  } else {
    const state = readEndpoints();
    if (!state) fail('No local stack is running: start it with `npm start` (or pass --stage NAME for a deployed stage).');
    Object.assign(process.env, state.env);
  }
  resetConfig();
}

function print(result: unknown, human: () => void) {
  if (values.json) console.log(JSON.stringify(result, null, 2));
  else human();
}

async function main() {
  const command = positionals[0];
  if (values.help || !command) {
    console.log(usage);
    return;
  }
  connect();
  switch (command) {
    case 'create': {
      const created = await accounts.createAccount({ name: need('name'), plan: need('plan') });
      if (values.stage) {
        const usageKey = await createUsageKey(values.stage, created.account.id, created.account.plan);
        created.account = await accounts.setUsageKey(created.account.id, usageKey.id, usageKey.value);
      }
      print(created, () => {
        console.log(`Account ${created.account.id} (${created.account.name}, ${created.account.plan}). Keys — shown once, store them now:`);
        for (const [name, key] of Object.entries(created.keys)) console.log(`  ${name.padEnd(17)} ${key.key}`);
      });
      return;
    }
    case 'list': {
      const list = await accounts.listAccounts();
      print(list, () => {
        if (!list.length) console.log('No accounts.');
        for (const account of list) console.log(`${account.id}  ${account.plan.padEnd(12)} ${account.name}  (created ${account.created_at})`);
      });
      return;
    }
    case 'create-key': {
      const mode = need('mode');
      if (mode !== 'test' && mode !== 'live') fail('--mode must be test or live');
      const kind = values.kind ?? 'secret';
      if (kind !== 'secret' && kind !== 'publishable') fail('--kind must be secret or publishable');
      const key = await accounts.createApiKey({
        accountId: need('account'),
        mode,
        kind,
        scopes: values.scopes?.split(',').map((scope) => scope.trim()).filter(Boolean),
      });
      print(key, () => console.log(`${key.key_id}  ${key.key}  scopes: ${key.scopes.join(',')} — shown once, store it now`));
      return;
    }
    case 'revoke-key': {
      const key = await accounts.revokeApiKey(need('account'), need('key'));
      print(key, () => console.log(`${key.key_id} (${key.prefix}…) revoked at ${key.revoked_at}`));
      return;
    }
    case 'set-plan': {
      const rpm = values.rpm === undefined ? undefined : Number(values.rpm);
      const rph = values.rph === undefined ? undefined : Number(values.rph);
      const before = await accounts.getAccount(need('account'));
      const account = await accounts.setPlan(need('account'), need('plan'), rpm, rph);
      if (values.stage && before?.usage_key_id) await moveUsageKey(values.stage, before.usage_key_id, before.plan, account.plan);
      const limits = accounts.limitsOf(account);
      print(account, () => console.log(`${account.id} is now on ${account.plan}: ${limits.perMinute}/min${limits.perHour ? `, ${limits.perHour}/hour` : ''}`));
      return;
    }
    case 'set-allowed-ips': {
      if (values.cidrs === undefined) fail(`--cidrs is required (an empty value lifts the restriction)\n${usage}`);
      const cidrs = values.cidrs.split(',').map((cidr) => cidr.trim()).filter(Boolean);
      const result = await accounts.setAllowedIps(need('account'), cidrs, values.key);
      print(result, () =>
        console.log(`${values.key ?? need('account')}: ${cidrs.length ? `only ${cidrs.join(', ')}` : 'any address'} (on AWS within the 60 s authorizer cache)`),
      );
      return;
    }
    default:
      fail(`Unknown command ${command}\n${usage}`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof DomainError) {
    const details = error.details?.map((detail) => `${detail.field}: ${detail.message}`).join('; ');
    fail(`${error.message}${details ? ` (${details})` : ''}`);
  }
  console.error(error);
  process.exit(1);
});
