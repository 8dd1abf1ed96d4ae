/**
 * The one way this project builds a Lambda function: Node.js 24 on arm64, bundled by esbuild into
 * a minified ESM file with source maps, JSON logs into a log group owned by the stack.
 */
import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { aliasArgs, bundleSettings } from './bundling';
import type { StageConfig } from './stages';

export interface ServiceFunctionProps {
  /** Handler module relative to the project root; it exports `handler`. */
  handler: string;
  projectRoot: string;
  stage: StageConfig;
  environment: Record<string, string>;
  description?: string;
  /** Seconds; API handlers keep the default 10 (API Gateway's own limit is 29). */
  timeoutSeconds?: number;
  /** MB; the stage's `memorySize` unless a function needs more (the file preflight reads files whole). */
  memorySizeMb?: number;
  /** A role shared with functions of the same needs (route functions); otherwise one of its own. */
  role?: iam.IRole;
}

export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const { stage, projectRoot } = props;
    super(scope, id, {
      entry: join(projectRoot, props.handler),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySizeMb ?? stage.memorySize,
      timeout: Duration.seconds(props.timeoutSeconds ?? 10),
      ...(props.role ? { role: props.role } : {}),
      loggingFormat: lambda.LoggingFormat.JSON,
      // An explicit log group, so retention and removal follow the stage instead of "forever".
      logGroup: new logs.LogGroup(scope, `${id}Logs`, {
        retention: stage.logRetention,
        removalPolicy: stage.removalPolicy,
      }),
      environment: {
        ...props.environment,
        POWERTOOLS_SERVICE_NAME: 'print-shop-api',
        POWERTOOLS_LOG_LEVEL: stage.logLevel,
        NODE_OPTIONS: '--enable-source-maps',
      },
      // The settings live in bundling.ts, shared with the benchmark.
      bundling: {
        format: OutputFormat.ESM,
        target: bundleSettings.target,
        mainFields: bundleSettings.mainFields,
        minify: bundleSettings.minify,
        sourceMap: bundleSettings.sourcemap,
        sourcesContent: bundleSettings.sourcesContent,
        externalModules: bundleSettings.external,
        banner: bundleSettings.banner,
        loader: bundleSettings.loader,
        esbuildArgs: aliasArgs,
      },
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'AWSLambdaBasicExecutionRole grants only CloudWatch Logs writes, the AWS-maintained baseline of every function.',
    });
  }
}
