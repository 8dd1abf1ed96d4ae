/**
 * The admin panel per stage: its static build in a private S3 bucket, served by CloudFront over
 * HTTPS only through Origin Access Control, under /admin/ as locally. `config.json` next to the
 * app carries the API's URL, written at deploy time, so one build serves every stage.
 *
 * Dependencies run one way to avoid cycles: the API (CORS) and its functions (CORS_ORIGINS) know
 * the distribution's domain; the distribution knows nothing of the API. Only the deployment of
 * config.json, a separate resource, reads the API's URL.
 *
 * Both halves are nested stacks (hosting; deployment), so the panel adds two resources to the
 * main stack rather than about twenty: the API's methods and resources keep that stack the closest to
 * CloudFormation's limit of 500 resources (the route functions are in nested stacks of their own,
 * infra/route-stacks.ts). Two, because one nested stack would both feed the API (the domain) and
 * need it (the URL): a cycle.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  AssetHashType,
  Aws,
  type CfnElement,
  DefaultStackSynthesizer,
  DockerImage,
  Duration,
  NestedStack,
  RemovalPolicy,
  Stack,
  Validations,
} from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import type { StageConfig } from './stages';

/** The path the panel lives under, on CloudFront as on the local gateway (Vite's `base`). */
export const ADMIN_PREFIX = 'admin';

/** The environment variable the handlers read their allowed browser origins from (request-scope.ts). */
export const CORS_ORIGINS_ENV = 'CORS_ORIGINS';

export interface AdminPanelProps {
  stage: StageConfig;
  /** The panel's source folder (`admin/`); Vite builds it during synth, like esbuild the functions. */
  sourceDir: string;
  /** The project root, where Vite is installed (`node_modules/vite`). */
  projectRoot: string;
}

/**
 * Browser origins the API allows: the panel's, plus the stage's own list (`*` stays alone, since
 * API Gateway refuses `*` mixed with named origins).
 */
export function allowedOrigins(stage: StageConfig, panelOrigin: string): string[] {
  if (stage.corsOrigins.includes('*')) return ['*'];
  return [panelOrigin, ...stage.corsOrigins.filter((origin) => origin !== panelOrigin)];
}

/** Builds the panel into CDK's asset folder; never falls back to Docker (synth stays offline). */
function viteBuild(sourceDir: string, projectRoot: string): s3deploy.ISource {
  return s3deploy.Source.asset(sourceDir, {
    // Hash what was built (the panel also bundles shared/events/catalogue.ts from outside admin/).
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('unused-local-bundling-only'),
      local: {
        tryBundle(outputDir) {
          const vite = join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
          const result = spawnSync(
            process.execPath,
            [vite, 'build', sourceDir, '--outDir', outputDir, '--emptyOutDir', '--logLevel', 'warn'],
            {
              cwd: projectRoot,
              stdio: ['ignore', 'inherit', 'inherit'],
            },
          );
          if (result.status !== 0)
            throw new Error(`Building the admin panel failed (vite exited with ${result.status ?? result.error?.message})`);
          return true;
        },
      },
    },
  });
}

/**
 * CDK's bootstrap asset bucket is `cdk-<qualifier>-assets-<account>-<region>`; the build is
 * uploaded there first. `stack` is the top-level stack, whose synthesizer knows the qualifier.
 */
function assetBucketPrefix(stack: Stack): string {
  const synthesizer = stack.synthesizer;
  const qualifier =
    (synthesizer instanceof DefaultStackSynthesizer ? synthesizer.bootstrapQualifier : undefined) ??
    DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  return `cdk-${qualifier}-assets`;
}

export class AdminPanel extends Construct {
  /** Bucket and distribution. */
  readonly hosting: NestedStack;
  /** The upload of the build and config.json (created by deploy()). */
  deployment?: NestedStack;
  readonly bucket: s3.Bucket;
  /** The role CDK's BucketDeployment function runs with. */
  readonly deployerRole: iam.Role;
  readonly distribution: cloudfront.Distribution;
  /** `https://<distribution domain>`: the origin the API must allow. */
  readonly origin: string;
  /** Where people open the panel. */
  readonly url: string;
  private readonly props: AdminPanelProps;

  constructor(scope: Construct, id: string, props: AdminPanelProps) {
    super(scope, id);
    this.props = props;
    const { stage } = props;
    this.hosting = new NestedStack(this, 'Hosting', { description: `Print Shop admin panel hosting (${stage.name})` });
    const hosting = this.hosting;

    // Holds only the build output, which every deploy replaces: private, encrypted, TLS only.
    this.bucket = new s3.Bucket(hosting, 'Bucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: stage.removalPolicy,
      autoDeleteObjects: stage.removalPolicy === RemovalPolicy.DESTROY,
    });

    // Scripts and styles from the panel only; API calls to API Gateway's own domains in this
    // region (naming the API itself would make the distribution depend on it: a cycle), uploads
    // to S3's in this region (presigned: the files bucket allows the panel's origin, so naming the
    // bucket would be a cycle too).
    const securityHeaders: cloudfront.ResponseSecurityHeadersBehavior = {
      contentSecurityPolicy: {
        contentSecurityPolicy: [
          "default-src 'self'",
          "script-src 'self'",
          "style-src 'self'",
          "img-src 'self' data:",
          `connect-src 'self' https://*.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX} https://*.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`,
          "font-src 'self'",
          // Invoice PDFs and shipping labels are fetched with the key and shown from blob: URLs.
          'frame-src blob:',
          "object-src 'none'",
          "base-uri 'self'",
          "form-action 'self'",
          "frame-ancestors 'none'",
        ].join('; '),
        override: true,
      },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
    };
    const headers = (name: string, cacheControl: string) =>
      new cloudfront.ResponseHeadersPolicy(hosting, `${name}Headers`, {
        comment: `Print Shop admin ${stage.name}: security headers, Cache-Control ${cacheControl}`,
        securityHeadersBehavior: securityHeaders,
        customHeadersBehavior: { customHeaders: [{ header: 'Cache-Control', value: cacheControl, override: true }] },
      });

