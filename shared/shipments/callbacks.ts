/**
 * Inbound carrier callbacks. Sendcloud calls `POST /v1/carriers/sendcloud/webhook/{token}`: the
 * token names the tenant (and must be the one its settings hold), `Sendcloud-Signature` must be the
 * HMAC-SHA256 of the exact body under the tenant's callback secret (Sendcloud's webhook signature
 * key, or its secret key — sealed apart as the one kind this function may open; constant-time compare).
 * Anything else is 401 and changes nothing. A verified `parcel_status_changed` becomes an update
 * of the shipment its parcel belongs to, through the path every status change takes (updates.ts):
 * the same callback twice is one report, an older one never moves a shipment back.
 */
import { DomainError, UnauthorizedError } from '#shared/errors';
import { parseSendcloudCallback } from './carriers/sendcloud-callback';
import { verifySendcloudSignature } from './carriers/sendcloud-signature';
import { openCallbackSecret, settingsOfCallback } from './settings';
import { applyCarrierUpdates, applyReturnUpdates } from './updates';
import * as repo from './repository';

export interface CallbackReceipt {
  received: true;
  /** The shipment it moved, or null (another action, a parcel not made through this API). */
  shipment_id: number | null;
  outcome: 'applied' | 'recorded' | 'duplicate' | 'stale' | 'ignored';
}

export async function receiveSendcloudCallback(
  token: string,
  rawBody: Uint8Array,
  signature: string | undefined,
): Promise<CallbackReceipt> {
  const { tenant, settings } = await settingsOfCallback('sendcloud', token);
  const secret = await openCallbackSecret(tenant, settings);
  if (!verifySendcloudSignature(secret, rawBody, signature)) throw new UnauthorizedError('Unknown or unsigned carrier callback');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(rawBody).toString('utf8'));
  } catch {
    throw new DomainError('invalid_json', 'The callback body is not JSON');
  }
  const inbound = parseSendcloudCallback(body);
  if (!inbound) return { received: true, shipment_id: null, outcome: 'ignored' };
  const owner = await repo.parcelOwner(tenant, 'sendcloud', inbound.parcel_id);
  if (owner === undefined) return { received: true, shipment_id: null, outcome: 'ignored' };
  // A return parcel's report moves the shipment's return (returns.ts), not the shipment.
  const apply = owner.role === 'return' ? applyReturnUpdates : applyCarrierUpdates;
  const result = await apply(tenant, owner.id, [inbound.update]);
  return { received: true, shipment_id: owner.id, outcome: result.outcomes[0] ?? 'duplicate' };
}
