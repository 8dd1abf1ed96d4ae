/**
 * What a first deploy needs before CDK runs, checked in order and stopping at the first missing
 * piece with the one command that fixes it: a region and working credentials, the CDK bootstrap
 * stack, a verified SES sender; then warnings that let the deploy go on: the SES sandbox and a
 * Lambda concurrency quota below what the stage assumes. Each check takes the SDK operation it
 * calls, so the tests run offline against fakes.
 */
import type { GetAccountSettingsCommand, GetAccountSettingsCommandOutput } from '@aws-sdk/client-lambda';
import type {
  GetAccountCommand,
  GetAccountCommandOutput,
  GetEmailIdentityCommand,
  GetEmailIdentityCommandOutput,
} from '@aws-sdk/client-sesv2';
import { GetParameterCommand, type GetParameterCommandOutput } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, type GetCallerIdentityCommandOutput } from '@aws-sdk/client-sts';
import { type ConcurrencyAssumption, checkConcurrency } from './concurrency';
import { checkMailSender, checkSesAccount } from './mail-sender';
import { type Operation, type Verdict, errorName, failureOf } from './verdict';

/** The default bootstrap qualifier (cdk.json sets no other): where `cdk deploy` reads the bootstrap stack's version. */
export const BOOTSTRAP_VERSION_PARAMETER = '/cdk-bootstrap/hnb659fds/version';

/** The oldest bootstrap stack the synthesized templates accept (their CheckBootstrapVersion rule). */
export const MIN_BOOTSTRAP_VERSION = 6;

/** The AWS operations the preflight calls, in one region. */
export interface PreflightClients {
  callerIdentity: Operation<GetCallerIdentityCommand, GetCallerIdentityCommandOutput>;
  bootstrapVersion: Operation<GetParameterCommand, GetParameterCommandOutput>;
  emailIdentity: Operation<GetEmailIdentityCommand, GetEmailIdentityCommandOutput>;
  sesAccount: Operation<GetAccountCommand, GetAccountCommandOutput>;
  lambdaSettings: Operation<GetAccountSettingsCommand, GetAccountSettingsCommandOutput>;
}

export interface PreflightRequest {
  stageName: string;
  /** Undefined when neither --region, AWS_REGION, AWS_DEFAULT_REGION nor the profile names one. */
  region: string | undefined;
  mailFrom: string;
  concurrency: ConcurrencyAssumption;
}

export interface PreflightResult {
  /** In the order checked; a refusal, when there is one, is the last. */
  verdicts: Verdict[];
  /** Where the deploy goes, once credentials and region are known. */
  target?: { account: string; region: string };
}

export function checkRegion(region: string | undefined): Verdict {
  if (region) return { kind: 'ok', message: `region: ${region}` };
  return {
    kind: 'refusal',
    message:
      'No AWS region: the checks and the deploy need one. Set it for this shell (or pass --region eu-central-1):\n' +
      '  export AWS_REGION=eu-central-1',
  };
}

/** Errors STS GetCallerIdentity fails with, by what fixes them. */
const MISSING_CREDENTIALS = new Set(['CredentialsProviderError', 'TokenProviderError']);
const EXPIRED_CREDENTIALS = new Set(['ExpiredToken', 'ExpiredTokenException', 'RequestExpired']);
const REJECTED_CREDENTIALS = new Set(['InvalidClientTokenId', 'SignatureDoesNotMatch', 'UnrecognizedClientException']);

