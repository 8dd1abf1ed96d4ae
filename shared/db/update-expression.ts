import type { ItemKey } from './keys';
import { tableName, type TransactItem } from './table';

/**
 * Builds `SET a = :a, b = :b REMOVE c` from a plain object: undefined and null values are removed.
 * Used for partial updates so that attributes owned by other writers (counters) are never overwritten.
 */
export interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

export function buildUpdate(
  fields: Record<string, unknown>,
  extraSet: string[] = [],
  extraValues: Record<string, unknown> = {},
): UpdateParts {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...extraValues };
  const sets = [...extraSet];
  const removes: string[] = [];
  let i = 0;
  for (const [field, value] of Object.entries(fields)) {
    const name = `#f${i}`;
    names[name] = field;
    if (value === undefined || value === null) removes.push(name);
    else {
      values[`:f${i}`] = value;
      sets.push(`${name} = :f${i}`);
    }
    i++;
  }
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  return { UpdateExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/**
 * Optimistic locking's write: an Update of the item at `key` that sets `attributes` (null and
 * undefined ones are removed) and raises `version` by one, only while the item still has the
 * version that was read — and, when given, while `also` holds (e.g. the status that was read).
 * `also.set` adds SET clauses of the caller's own (a counter moved in the same write).
 */
export function versionedUpdate(
  key: ItemKey,
  attributes: Record<string, unknown>,
  version: number,
  also: { condition?: string; set?: string[]; names?: Record<string, string>; values?: Record<string, unknown> } = {},
): TransactItem {
  const parts = buildUpdate(attributes, ['#version = :next', ...(also.set ?? [])], {
    ':expected': version,
    ':next': version + 1,
    ...also.values,
  });
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      ...parts,
      ExpressionAttributeNames: { ...parts.ExpressionAttributeNames, '#version': 'version', ...also.names },
      ConditionExpression: also.condition ? `${also.condition} AND #version = :expected` : '#version = :expected',
    },
  };
}

/**
 * Optimistic locking's delete: removes the item at `key` only while it still has the version that
 * was read — and, when `noneOf` names a counter, only while that counter is 0 or absent (open
 * orders block a customer's deletion, order references a product's).
 */
export function versionedDelete(key: ItemKey, version: number, noneOf?: string): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: key,
      ConditionExpression: noneOf
        ? '#version = :expected AND (attribute_not_exists(#counter) OR #counter <= :zero)'
        : '#version = :expected',
      ExpressionAttributeNames: { '#version': 'version', ...(noneOf ? { '#counter': noneOf } : {}) },
      ExpressionAttributeValues: { ':expected': version, ...(noneOf ? { ':zero': 0 } : {}) },
    },
  };
}
