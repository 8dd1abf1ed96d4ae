export interface Fixtures {
  /** Base URL of the local gateway. */
  api: string;
  /** Environment pointing AWS SDK clients at the test engines. */
  env: Record<string, string>;
  shop: { accountId: string; secretTest: string; secretLive: string; publishableTest: string; customersReadOnly: string };
  other: { accountId: string; secretTest: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    fixtures: Fixtures;
  }
}
