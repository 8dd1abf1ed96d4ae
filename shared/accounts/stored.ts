/**
 * How accounts and API keys are stored (docs/data-model.md). An account is two items: its platform
 * record (plan, limits, currency, allowlist: the operator's, read-only to route functions) and its
 * settings (name and company: the account's own, changed by `PUT /v1/account`, in the account's
 * tenant space). Reads fetch both with one BatchGetItem. A key is stored twice in one transaction: a lookup item addressed by the
 * key's SHA-256 (what the authorizer reads) and a record under its account (for listing and
 * revocation, holding the hash so revocation can find the lookup item). The key itself is never stored.
 */
import { KEY_KINDS, MODES } from '#shared/auth/keys';
import { accountSettingsKey, platformKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { postalAddressShape } from '#shared/schemas/address';
import { codecs as c, entity, field, type Codec, type RecordOf } from '#shared/schemas/fields';
import { taxCategoryCodec, taxRatesCodec } from '#shared/tax/fields';
import { DEFAULT_PAYMENT_TERMS_DAYS, DEFAULT_QUOTE_VALIDITY_DAYS, type Company } from './company';

/** The company as shown: as stored (it holds no money). */
type CompanyView = Company;
import { PLAN_NAMES } from './plans';

/** The seller block invoices copy (company.ts); every field optional until invoicing needs it. */
// Typed as the Company interface: three levels of derived record types are more than the compiler compares reliably.
export const storedCompany: Codec<Company, CompanyView> = /* @__PURE__ */ (() =>
  c.object(
    {
      legal_name: field(c.nullable(c.string)),
      address: field(c.nullable(c.object(postalAddressShape, { id: 'CompanyAddress' }))),
      vat_id: field(c.nullable(c.string)),
      tax_number: field(c.nullable(c.string)),
      iban: field(c.nullable(c.string)),
      bic: field(c.nullable(c.string)),
      email: field(c.nullable(c.string)),
      phone: field(c.nullable(c.string)),
      payment_terms_days: field(c.withDefault(c.int, DEFAULT_PAYMENT_TERMS_DAYS)),
      invoice_footer: field(c.nullable(c.string)),
      quote_validity_days: field(c.withDefault(c.int, DEFAULT_QUOTE_VALIDITY_DAYS)),
    },
    { id: 'Company' },
  ))();

/** The platform record: what the operator sets (the accounts CLI), read-only to route functions. */
export const storedAccount = /* @__PURE__ */ (() =>
  entity({
    id: field(c.string).fixed(),
    plan: field(c.enumOf(PLAN_NAMES)),
    /** Custom requests-per-minute figure; overrides the plan's. */
    rate_limit_per_minute: field(c.nullable(c.int)),
    /** Optional hourly cap on top of the per-minute limit (e.g. the beta's 1000/hour). */
    rate_limit_per_hour: field(c.nullable(c.int)),
    /**
     * The account's first, single API Gateway usage identifier key (deployed stages, before usage
     * keys were kept per mode and key kind): still used by the authorizer until
     * `npm run accounts -- sync-usage-keys` gives the account `usage_keys`.
     */
    usage_key_id: field(c.nullable(c.string)),
    usage_key: field(c.nullable(c.string)),
    /**
     * API Gateway usage identifier keys (deployed stages only), one per mode and key kind, each
     * registered in the usage plan of its tier (shared/accounts/plans.ts, scripts/aws/usage-keys.ts).
     */
    usage_keys: field(
      c.list(
        c.object({
          mode: field(c.enumOf(MODES)),
          kind: field(c.enumOf(KEY_KINDS)),
          id: field(c.string),
          value: field(c.string),
          /** The usage plan it is registered in (its name). */
          usage_plan: field(c.string),
        }),
      ),
    ),
    currency: field(c.string),
    /** Percent, e.g. 19 for 19 %. */
    tax_rate: field(c.number),
    /** Image for legacy products that have none (a built-in placeholder when unset). */
    placeholder_image_url: field(c.nullable(c.string)),
    allowed_ips: field(c.list(c.string)),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
  }))();

/** The account's own settings (`PUT /v1/account`, `accounts set-company`). */
export const storedAccountSettings = /* @__PURE__ */ (() =>
  entity({
    name: field(c.string),
    /** The seller block of its invoices (null until set with PUT /v1/account or `accounts set-company`). */
    company: field(c.nullable(storedCompany)),
    /** The rate per tax category; null until set: the record's single `tax_rate` is then the standard rate (ratesFromLegacyTaxRate). */
    tax_rates: field(c.nullable(taxRatesCodec)),
    /** The category shipping is declared as (standard unless set). */
    shipping_tax_category: field(taxCategoryCodec),
    updated_at: field(c.timestamp),
  }))();

export const storedApiKey = /* @__PURE__ */ (() =>
  entity({
    key_id: field(c.string).fixed(),
    account_id: field(c.string).fixed(),
    mode: field(c.enumOf(MODES)).fixed(),
    kind: field(c.enumOf(KEY_KINDS)).fixed(),
    scopes: field(c.list(c.string)),
    /** What may be shown of the key later: type, mode and its first characters. */
    prefix: field(c.string).fixed(),
    created_at: field(c.timestamp).fixed(),
    revoked_at: field(c.nullable(c.timestamp)),
    /** Further restriction of the account's allowlist for this key only (empty: none). */
    allowed_ips: field(c.list(c.string)),
  }))();

export type AccountRecord = RecordOf<typeof storedAccount.shape>;
export type AccountSettings = RecordOf<typeof storedAccountSettings.shape>;
/** An account as read whole: its record and its settings (`settings_updated_at`: null while it has no settings item). */
export type Account = AccountRecord &
  Pick<AccountSettings, 'name' | 'company' | 'tax_rates' | 'shipping_tax_category'> & { settings_updated_at: string | null };
export type ApiKeyRecord = RecordOf<typeof storedApiKey.shape>;

export const accountRecordFromItem: typeof storedAccount.read = (value) => storedAccount.read(value);

/**
 * The account from its two items. An account stored before its settings had an item of their own
 * keeps its name and company on the record: those are its settings until the first change writes
 * the settings item.
 */
export function accountFromItems(record: Record<string, unknown>, settings: Record<string, unknown> | undefined): Account {
  const own = storedAccountSettings.read(
    settings ?? { name: record.name ?? '', company: record.company ?? null, updated_at: record.updated_at },
  );
  return {
    ...storedAccount.read(record),
    name: own.name,
    company: own.company,
    tax_rates: own.tax_rates,
    shipping_tax_category: own.shipping_tax_category,
    settings_updated_at: settings ? own.updated_at : null,
  };
}
export const apiKeyFromItem: typeof storedApiKey.read = (value) => storedApiKey.read(value);

/** A new account's two items: its record (listed on gsi1) and its settings. */
export function accountPuts(record: AccountRecord, settings: AccountSettings): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...platformKeys.account(record.id),
          entity: 'ACCOUNT',
          ...storedAccount.attributes(record, 'put'),
          gsi1pk: platformKeys.accountsCollection,
          gsi1sk: `${record.created_at}#${record.id}`,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    settingsPut(record.id, settings, null),
  ];
}

/**
 * The settings item, on condition that it is still as read: `readAt` is the `updated_at` read
 * (null: none was stored), so two edits of different fields never lose one another.
 */
export function settingsPut(accountId: string, settings: AccountSettings, readAt: string | null): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...accountSettingsKey(accountId), entity: 'ACCOUNT_SETTINGS', ...storedAccountSettings.attributes(settings, 'put') },
      ...(readAt === null
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'updated_at = :read', ExpressionAttributeValues: { ':read': readAt } }),
    },
  };
}

/** The two items of a new key: the authorizer's lookup by hash, and the record under its account. */
export function apiKeyPuts(record: ApiKeyRecord, hash: string): TransactItem[] {
  const attributes = storedApiKey.attributes(record, 'put');
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { ...platformKeys.apiKeyByHash(hash), entity: 'APIKEY', ...attributes },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...platformKeys.accountApiKey(record.account_id, record.key_id), entity: 'APIKEY_REF', ...attributes, hash },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}
