/**
 * One stack per stage: data, events, the API and the admin panel, the notification topic every alarm
 * publishes to and the SES configuration set the mail goes out with, wired together. The route and
 * worker tables and the project root are props so tests can build the stack without bundling the
 * real handlers, or with more routes or workers.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Aws, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { env } from '#shared/config';
import { mailEnv } from '#shared/mail/config';
import { routes as allRoutes, type RouteDefinition } from '#shared/routes';
import { AdminPanel, allowedOrigins, CORS_ORIGINS_ENV } from './admin';
import { apiServerErrorAlarm, functionAlarms, groupedFunctionAlarms } from './alarms';
import { pascalCase } from './route-stacks';
import { Api } from './api';
import { AuditShipping } from './audit';
import { Data } from './data';
import { Events } from './events';
import { MailSending } from './mail';
import { Notifications } from './notifications';
import { WebhookSecretsKey, secretRoutes, tokenSigners, workerSecretUses } from './secrets';
import { Workers } from './workers';
import { workers as allWorkers, type WorkerDefinition } from '#shared/workers';
import type { StageConfig } from './stages';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface PrintShopStackProps extends StackProps {
  stage: StageConfig;
  /** Defaults to the route table in shared/routes.ts. */
  routes?: readonly RouteDefinition[];
  /** Defaults to the worker table in shared/workers.ts. */
  workers?: readonly WorkerDefinition[];
  /** Root that handler paths are relative to; holds package-lock.json. Defaults to this project. */
  projectRoot?: string;
  /** The admin panel's sources; defaults to this project's admin/ (built by Vite during synth). */
  adminSourceDir?: string;
  /** The one deploy before methods change stacks: the deployment to keep (infra/api.ts, `detachMethods`). */
  detachMethods?: string;
}

export class PrintShopStack extends Stack {
  readonly data: Data;
  readonly events: Events;
  readonly api: Api;
  readonly workers: Workers;
  readonly admin: AdminPanel;
  readonly audit: AuditShipping;
  readonly webhookSecrets: WebhookSecretsKey;
  readonly notifications: Notifications;
  readonly mail: MailSending;

