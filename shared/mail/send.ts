/**
 * The one way the service sends email (invoices now, password resets later). On AWS: Amazon SES
 * (v2 API) with the composed message as raw bytes, from the stage's sender address (`MAIL_FROM`,
 * an address of a verified SES identity; infra/stages.ts) and with the stage's configuration set
 * (`MAIL_CONFIGURATION_SET`: suppression of bounces and complaints, their events to the operator;
 * infra/mail.ts). Locally — whenever `MAIL_DIR` is set, which the local runner does, or in local
 * mode — nothing is sent: the message is written as an `.eml` file into that folder, where any mail
 * client opens it. docs/mail.md has the whole story.
 *
 * SES's refusals become a MailNotSentError (502 `mail_not_sent`): the caller learns that nothing
 * was sent, the logs get SES's reason. Throttling is retried by the SDK's standard retries
 * (shared/clients/ses.ts) and not again here: retries nest in one place only (shared/async/retry.ts).
 * Any other failure (credentials, network, a bug) stays an unknown error, a plain 500.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ses } from '#shared/clients/ses';
import { config } from '#shared/config';
import { MailNotSentError } from '#shared/errors';
import { logger } from '#shared/logger';
import { mailConfig, mailEnv } from './config';
import { composeRawMessage, mailboxOf, type MailMessage } from './message';

export type { MailAttachment, MailMessage } from './message';

export interface SentMail {
  /** SES's message id on AWS; locally the `.eml` file's name without the extension. */
  messageId: string;
}

/** SES error name → what the caller is told. Every one of them means that nothing was sent. */
const refusals = new Map<string, string>(
  Object.entries({
    // Content refused, or (in the SES sandbox) a recipient that is not a verified identity.
    MessageRejected: 'The mail service rejected the message; it was not sent',
    // The operator's to fix: the stage's sender identity is not (or no longer) verified in this region.
    MailFromDomainNotVerifiedException: "Email cannot be sent at the moment: the service's sender address is not verified; it was not sent",
    AccountSuspendedException: 'Email sending is suspended for this service; the message was not sent',
    SendingPausedException: 'Email sending is paused for this service; the message was not sent',
    // Left after the SDK's retries: the account's sending rate or daily quota is used up.
    TooManyRequestsException: "The mail service's sending limit is reached; the message was not sent, try again later",
    LimitExceededException: "The mail service's sending limit is reached; the message was not sent, try again later",
  }),
);

/** Sends one message; resolves once SES accepted it (or its `.eml` file is written locally). */
export async function sendMail(message: MailMessage): Promise<SentMail> {
  const { mailFrom, mailDir, configurationSet } = mailConfig();
  if (mailDir) {
    // Locally any sender will do: a placeholder under the reserved .example domain, which no deployed stage may use (infra/stages.ts).
    const raw = await composeRawMessage(message, mailFrom || `invoices@${config().stage}.print-shop.example`);
    return writeToFolder(raw, mailDir);
  }
  // A function without the sender has no grant to send either: say so, rather than SES's AccessDenied.
  if (!mailFrom) throw new Error(`${mailEnv.mailFrom} is not set: only the functions of routes with \`mail: true\` send mail`);
  return sendThroughSes(await composeRawMessage(message, mailFrom), mailFrom, message.to, configurationSet);
}

/** The last millisecond a message was named in and how many were named in it: the order of sends within one millisecond. */
let named = { at: '', count: 0 };

/**
 * `2026-05-04T10-15-30-123Z-0000-<16 hex>.eml`: sorted by time in any file listing — and, within one
 * millisecond, by the order this process sent them (the 4 digits) — unique without coordination
 * (several functions may write at once), no characters a file system refuses (`:`).
 */
async function writeToFolder(raw: Uint8Array, dir: string): Promise<SentMail> {
  await mkdir(dir, { recursive: true });
  const at = new Date().toISOString().replace(/[:.]/g, '-');
  named = at === named.at ? { at, count: named.count + 1 } : { at, count: 0 };
  const messageId = `${at}-${String(named.count).padStart(4, '0')}-${randomBytes(8).toString('hex')}`;
  const file = join(resolve(dir), `${messageId}.eml`);
  // `wx`: never overwrite a message already written.
  await writeFile(file, raw, { flag: 'wx' });
  logger.info('mail written (local mode: not sent)', { file });
  return { messageId };
}

async function sendThroughSes(raw: Uint8Array, from: string, to: string, configurationSet: string): Promise<SentMail> {
  try {
    const result = await ses().send(
      new SendEmailCommand({
        FromEmailAddress: from,
        // The envelope recipient: the bare address of the To header's one mailbox (message.ts allows one).
        Destination: { ToAddresses: [mailboxOf(to)] },
        Content: { Raw: { Data: raw } },
        // The stage's bounce and complaint handling (infra/mail.ts); SES refuses a name that does not exist.
        ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
      }),
    );
    return { messageId: result.MessageId ?? '' };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const refusal = refusals.get(name);
    if (refusal) throw new MailNotSentError(name, refusal, { cause: error });
    throw error;
  }
}
