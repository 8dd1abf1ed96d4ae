/**
 * CDK entry point (`cdk.json` runs it with tsx). The stage comes from `-c stage=dev|staging|prod`, the
 * sender of its email from `-c mailFrom=…` (required: no stage synthesizes without a real one), the
 * address its alarms notify from `-c alarmEmail=…` (optional; infra/stages.ts).
 * cdk-nag's AWS Solutions rules run on every synth; findings are fixed or suppressed with a reason.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PrintShopStack } from './stack';
import { stageConfig } from './stages';

const app = new App();
const stage = stageConfig(app.node.tryGetContext('stage') ?? 'dev', {
  corsOrigins: app.node.tryGetContext('corsOrigins'),
  mailFrom: app.node.tryGetContext('mailFrom'),
  alarmEmail: app.node.tryGetContext('alarmEmail'),
  // `-c legacySecrets=false` once seal-secrets has sealed every older secret again (infra/secrets.ts).
  legacySecrets: app.node.tryGetContext('legacySecrets'),
});

const stack = new PrintShopStack(app, `PrintShop-${stage.name}`, {
  stackName: `print-shop-${stage.name}`,
  description: `Print Shop API (${stage.name})`,
  stage,
  // Only for the one deploy before methods change stacks (README, "Deploy"): the deployment to keep serving.
  detachMethods: app.node.tryGetContext('detachMethods'),
  // Environment-agnostic unless the CLI knows an account, so synth also works offline.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Tags.of(stack).add('project', 'print-shop-api');
Tags.of(stack).add('stage', stage.name);

Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
