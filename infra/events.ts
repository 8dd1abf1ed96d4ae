/**
 * The webhook deliveries queue and its dead-letter queue, from shared/resources.ts, the stream
 * router's on-failure queue, and alarms. The DLQ has a consumer (the WebhookDeadLetter worker marks
 * its deliveries failed and removes them), so messages that stay visible there mean that consumer
 * is failing; anything on the router's failure queue is a batch of events that was not routed
 * within 24 h; a deliveries queue whose oldest message is an hour old is not being drained.
 * The file preflight worker's on-failure queue holds files whose print check kept failing.
 * All need a human.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { holdingQueues, physicalName, queues } from '#shared/resources';
import type { StageConfig } from './stages';

export class Events extends Construct {
  readonly deliveriesQueue: sqs.Queue;
  readonly deliveriesDlq: sqs.Queue;
  readonly deliveriesDlqAlarm: cloudwatch.Alarm;
  readonly deliveriesAgeAlarm: cloudwatch.Alarm;
  readonly routerFailures: sqs.Queue;
  readonly routerFailuresAlarm: cloudwatch.Alarm;
  readonly preflightFailures: sqs.Queue;
  readonly preflightFailuresAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, stage: StageConfig) {
    super(scope, id);
    const definition = queues.deliveries;
    const common = { enforceSSL: true, encryption: sqs.QueueEncryption.SQS_MANAGED, removalPolicy: stage.removalPolicy };

    this.deliveriesDlq = new sqs.Queue(this, definition.deadLetter.id, {
      ...common,
      queueName: physicalName(stage.name, definition.deadLetter.id),
      retentionPeriod: Duration.seconds(definition.deadLetter.retentionSeconds),
    });
    this.deliveriesQueue = new sqs.Queue(this, definition.id, {
      ...common,
      queueName: physicalName(stage.name, definition.id),
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      retentionPeriod: Duration.seconds(definition.retentionSeconds),
      deadLetterQueue: { queue: this.deliveriesDlq, maxReceiveCount: definition.deadLetter.maxReceiveCount },
    });

    this.deliveriesDlqAlarm = new cloudwatch.Alarm(this, `${definition.deadLetter.id}Depth`, {
      alarmName: physicalName(stage.name, `${definition.deadLetter.id}Depth`),
      alarmDescription: 'Dead-lettered webhook deliveries are not being marked failed (the DLQ handler is failing).',
      metric: this.deliveriesDlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      // The handler drains the DLQ within seconds; five minutes of backlog means it is failing.
      evaluationPeriods: 5,
      datapointsToAlarm: 5,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    // SQS reports the oldest message received at most three times (a message received more often
    // moves to the back of that count), so retries hidden for hours do not keep it up: with the
    // default schedule a message's third receive is 6 minutes after its first and its fourth 36
    // minutes later. An hour means new deliveries are waiting: the worker is failing, throttled
    // or capped by its maximum concurrency behind slow receivers.
    this.deliveriesAgeAlarm = new cloudwatch.Alarm(this, `${definition.id}OldestMessage`, {
      alarmName: physicalName(stage.name, `${definition.id}OldestMessage`),
      alarmDescription:
        'Webhook deliveries have waited in the deliveries queue for over an hour: the delivery worker is failing, throttled, or at its maximum concurrency behind slow receivers.',
      metric: this.deliveriesQueue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 3600,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    const failures = holdingQueues.routerFailures;
    this.routerFailures = new sqs.Queue(this, failures.id, {
      ...common,
      queueName: physicalName(stage.name, failures.id),
      retentionPeriod: Duration.seconds(failures.retentionSeconds),
    });
    Validations.of(this.routerFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the failure destination of the stream router; it has no consumer to redrive from.',
    });
    this.routerFailuresAlarm = new cloudwatch.Alarm(this, `${failures.id}Depth`, {
      alarmName: physicalName(stage.name, `${failures.id}Depth`),
      alarmDescription:
        'A batch of outbox events could not be routed to webhooks within 24 h of retries. Re-route its time range from the outbox: npm run events -- replay --stage <stage> --account <id> --mode <mode> --from <time> (docs/events.md#replay).',
      metric: this.routerFailures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    const preflight = holdingQueues.preflightFailures;
    this.preflightFailures = new sqs.Queue(this, preflight.id, {
      ...common,
      queueName: physicalName(stage.name, preflight.id),
      retentionPeriod: Duration.seconds(preflight.retentionSeconds),
    });
    Validations.of(this.preflightFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the failure destination of the file preflight worker; it has no consumer to redrive from.',
    });
    this.preflightFailuresAlarm = new cloudwatch.Alarm(this, `${preflight.id}Depth`, {
      alarmName: physicalName(stage.name, `${preflight.id}Depth`),
      alarmDescription:
        "A file's print preflight kept failing (its record is on this queue: the stream shard and sequence range); the file is usable, its preflight stays pending (docs/files.md#preflight).",
      metric: this.preflightFailures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
