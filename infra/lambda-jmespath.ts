/**
 * Stands in for `@aws-lambda-powertools/jmespath` inside Lambda bundles (esbuild alias in
 * infra/bundling.ts). Powertools idempotency only evaluates the expressions we configure in
 * shared/http/idempotency.ts — plain field names (`key`, `request`) — so a full JMESPath
 * interpreter (about 25 KB per bundle) is not needed. A unit test checks that this agrees with
 * the real library on those expressions and refuses anything else loudly.
 */
const plainPath = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

export function search(expression: string, data: unknown, _options?: unknown): unknown {
  if (!plainPath.test(expression)) throw new Error(`Only plain field paths are supported in Lambda bundles, not: ${expression}`);
  let value: unknown = data;
  for (const name of expression.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[name] ?? null;
  }
  return value;
}

/** Custom-function registry placeholder: idempotency constructs one; plain paths never call it. */
export class PowertoolsFunctions {}
export class Functions {}
