/**
 * How accounts and API keys are stored (platform items, not tenant data; see
 * docs/data-model.md). A key is stored twice in one transaction: a lookup item addressed by the
 * key's SHA-256 (what the authorizer reads) and a record under its account (for listing and
 * revocation, holding the hash so revocation can find the lookup item). The key itself is never stored.
 */
import { KEY_KINDS, MODES } from '#shared/auth/keys';
import { platformKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { postalAddressShape } from '#shared/schemas/address';
import { codecs as c, entity, field, type Codec, type RecordOf } from '#shared/schemas/fields';
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

export const storedAccount = /* @__PURE__ */ (() =>
  entity({
    id: field(c.string).fixed(),
    name: field(c.string),
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
    /** The seller block of its invoices (null until set with PUT /v1/account or `accounts set-company`). */
    company: field(c.nullable(storedCompany)),
    created_at: field(c.timestamp).fixed(),
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

export type Account = RecordOf<typeof storedAccount.shape>;
export type ApiKeyRecord = RecordOf<typeof storedApiKey.shape>;

export const accountFromItem: typeof storedAccount.read = (value) => storedAccount.read(value);
export const apiKeyFromItem: typeof storedApiKey.read = (value) => storedApiKey.read(value);

export function accountPut(account: Account): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...platformKeys.account(account.id),
        entity: 'ACCOUNT',
        ...storedAccount.attributes(account, 'put'),
        gsi1pk: platformKeys.accountsCollection,
        gsi1sk: `${account.created_at}#${account.id}`,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
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
