/**
 * Key patterns of the single table — the only module that builds keys. Every tenant key starts
 * with `T#<accountId>#<mode>` and every tenant key builder takes the tenant, so no code can
 * address another tenant's data by accident. The table of patterns is in docs/data-model.md.
 */
import type { Tenant } from '../auth/principal';
import { padId } from '../ids';

export interface ItemKey {
  pk: string;
  sk: string;
}

export const tenantPrefix = (tenant: Tenant): string => `T#${tenant.accountId}#${tenant.mode}`;

/** Platform (non-tenant) items: accounts and API keys. */
export const platformKeys = {
  account: (accountId: string): ItemKey => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' }),
  /** The key record listed under its account (holds the hash so revocation can find the lookup item). */
  accountApiKey: (accountId: string, keyId: string): ItemKey => ({ pk: `ACCOUNT#${accountId}`, sk: `KEY#${keyId}` }),
  accountApiKeyPrefix: 'KEY#',
  /** The lookup item the authorizer reads: by SHA-256 of the key. */
  apiKeyByHash: (hash: string): ItemKey => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  /** gsi1 partition listing all accounts, newest first. */
  accountsCollection: 'ACCOUNTS',
};

/** Named per-tenant sequences (integer ids) and totals (list counts). */
export type SequenceName = 'customer' | 'address' | 'order' | 'product' | 'invoice' | 'quote' | 'job' | 'machine' | 'shipment' | 'file';

export const tenantKeys = {
  sequence: (tenant: Tenant, name: SequenceName): ItemKey => ({ pk: `${tenantPrefix(tenant)}#META`, sk: `SEQ#${name}` }),
  total: (tenant: Tenant, collection: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#META`, sk: `COUNT#${collection}` }),

  customer: (tenant: Tenant, id: number): ItemKey => ({ pk: `${tenantPrefix(tenant)}#CUSTOMER#${id}`, sk: 'CUSTOMER' }),
  /** Addresses live in their customer's partition: one Query reads a customer with all addresses. */
  address: (tenant: Tenant, customerId: number, addressId: number): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#CUSTOMER#${customerId}`,
    sk: `ADDRESS#${padId(addressId)}`,
  }),
  addressPrefix: 'ADDRESS#',
  /** Uniqueness marker: one per (tenant, lower-cased email), written in the same transaction as the customer. */
  customerEmail: (tenant: Tenant, email: string): ItemKey => ({
    pk: `${tenantPrefix(tenant)}#CUSTOMER_EMAIL#${email.toLowerCase()}`,
    sk: 'UNIQUE',
  }),
  customersCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#CUSTOMERS`,
  customersByName: (tenant: Tenant): string => `${tenantPrefix(tenant)}#CUSTOMERS_BY_NAME`,

  event: (tenant: Tenant, eventId: string): ItemKey => ({ pk: `${tenantPrefix(tenant)}#EVENT#${eventId}`, sk: 'EVENT' }),
  /** gsi1 partition of a tenant's events, in creation order (event ids are time-ordered). */
  eventsCollection: (tenant: Tenant): string => `${tenantPrefix(tenant)}#EVENTS`,
};

/** Sort key of creation-ordered collections: ISO time then padded id (newest first when reversed). */
export const createdSortKey = (createdAt: string, id: number): string => `${createdAt}#${padId(id)}`;