export async function checkCredentials(
  sts: PreflightClients['callerIdentity'],
  region: string,
): Promise<{ verdict: Verdict; account?: string }> {
  try {
    const identity = await sts.send(new GetCallerIdentityCommand({}));
    if (!identity.Account) throw new Error('STS GetCallerIdentity answered no account');
    return { verdict: { kind: 'ok', message: `credentials: account ${identity.Account} as ${identity.Arn}` }, account: identity.Account };
  } catch (error) {
    const name = errorName(error) ?? '';
    const why = failureOf(error);
    const message = MISSING_CREDENTIALS.has(name)
      ? `No AWS credentials (${why}). Configure an access key, or sign in to IAM Identity Center (\`aws configure sso\`, then ` +
        '`aws sso login`; AWS_PROFILE=<name> picks a profile), and run this again:\n  aws configure'
      : EXPIRED_CREDENTIALS.has(name)
        ? `The AWS credentials have expired (${why}). Get fresh ones and run this again; for an IAM Identity Center profile:\n  aws sso login`
        : REJECTED_CREDENTIALS.has(name)
          ? `AWS does not accept these credentials (${why}): the access key is mistyped, deleted or inactive. Enter a valid one:\n  aws configure`
          : `Could not check the AWS credentials in ${region} (STS GetCallerIdentity: ${why}).`;
    return { verdict: { kind: 'refusal', message } };
  }
}

export async function checkBootstrap(ssm: PreflightClients['bootstrapVersion'], account: string, region: string): Promise<Verdict> {
  const bootstrap = `  npx cdk bootstrap aws://${account}/${region}`;
  try {
    const answer = await ssm.send(new GetParameterCommand({ Name: BOOTSTRAP_VERSION_PARAMETER }));
    const version = Number(answer.Parameter?.Value);
    if (!Number.isInteger(version)) {
      return {
        kind: 'refusal',
        message: `SSM parameter ${BOOTSTRAP_VERSION_PARAMETER} is not a version number. Bootstrap again:\n${bootstrap}`,
      };
    }
    if (version < MIN_BOOTSTRAP_VERSION) {
      return {
        kind: 'refusal',
        message: `The CDK bootstrap stack in ${region} is version ${version}; this app needs ${MIN_BOOTSTRAP_VERSION} or newer. Update it:\n${bootstrap}`,
      };
    }
    return { kind: 'ok', message: `CDK bootstrap: version ${version} in aws://${account}/${region}` };
  } catch (error) {
    if (errorName(error) === 'ParameterNotFound') {
      return {
        kind: 'refusal',
        message:
          `CDK is not bootstrapped in aws://${account}/${region}: SSM parameter ${BOOTSTRAP_VERSION_PARAMETER} not found ` +
          `(cdk deploy would stop there). Bootstrap once per account and region:\n${bootstrap}`,
      };
    }
    return {
      kind: 'refusal',
      message:
        `Could not read SSM parameter ${BOOTSTRAP_VERSION_PARAMETER} in ${region} (${failureOf(error)}); ` +
        'cdk deploy reads it too, so these credentials need ssm:GetParameter on it.',
    };
  }
}

/** Runs the checks in order; stops at the first refusal. `clientsIn` makes the clients once the region is known. */
export async function preflight(request: PreflightRequest, clientsIn: (region: string) => PreflightClients): Promise<PreflightResult> {
  const verdicts: Verdict[] = [checkRegion(request.region)];
  if (!request.region) return { verdicts };
  const region = request.region;
  const clients = clientsIn(region);

  const credentials = await checkCredentials(clients.callerIdentity, region);
  verdicts.push(credentials.verdict);
  if (!credentials.account) return { verdicts };
  const target = { account: credentials.account, region };

  const steps: (() => Promise<Verdict>)[] = [
    () => checkBootstrap(clients.bootstrapVersion, target.account, region),
    () => checkMailSender(clients.emailIdentity, { stageName: request.stageName, mailFrom: request.mailFrom, region }),
    () => checkSesAccount(clients.sesAccount, region),
    () => checkConcurrency(clients.lambdaSettings, region, request.stageName, request.concurrency),
  ];
  for (const step of steps) {
    const verdict = await step();
    verdicts.push(verdict);
    if (verdict.kind === 'refusal') break;
  }
  return { verdicts, target };
}
