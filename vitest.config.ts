import { defineConfig } from 'vitest/config';

/**
 * Four projects: unit (pure functions), integration (real handlers over HTTP against DynamoDB
 * Local and the SQS/S3 emulators, started once by the global setup on free ports), infra
 * (CDK assertions) and e2e (the admin panel in Chromium). `npm test` runs all four.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], env: { POWERTOOLS_LOG_LEVEL: 'SILENT' } } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/integration-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // One module graph for the infra files (isolate: false): aws-cdk-lib is imported once, and each stage's stack
        // is synthesized once per worker and shared by the tests that only read it (test/infra/helpers.ts, sharedStack).
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'], isolate: false, testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        // The admin panel in headless Chromium against its own local stack (test/e2e/global-setup.ts),
        // after the other projects, so a browser does not compete with timing-sensitive integration tests.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
