/**
 * Audit records travel off the request path: handlers print one JSON line per call
 * (shared/audit/sink.ts); a subscription filter on every API function's log group sends those
 * lines to the audit shipper, which stores them in the table. CloudWatch Logs retries failed
 * deliveries, Lambda retries the asynchronous invocation twice, and what still fails lands in a
 * failure queue with an alarm — a record is delayed, never silently lost.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as logsDestinations from 'aws-cdk-lib/aws-logs-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { physicalName } from '#shared/resources';
import { AUDIT_SHIPPER_HANDLER } from './entries';
import { ServiceFunction } from './function';
import { grantTable } from './grants';
import type { StageConfig } from './stages';

/** Matches exactly the lines of shared/audit/sink.ts. */
export const AUDIT_FILTER_PATTERN = '{ $.audit.request_id = "*" }';

export interface AuditShippingProps {
  stage: StageConfig;
  projectRoot: string;
  environment: Record<string, string>;
  table: dynamodb.Table;
  /** The functions whose audit lines are shipped (API routes and the authorizer). */
  sources: ServiceFunction[];
}

export class AuditShipping extends Construct {
  readonly shipper: ServiceFunction;
  readonly failures: sqs.Queue;

  constructor(scope: Construct, id: string, props: AuditShippingProps) {
    super(scope, id);
    this.failures = new sqs.Queue(this, 'Failures', {
      queueName: physicalName(props.stage.name, 'AuditShippingFailures'),
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.failures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the failure destination of the audit shipper; it has no consumer to redrive from.',
    });
    new cloudwatch.Alarm(this, 'FailuresDepth', {
      alarmName: physicalName(props.stage.name, 'AuditShippingFailuresDepth'),
      alarmDescription: 'Audit log batches could not be stored after retries; replay them from this queue.',
      metric: this.failures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    this.shipper = new ServiceFunction(this, 'ShipperFn', {
      stage: props.stage,
      projectRoot: props.projectRoot,
      environment: props.environment,
      handler: AUDIT_SHIPPER_HANDLER,
      description: 'Stores the audit lines of the API functions, delivered by log subscription filters',
    });
    this.shipper.configureAsyncInvoke({ retryAttempts: 2, onFailure: new destinations.SqsDestination(this.failures) });
    grantTable(this.shipper, props.table, 'readWrite');

    // One invoke permission for all the subscriptions (instead of one per log group): CloudWatch
    // Logs of this account and region may call the shipper, which ignores anything but audit lines.
    this.shipper.addPermission('LogsInvoke', {
      principal: new iam.ServicePrincipal('logs.amazonaws.com'),
      sourceAccount: Stack.of(this).account,
      sourceArn: `arn:${Stack.of(this).partition}:logs:${Stack.of(this).region}:${Stack.of(this).account}:log-group:*`,
    });
    const destination = new logsDestinations.LambdaDestination(this.shipper, { addPermissions: false });
    for (const source of props.sources) {
      // A filter lives beside its log group: here for the authorizer, in the route group's nested
      // stack for a route function (infra/route-stacks.ts), which then takes the shipper's ARN as a parameter.
      const sourceStack = Stack.of(source);
      const scope = sourceStack === Stack.of(this) ? this : sourceStack;
      const filter = new logs.SubscriptionFilter(scope, `${source.node.id}Audit`, {
        logGroup: source.logGroup,
        destination,
        filterPattern: logs.FilterPattern.literal(AUDIT_FILTER_PATTERN),
        filterName: 'audit',
      });
      // Without the per-log-group permission, the filter must still wait for the shared one (across
      // stacks, CDK makes the nested stack wait for it).
      filter.node.addDependency(this.shipper.node.findChild('LogsInvoke'));
    }
  }
}
