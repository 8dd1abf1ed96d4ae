import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { env } from '#shared/config';
import { holdingQueues, physicalName, queues } from '#shared/resources';
import { workers, type WorkerDefinition } from '#shared/workers';
import { addressOf, allTemplates, buildStack, findAll, inMainTerms, resolveReference, sharedStack, type Built } from './helpers';

const built = sharedStack('dev');
const { stack, template } = built;
const logicalId = (construct: { node: { defaultChild?: unknown } }): string =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);
const fnOf = (id: string) => stack.workers.functions.get(id)!;
const arn = (construct: { node: { defaultChild?: unknown } }) => ({ 'Fn::GetAtt': [logicalId(construct), 'Arn'] });

/** Every IAM action granted to a function's role. */
function actionsOf(id: string): string[] {
  const role = logicalId(fnOf(id).role!);
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
  return Object.values(policies).flatMap((policy) =>
    policy.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) => statement.Action),
  );
}

/** The resources of the statements of a function's role that grant `action`. */
function resourcesFor(id: string, action: string): unknown[] {
  const role = logicalId(fnOf(id).role!);
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
  return Object.values(policies)
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
    .filter((statement: { Action: string | string[] }) => [statement.Action].flat().includes(action))
    .flatMap((statement: { Resource: unknown }) => [statement.Resource].flat());
}

describe('worker functions', () => {
  it('exist once per worker definition, Node.js 24 arm64, with their own timeouts', () => {
    expect([...stack.workers.functions.keys()]).toEqual(workers.map((worker) => worker.id));
    for (const worker of workers) {
      const resource = template.toJSON().Resources[logicalId(fnOf(worker.id))];
      expect(resource.Properties, worker.id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Timeout: worker.timeoutSeconds,
      });
      expect(resource.Properties.Environment.Variables, worker.id).toMatchObject({
        [env.deliveriesQueueUrl]: expect.anything(),
        [env.deliveriesDlqUrl]: expect.anything(),
      });
      expect(resource.Properties.Environment.Variables[env.localMode], worker.id).toBeUndefined();
    }
  });

  it('keep the deliveries queue visibility at 6x the delivery worker timeout or more', () => {
    const deliver = workers.find((worker) => worker.id === 'WebhookDelivery')!;
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: physicalName('dev', queues.deliveries.id),
      VisibilityTimeout: Match.anyValue(),
    });
    expect(queues.deliveries.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * deliver.timeoutSeconds);
  });
});

describe('the stream router mapping', () => {
  it('reads the table stream, only EVENT and DELIVERY_REQUEST inserts, bisecting, retrying until the record is 24 h old, with an on-failure queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(fnOf('EventRouter')) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.data.table), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: -1,
      MaximumRecordAgeInSeconds: 86400,
      DestinationConfig: { OnFailure: { Destination: arn(stack.events.routerFailures) } },
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['EVENT', 'DELIVERY_REQUEST'] } } } }) },
        ],
      },
    });
  });

  it('has an on-failure queue with an alarm', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: physicalName('dev', holdingQueues.routerFailures.id),
      MessageRetentionPeriod: holdingQueues.routerFailures.retentionSeconds,
      SqsManagedSseEnabled: true,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack.events.routerFailures), 'QueueName'] } }],
      Threshold: 0,
    });
  });
});

/**
 * DynamoDB Streams serves at most two concurrent readers per shard; a third is throttled (GetRecords), and with it
 * every reader of that shard falls behind. A consumer beyond the two reads a queue fed from the stream
 * (docs/decisions.md, "The table stream").
 */
const TABLE_STREAM_READERS = 2;

/** The event source mappings, in every template, that read the table's stream: the function each invokes. */
const tableStreamReaders = (of: Built): string[] => {
  const streamArn = JSON.stringify({
    'Fn::GetAtt': [of.stack.getLogicalId(of.stack.data.table.node.defaultChild as CfnElement), 'StreamArn'],
  });
  return findAll(of, 'AWS::Lambda::EventSourceMapping')
    .filter(({ stack: home, resource }) => JSON.stringify(inMainTerms(of, home, resource.Properties.EventSourceArn)) === streamArn)
    .map(
      ({ stack: home, resource }) =>
        resolveReference(of, resource.Properties.FunctionName, home)?.address ?? JSON.stringify(resource.Properties.FunctionName),
    );
};

