export interface Fixtures {
  /** Base URL of the local gateway. */
  api: string;
  /** Environment pointing AWS SDK clients at the test engines, and the tests' scrypt cost (TEST_SCRYPT_LOG_N). */
  env: Record<string, string>;
  shop: { accountId: string; secretTest: string; secretLive: string; publishableTest: string; customersReadOnly: string };
  other: { accountId: string; secretTest: string };
  /** Currency CHF, tax rate 7.7 % (prices and taxes of another account); `productsReadOnly` has only products:read. */
  swiss: { accountId: string; secretTest: string; publishableTest: string; productsReadOnly: string };
  /** Where each test worker records the operations its calls reached (./contract-check.ts), read by the global teardown. */
  calledOperationsDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    fixtures: Fixtures;
  }
}
