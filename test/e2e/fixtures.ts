export interface E2eFixtures {
  /** Origin of the local gateway: the API under /v1 and the admin panel under /admin. */
  origin: string;
  /** Environment pointing AWS SDK clients at the test engines (to revoke a key mid-session). */
  env: Record<string, string>;
  shop: {
    accountId: string;
    name: string;
    secretTest: string;
    /** A secret test key with neither webhooks:read nor webhooks:write. */
    withoutWebhooks: string;
    /** A key the tests revoke while it is signed in. */
    revocable: { id: string; key: string };
  };
  /** The account of the shop's-day tests (admin-shop.e2e.test.ts). */
  day: {
    accountId: string;
    name: string;
    secretTest: string;
    /** A secret test key with `orders:read` only. */
    ordersOnly: string;
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eFixtures;
  }
}
