import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Five projects: unit (pure functions), integration (real handlers over HTTP against DynamoDB
 * Local and the SQS/S3 emulators, started once by the global setup on free ports), fuzz (hostile
 * inputs to every documented operation, against the same stack), infra (CDK assertions, bundles)
 * and e2e (the admin panel in Chromium). `npm test` runs all five.
 *
 * Scheduling: vitest's default is a worker per core but one, so on two cores (CI) one worker,
 * which runs every file one after the other while most integration files wait on the stack,
 * timers and queues. Instead, at least two workers (WORKERS), and three phases
 * (`sequence.groupOrder`), each of WORKERS files at a time:
 *   0. fuzz (one file, busy on the stack's CPU from the start) beside the integration files, which
 *      mostly wait; then unit files filling the gaps as the last integration files finish;
 *   1. infra (CDK synthesis, esbuild: CPU-bound, nothing timing-sensitive left beside it);
 *   2. e2e alone, so a browser does not compete with timing-sensitive tests.
 */
const WORKERS = Math.max(2, availableParallelism() - 1);

/** The local stack the integration and fuzz projects share (test/support/global-setup.ts). */
const againstTheStack = { globalSetup: ['test/support/global-setup.ts'], setupFiles: ['test/support/integration-env.ts'] };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // The SDK's own tests (sdk/test) run with the unit files: pure, over a fake fetch.
          include: ['test/unit/**/*.test.ts', 'sdk/test/**/*.test.ts'],
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          ...againstTheStack,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // A few thousand generated requests in one test: a project of its own (`npm run test:fuzz`).
        test: {
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          ...againstTheStack,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      {
        // One module graph for the infra files (isolate: false): aws-cdk-lib is imported once, and each stage's stack
        // is synthesized once per worker and shared by the tests that only read it (test/infra/helpers.ts, sharedStack).
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The admin panel in headless Chromium against its own local stack (test/e2e/global-setup.ts).
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
