/**
 * A customer's login and the one-time codes mailed to customers (password reset, registration). The login — the
 * password hash (passwords.ts) — is an item in the customer's own partition, so deleting the
 * customer deletes it in the same transaction (shared/customers/repository.ts) and one customer
 * has at most one. The login also holds two **generations** that end things in one write however
 * many there are (session-rules.ts): sessions of an older `session_generation` than the login's
 * have ended (but `kept_session`, the one a password change was made from), and so have reset codes
 * of an older `code_generation`. A password change or reset moves both in the one conditional
 * update that writes the new hash.
 *
 * Codes are opaque (256 bits), stored as their SHA-256, valid 30 minutes and used at most once:
 * the use is conditional (`used_at` not set, not expired), so two requests with one code cannot
 * both succeed.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash, randomBytes } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { customerAuthKeys, tenantKeys, type ItemKey } from '#shared/db/keys';
import { isConditionFailure, isTransactionCanceled, tableName, type TransactionPart, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { ConflictError, NotFoundError, UnauthorizedError } from '#shared/errors';
import { generationCondition } from './session-rules';

/** How long a mailed code is valid. */
export const CODE_MINUTES = 30;

export interface Login {
  customer_id: number;
  password_hash: string;
  /** Sessions started before the login's current generation have ended (session-rules.ts). */
  session_generation: number;
  /** The session a password change was made from: it goes on although of an older generation. */
  kept_session: string | null;
  /** Reset codes issued before the login's current generation have ended. */
  code_generation: number;
  created_at: string;
  updated_at: string;
}

const loginOf = (customerId: number, item: Record<string, unknown>): Login => ({
  customer_id: customerId,
  password_hash: String(item.password_hash),
  session_generation: Number(item.session_generation ?? 0),
  kept_session: typeof item.kept_session === 'string' ? item.kept_session : null,
  code_generation: Number(item.code_generation ?? 0),
  created_at: String(item.created_at),
  updated_at: String(item.updated_at),
});

export async function readLogin(tenant: Tenant, customerId: number): Promise<Login | undefined> {
  const item = (
    await dynamo().send(new GetCommand({ TableName: tableName(), Key: customerAuthKeys.login(tenant, customerId), ConsistentRead: true }))
  ).Item;
  return item ? loginOf(customerId, item) : undefined;
}

/** The put of a new login (generations 0): the caller's transaction adds what must hold with it. */
export const loginPut = (tenant: Tenant, customerId: number, passwordHash: string, now: Date): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...customerAuthKeys.login(tenant, customerId),
      entity: 'LOGIN',
      password_hash: passwordHash,
      session_generation: 0,
      code_generation: 0,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** Gives an existing customer a login: 404 without the customer, 409 when it has one already. */
