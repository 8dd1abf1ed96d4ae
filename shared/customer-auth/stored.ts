/**
 * What customer accounts store (docs/data-model.md), each item's fields listed once: a customer's
 * login, in the customer's own partition (deleted with the customer); refresh tokens and their
 * families; the mailed one-time codes — password reset and pending registration — each by the
 * code's SHA-256; the lockout count of an email; and the stage's token-signing keys, one platform
 * item. Everything that expires carries the table's TTL attribute `expires_at` (epoch seconds).
 * Keys from shared/db/keys.ts; what the values mean (generations, expiry, use) is decided by the
 * rule modules (credentials.ts, refresh-tokens.ts, lockout.ts, key-store.ts), which hand
 * repository.ts the records and the builders below.
 */
import type { JWK } from 'jose';
import type { Tenant } from '#shared/auth/principal';
import { customerAuthKeys, platformKeys, type ItemKey } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { codecs as c, entity, field, type Codec, type RecordOf } from '#shared/schemas/fields';
import { generationCondition } from './session-rules';

/**
 * A customer's login: the password hash (passwords.ts) and the generations that end sessions and
 * reset codes in one write (session-rules.ts). Absent generations (logins stored before they
 * existed) read as 0.
 */
export const storedLogin = /* @__PURE__ */ (() =>
  entity({
    /** The customer: the login's key names them (its partition is theirs), no attribute holds it. */
    customer_id: field(c.int).derived(),
    password_hash: field(c.string).internal(),
    /** Sessions started before the login's current generation have ended (session-rules.ts). */
    session_generation: field(c.int),
    /** The session a password change was made from: it goes on although of an older generation. */
    kept_session: field(c.nullable(c.string)),
    /** Reset codes issued before the login's current generation have ended. */
    code_generation: field(c.int),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
  }))();

/** One refresh token, stored by its SHA-256 only: used once (`used_at`), then the next of its family. */
export const storedRefreshToken = /* @__PURE__ */ (() =>
  entity({
    family_id: field(c.string).fixed(),
    customer_id: field(c.int).fixed(),
    /** The family's login generation (a rotation checks it against the login's without reading the family). */
    generation: field(c.int).fixed(),
    created_at: field(c.timestamp).fixed(),
    valid_until: field(c.timestamp).fixed(),
    /** The TTL: the item leaves once the token has expired. */
    expires_at: field(c.int).fixed().internal(),
    /** Set once, by the rotation that uses the token: a second use revokes the family. */
    used_at: field(c.nullable(c.timestamp)).external(),
  }))();

/** A login session: the family of the refresh tokens a login started. */
export const storedRefreshFamily = /* @__PURE__ */ (() =>
  entity({
    customer_id: field(c.int).fixed(),
    /** The login's `session_generation` when the family started. */
    generation: field(c.int).fixed(),
    created_at: field(c.timestamp).fixed(),
    /** The TTL, moved by each rotation with the new token's expiry: the family outlives its tokens by nothing. */
    expires_at: field(c.int).internal(),
    last_used_at: field(c.nullable(c.timestamp)).external(),
    /** Logged out: none of its tokens refreshes again. */
    revoked_at: field(c.nullable(c.timestamp)).external(),
  }))();

/** What every mailed code's item holds besides what it is for: valid 30 minutes, used once. */
const codeFields = {
  valid_until: field(c.timestamp).fixed(),
  /** The TTL: an hour after the code expired. */
  expires_at: field(c.int).fixed().internal(),
  /** Set once, by the transaction that uses the code. */
  used_at: field(c.nullable(c.timestamp)).external(),
};

/**
 * A password-reset code: its login (`customer_id`) and the login's `code_generation` when it was
 * issued — neither on the code of a request for an email without a login, which nothing can use.
 */
export const storedResetCode = /* @__PURE__ */ (() =>
  entity({
    customer_id: field(c.nullable(c.int)).fixed(),
    generation: field(c.nullable(c.int)).fixed(),
    ...codeFields,
  }))();

/** A registration waiting for the code mailed to its address: what was registered, the password only as its hash. */
export const storedRegistration = /* @__PURE__ */ (() =>
  entity({
    email: field(c.string).fixed(),
    name: field(c.string).fixed(),
    password_hash: field(c.string).fixed().internal(),
    ...codeFields,
  }))();

