/**
 * The stage's mail sender (`mailFrom`) before a deploy: its domain must be a verified SES identity
 * in the region — the functions that send mail may send as that domain identity only
 * (infra/grants.ts), so without it every send fails — and whether the account is still in the SES
 * sandbox (a warning: the stage deploys, but mail reaches no customer; docs/mail.md).
 */
import {
  GetAccountCommand,
  GetEmailIdentityCommand,
  type GetAccountCommandOutput,
  type GetEmailIdentityCommandOutput,
} from '@aws-sdk/client-sesv2';
import { isPlaceholderDomain, mailIdentityOf } from '#infra/stages';
import { type Operation, type Verdict, errorName, failureOf } from './verdict';

type EmailIdentities = Operation<GetEmailIdentityCommand, GetEmailIdentityCommandOutput>;

/** The identity, or undefined when SES has none of that name (NotFoundException). */
async function identityOf(ses: EmailIdentities, name: string): Promise<GetEmailIdentityCommandOutput | undefined> {
  try {
    return await ses.send(new GetEmailIdentityCommand({ EmailIdentity: name }));
  } catch (error) {
    if (errorName(error) === 'NotFoundException') return undefined;
    throw error;
  }
}

export interface MailSender {
  stageName: string;
  mailFrom: string;
  region: string;
}

export async function checkMailSender(ses: EmailIdentities, sender: MailSender): Promise<Verdict> {
  const { stageName, mailFrom, region } = sender;
  const domain = mailIdentityOf(mailFrom);
  const passSender = `  npm run deploy -- --stage ${stageName} --mail-from invoices@your-domain`;
  if (isPlaceholderDomain(domain)) {
    return {
      kind: 'refusal',
      message:
        `The mail sender ${mailFrom} is a placeholder: ${domain} is a reserved name that no one can verify in SES. ` +
        `Pass a sender of a domain you control, verified in SES in ${region}:\n${passSender}`,
    };
  }
  const createIdentity = `  aws sesv2 create-email-identity --email-identity ${domain} --region ${region}`;
  const listDkimRecords = `aws sesv2 get-email-identity --email-identity ${domain} --region ${region} --query DkimAttributes.Tokens`;
  try {
    const domainIdentity = await identityOf(ses, domain);
    if (domainIdentity?.VerifiedForSendingStatus) {
      return { kind: 'ok', message: `mail sender: ${mailFrom}, domain ${domain} verified in SES in ${region}` };
    }
    if (domainIdentity) {
      return {
        kind: 'refusal',
        message:
          `The SES identity ${domain} in ${region} is not verified yet (DKIM status ${domainIdentity.DkimAttributes?.Status ?? 'unknown'}). ` +
          `Publish its three DKIM CNAME records, <token>._domainkey.${domain}, in the domain's DNS (\`${listDkimRecords}\` ` +
          `lists the tokens; the SES console shows the whole records), then deploy once SES shows the domain verified.`,
      };
    }
    const addressIdentity = await identityOf(ses, mailFrom);
    if (addressIdentity?.VerifiedForSendingStatus) {
      return {
        kind: 'refusal',
        message:
          `${mailFrom} is a verified SES identity in ${region}, but its domain ${domain} is not: the stage's functions may send ` +
          `only as the domain identity (identity/${domain}), so their mail would be refused. Verify the domain:\n${createIdentity}\n` +
          `then publish the three DKIM CNAME records it answers in the domain's DNS.`,
      };
    }
    return {
      kind: 'refusal',
      message:
        `SES in ${region} has no identity ${domain}, the domain of the mail sender ${mailFrom}: the stage could send no mail. ` +
        `Create it:\n${createIdentity}\nthen publish the three DKIM CNAME records it answers (<token>._domainkey.${domain}) ` +
        `in the domain's DNS; SES verifies the domain once it finds them.`,
    };
  } catch (error) {
    return {
      kind: 'refusal',
      message: `Could not read the SES identity ${domain} in ${region} (SESv2 GetEmailIdentity: ${failureOf(error)}).`,
    };
  }
}

/** The sandbox and a paused account are warnings: the stage deploys, but its mail reaches no customer. */
export async function checkSesAccount(ses: Operation<GetAccountCommand, GetAccountCommandOutput>, region: string): Promise<Verdict> {
  let account: GetAccountCommandOutput;
  try {
    account = await ses.send(new GetAccountCommand({}));
  } catch (error) {
    return { kind: 'warning', message: `Could not read the SES account in ${region} (SESv2 GetAccount: ${failureOf(error)}).` };
  }
  if (account.SendingEnabled === false) {
    return {
      kind: 'warning',
      message: `SES sending is paused for this account in ${region} (enforcement status ${account.EnforcementStatus ?? 'unknown'}): no mail goes out until AWS resumes it; see the SES console's account dashboard.`,
    };
  }
  if (account.ProductionAccessEnabled) return { kind: 'ok', message: `SES: production access in ${region}` };
  const review = account.Details?.ReviewDetails;
  const request = review?.Status
    ? ` Your last request for production access is ${review.Status}${review.CaseId ? ` (case ${review.CaseId})` : ''}.`
    : '';
  const perDay = account.SendQuota?.Max24HourSend;
  return {
    kind: 'warning',
    message:
      `SES in ${region} is in the sandbox: it sends only to verified addresses${perDay === undefined ? '' : `, at most ${perDay} a day`}, ` +
      `and refuses the stage's mail even to those (its send grant names only the sender's domain; docs/mail.md).${request} ` +
      `The deploy goes on. To send to customers, request production access in the SES console (Account dashboard) or:\n` +
      `  aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL --website-url https://your-domain ` +
      `--use-case-description "Invoices and account mail to our customers" --region ${region}`,
  };
}
