import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';
import { physicalName } from '#shared/resources';
import { NOTIFIED_MAIL_EVENTS } from '#infra/mail';
import { Notifications, TOPIC_KEY_ACTIONS } from '#infra/notifications';
import { projectRoot } from '#infra/stack';
import {
  addressOf,
  buildStack,
  findAll,
  inMainTerms,
  logicalIdOf,
  resolveReference,
  resourceOf,
  sharedStack,
  testStageConfig,
  type PolicyStatement,
} from './helpers';

/**
 * The first deploy on a fresh account: no stage synthesizes without a real sender, every alarm
 * notifies the stage's topic (ALARM and OK), the topic is encrypted with a key CloudWatch and SES
 * may use, and the mail goes out with a configuration set that suppresses bounces and complaints
 * and reports them to the topic.
 */
const built = sharedStack('prod');
const { stack, template } = built;
const topicAddress = addressOf(stack.notifications.topic);
const keyAddress = addressOf(stack.notifications.key);

/** `cdk synth` as cdk.json runs it (tsx infra/app.ts), with the context CDK hands the app. */
function synthesizeApp(context: Record<string, string>) {
  const outdir = mkdtempSync(join(tmpdir(), 'print-shop-synth-'));
  try {
    return spawnSync(join(projectRoot, 'node_modules/.bin/tsx'), [join(projectRoot, 'infra/app.ts')], {
      cwd: projectRoot,
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir },
      encoding: 'utf8',
      // It fails before any construct is made; a synth that went on would bundle every function.
      timeout: 60_000,
    });
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

describe('the sender of a deployed stage', () => {
  it('is required: synth of prod without -c mailFrom= fails and says what to set', () => {
    const result = synthesizeApp({ stage: 'prod' });
    expect(result.status, result.stderr).not.toBe(0);
    expect(result.stderr).toMatch(/Stage "prod" has no mail sender: synthesize it with -c mailFrom=/);
    expect(() => buildStack('prod', { stageOverrides: { mailFrom: undefined } })).toThrow(/-c mailFrom=/);
  });

  it('is never a placeholder under a reserved domain', () => {
    const result = synthesizeApp({ stage: 'prod', mailFrom: 'invoices@prod.print-shop.example' });
    expect(result.status, result.stderr).not.toBe(0);
    expect(result.stderr).toMatch(/"invoices@prod.print-shop.example" is a placeholder.*-c mailFrom=/);
  });
});

describe('alarm notifications', () => {
  it('give every alarm of every template an alarm action and an OK action that publish to the topic', () => {
    const alarms = findAll(built, 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(20);
    for (const { address, stack: home, resource } of alarms) {
      const { AlarmActions, OKActions } = resource.Properties as { AlarmActions?: unknown[]; OKActions?: unknown[] };
      for (const actions of [AlarmActions, OKActions]) {
        expect(actions, address).toHaveLength(1);
        expect(resolveReference(built, actions![0], home), address).toEqual({ address: topicAddress, attribute: 'Ref' });
      }
    }
  });

  it('reach alarms in nested stacks too (the topic ARN becomes a parameter), and refuse an alarm the topic would not take', () => {
    const app = new App();
    const main = new Stack(app, 'Main');
    const stage = testStageConfig('dev');
    const notifications = new Notifications(main, 'Notifications', stage);
    const nested = new NestedStack(main, 'Nested');
    const metric = new cloudwatch.Metric({ namespace: 'Test', metricName: 'Errors', period: Duration.minutes(5) });
    new cloudwatch.Alarm(nested, 'Deep', { alarmName: physicalName(stage.name, 'Deep'), metric, threshold: 0, evaluationPeriods: 1 });
    const nestedAlarm = Template.fromStack(nested).findResources('AWS::CloudWatch::Alarm');
    const [{ Properties }] = Object.values(nestedAlarm) as [{ Properties: { AlarmActions: unknown; OKActions: unknown } }];
    const passed = Template.fromStack(main).findResources('AWS::CloudFormation::Stack');
    const parameters = (Object.values(passed)[0] as { Properties: { Parameters: Record<string, unknown> } }).Properties.Parameters;
    const topicRef = { Ref: main.getLogicalId(notifications.topic.node.defaultChild as never) };
    for (const actions of [Properties.AlarmActions, Properties.OKActions]) {
      const [action] = actions as [{ Ref: string }];
      expect(parameters[action.Ref]).toEqual(topicRef);
    }

    const other = new App();
    const otherStack = new Stack(other, 'Other');
    new Notifications(otherStack, 'Notifications', stage);
    new cloudwatch.Alarm(otherStack, 'Unnamed', { metric, threshold: 0, evaluationPeriods: 1 });
    expect(() => Template.fromStack(otherStack)).toThrow(/must start with "print-shop-dev-"/);
  });
});

describe('the notification topic', () => {
  const topic = resourceOf(built, stack.notifications.topic);
  const statementsOf = (type: string): PolicyStatement[] =>
    findAll(built, type).flatMap(({ resource }) => {
      const document = (resource.Properties.PolicyDocument ?? resource.Properties.KeyPolicy) as { Statement: PolicyStatement[] };
      return document.Statement;
    });

  it('is one per stage, encrypted with its own key (rotated), which CloudWatch and SES may use for this topic only', () => {
    expect(findAll(built, 'AWS::SNS::Topic')).toHaveLength(1);
    expect(topic.Properties.TopicName).toBe('print-shop-prod-notifications');
    expect(resolveReference(built, topic.Properties.KmsMasterKeyId)).toEqual({ address: keyAddress, attribute: 'Arn' });
    expect(resourceOf(built, stack.notifications.key).Properties.EnableKeyRotation).toBe(true);
    const services = statementsOf('AWS::KMS::Key').filter((statement) => JSON.stringify(statement.Principal).includes('Service'));
    const publishers = services.filter((statement) => JSON.stringify(statement.Condition).includes('aws:sns:topicArn'));
    expect(publishers).toHaveLength(1);
    expect(publishers[0]).toMatchObject({
      Effect: 'Allow',
      Principal: { Service: ['cloudwatch.amazonaws.com', 'ses.amazonaws.com'] },
      Action: TOPIC_KEY_ACTIONS,
    });
    const topicArn = JSON.stringify(Object.values(publishers[0]!.Condition!.StringEquals as object)[0]);
    expect(topicArn).toContain(':print-shop-prod-notifications');
  });

  it('takes messages over TLS only, from the stage alarms and the stage configuration set', () => {
    const statements = statementsOf('AWS::SNS::TopicPolicy');
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const allowed = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allowed.map((statement) => statement.Principal)).toEqual(
      expect.arrayContaining([{ Service: 'cloudwatch.amazonaws.com' }, { Service: 'ses.amazonaws.com' }]),
    );
    expect(allowed).toHaveLength(2);
    const alarms = allowed.find((statement) => JSON.stringify(statement.Principal).includes('cloudwatch'))!;
    expect(JSON.stringify(alarms.Condition)).toContain(':alarm:print-shop-prod-*');
    const mail = allowed.find((statement) => JSON.stringify(statement.Principal).includes('ses'))!;
    const setRef = { Ref: logicalIdOf(stack.mail.configurationSet) };
    expect(JSON.stringify(mail.Condition)).toContain(`:configuration-set/",${JSON.stringify(setRef)}`);
  });

  it('has no subscription without alarmEmail; -c alarmEmail= adds one email subscription, placeholders refused', () => {
    expect(findAll(built, 'AWS::SNS::Subscription')).toEqual([]);
    expect(template.toJSON().Outputs.NotificationTopicArn.Description).toMatch(/-c alarmEmail=/);

    const subscribed = buildStack('dev', { stageOverrides: { alarmEmail: 'ops@druckerei-schoen.de' } });
    const subscriptions = findAll(subscribed, 'AWS::SNS::Subscription');
    expect(subscriptions.map(({ resource }) => resource.Properties)).toEqual([
      { Protocol: 'email', Endpoint: 'ops@druckerei-schoen.de', TopicArn: { Ref: logicalIdOf(subscribed.stack.notifications.topic) } },
    ]);
    expect(() => testStageConfig('dev', { alarmEmail: 'ops@example.com' })).toThrow(/placeholder.*-c alarmEmail=/);
  });
});

describe('bounces and complaints', () => {
  it('go through one configuration set that suppresses bounces and complaints and reports them to the topic', () => {
    const sets = findAll(built, 'AWS::SES::ConfigurationSet');
    expect(sets.map(({ resource }) => resource.Properties)).toEqual([
      expect.objectContaining({
        Name: 'print-shop-prod-mail',
        SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      }),
    ]);
    const destinations = findAll(built, 'AWS::SES::ConfigurationSetEventDestination');
    expect(destinations).toHaveLength(1);
    const { ConfigurationSetName, EventDestination } = destinations[0]!.resource.Properties as {
      ConfigurationSetName: unknown;
      EventDestination: { Enabled: boolean; MatchingEventTypes: string[]; SnsDestination: { TopicARN: unknown } };
    };
    expect(ConfigurationSetName).toEqual({ Ref: logicalIdOf(stack.mail.configurationSet) });
    expect(EventDestination.Enabled).toBe(true);
    expect([...EventDestination.MatchingEventTypes].sort()).toEqual(['bounce', 'complaint', 'deliveryDelay', 'reject']);
    expect(EventDestination.MatchingEventTypes).toEqual(NOTIFIED_MAIL_EVENTS);
    expect(resolveReference(built, EventDestination.SnsDestination.TopicARN)).toEqual({ address: topicAddress, attribute: 'Ref' });
  });

  it('are handled for every send: the mail routes name the set, and their grant allows sending with it', () => {
    const mailRoutes = routes.filter((route) => route.mail);
    expect(mailRoutes.length).toBeGreaterThan(0);
    const setRef = { Ref: logicalIdOf(stack.mail.configurationSet) };
    for (const route of mailRoutes) {
      const fn = stack.api.functions.get(route.id)!;
      const variables = resourceOf(built, fn).Properties.Environment.Variables as Record<string, unknown>;
      expect(inMainTerms(built, Stack.of(fn), variables.MAIL_CONFIGURATION_SET), route.id).toEqual(setRef);
      const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: logicalIdOf(fn.role!) }] } });
      const send = Object.values(policies)
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatement[])
        .find((statement) => [statement.Action].flat().includes('ses:SendEmail'));
      expect(JSON.stringify(send?.Resource), route.id).toContain(`:configuration-set/",${JSON.stringify(setRef)}`);
    }
  });
});
