/**
 * A tenant's carrier settings (per account and mode): the credentials — the secret key sealed with
 * envelope encryption (shared/crypto/envelope.ts, bound to the settings item) as
 * `carrier-credentials`, never shown again — the secret callbacks are verified with, sealed apart
 * as `carrier-callback-secret` (the only kind the unauthenticated callback function may open), the
 * callback token, an optional sender address; and which carrier serves a shipment: in test mode
 * always the sandbox (a test key never reaches a real carrier), in live mode the one named, with
 * the tenant's credentials. Sendcloud's address comes from configuration (`SENDCLOUD_BASE_URL`);
 * only under the local runtime may settings name another (a local fake).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { config } from '#shared/config';
import { isCurrentSeal, open, seal } from '#shared/crypto/envelope';
import type { SecretKind } from '#shared/crypto/kinds';
import { shipmentKeys } from '#shared/db/keys';
import { DomainError, ServiceUnavailableError, UnauthorizedError, ValidationError } from '#shared/errors';
import { randomToken } from '#shared/ids';
import { snapshotAddress } from '#shared/orders/addresses';
import type { Carrier, CarrierName, ConfigurableCarrier } from './carriers/carrier';
import { SandboxCarrier, type SpecimenRenderer } from './carriers/sandbox';
import { SENDCLOUD_BASE_URL, SendcloudCarrier } from './carriers/sendcloud';
import * as repo from './repository';
import type { CarrierSettingsInput } from './schema';
import { storedCarrierSettings, type CarrierSettingsRecord } from './stored';

/** The variable that names Sendcloud's API (tests and staging may point it elsewhere). */
export const SENDCLOUD_BASE_URL_ENV = 'SENDCLOUD_BASE_URL';
/**
 * Sendcloud's time limits: one operation with its retries (default 20 s, inside the 29 s of the
 * routes that call it) and one request (default 8 s). The tests' stack shortens them, so that an
 * unanswered carrier costs seconds there.
 */
export const SENDCLOUD_DEADLINE_ENV = 'SENDCLOUD_DEADLINE_MS';
export const SENDCLOUD_REQUEST_TIMEOUT_ENV = 'SENDCLOUD_REQUEST_TIMEOUT_MS';

function millisecondsOf(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0 || ms > 25_000) throw new Error(`${name} must be a whole number of milliseconds from 1 to 25000`);
  return ms;
}

const ownerOf = (tenant: Tenant, carrier: string): string => {
  const key = shipmentKeys.carrierSettings(tenant, carrier);
  return `${key.pk}|${key.sk}`;
};

/** The API credentials: opened by the functions that call the carrier. */
const CREDENTIALS: SecretKind = 'carrier-credentials';
/** What the carrier signs callbacks with: opened by the callback function, which may open nothing else. */
const CALLBACK: SecretKind = 'carrier-callback-secret';

/** Hosts a `base_url` may name under the local runtime (a fake carrier next to the stack). */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function checkedBaseUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  const url = new URL(value);
  if (!config().localMode || !LOCAL_HOSTS.has(url.hostname)) {
    throw new ValidationError('base_url is only for the local runtime', [
      { field: 'base_url', message: 'may only name 127.0.0.1 or localhost, under the local runtime' },
    ]);
  }
  return value.replace(/\/+$/, '');
}

/** The callback URL's last segment: routes a callback to its tenant (`<account>.<mode>.<random>`); the signature authenticates it. */
const newWebhookToken = (tenant: Tenant): string => `${tenant.accountId}.${tenant.mode}.${randomToken(24)}`;

/** The tenant a callback token names, if it is well-formed. */
export function tenantOfToken(token: string): Tenant | undefined {
  const match = /^(acct_[A-Za-z0-9]+)\.(test|live)\.[A-Za-z0-9]{24}$/.exec(token);
  return match ? { accountId: match[1]!, mode: match[2] as Tenant['mode'] } : undefined;
}

export type CarrierSettingsView = ReturnType<typeof storedCarrierSettings.view> & { webhook_url: string };

export function presentSettings(settings: CarrierSettingsRecord, apiBase: string): CarrierSettingsView {
  return {
    ...storedCarrierSettings.view(settings),
    webhook_url: `${apiBase.replace(/\/+$/, '')}/v1/carriers/${settings.carrier}/webhook/${settings.webhook_token}`,
  };
}

/** `PUT /v1/carriers/{carrier}`: stores the credentials (secret sealed); the callback token stays what it was. */
export async function configureCarrier(
  tenant: Tenant,
  carrier: ConfigurableCarrier,
  input: CarrierSettingsInput,
  now = new Date(),
): Promise<CarrierSettingsRecord> {
  const baseUrl = checkedBaseUrl(input.base_url);
  const before = await repo.readCarrierSettings(tenant, carrier);
  const at = now.toISOString();
  const owner = ownerOf(tenant, carrier);
  const settings: CarrierSettingsRecord = {
    carrier,
    public_key: input.public_key,
    secret_key: await seal(input.secret_key, owner, CREDENTIALS),
    // Sendcloud signs callbacks with the integration's webhook signature key, or else with its secret key.
    callback_secret: await seal(input.webhook_signature_key ?? input.secret_key, owner, CALLBACK),
    secret_hint: `…${input.secret_key.slice(-4)}`,
    base_url: baseUrl,
    sender_address: input.sender_address ? snapshotAddress(input.sender_address) : null,
    sender_address_id: input.sender_address_id ?? null,
    webhook_token: before?.webhook_token ?? newWebhookToken(tenant),
    created_at: before?.created_at ?? at,
    updated_at: at,
    version: (before?.version ?? 0) + 1,
  };
  await repo.putCarrierSettings(tenant, settings);
  return settings;
}

