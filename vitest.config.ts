import { defineConfig } from 'vitest/config';

/**
 * Three projects: unit (pure functions), integration (real handlers over HTTP against DynamoDB
 * Local and the SQS/S3 emulators, started once by the global setup on free ports), and infra
 * (CDK assertions). `npm test` runs all three.
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
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
