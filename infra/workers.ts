/**
 * The worker functions of shared/workers.ts — the stream router, the webhook delivery worker, the
 * DLQ handler, the delivery sweeper, the legacy price sweeper and the file preflight — with their event source mappings or schedules, their
 * least-privilege grants and their alarms (errors, throttles; the router's iterator age), built
 * from the same definitions the local runtime polls with. Adding a worker there is all it takes.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { env } from '#shared/config';
import { physicalName } from '#shared/resources';
import type { QueueRef, WorkerDefinition } from '#shared/workers';
import { functionAlarms, iteratorAgeAlarm } from './alarms';
import { ServiceFunction } from './function';
import { grantBucket, grantTable } from './grants';
import type { StageConfig } from './stages';

export interface WorkersProps {
  stage: StageConfig;
  workers: readonly WorkerDefinition[];
  projectRoot: string;
  environment: Record<string, string>;
  table: dynamodb.Table;
  /** Read by the workers with `access.files` (the file preflight). */
  filesBucket: s3.Bucket;
  queues: Record<QueueRef, sqs.Queue>;
}

export class Workers extends Construct {
  /** Worker id → its function. */
  readonly functions = new Map<string, ServiceFunction>();
  /** Worker id → its alarms. */
  readonly alarms = new Map<string, cloudwatch.Alarm[]>();

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    const { queues } = props;
    for (const worker of props.workers) {
      const fn = new ServiceFunction(this, `${worker.id}Fn`, {
        stage: props.stage,
        projectRoot: props.projectRoot,
        handler: worker.handler,
        description: worker.description,
        timeoutSeconds: worker.timeoutSeconds,
        ...(worker.memorySizeMb ? { memorySizeMb: worker.memorySizeMb } : {}),
        // The delivery worker moves exhausted deliveries to the DLQ itself.
        environment: { ...props.environment, [env.deliveriesDlqUrl]: queues.deliveriesDlq.queueUrl },
      });
      this.functions.set(worker.id, fn);
      const alarms = functionAlarms(this, props.stage, worker.id, fn, `${worker.id} (${worker.description})`);
      this.alarms.set(worker.id, alarms);
      grantTable(fn, props.table, worker.access.table);
      if (worker.access.files) grantBucket(fn, props.filesBucket, worker.access.files);
      for (const ref of worker.access.sendTo) queues[ref].grantSendMessages(fn);

      const source = worker.source;
      if (source.kind === 'table-stream') {
        fn.addEventSource(
          new DynamoEventSource(props.table, {
            // The router and the preflight are idempotent, so starting from the oldest record loses nothing on deploy.
            startingPosition: lambda.StartingPosition.TRIM_HORIZON,
            batchSize: source.batchSize,
            bisectBatchOnError: source.bisectBatchOnError,
            // -1: retried until the record is maxRecordAge old (MaximumRetryAttempts -1).
            retryAttempts: source.retryAttempts,
            maxRecordAge: Duration.seconds(source.maxRecordAgeSeconds),
            onFailure: new SqsDlq(queues[source.onFailure]),
            filters: [lambda.FilterCriteria.filter(source.filter)],
          }),
        );
        Validations.of(fn).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason: 'dynamodb:ListStreams has no resource-level permissions; the event source mapping needs it to find the table stream.',
        });
        alarms.push(iteratorAgeAlarm(this, props.stage, worker.id, fn, source));
      } else if (source.kind === 'queue') {
        // Consuming grants receive, delete and ChangeMessageVisibility (how retries are scheduled) on this queue only.
        fn.addEventSource(
          new SqsEventSource(queues[source.queue], {
            batchSize: source.batchSize,
            reportBatchItemFailures: source.reportBatchItemFailures,
            // A backlog or slow receivers use at most this many concurrent invocations, never the API's concurrency.
            maxConcurrency: source.maxConcurrency,
          }),
        );
      } else {
        new events.Rule(this, `${worker.id}Schedule`, {
          ruleName: physicalName(props.stage.name, `${worker.id}Schedule`),
          description: `Runs ${worker.id} every ${source.rateSeconds} s`,
          schedule: events.Schedule.rate(Duration.seconds(source.rateSeconds)),
          targets: [new targets.LambdaFunction(fn, { retryAttempts: 0 })],
        });
      }
    }
  }
}
