/**
 * The stage's one notification topic: every CloudWatch alarm of the app publishes to it when it
 * goes into ALARM and when it is OK again, and SES publishes the mail events the operator must see
 * (bounces, complaints, rejects, delivery delays: infra/mail.ts). `-c alarmEmail=…` subscribes an
 * address; without it the topic is there and the stack output `NotificationTopicArn` says how to
 * subscribe (docs/platform.md#alarms).
 *
 * The topic is encrypted with a key of its own. The AWS-managed `alias/aws/sns` key would not do:
 * its policy cannot be changed, and it does not let CloudWatch alarms (or SES) use it, so every
 * alarm action would fail. Publishing is allowed to exactly two services, each held to its own
 * source (the stage's alarms, the stage's configuration set), and only over TLS.
 */
import { ArnFormat, Aspects, AspectPriority, Duration, RemovalPolicy, Stack, type IAspect } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct, type IConstruct } from 'constructs';
import { physicalName } from '#shared/resources';
import type { StageConfig } from './stages';

/** The services that publish to the topic: CloudWatch for the alarms, SES for the mail events. */
export const TOPIC_PUBLISHERS = ['cloudwatch.amazonaws.com', 'ses.amazonaws.com'] as const;

/** What a publishing service needs of the key: a data key to encrypt a message with, and to read it back for delivery. */
export const TOPIC_KEY_ACTIONS = ['kms:Decrypt', 'kms:GenerateDataKey*'];

/** Every alarm of a stage is named `print-shop-<stage>-<id>` (infra/alarms.ts); the topic takes alarms of that name only. */
export const alarmNamePrefix = (stage: StageConfig): string => physicalName(stage.name, '');

export class Notifications extends Construct {
  readonly key: kms.Key;
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, stage: StageConfig) {
    super(scope, id);
    const stack = Stack.of(this);
    const topicName = physicalName(stage.name, 'Notifications');
    // The key's policy names the topic by its ARN, built from the name: a reference to the topic would be a
    // cycle (the topic refers to the key).
    const topicArn = stack.formatArn({ service: 'sns', resource: topicName, arnFormat: ArnFormat.NO_RESOURCE_NAME });

    this.key = new kms.Key(this, 'Key', {
      alias: `alias/${topicName}`,
      description: `Print Shop API (${stage.name}): encrypts the messages of the notification topic (alarms, mail events)`,
      enableKeyRotation: true,
      // It encrypts messages in flight only (SNS keeps none once delivered): nothing to keep after the stack.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    // SNS encrypts each message under the encryption context `aws:sns:topicArn`: the services may use the
    // key for this topic's messages only. Who may publish at all is the topic policy's (below).
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'PublishToTheNotificationTopic',
        principals: TOPIC_PUBLISHERS.map((service) => new iam.ServicePrincipal(service)),
        actions: TOPIC_KEY_ACTIONS,
        resources: ['*'],
        conditions: { StringEquals: { 'kms:EncryptionContext:aws:sns:topicArn': topicArn } },
      }),
    );

    this.topic = new sns.Topic(this, 'Topic', {
      topicName,
      displayName: `Print Shop ${stage.name}`,
      masterKey: this.key,
      enforceSSL: true,
    });
    // A topic policy replaces the default one that let the account's own services publish: CloudWatch
    // now needs a statement, held to the alarms of this stage. (SES gets its own from its event
    // destination, held to the configuration set: infra/mail.ts.)
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'StageAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: `${alarmNamePrefix(stage)}*`,
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );

    if (stage.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(stage.alarmEmail));

    // Every alarm below the stack, nested stacks included, notifies: those of today and any added later.
    Aspects.of(stack).add(new NotifyOnAlarms(this.topic, alarmNamePrefix(stage)), { priority: AspectPriority.MUTATING });
  }
}

/**
 * Gives every CloudWatch alarm it visits an alarm action and an OK action that publish to the topic,
 * so no alarm can be added that fires into the void. An alarm in a nested stack gets the topic's ARN
 * as a parameter of that stack (CDK passes the reference). An alarm whose name is not the stage's
 * (`print-shop-<stage>-…`) fails the synth: the topic policy would refuse its notifications.
 */
export class NotifyOnAlarms implements IAspect {
  private readonly action: cloudwatchActions.SnsAction;
  private readonly visited = new WeakSet<IConstruct>();

  constructor(
    topic: sns.ITopic,
    private readonly namePrefix: string,
  ) {
    this.action = new cloudwatchActions.SnsAction(topic);
  }

  visit(node: IConstruct): void {
    if (!(node instanceof cloudwatch.AlarmBase) || this.visited.has(node)) return;
    this.visited.add(node);
    const { alarmName } = node.node.defaultChild as cloudwatch.CfnAlarm | cloudwatch.CfnCompositeAlarm;
    if (typeof alarmName !== 'string' || !alarmName.startsWith(this.namePrefix)) {
      throw new Error(
        `${node.node.path}: alarm name "${alarmName ?? '(generated)'}" must start with "${this.namePrefix}" (infra/alarms.ts \`alarm\`), or the notification topic refuses it`,
      );
    }
    node.addAlarmAction(this.action);
    node.addOkAction(this.action);
  }
}