/** The secret key in plaintext, to call the carrier with (never to store or show). */
export const openSecretKey = (tenant: Tenant, settings: CarrierSettingsRecord): Promise<string> =>
  open(settings.secret_key, ownerOf(tenant, settings.carrier), CREDENTIALS);

/**
 * The secret the carrier's callbacks are signed with, in plaintext (never to store or show). Settings
 * stored before it was kept apart have none: their callbacks wait (503, the carrier retries) until
 * the operator's `npm run events -- seal-secrets` adds it — the callback function may not open the
 * credentials instead.
 */
export async function openCallbackSecret(tenant: Tenant, settings: CarrierSettingsRecord): Promise<string> {
  if (!settings.callback_secret) {
    throw new ServiceUnavailableError(
      `These ${settings.carrier} settings were stored before callback secrets were sealed apart: ` +
        'the operator runs `npm run events -- seal-secrets` (or the account sets its credentials again)',
    );
  }
  return open(settings.callback_secret, ownerOf(tenant, settings.carrier), CALLBACK);
}

/**
 * The migration (`npm run events -- seal-secrets`, never a request path): the settings' secrets as
 * they must be stored now — the secret key sealed as `carrier-credentials` under its own context,
 * the callback secret (a copy of the secret key when there was none) as `carrier-callback-secret` —
 * or undefined when they already are.
 */
export async function resealedSettingsSecrets(
  tenant: Tenant,
  settings: CarrierSettingsRecord,
): Promise<{ secret_key: string; callback_secret: string } | undefined> {
  const callbackCurrent = settings.callback_secret !== null && isCurrentSeal(settings.callback_secret, CALLBACK);
  if (isCurrentSeal(settings.secret_key, CREDENTIALS) && callbackCurrent) return undefined;
  const owner = ownerOf(tenant, settings.carrier);
  const secretKey = await open(settings.secret_key, owner, CREDENTIALS);
  return {
    secret_key: isCurrentSeal(settings.secret_key, CREDENTIALS) ? settings.secret_key : await seal(secretKey, owner, CREDENTIALS),
    callback_secret: callbackCurrent ? settings.callback_secret! : await seal(secretKey, owner, CALLBACK),
  };
}

/** The settings a callback's token names, if the token is the one stored (compared in constant time). */
export async function settingsOfCallback(
  carrier: ConfigurableCarrier,
  token: string,
): Promise<{ tenant: Tenant; settings: CarrierSettingsRecord }> {
  const tenant = tenantOfToken(token);
  const refused = () => new UnauthorizedError('Unknown or unsigned carrier callback');
  if (!tenant) throw refused();
  const settings = await repo.readCarrierSettings(tenant, carrier);
  if (!settings) throw refused();
  const given = Buffer.from(token);
  const stored = Buffer.from(settings.webhook_token);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw refused();
  return { tenant, settings };
}

/**
 * The carrier that serves `name` for this tenant. Test mode: the sandbox, always. Live mode: the
 * sandbox is refused (it makes no real labels); Sendcloud needs the tenant's credentials (422
 * naming `PUT /v1/carriers/sendcloud` when there are none).
 */
export async function carrierFor(
  tenant: Tenant,
  name: CarrierName,
  settings?: CarrierSettingsRecord,
  options: { renderSpecimen?: SpecimenRenderer } = {},
): Promise<Carrier> {
  if (tenant.mode === 'test') return new SandboxCarrier(options.renderSpecimen);
  if (name === 'sandbox') {
    throw new ValidationError('The sandbox carrier is for test mode', [
      { field: 'carrier', message: 'use a real carrier with a live key' },
    ]);
  }
  const configured = settings ?? (await repo.readCarrierSettings(tenant, name));
  if (!configured) {
    throw new DomainError(
      'validation_failed',
      `No ${name} credentials for this account's live mode: set them with PUT /v1/carriers/${name}`,
      [{ field: 'carrier', message: `${name} is not configured` }],
    );
  }
  const deadlineMs = millisecondsOf(SENDCLOUD_DEADLINE_ENV);
  const requestTimeoutMs = millisecondsOf(SENDCLOUD_REQUEST_TIMEOUT_ENV);
  return new SendcloudCarrier({
    baseUrl: configured.base_url ?? process.env[SENDCLOUD_BASE_URL_ENV] ?? SENDCLOUD_BASE_URL,
    publicKey: configured.public_key,
    secretKey: await openSecretKey(tenant, configured),
    ...(deadlineMs ? { deadlineMs } : {}),
    ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
  });
}