/** The lockout count of one email: written only by the conditional updates of repository.ts (no put). */
export const storedLoginFailures = /* @__PURE__ */ (() =>
  entity({
    /** Password checks reserved in the window (counted before each check). */
    failures: field(c.int).counter(),
    /** When the window started (Unix seconds). */
    window_start: field(c.int),
    /** The TTL: two windows after the window started. */
    expires_at: field(c.int).internal(),
  }))();

/** A JWK as stored: a map of strings, kept as it is. */
const jwk: Codec<JWK> = { kind: 'stringMap', decode: (value) => value as JWK, view: (value) => value };

/** One signing key: the public JWK in the clear, the private one sealed (key-store.ts). */
const signingKeyShape = {
  kid: field(c.string),
  public_jwk: field(jwk),
  private_sealed: field(c.string).internal(),
  created_at: field(c.timestamp),
};

/** The stage's token-signing keys: one platform item with the current and the previous key. */
export const storedSigningKeys = /* @__PURE__ */ (() =>
  entity({
    current: field(c.object(signingKeyShape)),
    previous: field(c.nullable(c.object(signingKeyShape))),
    /** The current key's kid, beside it: a rotation's put is conditional on it. */
    current_kid: field(c.string),
  }))();

export type LoginRecord = RecordOf<typeof storedLogin.shape>;
export type RefreshTokenRecord = RecordOf<typeof storedRefreshToken.shape>;
export type RefreshFamilyRecord = RecordOf<typeof storedRefreshFamily.shape>;
export type ResetCodeRecord = RecordOf<typeof storedResetCode.shape>;
export type RegistrationRecord = RecordOf<typeof storedRegistration.shape>;
export type LoginFailuresRecord = RecordOf<typeof storedLoginFailures.shape>;
export type SigningKeysRecord = RecordOf<typeof storedSigningKeys.shape>;
export type SigningKeyEntry = SigningKeysRecord['current'];

/** The login of a stored item: the customer from the key it was read by. */
export const loginFromItem = (customerId: number, item: Record<string, unknown>): LoginRecord => ({
  ...storedLogin.read(item),
  customer_id: customerId,
});
export const refreshTokenFromItem: typeof storedRefreshToken.read = (item) => storedRefreshToken.read(item);
export const familyFromItem: typeof storedRefreshFamily.read = (item) => storedRefreshFamily.read(item);
export const resetCodeFromItem: typeof storedResetCode.read = (item) => storedResetCode.read(item);
export const registrationFromItem: typeof storedRegistration.read = (item) => storedRegistration.read(item);
export const loginFailuresFromItem: typeof storedLoginFailures.read = (item) => storedLoginFailures.read(item);
export const signingKeysFromItem: typeof storedSigningKeys.read = (item) => storedSigningKeys.read(item);

const putNew = (Item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The put of a new login: the caller's transaction adds what must hold with it. */
export const loginPut = (tenant: Tenant, login: LoginRecord): TransactItem =>
  putNew({ ...customerAuthKeys.login(tenant, login.customer_id), entity: 'LOGIN', ...storedLogin.attributes(login, 'put') });

/**
 * The login's new password, with every session and reset code of the current generations ended
 * (session-rules.ts): `kept` names the session that goes on (a change keeps its own; a reset keeps
 * none). The update's expression and values; the caller adds its condition.
 */
export function newPasswordUpdate(passwordHash: string, kept: string | null, now: Date) {
  return {
    UpdateExpression: [
      'SET password_hash = :hash, updated_at = :now',
      'session_generation = if_not_exists(session_generation, :zero) + :one',
      'code_generation = if_not_exists(code_generation, :zero) + :one',
      ...(kept ? ['kept_session = :kept'] : []),
    ]
      .join(', ')
      .concat(kept ? '' : ' REMOVE kept_session'),
    ExpressionAttributeValues: {
      ':hash': passwordHash,
      ':now': now.toISOString(),
      ':zero': 0,
      ':one': 1,
      ...(kept ? { ':kept': kept } : {}),
    } as Record<string, unknown>,
  };
}

/** A reset code's password change of the login: the new password, on condition that the code's generation is still the login's. */
export function loginResetUpdate(tenant: Tenant, customerId: number, generation: number, passwordHash: string, now: Date): TransactItem {
  const update = newPasswordUpdate(passwordHash, null, now);
  return {
    Update: {
      TableName: tableName(),
      Key: customerAuthKeys.login(tenant, customerId),
      ...update,
      ConditionExpression: `attribute_exists(pk) AND ${generationCondition('code_generation', ':generation', generation)}`,
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':generation': generation },
    },
  };
}

