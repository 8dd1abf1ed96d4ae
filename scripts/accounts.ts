/**
 * `npm run accounts -- <command> [options]`: manage accounts and API keys.
 *
 *   create --name NAME --plan starter|professional|enterprise
 *   list
 *   create-key --account ID --mode test|live [--kind secret|publishable] [--scopes a,b]
 *   revoke-key --account ID --key KEY_ID
 *   set-plan --account ID --plan PLAN [--rpm N] [--rph N]
 *   rotate-signing-key   (a new key for customer access tokens; the previous one stays published and accepted;
 *                         `create` makes the stage's first key, routes never write it)
 *   sync-usage-keys [--account ID]   (deployed stages: gives accounts their four usage keys in the right tiers)
 *   set-allowed-ips --account ID --cidrs 203.0.113.0/24,2001:db8::/32 [--key KEY_ID]   (--cidrs "" lifts it)
 *   set-company --account ID [--legal-name …] [--street …] [--postal-code …] [--city …] [--country DE] [--vat-id …]
 *               [--tax-number …] [--iban …] [--bic …] [--email …] [--phone …] [--terms-days N] [--footer …]
 *               (the seller details of invoices; an empty value clears a field; the same rules as PUT /v1/account)
 *
 * Works against the running local stack (found through <DATA_DIR>/endpoints.json, or when none
 * runs there and DATA_DIR is not set, the one stack `npm start` registered under another data
 * folder: local-aws/running-stacks.ts) or, with `--stage NAME`, against a deployed stage using
 * your AWS credentials. `--json` prints JSON. A mistyped option, a stray word or a bracket copied
 * from the usage is refused with one line and the usage (exit code 2), never ignored.
 */
import { physicalName, table } from '#shared/resources';
import { env, resetConfig } from '#shared/config';
import { DomainError, ValidationError } from '#shared/errors';
import { AccountUpdateSchema } from '#shared/accounts/schema';
import { secretsKeyEnv } from '#shared/crypto/env';
import { ensureSigningKeys, rotateSigningKeys } from '#shared/customer-auth/key-store';
import * as accounts from '#shared/accounts/service';
import { usageKeyManager } from './aws/usage-keys';
import { commandLine, fail, findLocalStack } from './cli';

const usage = `usage: npm run accounts -- <create|list|create-key|revoke-key|set-plan|set-allowed-ips|set-company|rotate-signing-key|sync-usage-keys> [options] [--json] [--stage NAME]
  create      --name NAME --plan starter|professional|enterprise
  list
  create-key  --account ID --mode test|live [--kind secret|publishable] [--scopes orders:read,customers:write]
  revoke-key  --account ID --key KEY_ID
  set-plan    --account ID --plan PLAN [--rpm N] [--rph N]   (custom per-minute figure, hourly cap)
  set-allowed-ips --account ID --cidrs 203.0.113.0/24,2001:db8::/32 [--key KEY_ID]   (--cidrs "" lifts it)
  set-company --account ID [--legal-name TEXT] [--street TEXT] [--postal-code TEXT] [--city TEXT] [--country DE]
              [--vat-id ID] [--tax-number TEXT] [--iban IBAN] [--bic BIC] [--email ADDRESS] [--phone TEXT] [--terms-days N] [--footer TEXT]
              (seller details for invoices; "" clears a field)
  rotate-signing-key   (customer access tokens: a new signing key; the previous one stays valid for its tokens)
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
  'legal-name': { type: 'string' },
  street: { type: 'string' },
  'postal-code': { type: 'string' },
  city: { type: 'string' },
  country: { type: 'string' },
  'vat-id': { type: 'string' },
  'tax-number': { type: 'string' },
  iban: { type: 'string' },
  bic: { type: 'string' },
  email: { type: 'string' },
  phone: { type: 'string' },
  'terms-days': { type: 'string' },
  footer: { type: 'string' },
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
  'set-company': [
    'account',
    'legal-name',
    'street',
    'postal-code',
    'city',
    'country',
    'vat-id',
    'tax-number',
    'iban',
    'bic',
    'email',
    'phone',
    'terms-days',
    'footer',
  ],
  'rotate-signing-key': [],
  'sync-usage-keys': ['account'],
};
const globalOptions: readonly OptionName[] = ['stage', 'json', 'help'];

const { values, command, need, usageError } = commandLine({
  program: 'accounts',
  usage,
  options,
  commandOptions,
  globalOptions,
  freeText: ['name', 'legal-name', 'street', 'city', 'footer', 'tax-number', 'phone'],
});

function connect() {
  if (values.stage) {
    // A deployed stage: the default AWS credential chain and the stage's table name.
    process.env[env.tableName] = physicalName(values.stage, table.id);
    process.env[env.stage] = values.stage;
    // The stage's secrets key (infra/secrets.ts) seals the signing keys; KMS takes its alias.
    process.env[secretsKeyEnv.kmsKeyId] ??= `alias/print-shop-${values.stage}-webhook-secrets`;
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
async function syncUsageKeys<A extends accounts.AccountRecord>(stage: string, list: A[]): Promise<A[]> {
  const manager = usageKeyManager(stage);
  const updated: A[] = [];
  const replaced: string[] = [];
  for (const account of list) {
    const changes = await manager.sync(account, accounts.limitsOf(account).perMinute);
    updated.push({ ...account, ...(await accounts.setUsageKeys(account.id, changes.usageKeys)) });
    replaced.push(...changes.replaced);
  }
  if (replaced.length) {
    if (!values.json) console.error(`Waiting 60 s (the authorizer's cache) before deleting ${replaced.length} replaced usage key(s)…`);
    await manager.retire(replaced);
  }
  return updated;
}

