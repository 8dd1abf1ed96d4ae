import type { CfnElement } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { holdingQueues, physicalName } from '#shared/resources';
import { workers } from '#shared/workers';
import { sharedStack } from './helpers';

/** The file preflight worker as CDK builds it from the worker table (shared/workers.ts). */
const { stack, template } = sharedStack('dev');
const logicalId = (construct: { node: { defaultChild?: unknown } }): string =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);
const fn = stack.workers.functions.get('FilePreflight')!;
const definition = workers.find((worker) => worker.id === 'FilePreflight')!;
const arn = (construct: { node: { defaultChild?: unknown } }) => ({ 'Fn::GetAtt': [logicalId(construct), 'Arn'] });

/** The statements of the function's role. */
function statements(): { Action: string | string[]; Resource: unknown }[] {
  const role = logicalId(fn.role!);
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}
const actions = () => statements().flatMap((statement) => [statement.Action].flat());

describe('the file preflight worker', () => {
  it('has the memory and timeout of its definition, sized for one 200 MB file', () => {
    expect(definition.memorySizeMb).toBe(2048);
    const resource = template.toJSON().Resources[logicalId(fn)];
    expect(resource.Properties).toMatchObject({ MemorySize: 2048, Timeout: definition.timeoutSeconds, Runtime: 'nodejs24.x' });
    // Every other worker keeps the stage's default.
    const others = workers.filter((worker) => worker.id !== 'FilePreflight');
    for (const worker of others) {
      expect(template.toJSON().Resources[logicalId(stack.workers.functions.get(worker.id)!)].Properties.MemorySize, worker.id).toBe(512);
    }
  });

  it("reads the table stream through the worker table's filter: files with work for it whose work has not started, one at a time", () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(fn) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.data.table), 'StreamArn'] },
      BatchSize: 1,
      StartingPosition: 'TRIM_HORIZON',
      MaximumRetryAttempts: 3,
      MaximumRecordAgeInSeconds: 3600,
      DestinationConfig: { OnFailure: { Destination: arn(stack.events.preflightFailures) } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              dynamodb: {
                NewImage: {
                  entity: { S: ['FILE'] },
                  status: { S: ['ready', 'processing'] },
                  preflight: { M: { status: { S: ['pending'] } } },
                  worker_started_at: { S: [{ exists: false }] },
                },
              },
            }),
          },
        ],
      },
    });
  });

  it('has an on-failure queue of its own, with an alarm', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: physicalName('dev', holdingQueues.preflightFailures.id),
      MessageRetentionPeriod: holdingQueues.preflightFailures.retentionSeconds,
      SqsManagedSseEnabled: true,
    });
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties);
    expect(alarms.find((alarm) => alarm.AlarmName === physicalName('dev', `${holdingQueues.preflightFailures.id}Depth`))).toMatchObject({
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack.events.preflightFailures), 'QueueName'] } }],
      Threshold: 0,
    });
  });

  it('may read and write the files bucket (it moves verified uploads) and write the table, and nothing more', () => {
    const granted = actions();
    expect(granted).toEqual(
      expect.arrayContaining([
        's3:GetObject*',
        's3:PutObject',
        's3:DeleteObject*',
        'dynamodb:GetItem',
        'dynamodb:UpdateItem',
        'dynamodb:GetRecords',
      ]),
    );
    const s3Resources = statements()
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')))
      .flatMap((statement) => [statement.Resource].flat());
    const filesBucket = logicalId(stack.data.filesBucket);
    expect(s3Resources.length).toBeGreaterThan(0);
    expect(s3Resources.every((resource) => JSON.stringify(resource).includes(filesBucket))).toBe(true);
    // SQS: only sending the record of a failing batch to its on-failure queue.
    const sqsResources = statements()
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('sqs:')))
      .flatMap((statement) => [statement.Resource].flat());
    expect(sqsResources).toEqual([arn(stack.events.preflightFailures)]);
    expect(granted).not.toContain('sqs:ReceiveMessage');
    expect(granted.some((action) => action.startsWith('kms:'))).toBe(false);
  });

  it('is the only worker that uses the files bucket', () => {
    for (const [id, worker] of stack.workers.functions) {
      if (id === 'FilePreflight') continue;
      const role = logicalId(worker.role!);
      const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
      const granted = Object.values(policies).flatMap((policy) =>
        policy.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) => [statement.Action].flat()),
      );
      expect(
        granted.some((action: string) => action.startsWith('s3:')),
        id,
      ).toBe(false);
    }
  });
});
