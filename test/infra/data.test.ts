import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { allowedOrigins } from '#infra/admin';
import type { stageConfig } from '#infra/stages';
import { type StageName } from '#infra/stages';
import { buckets, physicalName, queues, table } from '#shared/resources';
import { buildStack, sharedStack, testStageConfig, type Built } from './helpers';

const { stack, template } = sharedStack('dev');
const ref = (construct: { node: { defaultChild?: unknown } }) => ({
  Ref: stack.getLogicalId(construct.node.defaultChild as never),
});
const arn = (construct: { node: { defaultChild?: unknown } }) => ({
  'Fn::GetAtt': [stack.getLogicalId(construct.node.defaultChild as never), 'Arn'],
});

describe('table', () => {
  it('is built from the shared definition with stream, TTL and point-in-time recovery', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: physicalName('dev', table.id),
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: table.partitionKey, KeyType: 'HASH' },
        { AttributeName: table.sortKey, KeyType: 'RANGE' },
      ],
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
    });
  });

  it('has the three KEYS_ONLY GSIs of the shared definition', () => {
    const [resource] = Object.values(template.findResources('AWS::DynamoDB::Table'));
    const indexes = resource!.Properties.GlobalSecondaryIndexes;
    expect(indexes).toEqual(
      table.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: index.projection },
      })),
    );
    expect(indexes.map((index: { IndexName: string }) => index.IndexName)).toEqual(['gsi1', 'gsi2', 'gsi3']);
    expect(indexes.every((index: { Projection: { ProjectionType: string } }) => index.Projection.ProjectionType === 'KEYS_ONLY')).toBe(
      true,
    );
  });
});

describe('buckets', () => {
  const dataBuckets = [stack.data.filesBucket, stack.data.documentsBucket];

  it('block all public access and are encrypted', () => {
    for (const bucket of dataBuckets) {
      const resource = template.toJSON().Resources[ref(bucket).Ref];
      expect(resource.Properties).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        LoggingConfiguration: { DestinationBucketName: expect.anything() },
      });
    }
  });

  it('deny every request that does not use TLS', () => {
    for (const bucket of dataBuckets) {
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: ref(bucket),
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });

  it('expire objects under the prefixes of the shared definition', () => {
    for (const { prefix, days } of buckets.files.expirations ?? []) {
      template.hasResourceProperties('AWS::S3::Bucket', {
        LifecycleConfiguration: {
          Rules: Match.arrayWith([Match.objectLike({ Prefix: prefix, ExpirationInDays: days, Status: 'Enabled' })]),
        },
      });
    }
    expect(buckets.files.expirations).toContainEqual({ prefix: 'tmp/', days: 1 });
  });

  it('abort incomplete multipart uploads of the files bucket after a day', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' })]),
      },
    });
  });
});

describe('browser uploads', () => {
  const rule = buckets.files.browserUploads!;
  /** The bucket's CORS rules, in the main stack's terms. */
  const corsRules = (built: Built, bucket: { node: { defaultChild?: unknown } }) =>
    built.template.toJSON().Resources[built.stack.getLogicalId(bucket.node.defaultChild as never)].Properties.CorsConfiguration?.CorsRules;
  /** The rule of shared/resources.ts for the origins the stage's API allows (the panel's and the stage's `corsOrigins`). */
  const expectedRule = (built: Built, stage: StageName, overrides?: Parameters<typeof stageConfig>[1]) => ({
    Id: 'browser-uploads',
    AllowedOrigins: built.stack.resolve(allowedOrigins(testStageConfig(stage, overrides), built.stack.admin.origin)),
    AllowedMethods: ['POST', 'PUT'],
    AllowedHeaders: rule.allowedHeaders,
    ExposedHeaders: ['ETag'],
    MaxAge: rule.maxAgeSeconds,
  });

  it('let browsers of the origins the API allows POST and PUT to the files bucket, and read the ETag', () => {
    expect(rule.allowedMethods).toEqual(['POST', 'PUT']);
    expect(rule.exposedHeaders).toEqual(['ETag']);
    const dev = sharedStack('dev');
    expect(corsRules(dev, dev.stack.data.filesBucket)).toEqual([expectedRule(dev, 'dev')]);
    expect(expectedRule(dev, 'dev').AllowedOrigins).toEqual(['*']); // dev's API allows any origin
    const prod = sharedStack('prod');
    expect(corsRules(prod, prod.stack.data.filesBucket)).toEqual([expectedRule(prod, 'prod')]);
    // Prod: the panel's origin only, the distribution's domain (an output of the admin panel's hosting stack).
    expect(JSON.stringify(expectedRule(prod, 'prod').AllowedOrigins)).toMatch(
      /^\[\{"Fn::Join":\["",\["https:\/\/",\{"Fn::GetAtt":\["AdminHosting/,
    );
  });

  it("add the stage's own CORS origins (storefronts) after the panel's", () => {
    const overrides = { corsOrigins: 'https://shop.example,https://admin.example' };
    const built = buildStack('prod', { stageOverrides: overrides });
    const [only] = corsRules(built, built.stack.data.filesBucket);
    expect(only).toEqual(expectedRule(built, 'prod', overrides));
    expect(only.AllowedOrigins.slice(1)).toEqual(['https://shop.example', 'https://admin.example']);
  });

  it('leave the documents and the access log buckets without CORS: browsers never upload there', () => {
    const dev = sharedStack('dev');
    const bucketsWithCors = Object.values(dev.template.findResources('AWS::S3::Bucket')).filter(
      (bucket) => bucket.Properties.CorsConfiguration,
    );
    expect(bucketsWithCors).toHaveLength(1);
    expect(corsRules(dev, dev.stack.data.documentsBucket)).toBeUndefined();
  });
});

describe('deliveries queue', () => {
  const definition = queues.deliveries;

  it('dead-letters a message after the configured number of receives', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: physicalName('dev', definition.id),
      VisibilityTimeout: definition.visibilityTimeoutSeconds,
      MessageRetentionPeriod: definition.retentionSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: arn(stack.events.deliveriesDlq), maxReceiveCount: definition.deadLetter.maxReceiveCount },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: physicalName('dev', definition.deadLetter.id),
      MessageRetentionPeriod: definition.deadLetter.retentionSeconds,
    });
  });

  it('accepts TLS only, on the queue and on its DLQ', () => {
    for (const queue of [stack.events.deliveriesQueue, stack.events.deliveriesDlq]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [ref(queue)],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it('raises an alarm as soon as a delivery is dead-lettered', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ref(stack.events.deliveriesDlq).Ref, 'QueueName'] } }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});

describe('outputs', () => {
  it('publish the API URL and the resource names', () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    expect(outputs).toEqual(
      expect.arrayContaining(['ApiUrl', 'TableName', 'FilesBucketName', 'DocumentsBucketName', 'DeliveriesQueueUrl']),
    );
  });
});
