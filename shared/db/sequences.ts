import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys, type SequenceName } from './keys';
import { tableName, type TransactItem } from './table';

/**
 * Allocates the next integer id of a tenant's sequence with one atomic ADD. A failed create
 * afterwards leaves a gap, never a duplicate.
 */
export async function nextId(tenant: Tenant, name: SequenceName): Promise<number> {
  const result = await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: tenantKeys.sequence(tenant, name),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}

/** A transaction item that moves a collection's total by `delta`, kept in the same transaction as the create or delete. */
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
