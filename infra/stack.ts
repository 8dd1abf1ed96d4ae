/**
 * One stack per stage: data, events and the API, wired together. The route list and the project
 * root are props so tests can build the stack without bundling the real handlers.
 */
import { fileURLToPath } from 'node:url';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { env } from '../shared/config';
import { routes as allRoutes, type RouteDefinition } from '../shared/routes';
import { Api } from './api';
import { Data } from './data';
import { Events } from './events';
import type { StageConfig } from './stages';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface PrintShopStackProps extends StackProps {
  stage: StageConfig;
  /** Defaults to the route table in shared/routes.ts. */
  routes?: readonly RouteDefinition[];
  /** Root that handler paths are relative to; holds package-lock.json. Defaults to this project. */
  projectRoot?: string;
}

export class PrintShopStack extends Stack {
  readonly data: Data;
  readonly events: Events;
  readonly api: Api;

  constructor(scope: Construct, id: string, props: PrintShopStackProps) {
    super(scope, id, props);
    const { stage } = props;

    this.data = new Data(this, 'Data', stage);
    this.events = new Events(this, 'Events', stage);

    // The names in shared/config.ts are what the handlers read; LOCAL_MODE is never set on AWS.
    const environment = {
      [env.stage]: stage.name,
      [env.tableName]: this.data.table.tableName,
      [env.filesBucket]: this.data.filesBucket.bucketName,
      [env.documentsBucket]: this.data.documentsBucket.bucketName,
      [env.deliveriesQueueUrl]: this.events.deliveriesQueue.queueUrl,
    };

    this.api = new Api(this, 'Api', {
      stage,
      routes: props.routes ?? allRoutes,
      projectRoot: props.projectRoot ?? projectRoot,
      environment,
      targets: this.data,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'FilesBucketName', { value: this.data.filesBucket.bucketName });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.data.documentsBucket.bucketName });
    new CfnOutput(this, 'DeliveriesQueueUrl', { value: this.events.deliveriesQueue.queueUrl });
  }
}