describe('the table stream', () => {
  it(`has at most ${TABLE_STREAM_READERS} readers: the event router and the file preflight`, () => {
    const readers = tableStreamReaders(built);
    expect(readers.length, readers.join(', ')).toBeLessThanOrEqual(TABLE_STREAM_READERS);
    expect(readers.sort()).toEqual([addressOf(fnOf('EventRouter')), addressOf(fnOf('FilePreflight'))].sort());
  });

  it('counts a third stream worker as a third reader (the check above would fail)', () => {
    const third: WorkerDefinition = {
      ...workers.find((worker) => worker.id === 'FilePreflight')!,
      id: 'ThirdReader',
      handler: 'functions/third/reader.ts',
    };
    const readers = tableStreamReaders(buildStack('dev', { workers: [...workers, third] }));
    expect(readers).toHaveLength(TABLE_STREAM_READERS + 1);
  });
});

describe('the queue mappings', () => {
  it('feed the delivery worker from the deliveries queue and the DLQ handler from the DLQ, with partial batch failures and a maximum concurrency', () => {
    for (const [worker, queue, concurrency] of [
      ['WebhookDelivery', stack.events.deliveriesQueue, 16],
      ['WebhookDeadLetter', stack.events.deliveriesDlq, 2],
    ] as const) {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: logicalId(fnOf(worker)) },
        EventSourceArn: arn(queue),
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: concurrency },
      });
    }
  });

  it("bound every queue worker, so slow receivers cannot take the API functions' concurrency", () => {
    for (const worker of workers.filter((candidate) => candidate.source.kind === 'queue')) {
      const mappings = template.findResources('AWS::Lambda::EventSourceMapping', {
        Properties: { FunctionName: { Ref: logicalId(fnOf(worker.id)) } },
      });
      const [mapping] = Object.values(mappings);
      expect(mapping?.Properties.ScalingConfig?.MaximumConcurrency, worker.id).toBeGreaterThanOrEqual(2);
      expect(mapping?.Properties.ScalingConfig?.MaximumConcurrency, worker.id).toBeLessThanOrEqual(50);
    }
  });
});

describe('the delivery sweeper', () => {
  it('runs on an EventBridge schedule every 5 minutes and has no event source mapping', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: arn(fnOf('DeliverySweeper')) })],
    });
    expect(
      Object.keys(
        template.findResources('AWS::Lambda::EventSourceMapping', {
          Properties: { FunctionName: { Ref: logicalId(fnOf('DeliverySweeper')) } },
        }),
      ),
    ).toEqual([]);
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: arn(fnOf('DeliverySweeper')),
      Principal: 'events.amazonaws.com',
    });
  });

  it('may query the table (the pending-deliveries index) and send to the deliveries queue only', () => {
    const actions = actionsOf('DeliverySweeper');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:BatchGetItem', 'dynamodb:UpdateItem', 'sqs:SendMessage']));
    expect(resourcesFor('DeliverySweeper', 'sqs:SendMessage')).toEqual([arn(stack.events.deliveriesQueue)]);
    expect(actions).not.toContain('sqs:ReceiveMessage');
  });
});

describe('the legacy price sweeper', () => {
  it('runs on an EventBridge schedule every 15 minutes, with a 120 s timeout and no event source mapping', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(15 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: arn(fnOf('LegacyPriceSweeper')) })],
    });
    expect(template.toJSON().Resources[logicalId(fnOf('LegacyPriceSweeper'))].Properties.Timeout).toBe(120);
    expect(
      Object.keys(
        template.findResources('AWS::Lambda::EventSourceMapping', {
          Properties: { FunctionName: { Ref: logicalId(fnOf('LegacyPriceSweeper')) } },
        }),
      ),
    ).toEqual([]);
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: arn(fnOf('LegacyPriceSweeper')),
      Principal: 'events.amazonaws.com',
    });
  });

  it('may query the table (the staged-price-versions index) and delete tenant items, and use no queue', () => {
    const actions = actionsOf('LegacyPriceSweeper');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:BatchWriteItem']));
    expect(actions.some((action) => action.startsWith('sqs:'))).toBe(false);
    expect(actions.some((action) => action.startsWith('s3:') || action.startsWith('kms:'))).toBe(false);
  });
});