  constructor(scope: Construct, id: string, props: PrintShopStackProps) {
    super(scope, id, props);
    const { stage } = props;

    this.data = new Data(this, 'Data', stage);
    this.events = new Events(this, 'Events', stage);
    // Stored secrets (webhook signing secrets, signing keys, carrier credentials) are encrypted with
    // data keys this key wraps, each kind under its own encryption context (infra/secrets.ts).
    this.webhookSecrets = new WebhookSecretsKey(this, 'WebhookSecrets', stage);
    // The topic every alarm of the stack (nested stacks too) notifies, and SES its bounces and complaints to.
    this.notifications = new Notifications(this, 'Notifications', stage);
    this.mail = new MailSending(this, 'Mail', { stage, notifications: this.notifications.topic });

    // The names in shared/config.ts are what the handlers read; LOCAL_MODE is never set on AWS.
    const environment = {
      [env.stage]: stage.name,
      [env.tableName]: this.data.table.tableName,
      [env.filesBucket]: this.data.filesBucket.bucketName,
      [env.documentsBucket]: this.data.documentsBucket.bucketName,
      [env.deliveriesQueueUrl]: this.events.deliveriesQueue.queueUrl,
    };

    // The admin panel's origin is allowed by the API's CORS (preflight and handler responses) and the files bucket's.
    this.admin = new AdminPanel(this, 'Admin', { stage, sourceDir: props.adminSourceDir ?? join(projectRoot, 'admin'), projectRoot });
    const corsOrigins = allowedOrigins(stage, this.admin.origin);
    // The same origins may upload artwork to the files bucket directly (presigned POST or PUT: docs/files.md).
    this.data.allowBrowserUploads(corsOrigins);

    const routes = props.routes ?? allRoutes;
    this.api = new Api(this, 'Api', {
      stage,
      routes,
      projectRoot: props.projectRoot ?? projectRoot,
      environment: { ...environment, [CORS_ORIGINS_ENV]: corsOrigins.join(',') },
      targets: {
        table: this.data.table,
        filesBucket: this.data.filesBucket,
        documentsBucket: this.data.documentsBucket,
        webhookSecretsKey: this.webhookSecrets.key,
        legacySecretGrants: stage.legacySecretGrants,
        mailFrom: stage.mailFrom,
        mailConfigurationSet: this.mail.configurationSetName,
      },
      corsOrigins,
      ...(props.detachMethods ? { detachMethods: props.detachMethods } : {}),
    });
    for (const routeId of secretRoutes) {
      const fn = this.api.functions.get(routeId);
      if (fn) this.webhookSecrets.configure(fn);
    }
    // Customer access tokens name the stage's API as their issuer (`iss`): the functions that sign
    // and the authorizer that verifies know its URL. Built from the API's id, not `restApi.url`,
    // which names the stage resource — and the stage comes after the functions.
    const tokenIssuer = `https://${this.api.restApi.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${stage.name}`;
    for (const fn of [this.api.authorizerFunction, ...tokenSigners.map((routeId) => this.api.functions.get(routeId))]) {
      fn?.addEnvironment(env.tokenIssuer, tokenIssuer);
    }
    // Like the KMS key: only the functions that send mail name the sender and the configuration set,
    // and only their roles may send as its SES identity, with that set (RouteRoles, infra/grants.ts).
    for (const route of routes.filter((candidate) => candidate.mail)) {
      this.api.functions
        .get(route.id)
        ?.addEnvironment(mailEnv.mailFrom, stage.mailFrom)
        .addEnvironment(mailEnv.configurationSet, this.mail.configurationSetName);
    }
    this.admin.deploy(this.api.restApi.url);

    // Audit lines printed by the API functions reach the table through log subscriptions.
    this.audit = new AuditShipping(this, 'Audit', {
      stage,
      projectRoot: props.projectRoot ?? projectRoot,
      environment,
      table: this.data.table,
      sources: [this.api.authorizerFunction, ...this.api.functions.values()],
    });

    // Stream router, webhook delivery worker, DLQ handler, the delivery and legacy price sweepers, file preflight: shared/workers.ts.
    this.workers = new Workers(this, 'Workers', {
      stage,
      workers: props.workers ?? allWorkers,
      projectRoot: props.projectRoot ?? projectRoot,
      environment,
      table: this.data.table,
      filesBucket: this.data.filesBucket,
      queues: {
        deliveries: this.events.deliveriesQueue,
        deliveriesDlq: this.events.deliveriesDlq,
        routerFailures: this.events.routerFailures,
        preflightFailures: this.events.preflightFailures,
      },
    });

    // API 5xx, and the route functions' (and the authorizer's and audit shipper's) Lambda errors and throttles.
    apiServerErrorAlarm(this, stage, this.api.restApi);
    // Each route group's functions are alarmed in the group's nested stack, so the main stack does not grow with routes.
    for (const [group, routeStack] of this.api.routeStacks.all) {
      const members = [...this.api.functions.values()].filter((fn) => Stack.of(fn) === routeStack);
      groupedFunctionAlarms(routeStack, stage, `${pascalCase(group)}Functions`, members, `The ${group} route functions`);
    }
    functionAlarms(this, stage, 'Authorizer', this.api.authorizerFunction, 'The API key authorizer');
    functionAlarms(this, stage, 'AuditShipper', this.audit.shipper, 'The audit shipper');

    // The delivery worker decrypts the secrets it signs with (webhook signing secrets only).
    for (const [workerId, use] of Object.entries(workerSecretUses)) {
      const fn = this.workers.functions.get(workerId);
      if (!fn) continue;
      this.webhookSecrets.configure(fn);
      this.webhookSecrets.grantUse(fn, use, stage.legacySecretGrants);
    }

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url });
    new CfnOutput(this, 'AdminUrl', { value: this.admin.url });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'FilesBucketName', { value: this.data.filesBucket.bucketName });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.data.documentsBucket.bucketName });
    new CfnOutput(this, 'DeliveriesQueueUrl', { value: this.events.deliveriesQueue.queueUrl });
    new CfnOutput(this, 'NotificationTopicArn', {
      value: this.notifications.topic.topicArn,
      description: stage.alarmEmail
        ? `Alarms and mail events go to ${stage.alarmEmail} once it confirms the subscription mail from SNS.`
        : 'Nobody is subscribed to alarms and mail events: deploy with -c alarmEmail=you@your-domain, or run ' +
          'aws sns subscribe --protocol email --notification-endpoint you@your-domain --topic-arn <this ARN>',
    });
  }
}