export async function createLogin(tenant: Tenant, customerId: number, passwordHash: string, now = new Date()): Promise<void> {
  try {
    await transactWrite([
      loginPut(tenant, customerId, passwordHash, now),
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: tenantKeys.customer(tenant, customerId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    if (!isTransactionCanceled(error)) throw error;
    const [login, customer] = (error.CancellationReasons ?? []).map((reason) => reason?.Code);
    if (customer === 'ConditionalCheckFailed') throw new NotFoundError('customer', customerId);
    if (login === 'ConditionalCheckFailed') throw new ConflictError('This customer already has a login');
    throw error;
  }
}

/**
 * Replaces the hash of the password just verified with one of raised parameters (a rehash at
 * login): only while the login still holds that hash, so a change made meanwhile is never undone.
 */
export async function rehashPassword(tenant: Tenant, customerId: number, verifiedHash: string, passwordHash: string, now = new Date()) {
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
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * The login's new password, with every session and reset code of the current generations ended:
 * `kept` names the session that goes on (a change keeps its own; a reset keeps none).
 */
function newPassword(passwordHash: string, kept: string | null, now: Date) {
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
    },
  };
}

/**
 * A password change: the new hash, every other session and every reset code ended — one
 * conditional update of the login, whatever their number. Conditional on the login still holding
 * the hash the current password was verified against: a change or reset made meanwhile is a 409.
 */
export async function changePasswordHash(
  tenant: Tenant,
  customerId: number,
  change: { verifiedHash: string; passwordHash: string; keepSession: string | null },
  now = new Date(),
): Promise<void> {
  const update = newPassword(change.passwordHash, change.keepSession, now);
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
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError('The password was changed meanwhile: sign in again');
    throw error;
  }
}

// One-time codes

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new code: `<prefix>_` and 256 random bits, base64url. */
const newCode = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** Puts a new code's item (only its hash is the key); answers the code and when it expires. */
async function putCode(
  keyOf: (hash: string) => ItemKey,
  prefix: string,
  entity: string,
  attributes: Record<string, unknown>,
  now: Date,
): Promise<{ code: string; expiresAt: string }> {
  const code = newCode(prefix);
  const expires = new Date(now.getTime() + CODE_MINUTES * 60_000);
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keyOf(hashOf(code)),
        entity,
        ...attributes,
        valid_until: expires.toISOString(),
        // The table's TTL attribute (epoch seconds), an hour after the code expired.
        expires_at: Math.floor(expires.getTime() / 1000) + 3600,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { code, expiresAt: expires.toISOString() };
}

/** A code's item while it is usable at `now` (neither used nor expired), or undefined. */
async function readUsableCode(key: ItemKey, now: Date): Promise<Record<string, unknown> | undefined> {
  const item = (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  return item && item.used_at === undefined && String(item.valid_until) > now.toISOString() ? item : undefined;
}

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

/**
 * A new password-reset code for the login (the code itself goes only into the email), of the
 * login's current code generation. Without a login, a code bound to no one — never mailed, never
 * usable — so that a request for an unknown email writes what a request for a known one writes.
 */
export async function issueResetToken(
  tenant: Tenant,
  login: Pick<Login, 'customer_id' | 'code_generation'> | undefined,
  now = new Date(),
): Promise<{ token: string; expiresAt: string }> {
  const { code, expiresAt } = await putCode(
    (hash) => customerAuthKeys.passwordReset(tenant, hash),
    'prt',
    'PASSWORD_RESET',
    login ? { customer_id: login.customer_id, generation: login.code_generation } : {},
    now,
  );
  return { token: code, expiresAt };
}

/**
 * Sets a new password with a reset code, once: the code's use and the login's new password (every
 * session and every other code ended) in one transaction — conditional on the code being unused
 * and unexpired, and on its generation being the login's (a code used since, or a password change,
 * ended it). Answers the customer, or undefined for a code that does not hold.
 */
export async function resetPassword(tenant: Tenant, token: string, passwordHash: string, now = new Date()): Promise<number | undefined> {
  const key = customerAuthKeys.passwordReset(tenant, hashOf(token));
  const code = await readUsableCode(key, now);
  if (code?.customer_id === undefined) return undefined;
  const customerId = Number(code.customer_id);
  const generation = Number(code.generation ?? 0);
  const update = newPassword(passwordHash, null, now);
  const condition = generationCondition('code_generation', ':generation', generation);
  try {
    await transactWrite([
      codeUse(key, now),
      {
        Update: {
          TableName: tableName(),
          Key: customerAuthKeys.login(tenant, customerId),
          ...update,
          ConditionExpression: `attribute_exists(pk) AND ${condition}`,
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':generation': generation },
        },
      },
    ]);
  } catch (error) {
    if (isTransactionCanceled(error) && (error.CancellationReasons ?? []).some((reason) => reason?.Code === 'ConditionalCheckFailed')) {
      return undefined;
    }
    throw error;
  }
  return customerId;
}

/** A registration waiting for the code mailed to its address: what was registered, the password only as its hash. */
export interface PendingRegistration {
  email: string;
  name: string;
  password_hash: string;
}

/**
 * A new registration code holding what was registered (the code itself goes only into the email):
 * no customer and no login exist for it until the code comes back (registration.ts).
 */
export async function issueRegistrationCode(
  tenant: Tenant,
  registration: PendingRegistration,
  now = new Date(),
): Promise<{ code: string; expiresAt: string }> {
  return putCode((hash) => customerAuthKeys.registration(tenant, hash), 'reg', 'REGISTRATION', { ...registration }, now);
}

export const invalidRegistrationCode = () => new UnauthorizedError('The registration code is not valid (wrong, used or expired)');

/**
 * The registration a code holds while it is usable, and the transaction part that uses the code
 * once — a 401 when it was used meanwhile or has expired — for the transaction that makes the login.
 */
export async function readRegistration(
  tenant: Tenant,
  code: string,
  now = new Date(),
): Promise<{ registration: PendingRegistration; use: TransactionPart } | undefined> {
  const key = customerAuthKeys.registration(tenant, hashOf(code));
  const item = await readUsableCode(key, now);
  if (!item) return undefined;
  return {
    registration: { email: String(item.email), name: String(item.name), password_hash: String(item.password_hash) },
    use: { item: codeUse(key, now), onConditionFailure: invalidRegistrationCode },
  };
}
