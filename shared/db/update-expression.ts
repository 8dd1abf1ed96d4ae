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