describe('alarms', () => {
  const alarms = () => Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties);
  const named = (id: string) => alarms().find((alarm) => alarm.AlarmName === physicalName('dev', id));

  it('watch every worker for errors and throttles', () => {
    for (const worker of workers) {
      for (const [suffix, metric] of [
        ['Errors', 'Errors'],
        ['Throttles', 'Throttles'],
      ]) {
        const found = named(`${worker.id}${suffix}`);
        expect(found, `${worker.id}${suffix}`).toMatchObject({
          MetricName: metric,
          Namespace: 'AWS/Lambda',
          Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(fnOf(worker.id)) } }],
          Threshold: 0,
          ComparisonOperator: 'GreaterThanThreshold',
          TreatMissingData: 'notBreaching',
        });
      }
    }
  });

  it("watch every stream worker's iterator age, each alarm saying which worker it is and how it retries", () => {
    expect(named('EventRouterIteratorAge')).toMatchObject({
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(fnOf('EventRouter')) } }],
      Statistic: 'Maximum',
      Threshold: 600_000,
      AlarmDescription: expect.stringMatching(/^EventRouter .*retried until its records are 24 h old/),
    });
    expect(named('FilePreflightIteratorAge')).toMatchObject({
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(fnOf('FilePreflight')) } }],
      AlarmDescription: expect.stringMatching(/^FilePreflight .*retried 3 times within 1 h/),
    });
  });

  it("watch the deliveries queue's oldest message", () => {
    expect(named(`${queues.deliveries.id}OldestMessage`)).toMatchObject({
      MetricName: 'ApproximateAgeOfOldestMessage',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack.events.deliveriesQueue), 'QueueName'] } }],
      Threshold: 3600,
    });
  });

  it('watch the API for 5xx answers', () => {
    expect(named('Api5xx')).toMatchObject({ MetricName: '5XXError', Namespace: 'AWS/ApiGateway', Statistic: 'Sum', Threshold: 5 });
  });

  it('watch every route function, the authorizer and the audit shipper for errors and throttles', () => {
    // A dimension names a function by `Ref`: in the main stack, or in a route group's nested stack (its alarms are there).
    const watched = new Set<string>();
    const everyAlarm = allTemplates(built).flatMap(({ stack: home, template: held }) =>
      Object.values(held.findResources('AWS::CloudWatch::Alarm')).map((alarm) => ({ home, alarm: alarm.Properties })),
    );
    for (const { home, alarm } of everyAlarm) {
      const watch = (value: unknown) => {
        const resolved = resolveReference(built, value, home);
        if (resolved?.attribute === 'Ref') watched.add(resolved.address);
      };
      for (const metric of (alarm.Metrics ?? []) as {
        MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: unknown }[] } };
      }[]) {
        const stat = metric.MetricStat?.Metric;
        if (stat?.MetricName === 'Errors') watch(stat.Dimensions[0]!.Value);
      }
      if (alarm.MetricName === 'Errors') watch(alarm.Dimensions[0].Value);
    }
    const functions = [...stack.api.functions.values(), stack.api.authorizerFunction, stack.audit.shipper];
    expect(functions.map(addressOf).filter((address) => !watched.has(address))).toEqual([]);
    for (const { alarm } of everyAlarm.filter((candidate) => candidate.alarm.Metrics)) expect(alarm.Metrics.length).toBeLessThanOrEqual(11);
  });
});

describe('least privilege', () => {
  it('lets the router write the table and send to the deliveries queue only', () => {
    const actions = actionsOf('EventRouter');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:GetRecords', 'sqs:SendMessage']));
    expect(resourcesFor('EventRouter', 'sqs:SendMessage')).toEqual(
      expect.arrayContaining([arn(stack.events.deliveriesQueue), arn(stack.events.routerFailures)]),
    );
    expect(resourcesFor('EventRouter', 'sqs:SendMessage')).not.toContainEqual(arn(stack.events.deliveriesDlq));
    expect(actions).not.toContain('sqs:ReceiveMessage');
    expect(actions.some((action) => action.startsWith('s3:'))).toBe(false);
  });

  it('lets the delivery worker consume the deliveries queue, change visibility, and send to the DLQ only', () => {
    const actions = actionsOf('WebhookDelivery');
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:UpdateItem',
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:SendMessage',
      ]),
    );
    expect(resourcesFor('WebhookDelivery', 'sqs:ChangeMessageVisibility')).toEqual([arn(stack.events.deliveriesQueue)]);
    expect(resourcesFor('WebhookDelivery', 'sqs:SendMessage')).toEqual([arn(stack.events.deliveriesDlq)]);
    expect(resourcesFor('WebhookDelivery', 'sqs:ReceiveMessage')).toEqual([arn(stack.events.deliveriesQueue)]);
  });

  it('lets the DLQ handler consume the DLQ and send nothing', () => {
    const actions = actionsOf('WebhookDeadLetter');
    expect(resourcesFor('WebhookDeadLetter', 'sqs:ReceiveMessage')).toEqual([arn(stack.events.deliveriesDlq)]);
    expect(actions).not.toContain('sqs:SendMessage');
  });

  it('gives no API route queue access: redeliveries and test events go through the outbox', () => {
    for (const fn of stack.api.functions.values()) {
      const role = logicalId(fn.role!);
      const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
      const actions = Object.values(policies).flatMap((policy) =>
        policy.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => s.Action),
      );
      expect(
        actions.some((action: string) => action.startsWith('sqs:')),
        fn.node.id,
      ).toBe(false);
    }
  });
});