/** The set-company options given, as the `company` object of PUT /v1/account ("" → null: clear). */
function companyOptions(): Record<string, unknown> {
  const text = (name: OptionName) => {
    const value = values[name] as string | undefined;
    return value === undefined ? undefined : value.trim() === '' ? null : value;
  };
  const addressGiven = ['street', 'postal-code', 'city', 'country'].some((name) => values[name as OptionName] !== undefined);
  const legalName = text('legal-name');
  const company: Record<string, unknown> = {
    legal_name: legalName,
    vat_id: text('vat-id'),
    tax_number: text('tax-number'),
    iban: text('iban'),
    bic: text('bic'),
    email: text('email'),
    phone: text('phone'),
    invoice_footer: text('footer'),
    payment_terms_days: values['terms-days'] === undefined ? undefined : Number(values['terms-days']),
    // The address is replaced whole (as in the API): the name on it is the legal name.
    address: addressGiven
      ? {
          name: legalName ?? undefined,
          line1: text('street'),
          postal_code: text('postal-code'),
          city: text('city'),
          country: text('country'),
        }
      : undefined,
  };
  const given = Object.fromEntries(Object.entries(company).filter(([, value]) => value !== undefined));
  if (Object.keys(given).length === 0) usageError('set-company needs at least one field to set');
  return given;
}

/** The option that sets a company field, for error messages. */
const optionOfField: Record<string, string> = {
  legal_name: 'legal-name',
  line1: 'street',
  postal_code: 'postal-code',
  vat_id: 'vat-id',
  tax_number: 'tax-number',
  payment_terms_days: 'terms-days',
  invoice_footer: 'footer',
};

/** Checked by the schema of PUT /v1/account, so a bad IBAN is refused the same way by both. */
async function setCompany(accountId: string, company: Record<string, unknown>): Promise<accounts.Account> {
  const address = company.address as Record<string, unknown> | undefined;
  if (address && !address.name) {
    // The name on the address is the legal name: the one given, else the one on record.
    address.name = (await accounts.getAccount(accountId))?.company?.legal_name ?? '';
  }
  const parsed = AccountUpdateSchema.safeParse({ company });
  if (!parsed.success) {
    throw new ValidationError(
      'Invalid company details',
      parsed.error.issues.map((issue) => ({
        field: `--${optionOfField[String(issue.path.at(-1))] ?? String(issue.path.at(-1))}`,
        message: issue.message,
      })),
    );
  }
  return accounts.updateAccountSettings(accountId, parsed.data);
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
      // The stage's customer-token signing keys, unless they exist: route roles may only read them.
      const signing = await ensureSigningKeys();
      if (values.stage) [created.account] = (await syncUsageKeys(values.stage, [created.account])) as [accounts.Account];
      print(created, () => {
        console.log(`Account ${created.account.id} (${created.account.name}, ${created.account.plan}). Keys — shown once, store them now:`);
        for (const [name, key] of Object.entries(created.keys)) console.log(`  ${name.padEnd(17)} ${key.key}`);
        if (signing.created) console.log(`Made the stage's customer-token signing key ${signing.kid} (its first account).`);
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
      if (values.stage) [account] = (await syncUsageKeys(values.stage, [account])) as [accounts.AccountRecord];
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
    case 'set-company': {
      const account = await setCompany(need('account'), companyOptions());
      print(account.company, () => console.log(`${account.id}: ${JSON.stringify(account.company, null, 2)}`));
      return;
    }
    case 'rotate-signing-key': {
      const kid = await rotateSigningKeys();
      print({ kid }, () =>
        console.log(`New signing key ${kid}; the previous key stays published (tokens signed with it keep working until they expire).`),
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
