/**
 * How the stage's mail leaves SES: one configuration set, which every send names
 * (`MAIL_CONFIGURATION_SET`, shared/mail/send.ts). It puts the addresses that hard-bounce or
 * complain on the account's suppression list, so they are never tried again (a repeated bounce
 * counts against the account's reputation, and SES pauses accounts that bounce too much), and it
 * publishes the events someone has to look at — bounces, complaints, rejects, delivery delays —
 * to the stage's notification topic (infra/notifications.ts), one message per event with the
 * recipient and SES's reason (docs/mail.md#bounces-and-complaints).
 */
import * as ses from 'aws-cdk-lib/aws-ses';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { physicalName } from '#shared/resources';
import type { StageConfig } from './stages';

/** The events the operator is told of; sends and deliveries are the normal case and stay silent. */
export const NOTIFIED_MAIL_EVENTS = [
  ses.EmailSendingEvent.BOUNCE,
  ses.EmailSendingEvent.COMPLAINT,
  ses.EmailSendingEvent.REJECT,
  ses.EmailSendingEvent.DELIVERY_DELAY,
];

export interface MailSendingProps {
  stage: StageConfig;
  /** Where the events go: the stage's notification topic. */
  notifications: sns.ITopic;
}

export class MailSending extends Construct {
  readonly configurationSet: ses.ConfigurationSet;

  constructor(scope: Construct, id: string, props: MailSendingProps) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: physicalName(props.stage.name, 'Mail'),
      // BOUNCE and COMPLAINT: SES adds such recipients to the account-level suppression list and drops later sends to them.
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      // The stage's bounce and complaint rates in CloudWatch and the SES console, the figures SES reviews accounts by.
      reputationMetrics: true,
    });
    // An SNS destination rather than CloudWatch metrics: mail volume is small (invoices, registration codes),
    // and each event names the recipient and the reason, which a count would not. CDK adds the topic
    // policy statement that lets SES publish for this configuration set only.
    this.configurationSet.addEventDestination('Notifications', {
      configurationSetEventDestinationName: 'notification-topic',
      destination: ses.EventDestination.snsTopic(props.notifications),
      events: NOTIFIED_MAIL_EVENTS,
    });
  }

  /** The name the sends give (`MAIL_CONFIGURATION_SET`); a reference, so the functions are deployed after the set. */
  get configurationSetName(): string {
    return this.configurationSet.configurationSetName;
  }
}
