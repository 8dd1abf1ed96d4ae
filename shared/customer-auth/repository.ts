/**
 * Customer accounts in the single table: every DynamoDB call of shared/customer-auth — logins, the
 * mailed codes, refresh tokens and their families, the lockout count and the stage's token-signing
 * keys (the items and their builders in stored.ts). Conditions hold the invariants. Where a failed
 * condition means one thing, the repository says it (a second login: 409); where the caller decides
 * what follows (a reused refresh token revokes its family; a rehash that lost to a change is
 * dropped), it answers what happened and the rule module decides.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { JWK } from 'jose';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { emailOwnerCheck } from '#shared/customers/stored';
import { customerAuthKeys, platformKeys, tenantKeys, type ItemKey } from '#shared/db/keys';
import { isConditionFailure, isTransactionCanceled, tableName, type TransactionPart, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { ConflictError, NotFoundError } from '#shared/errors';
import {
  familyFromItem,
  familyPut,
  familyTouch,
  loginFailuresFromItem,
  loginFromItem,
  loginPut,
  loginResetUpdate,
  newPasswordUpdate,
  refreshTokenFromItem,
  refreshTokenPut,
  refreshTokenUse,
  registrationFromItem,
  registrationPut,
  resetCodeFromItem,
  resetCodePut,
  resetCodeUse,
  sessionLoginCheck,
  signingKeysFromItem,
  signingKeysPut,
  type LoginFailuresRecord,
  type LoginRecord,
  type RefreshFamilyRecord,
  type RefreshTokenRecord,
  type RegistrationRecord,
  type ResetCodeRecord,
  type SigningKeysRecord,
} from './stored';

const consistentRead = async (key: ItemKey): Promise<Record<string, unknown> | undefined> =>
  (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const send = (item: TransactItem) => {
  if (item.Put) return dynamo().send(new PutCommand(item.Put as never));
  if (item.Update) return dynamo().send(new UpdateCommand(item.Update as never));
  throw new Error('Only a put or an update is sent alone');
};

// Logins

export async function readLogin(tenant: Tenant, customerId: number): Promise<LoginRecord | undefined> {
  const item = await consistentRead(customerAuthKeys.login(tenant, customerId));
  return item ? loginFromItem(customerId, item) : undefined;
}

/** Gives an existing customer its login: 404 without the customer, 409 when it has one already. */
export async function insertLogin(tenant: Tenant, login: LoginRecord): Promise<void> {
  await transactWrite([
    {
      item: {
        ConditionCheck: {
          TableName: tableName(),
          Key: tenantKeys.customer(tenant, login.customer_id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      onConditionFailure: () => new NotFoundError('customer', login.customer_id),
    },
    { item: loginPut(tenant, login), onConditionFailure: () => new ConflictError('This customer already has a login') },
  ]);
}

/** Replaces the hash `verifiedHash` with `passwordHash` while the login still holds it; false when it no longer does. */
export async function replacePasswordHash(
  tenant: Tenant,
  customerId: number,
  verifiedHash: string,
  passwordHash: string,
  now: Date,
): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerAuthKeys.login(tenant, customerId),
        UpdateExpression: 'SET password_hash = :hash, updated_at = :now',
        ConditionExpression: 'password_hash = :verified',
        ExpressionAttributeValues: { ':hash': passwordHash, ':verified': verifiedHash, ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * The login's new password with its generations moved (stored.ts `newPasswordUpdate`), while the
 * login still holds `verifiedHash`; false when it no longer does (a change or reset came first).
 */
export async function changeLoginPassword(
  tenant: Tenant,
  customerId: number,
  change: { verifiedHash: string; passwordHash: string; keepSession: string | null },
  now: Date,
): Promise<boolean> {
  const update = newPasswordUpdate(change.passwordHash, change.keepSession, now);
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerAuthKeys.login(tenant, customerId),
        ...update,
        ConditionExpression: 'password_hash = :verified',
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':verified': change.verifiedHash },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// Mailed codes

export async function insertResetCode(tenant: Tenant, codeHash: string, code: ResetCodeRecord): Promise<void> {
  await send(resetCodePut(tenant, codeHash, code));
}

export async function insertRegistration(tenant: Tenant, codeHash: string, registration: RegistrationRecord): Promise<void> {
  await send(registrationPut(tenant, codeHash, registration));
}

export async function readResetCode(tenant: Tenant, codeHash: string): Promise<ResetCodeRecord | undefined> {
  const item = await consistentRead(customerAuthKeys.passwordReset(tenant, codeHash));
  return item ? resetCodeFromItem(item) : undefined;
}

export async function readRegistration(tenant: Tenant, codeHash: string): Promise<RegistrationRecord | undefined> {
  const item = await consistentRead(customerAuthKeys.registration(tenant, codeHash));
  return item ? registrationFromItem(item) : undefined;
}

/**
 * A reset code's use and the login's new password in one transaction (stored.ts: the code unused
 * and unexpired, its generation still the login's). False when a condition failed: the code does
 * not hold (used, expired, or ended by a change or another code's use).
 */
export async function resetPasswordWithCode(
  tenant: Tenant,
  codeHash: string,
  code: { customerId: number; generation: number },
  passwordHash: string,
  now: Date,
): Promise<boolean> {
  try {
    await transactWrite([
      resetCodeUse(tenant, codeHash, now),
      loginResetUpdate(tenant, code.customerId, code.generation, passwordHash, now),
    ]);
    return true;
  } catch (error) {
    if (isTransactionCanceled(error) && (error.CancellationReasons ?? []).some((reason) => reason?.Code === 'ConditionalCheckFailed')) {
      return false;
    }
    throw error;
  }
}

/**
 * A confirmed registration of a new customer: the code's use (`use`), the customer's creation
 * (customers' `customerCreation` writes) and its login, all or nothing.
 */
export async function insertRegisteredCustomer(
  tenant: Tenant,
  use: TransactionPart,
  customerWrites: (TransactItem | TransactionPart)[],
  login: LoginRecord,
): Promise<void> {
  await transactWrite([use, ...customerWrites, loginPut(tenant, login)]);
}

/**
 * A confirmed registration of the address's customer: the code's use (`use`), the login
 * (`onLoginExists` when the customer has one), on condition that the address still belongs to the
 * customer (`onEmailMoved` when it does not), all or nothing.
 */
export async function attachRegisteredLogin(
  tenant: Tenant,
  use: TransactionPart,
  login: LoginRecord,
  email: string,
  onLoginExists: () => Error,
  onEmailMoved: () => Error,
): Promise<void> {
  await transactWrite([
    use,
    { item: loginPut(tenant, login), onConditionFailure: onLoginExists },
    { item: emailOwnerCheck(tenant, email, login.customer_id), onConditionFailure: onEmailMoved },
  ]);
}

// Refresh tokens and their families

/** A new family with its first token, in one transaction. */
export async function insertFamily(
  tenant: Tenant,
  familyId: string,
  family: RefreshFamilyRecord,
  first: { tokenHash: string; token: RefreshTokenRecord },
): Promise<void> {
  await transactWrite([familyPut(tenant, familyId, family), refreshTokenPut(tenant, first.tokenHash, first.token)]);
}

export async function readRefreshToken(tenant: Tenant, tokenHash: string): Promise<RefreshTokenRecord | undefined> {
  const item = await consistentRead(customerAuthKeys.refreshToken(tenant, tokenHash));
  return item ? refreshTokenFromItem(item) : undefined;
}

/** What the authorizer holds a session to: the family's customer, revocation and generation. */
export async function readFamily(
  tenant: Tenant,
  familyId: string,
): Promise<Pick<RefreshFamilyRecord, 'customer_id' | 'revoked_at' | 'generation'> | undefined> {
  const item = (
    await dynamo().send(
      new GetCommand({
        TableName: tableName(),
        Key: customerAuthKeys.family(tenant, familyId),
        ProjectionExpression: 'customer_id, revoked_at, generation',
        ConsistentRead: true,
      }),
    )
  ).Item;
  return item ? familyFromItem(item) : undefined;
}

/** Marks a family revoked (the first time only); a family that does not exist stays so. */
export async function revokeFamily(tenant: Tenant, familyId: string, now: Date): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerAuthKeys.family(tenant, familyId),
        UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** How a rotation's transaction ended: which condition failed first, in the order that decides (family, login, token). */
export type RotationOutcome = 'rotated' | 'family-revoked' | 'login-ended' | 'token-used';

/**
 * A rotation in one transaction: the old token used (it was unused), the family touched (it is
 * not revoked), the next token put, the login checked (stored.ts `sessionLoginCheck`).
 */
export async function rotateRefreshToken(
  tenant: Tenant,
  rotation: {
    tokenHash: string;
    familyId: string;
    customerId: number;
    generation: number;
    next: { tokenHash: string; token: RefreshTokenRecord };
  },
  now: Date,
): Promise<RotationOutcome> {
  const { tokenHash, familyId, customerId, generation, next } = rotation;
  try {
    await transactWrite([
      refreshTokenUse(tenant, tokenHash, now),
      familyTouch(tenant, familyId, now, next.token.expires_at),
      refreshTokenPut(tenant, next.tokenHash, next.token),
      sessionLoginCheck(tenant, customerId, generation, familyId),
    ]);
    return 'rotated';
  } catch (error) {
    if (!isTransactionCanceled(error)) throw error;
    const [tokenReason, familyReason, , loginReason] = (error.CancellationReasons ?? []).map((reason) => reason?.Code);
    if (familyReason === 'ConditionalCheckFailed') return 'family-revoked';
    if (loginReason === 'ConditionalCheckFailed') return 'login-ended';
    if (tokenReason === 'ConditionalCheckFailed') return 'token-used';
    throw error;
  }
}

// The lockout count

export type AttemptReservation = { reserved: true } | { reserved: false; count: LoginFailuresRecord | undefined };

/**
 * Counts one attempt in the email's open window — an atomic increment, on condition that the window
 * opened after `windowOpen` and fewer than `max` are counted — or answers the count that refused it
 * (none: no item).
 */
export async function countAttempt(tenant: Tenant, emailHash: string, windowOpen: number, max: number): Promise<AttemptReservation> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerAuthKeys.loginFailures(tenant, emailHash),
        UpdateExpression: 'ADD failures :one',
        ConditionExpression: 'window_start > :windowOpen AND failures < :max',
        ExpressionAttributeValues: { ':one': 1, ':windowOpen': windowOpen, ':max': max },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { reserved: true };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The old item comes back as DynamoDB's attribute values: the document client does not convert an error's.
    const old = (error as { Item?: Record<string, never> }).Item;
    return { reserved: false, count: old ? loginFailuresFromItem(unmarshall(old)) : undefined };
  }
}

/**
 * Starts a window counting one attempt (at `nowSeconds`, expiring at `expiresAt`), on condition that
 * none is open (none opened after `windowOpen`); false when a racing attempt opened one first.
 */
export async function startAttemptWindow(
  tenant: Tenant,
  emailHash: string,
  window: { nowSeconds: number; windowOpen: number; expiresAt: number },
): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerAuthKeys.loginFailures(tenant, emailHash),
        UpdateExpression: 'SET failures = :one, window_start = :now, expires_at = :ttl',
        ConditionExpression: 'attribute_not_exists(pk) OR window_start <= :windowOpen',
        ExpressionAttributeValues: { ':one': 1, ':now': window.nowSeconds, ':ttl': window.expiresAt, ':windowOpen': window.windowOpen },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function deleteAttempts(tenant: Tenant, emailHash: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: customerAuthKeys.loginFailures(tenant, emailHash) }));
}

// The stage's token-signing keys (a platform item: route functions only read it)

export async function readSigningKeys(): Promise<SigningKeysRecord | undefined> {
  const item = await consistentRead(platformKeys.customerTokenKeys);
  return item ? signingKeysFromItem(item) : undefined;
}

/** The public JWKs only (current, then previous), read by projection: what verifying a token needs. */
export async function readPublishedJwks(): Promise<JWK[]> {
  const item = (
    await dynamo().send(
      new GetCommand({
        TableName: tableName(),
        Key: platformKeys.customerTokenKeys,
        ProjectionExpression: '#current.public_jwk, #previous.public_jwk',
        ExpressionAttributeNames: { '#current': 'current', '#previous': 'previous' },
      }),
    )
  ).Item as { current?: { public_jwk: JWK }; previous?: { public_jwk: JWK } | null } | undefined;
  return [item?.current?.public_jwk, item?.previous?.public_jwk].filter((jwk): jwk is JWK => jwk !== undefined);
}

/** Puts the keys on condition that the current kid is still `expectedKid` (none: no keys yet); false when it is not. */
export async function putSigningKeys(keys: SigningKeysRecord, expectedKid: string | null): Promise<boolean> {
  try {
    await send(signingKeysPut(keys, expectedKid));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