export const refreshTokenPut = (tenant: Tenant, tokenHash: string, token: RefreshTokenRecord): TransactItem =>
  putNew({
    ...customerAuthKeys.refreshToken(tenant, tokenHash),
    entity: 'REFRESH_TOKEN',
    ...storedRefreshToken.attributes(token, 'put'),
  });

/** Uses a refresh token once: fails when it was used already. */
export const refreshTokenUse = (tenant: Tenant, tokenHash: string, now: Date): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: customerAuthKeys.refreshToken(tenant, tokenHash),
    UpdateExpression: 'SET used_at = :now',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(used_at)',
    ExpressionAttributeValues: { ':now': now.toISOString() },
  },
});

export const familyPut = (tenant: Tenant, familyId: string, family: RefreshFamilyRecord): TransactItem =>
  putNew({ ...customerAuthKeys.family(tenant, familyId), entity: 'REFRESH_FAMILY', ...storedRefreshFamily.attributes(family, 'put') });

/** A rotation's touch of its family: used now, living as long as the new token (`expiresAt`); fails when the family was revoked. */
export const familyTouch = (tenant: Tenant, familyId: string, now: Date, expiresAt: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: customerAuthKeys.family(tenant, familyId),
    UpdateExpression: 'SET last_used_at = :now, expires_at = :ttl',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
    ExpressionAttributeValues: { ':now': now.toISOString(), ':ttl': expiresAt },
  },
});

/**
 * A rotation's check of the login: it still exists, and a password change or reset has not ended
 * the family's generation (or the family is the one a change kept).
 */
export const sessionLoginCheck = (tenant: Tenant, customerId: number, generation: number, familyId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: customerAuthKeys.login(tenant, customerId),
    ConditionExpression: `attribute_exists(pk) AND (${generationCondition('session_generation', ':generation', generation)} OR kept_session = :family)`,
    ExpressionAttributeValues: { ':generation': generation, ':family': familyId },
  },
});

export const resetCodePut = (tenant: Tenant, codeHash: string, code: ResetCodeRecord): TransactItem =>
  putNew({ ...customerAuthKeys.passwordReset(tenant, codeHash), entity: 'PASSWORD_RESET', ...storedResetCode.attributes(code, 'put') });

export const registrationPut = (tenant: Tenant, codeHash: string, registration: RegistrationRecord): TransactItem =>
  putNew({
    ...customerAuthKeys.registration(tenant, codeHash),
    entity: 'REGISTRATION',
    ...storedRegistration.attributes(registration, 'put'),
  });

/** The transaction item that uses a code once: fails when it was used meanwhile or has expired. */
const codeUse = (key: ItemKey, now: Date): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'SET used_at = :now',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(used_at) AND valid_until > :now',
    ExpressionAttributeValues: { ':now': now.toISOString() },
  },
});

export const resetCodeUse = (tenant: Tenant, codeHash: string, now: Date): TransactItem =>
  codeUse(customerAuthKeys.passwordReset(tenant, codeHash), now);

export const registrationUse = (tenant: Tenant, codeHash: string, now: Date): TransactItem =>
  codeUse(customerAuthKeys.registration(tenant, codeHash), now);

/** The put of the stage's keys, on condition that the current kid is still `expectedKid` (none: no keys yet). */
export const signingKeysPut = (keys: SigningKeysRecord, expectedKid: string | null): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...platformKeys.customerTokenKeys, entity: 'SIGNING_KEYS', ...storedSigningKeys.attributes(keys, 'put') },
    ConditionExpression: expectedKid === null ? 'attribute_not_exists(pk)' : 'current_kid = :kid',
    ...(expectedKid === null ? {} : { ExpressionAttributeValues: { ':kid': expectedKid } }),
  },
});
