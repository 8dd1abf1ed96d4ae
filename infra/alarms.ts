/**
 * The operational alarms besides the queues' own (infra/events.ts, infra/audit.ts): Lambda errors
 * and throttles, API 5xx, the stream router's iterator age. Each alarm has a physical name
 * `print-shop-<stage>-<id>` and a description saying what is wrong and where to look; missing
 * data (no traffic) is not a breach. docs/platform.md#alarms lists them.
 *
 * The workers get an errors and a throttles alarm each (infra/workers.ts): a router error means a
 * stream batch is being retried, a delivery worker error a batch of messages coming back. The ~40
 * API functions share alarms instead of two each (CloudWatch alarms cost per alarm, and a metric
 * math alarm takes at most 10 metrics): their errors and throttles are summed in groups of 10,
 * per route group, in the group's nested stack (infra/stack.ts).
 * A handler's own failures are caught and answered 500, so API 5xx is the alarm that sees them;
 * Lambda errors of an API function mean a crash, a timeout or an out-of-memory.
 *
 * Every alarm of the app, these and any other, notifies the stage's topic when it fires and when it
 * is OK again: infra/notifications.ts gives each one its actions, so none is made here.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { physicalName } from '#shared/resources';
import type { StreamSource } from '#shared/workers';
import type { StageConfig } from './stages';

const PERIOD = Duration.minutes(5);
/** CloudWatch's limit on the metrics of one metric math alarm. */
const METRICS_PER_ALARM = 10;

interface AlarmSpec {
  metric: cloudwatch.IMetric;
  description: string;
  threshold: number;
  evaluationPeriods?: number;
}

/** One alarm: breached when the metric is above `threshold` in `evaluationPeriods` periods in a row (default 1). */
export function alarm(scope: Construct, stage: StageConfig, id: string, spec: AlarmSpec): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmName: physicalName(stage.name, id),
    alarmDescription: spec.description,
    metric: spec.metric,
    threshold: spec.threshold,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: spec.evaluationPeriods ?? 1,
    datapointsToAlarm: spec.evaluationPeriods ?? 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/** An errors and a throttles alarm for one function (`<id>Errors`, `<id>Throttles`). */
export function functionAlarms(scope: Construct, stage: StageConfig, id: string, fn: lambda.IFunction, what: string): cloudwatch.Alarm[] {
  return [
    alarm(scope, stage, `${id}Errors`, {
      metric: fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
      threshold: 0,
      description: `${what}: invocations failed (an exception, a timeout, out of memory). See the function's log group.`,
    }),
    alarm(scope, stage, `${id}Throttles`, {
      metric: fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
      threshold: 0,
      description: `${what}: invocations were throttled (the account's or the function's concurrency is exhausted).`,
    }),
  ];
}

/** Errors and throttles of many functions, summed in groups of METRICS_PER_ALARM (`<id>Errors1`, `<id>Throttles1`, …). */
export function groupedFunctionAlarms(scope: Construct, stage: StageConfig, id: string, functions: lambda.IFunction[], what: string) {
  const alarms: cloudwatch.Alarm[] = [];
  for (let start = 0, group = 1; start < functions.length; start += METRICS_PER_ALARM, group++) {
    const members = functions.slice(start, start + METRICS_PER_ALARM);
    const sum = (name: 'Errors' | 'Throttles', metricOf: (fn: lambda.IFunction) => cloudwatch.Metric) =>
      new cloudwatch.MathExpression({
        expression: members.map((_, index) => `m${index}`).join(' + '),
        usingMetrics: Object.fromEntries(members.map((fn, index) => [`m${index}`, metricOf(fn)])),
        period: PERIOD,
        label: `${what} ${name.toLowerCase()} (group ${group})`,
      });
    alarms.push(
      alarm(scope, stage, `${id}Errors${group}`, {
        metric: sum('Errors', (fn) => fn.metricErrors({ period: PERIOD, statistic: 'Sum' })),
        threshold: 0,
        description: `${what} (group ${group} of the route functions): invocations crashed, timed out or ran out of memory. The alarm's metrics name the functions.`,
      }),
      alarm(scope, stage, `${id}Throttles${group}`, {
        metric: sum('Throttles', (fn) => fn.metricThrottles({ period: PERIOD, statistic: 'Sum' })),
        threshold: 0,
        description: `${what} (group ${group} of the route functions): invocations were throttled (the account's Lambda concurrency is exhausted).`,
      }),
    );
  }
  return alarms;
}

/** API Gateway answered 5xx (a handler's 500, a Lambda crash or timeout as 502/504): more than 5 in 5 minutes. */
export function apiServerErrorAlarm(scope: Construct, stage: StageConfig, api: apigw.RestApi): cloudwatch.Alarm {
  return alarm(scope, stage, 'Api5xx', {
    metric: api.metricServerError({ period: PERIOD, statistic: 'Sum' }),
    threshold: 5,
    description:
      'The API answered more than 5 server errors (5xx) in 5 minutes. The route functions log each 500 with its stack and request id; 502/504 are crashes and timeouts (see the function alarms).',
  });
}

/**
 * A stream worker's iterator age: how old the records are that it is handling. It retries a failing
 * batch, holding up its shard meanwhile, until its event source gives the batch up to the worker's
 * failure queue (`source`, shared/workers.ts); 10 minutes behind means it is stuck or far behind,
 * long before anything is given up. `EventRouterIteratorAge`, `FilePreflightIteratorAge`.
 */
export function iteratorAgeAlarm(
  scope: Construct,
  stage: StageConfig,
  id: string,
  fn: lambda.IFunction,
  source: StreamSource,
): cloudwatch.Alarm {
  const retries =
    source.retryAttempts === -1
      ? `retried until its records are ${source.maxRecordAgeSeconds / 3600} h old`
      : `retried ${source.retryAttempts} times within ${source.maxRecordAgeSeconds / 3600} h`;
  return alarm(scope, stage, `${id}IteratorAge`, {
    metric: fn.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
    threshold: 10 * 60 * 1000,
    evaluationPeriods: 5,
    description:
      `${id} is more than 10 minutes behind the table stream for 5 minutes: a batch keeps failing (it is ${retries}, ` +
      'then given up to its failure queue) or the worker cannot keep up. Nothing is given up yet; see its log group.',
  });
}
