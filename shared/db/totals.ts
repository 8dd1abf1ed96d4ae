import type { Tenant } from '#shared/auth/principal';
import { tenantKeys } from './keys';
import { tableName, type TransactItem } from './table';

/**
 * A transaction item that moves a collection's total by `delta`, kept in the same transaction as
 * the create or delete, so `total` in list answers is never counted by reading the list.
 */
export function adjustTotal(tenant: Tenant, collection: string, delta: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.total(tenant, collection),
      UpdateExpression: 'ADD #total :delta',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}
