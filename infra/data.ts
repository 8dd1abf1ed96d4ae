/**
 * The single table and the buckets, built from shared/resources.ts (the same definitions the local
 * runtime uses), so AWS and the emulators cannot drift apart.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { buckets, physicalName, table, type AttributeType, type BucketDefinition } from '#shared/resources';
import type { StageConfig } from './stages';

const attributeTypes: Record<AttributeType, dynamodb.AttributeType> = {
  S: dynamodb.AttributeType.STRING,
  N: dynamodb.AttributeType.NUMBER,
};

function attribute(name: string): dynamodb.Attribute {
  const type = table.attributes[name];
  if (!type) throw new Error(`Table attribute "${name}" is used as a key but not declared in shared/resources.ts`);
  return { name, type: attributeTypes[type] };
}

export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly filesBucket: s3.Bucket;
  readonly documentsBucket: s3.Bucket;

  constructor(scope: Construct, id: string, stage: StageConfig) {
    super(scope, id);

    this.table = new dynamodb.Table(this, table.id, {
      tableName: physicalName(stage.name, table.id),
      partitionKey: attribute(table.partitionKey),
      sortKey: attribute(table.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      stream: dynamodb.StreamViewType[table.stream],
      timeToLiveAttribute: table.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: stage.removalPolicy === RemovalPolicy.RETAIN,
      removalPolicy: stage.removalPolicy,
    });
    for (const index of table.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
        projectionType: dynamodb.ProjectionType[index.projection],
      });
    }

    // S3 server access logs land here; it is the log target itself, so it has no access log.
    const accessLogs = this.bucket('AccessLogs', stage, [{ prefix: '', days: 90 }]);
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the server access log bucket; logging it to itself would loop.',
    });

    this.filesBucket = this.bucket(
      buckets.files.id,
      stage,
      buckets.files.expirations,
      accessLogs,
      buckets.files.abortIncompleteUploadsAfterDays,
    );
    this.documentsBucket = this.bucket(buckets.documents.id, stage, buckets.documents.expirations, accessLogs);
  }

  /**
   * Lets browsers of `origins` upload straight to the buckets that take browser uploads (shared/resources.ts: the
   * files bucket), with the rule the local S3 emulator gets too. The origins are the API's (the admin panel's and the
   * stage's), known once the panel's distribution is: hence a step of its own.
   */
  allowBrowserUploads(origins: string[]): void {
    const bucketOf: Record<keyof typeof buckets, s3.Bucket> = { files: this.filesBucket, documents: this.documentsBucket };
    for (const [key, definition] of Object.entries(buckets) as [keyof typeof buckets, BucketDefinition][]) {
      const rule = definition.browserUploads;
      if (!rule || origins.length === 0) continue;
      bucketOf[key].addCorsRule({
        id: 'browser-uploads',
        allowedOrigins: origins,
        allowedMethods: rule.allowedMethods.map((method) => s3.HttpMethods[method]),
        allowedHeaders: rule.allowedHeaders,
        exposedHeaders: rule.exposedHeaders,
        maxAge: rule.maxAgeSeconds,
      });
    }
  }

  /** Bucket names are left to CloudFormation: S3 names are global, the functions get them from env. */
  private bucket(
    id: string,
    stage: StageConfig,
    expirations: BucketDefinition['expirations'] = [],
    accessLogs?: s3.IBucket,
    abortIncompleteUploadsAfterDays?: number,
  ): s3.Bucket {
    const rules: s3.LifecycleRule[] = expirations.map(({ prefix, days }) => ({
      id: `expire-${prefix.replace(/\W+/g, '') || 'all'}`,
      prefix: prefix || undefined,
      expiration: Duration.days(days),
    }));
    if (abortIncompleteUploadsAfterDays) {
      rules.push({ id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(abortIncompleteUploadsAfterDays) });
    }
    if (stage.versionedBuckets) rules.push({ id: 'expire-old-versions', noncurrentVersionExpiration: Duration.days(30) });
    return new s3.Bucket(this, id, {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: stage.versionedBuckets,
      lifecycleRules: rules,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: accessLogs ? `${id.toLowerCase()}/` : undefined,
      removalPolicy: stage.removalPolicy,
      // A non-empty bucket cannot be deleted, so disposable stages empty theirs on stack deletion.
      autoDeleteObjects: stage.removalPolicy === RemovalPolicy.DESTROY,
    });
  }
}
