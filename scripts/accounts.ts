/**
 * `npm run accounts -- <command> [options]`: manage accounts and API keys.
 *
 *   create --name NAME --plan starter|professional|enterprise
 *   list
 *   create-key --account ID --mode test|live [--kind secret|publishable] [--scopes a,b]
 *   revoke-key --account ID --key KEY_ID
 *   set-plan --account ID --plan PLAN [--rpm N] [--rph N]
 *   sync-usage-keys [--account ID]   (deployed stages: gives accounts their four usage keys in the right tiers)
 *   set-allowed-ips --account ID --cidrs 203.0.113.0/24,2001:db8::/32 [--key KEY_ID]   (--cidrs "" lifts it)
 *
 * Works against the running local stack (found through <DATA_DIR>/endpoints.json, or when none
 * runs there and DATA_DIR is not set, the one stack `npm start` registered under another data
 * folder: local-aws/running-stacks.ts) or, with `--stage NAME`, against a deployed stage using
 * your AWS credentials. `--json` prints JSON. A mistyped option, a stray word or a bracket copied
 * from the usage is refused with one line and the usage (exit code 2), never ignored.
 */
import { physicalName, table } from '#shared/resources';
import { env, resetConfig } from '#shared/config';
import { DomainError } from '#shared/errors';
import * as accounts from '#shared/accounts/service';
import { usageKeyManager } from './aws/usage-keys';
import { commandLine, fail, findLocalStack } from './cli';

const usage = `usage: npm run accounts -- <create|list|create-key|revoke-key|set-plan|set-allowed-ips|sync-usage-keys> [options] [--json] [--stage NAME]
  create      --name NAME --plan starter|professional|enterprise
  list
  create-key  --account ID --mode test|live [--kind secret|publishable] [--scopes orders:read,customers:write]
  revoke-key  --account ID --key KEY_ID
  set-plan    --account ID --plan PLAN [--rpm N] [--rph N]   (custom per-minute figure, hourly cap)
  set-allowed-ips --account ID --cidrs 203.0.113.0/24,2001:db8::/32 [--key KEY_ID]   (--cidrs "" lifts it)
  sync-usage-keys [--account ID]   (with --stage: every account's gateway usage keys, one per mode and key kind, in the right tier)
([…] marks an optional part: type it without the brackets.)`;

const options = {
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
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
type OptionName = keyof typeof options;

/** The options each command reads; --stage, --json and --help go with any. */
const commandOptions: Record<string, readonly OptionName[]> = {
  create: ['name', 'plan'],
  list: [],
  'create-key': ['account', 'mode', 'kind', 'scopes'],
  'revoke-key': ['account', 'key'],
  'set-plan': ['account', 'plan', 'rpm', 'rph'],
  'set-allowed-ips': ['account', 'cidrs', 'key'],
  'sync-usage-keys': ['account'],
};
const globalOptions: readonly OptionName[] = ['stage', 'json', 'help'];

const { values, command, need, usageError } = commandLine({
  program: 'accounts',
  usage,
  options,
  commandOptions,
  globalOptions,
  freeText: ['name'],
});

function connect() {
  if (values.stage) {
    // A deployed stage: the default AWS credential chain and the stage's table name.
    process.env[env.tableName] = physicalName(values.stage, table.id);
    process.env[env.stage] = values.stage;
  } else {
    Object.assign(process.env, findLocalStack('accounts', values.json === true).env);
  }
  resetConfig();
}

/**
 * Deployed stages: gives the accounts their four usage keys in the tiers their figures need (new
 * keys where a tier changed) and stores them, then deletes the replaced keys once the
 * authorizer's cache no longer returns them (scripts/aws/usage-keys.ts).
 */
async function syncUsageKeys(stage: string, list: accounts.Account[]): Promise<accounts.Account[]> {
  const manager = usageKeyManager(stage);
  const updated: accounts.Account[] = [];
  const replaced: string[] = [];
  for (const account of list) {
    const changes = await manager.sync(account, accounts.limitsOf(account).perMinute);
    updated.push(await accounts.setUsageKeys(account.id, changes.usageKeys));
    replaced.push(...changes.replaced);
  }
  if (replaced.length) {
    if (!values.json) console.error(`Waiting 60 s (the authorizer's cache) before deleting ${replaced.length} replaced usage key(s)…`);
    await manager.retire(replaced);
  }
  return updated;
}

function print(result: unknown, human: () => void) {
  if (values.json) console.log(JSON.stringify(result, null, 2));
  else human();
}

async function main() {
  if (values.help || !command) {
    console.log(usage);
    return;
  }
  if (command === 'sync-usage-keys' && !values.stage) {
    fail('sync-usage-keys works on a deployed stage: pass --stage NAME (locally there is no API Gateway)');
  }
  connect();
  switch (command) {
    case 'create': {
      const created = await accounts.createAccount({ name: need('name'), plan: need('plan') });
      if (values.stage) [created.account] = (await syncUsageKeys(values.stage, [created.account])) as [accounts.Account];
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
        for (const account of list)
          console.log(`${account.id}  ${account.plan.padEnd(12)} ${account.name}  (created ${account.created_at})`);
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
        scopes: values.scopes
          ?.split(',')
          .map((scope) => scope.trim())
          .filter(Boolean),
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
      let account = await accounts.setPlan(need('account'), need('plan'), rpm, rph);
      // On a deployed stage the gateway backstop follows the new figure (its usage keys move to the tiers that hold it).
      if (values.stage) [account] = (await syncUsageKeys(values.stage, [account])) as [accounts.Account];
      const limits = accounts.limitsOf(account);
      print(account, () =>
        console.log(`${account.id} is now on ${account.plan}: ${limits.perMinute}/min${limits.perHour ? `, ${limits.perHour}/hour` : ''}`),
      );
      return;
    }
    case 'set-allowed-ips': {
      const cidrs = (values.cidrs ?? usageError('--cidrs is required (an empty value lifts the restriction)'))
        .split(',')
        .map((cidr) => cidr.trim())
        .filter(Boolean);
      const result = await accounts.setAllowedIps(need('account'), cidrs, values.key);
      print(result, () =>
        console.log(
          `${values.key ?? need('account')}: ${cidrs.length ? `only ${cidrs.join(', ')}` : 'any address'} (on AWS within the 60 s authorizer cache)`,
        ),
      );
      return;
    }
    case 'sync-usage-keys': {
      const stage = values.stage!;
      const targets = values.account
        ? [await accounts.getAccount(values.account)].filter((account) => account !== undefined)
        : await accounts.listAccounts();
      if (values.account && targets.length === 0) fail(`No account ${values.account}`);
      const synced = await syncUsageKeys(stage, targets);
      print(synced, () => {
        for (const account of synced)
          console.log(`${account.id}: ${account.usage_keys.map((key) => `${key.mode}/${key.kind} → ${key.usage_plan}`).join(', ')}`);
      });
      return;
    }
    default:
      usageError(`unknown command ${command}`);
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