    const origin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket);
    const behavior = {
      origin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      compress: true,
    };
    const indexPath = `/${ADMIN_PREFIX}/index.html`;
    this.distribution = new cloudfront.Distribution(hosting, 'Distribution', {
      comment: `Print Shop admin panel (${stage.name})`,
      // index.html and config.json are revalidated by browsers on every load; deploys invalidate the edge.
      defaultBehavior: { ...behavior, responseHeadersPolicy: headers('Entry', 'no-cache') },
      // File names of the build carry a content hash: cached for a year.
      additionalBehaviors: {
        [`/${ADMIN_PREFIX}/assets/*`]: { ...behavior, responseHeadersPolicy: headers('Assets', 'public, max-age=31536000, immutable') },
      },
      defaultRootObject: indexPath.slice(1),
      // Client-side routes (/admin/settings/webhooks/3) are not objects: answer them with the app.
      // Without s3:ListBucket, S3 answers a missing key with 403.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: indexPath,
        ttl: Duration.seconds(10),
      })),
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
    });

    // The uploading function's role lives here, beside what it writes to, so its policy names the
    // bucket and the distribution directly: read the build from CDK's asset bucket, sync the
    // panel's bucket, invalidate this distribution.
    this.deployerRole = new iam.Role(hosting, 'DeployerRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Uploads the Print Shop admin panel (${stage.name}) and invalidates its distribution`,
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    const assets = `arn:${Aws.PARTITION}:s3:::${assetBucketPrefix(Stack.of(this))}-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
    this.deployerRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject*', 's3:GetBucket*', 's3:List*'], resources: [assets, `${assets}/*`] }),
    );
    this.bucket.grantReadWrite(this.deployerRole);
    this.distribution.grant(this.deployerRole, 'cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation');

    this.origin = `https://${this.distribution.distributionDomainName}`;
    this.url = `${this.origin}/${ADMIN_PREFIX}/`;
    this.acknowledgeFindings();
  }

  /**
   * Uploads the built panel and `config.json` with the API's URL (a deploy-time value), then
   * invalidates the distribution. Call once the API exists.
   */
  deploy(apiUrl: string): s3deploy.BucketDeployment {
    this.deployment = new NestedStack(this, 'Deployment', { description: `Print Shop admin panel deployment (${this.props.stage.name})` });
    const deployment = new s3deploy.BucketDeployment(this.deployment, 'Deployment', {
      // Its grants are in the role's own policy (hosting stack): imported as immutable, nothing is added here.
      role: iam.Role.fromRoleArn(this.deployment, 'DeployerRole', this.deployerRole.roleArn, { mutable: false }),
      destinationBucket: this.bucket,
      destinationKeyPrefix: `${ADMIN_PREFIX}/`,
      sources: [
        viteBuild(this.props.sourceDir, this.props.projectRoot),
        // The panel strips the trailing slash of API Gateway's stage URL.
        s3deploy.Source.jsonData('config.json', { apiUrl }),
      ],
      prune: true,
      distribution: this.distribution,
      distributionPaths: ['/', `/${ADMIN_PREFIX}/*`],
      memoryLimit: 256,
    });
    // The function is a singleton that CDK owns, beside the deployment.
    const handler = this.deployment.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (handler) {
      Validations.of(handler).acknowledge({
        id: 'AwsSolutions-L1',
        reason: "The runtime of CDK's BucketDeployment function is chosen by aws-cdk-lib and moves with its upgrades.",
      });
    }
    return deployment;
  }

  private acknowledgeFindings(): void {
    const copy = "CDK's BucketDeployment function copies the build from CDK's asset bucket into the panel's bucket";
    Validations.of(this.deployerRole).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The uploading function logs to CloudWatch with the AWS-maintained basic execution policy.',
      },
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `${copy}; ${action} is granted on those two buckets only.`,
      })),
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${assetBucketPrefix(Stack.of(this))}-<AWS::AccountId>-<AWS::Region>/*]`,
        reason: `${copy}: it reads the uploaded build from CDK's bootstrap asset bucket.`,
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${this.hosting.getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/*]`,
        reason: `${copy}: it writes the panel's objects and prunes old ones.`,
      },
    );
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        "Holds only the panel's public build output, readable through CloudFront alone; the API calls that matter are in API Gateway's access log and the audit log.",
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'The panel is for shop staff wherever they are; access is controlled by API keys, not geography.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'Static files only; every action goes through the API, which has its own throttling and authorizer. A WAF ACL is a per-deployment cost decision.',
      },
      { id: 'AwsSolutions-CFR3', reason: "Static files only; the API's access log and the audit log record every call the panel makes." },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          "The default *.cloudfront.net certificate is served with CloudFront's own TLS policy; a custom domain with TLSv1.2_2021 is a per-deployment choice.",
      },
    );
  }
}
