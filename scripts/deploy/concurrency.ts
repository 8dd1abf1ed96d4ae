/**
 * How many concurrent Lambda executions a stage is built to use, and the preflight's warning when
 * the account's quota in the region is below that. New accounts often start at 10 (AWS's default is
 * 1,000): everything deploys, but the API and the workers then share ten executions.
 *
 * The stack reserves no concurrency (no `reservedConcurrentExecutions` in infra/, held by the
 * preflight's test): every function draws on the account's unreserved pool, so that pool is what
 * is compared. A reservation would also need AWS's floor of 100 unreserved executions left over,
 * which a quota of 10 can never leave, and would fail the deploy itself.
 */
import { GetAccountSettingsCommand, type GetAccountSettingsCommandOutput } from '@aws-sdk/client-lambda';
import type { WorkerDefinition } from '#shared/workers';
import type { StageConfig } from '#infra/stages';
import { type Operation, type Verdict, failureOf } from './verdict';

/**
 * How long one API request may hold a function instance, at most, in this estimate: a warm route
 * call takes milliseconds (docs/performance.md), a cold start or a first PDF render a few hundred;
 * a second covers both with room.
 */
export const SECONDS_PER_API_REQUEST = 1;

/** The Service Quotas code of "Lambda: Concurrent executions". */
export const LAMBDA_CONCURRENCY_QUOTA_CODE = 'L-B99A9384';

/** AWS's default quota of concurrent executions per region, what an increase request usually asks for. */
export const DEFAULT_LAMBDA_CONCURRENCY = 1000;

export interface ConcurrencyAssumption {
  /** The stage's gateway rate limit (requests per second). */
  apiRequestsPerSecond: number;
  /** The API's share: that rate × SECONDS_PER_API_REQUEST. */
  api: number;
  /** Each worker's most concurrent executions, largest first. */
  workers: { id: string; concurrency: number }[];
  total: number;
}

/**
 * A worker's most concurrent executions: a queue's event source at its maximum concurrency; a
 * stream worker one per shard at a time (counted as one: a new table's stream has few); a scheduled
 * one a single run, shorter than its interval.
 */
function workerConcurrency(worker: WorkerDefinition): number {
  return worker.source.kind === 'queue' ? worker.source.maxConcurrency : 1;
}

export function assumedConcurrency(stage: Pick<StageConfig, 'throttle'>, workers: readonly WorkerDefinition[]): ConcurrencyAssumption {
  const apiRequestsPerSecond = stage.throttle.rateLimit;
  const api = Math.ceil(apiRequestsPerSecond * SECONDS_PER_API_REQUEST);
  const perWorker = workers
    .map((worker) => ({ id: worker.id, concurrency: workerConcurrency(worker) }))
    .sort((a, b) => b.concurrency - a.concurrency);
  const total = api + perWorker.reduce((sum, worker) => sum + worker.concurrency, 0);
  return { apiRequestsPerSecond, api, workers: perWorker, total };
}

/** What the estimate is made of: `50 for the API (…) and 22 for the workers (…)`. */
export function describeAssumption(assumed: ConcurrencyAssumption): string {
  const workersTotal = assumed.total - assumed.api;
  const workers = assumed.workers.map((worker) => `${worker.id} ${worker.concurrency}`).join(', ');
  return (
    `${assumed.api} for the API (its gateway admits ${assumed.apiRequestsPerSecond} requests/s, each taking up to ${SECONDS_PER_API_REQUEST} s) ` +
    `and ${workersTotal} for the workers (${workers})`
  );
}

/** Warns when the account's unreserved concurrency in the region is below what the stage assumes. */
export async function checkConcurrency(
  lambda: Operation<GetAccountSettingsCommand, GetAccountSettingsCommandOutput>,
  region: string,
  stageName: string,
  assumed: ConcurrencyAssumption,
): Promise<Verdict> {
  let settings: GetAccountSettingsCommandOutput;
  try {
    settings = await lambda.send(new GetAccountSettingsCommand({}));
  } catch (error) {
    return { kind: 'warning', message: `Could not read the Lambda quotas in ${region} (Lambda GetAccountSettings: ${failureOf(error)}).` };
  }
  const quota = settings.AccountLimit?.ConcurrentExecutions;
  const unreserved = settings.AccountLimit?.UnreservedConcurrentExecutions ?? quota;
  if (quota === undefined || unreserved === undefined) {
    return { kind: 'warning', message: `Lambda GetAccountSettings in ${region} answered no concurrency quota.` };
  }
  if (unreserved >= assumed.total) {
    return {
      kind: 'ok',
      message:
        `Lambda concurrency: ${unreserved} unreserved of ${quota} in ${region}, enough for the ${assumed.total} stage ${stageName} ` +
        `assumes: ${describeAssumption(assumed)}`,
    };
  }
  const desired = Math.max(DEFAULT_LAMBDA_CONCURRENCY, Math.ceil(assumed.total / 100) * 100);
  return {
    kind: 'warning',
    message:
      `Lambda concurrency in ${region} is ${quota} (${unreserved} unreserved), below the ${assumed.total} stage ${stageName} assumes: ` +
      `${describeAssumption(assumed)}. ` +
      `Beyond the quota Lambda throttles: API calls fail and queued work waits. The deploy goes on; ask for more:\n` +
      `  aws service-quotas request-service-quota-increase --service-code lambda --quota-code ${LAMBDA_CONCURRENCY_QUOTA_CODE} --desired-value ${desired} --region ${region}`,
  };
}
