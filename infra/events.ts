/**
 * The webhook deliveries queue and its dead-letter queue, from shared/resources.ts, plus an alarm
 * when anything lands in the DLQ (a delivery that exhausted its retries needs a human).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { physicalName, queues } from '../shared/resources';
import type { StageConfig } from './stages';

export class Events extends Construct {
  readonly deliveriesQueue: sqs.Queue;
  readonly deliveriesDlq: sqs.Queue;
  readonly deliveriesDlqAlarm: cloudwatch.Alarm;

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
      alarmDescription: 'Webhook deliveries exhausted their retries and were dead-lettered.',
      metric: this.deliveriesDlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
