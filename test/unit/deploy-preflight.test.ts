/**
 * `npm run deploy` (scripts/deploy/): what a first deploy needs, checked against fake AWS
 * operations that answer as the real services do — for a fresh account (no credentials, no CDK
 * bootstrap, no SES identity, the SES sandbox, a Lambda quota of 10) and for a ready one — and the
 * `cdk deploy` it then runs. No AWS account needed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GetAccountSettingsCommandOutput } from '@aws-sdk/client-lambda';
import { NotFoundException, type GetAccountCommandOutput, type GetEmailIdentityCommandOutput } from '@aws-sdk/client-sesv2';
import { ParameterNotFound } from '@aws-sdk/client-ssm';
import { STSServiceException } from '@aws-sdk/client-sts';
import { describe, expect, it } from 'vitest';
import { stageDefaults } from '#infra/stages';
import { workers } from '#shared/workers';
import { CLI_TEST_TIMEOUT_MS } from '#test/support/timeouts';
import { cdkDeployCommand, parseContexts, passthroughContextKeys, shellLine, type ChildCommand } from '#scripts/deploy/cdk-command';
import { assumedConcurrency, checkConcurrency } from '#scripts/deploy/concurrency';
import type { PreflightClients } from '#scripts/deploy/preflight';
import { deploy, type DeployRequest } from '#scripts/deploy/run';

/**
 * What the SDK's default credential chain throws when no provider has credentials: smithy's
 * CredentialsProviderError, with this name and message (the checks read the name only; smithy's
 * package is the SDK's own dependency, not this project's).
 */
const credentialsProviderError = () =>
  Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });

const ACCOUNT = '123456789012';
const REGION = 'eu-central-1';
const SENDER = 'invoices@shop-mail.de';
const metadata = { httpStatusCode: 200, requestId: 'c0ffee00-0000-4000-8000-000000000000', attempts: 1, totalRetryDelay: 0 };

/** What the fake account holds; each field's default is a fresh account's. */
interface AccountState {
  credentials: 'missing' | 'expired' | 'valid';
  /** The bootstrap stack's version parameter; undefined: never bootstrapped. */
  bootstrapVersion?: string;
  /** SES identities by name: their DKIM status (SUCCESS: verified for sending). */
  identities: Record<string, 'PENDING' | 'SUCCESS' | 'FAILED'>;
  productionAccess: boolean;
  concurrencyQuota: number;
}

const freshAccount: AccountState = { credentials: 'missing', identities: {}, productionAccess: false, concurrencyQuota: 10 };
const readyAccount: AccountState = {
  credentials: 'valid',
  bootstrapVersion: '30',
  identities: { 'shop-mail.de': 'SUCCESS' },
  productionAccess: true,
  concurrencyQuota: 1000,
};

const dkimTokens = ['k3xq7v2mabcdefghijklmnopqrstuvwx', 'p9lq2r4sabcdefghijklmnopqrstuvwx', 'z8yt6u5wabcdefghijklmnopqrstuvwx'];

/** The five operations, answering with the services' response shapes and error classes. */
function fakeAws(state: AccountState) {
  const calls: string[] = [];
  const clients: PreflightClients = {
    callerIdentity: {
      async send() {
        calls.push('sts:GetCallerIdentity');
        // The SDK's credential chain fails before any request leaves.
        if (state.credentials === 'missing') throw credentialsProviderError();
        if (state.credentials === 'expired') {
          // STS answers 403 with the code ExpiredToken, which the client models as no class of its own.
          throw new STSServiceException({
            name: 'ExpiredToken',
            $fault: 'client',
            $metadata: { ...metadata, httpStatusCode: 403 },
            message: 'The security token included in the request is expired',
          });
        }
        return { UserId: 'AIDAEXAMPLEUSERID0000', Account: ACCOUNT, Arn: `arn:aws:iam::${ACCOUNT}:user/deployer`, $metadata: metadata };
      },
    },
    bootstrapVersion: {
      async send(command) {
        calls.push(`ssm:GetParameter ${command.input.Name}`);
        if (state.bootstrapVersion === undefined)
          throw new ParameterNotFound({ message: '', $metadata: { ...metadata, httpStatusCode: 400 } });
        return {
          Parameter: {
            Name: command.input.Name,
            Type: 'String',
            Value: state.bootstrapVersion,
            Version: 1,
            LastModifiedDate: new Date('2026-01-05T10:00:00Z'),
            ARN: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter${command.input.Name}`,
            DataType: 'text',
          },
          $metadata: metadata,
        };
      },
    },
    emailIdentity: {
      async send(command) {
        const name = command.input.EmailIdentity!;
        calls.push(`sesv2:GetEmailIdentity ${name}`);
        const dkim = state.identities[name];
        if (!dkim) {
          throw new NotFoundException({
            message: `Email identity ${name} does not exist.`,
            $metadata: { ...metadata, httpStatusCode: 404 },
          });
        }
        const isDomain = !name.includes('@');
        const answer: GetEmailIdentityCommandOutput = {
          IdentityType: isDomain ? 'DOMAIN' : 'EMAIL_ADDRESS',
          FeedbackForwardingStatus: true,
          VerifiedForSendingStatus: dkim === 'SUCCESS',
          DkimAttributes: isDomain
            ? {
                SigningEnabled: true,
                Status: dkim,
                Tokens: dkimTokens,
                SigningAttributesOrigin: 'AWS_SES',
                CurrentSigningKeyLength: 'RSA_2048_BIT',
              }
            : { SigningEnabled: false, Status: 'NOT_STARTED', SigningAttributesOrigin: 'AWS_SES' },
          Policies: {},
          Tags: [],
          VerificationStatus: dkim === 'SUCCESS' ? 'SUCCESS' : dkim,
          $metadata: metadata,
        };
        return answer;
      },
    },
    sesAccount: {
      async send() {
        calls.push('sesv2:GetAccount');
        const answer: GetAccountCommandOutput = {
          DedicatedIpAutoWarmupEnabled: false,
          EnforcementStatus: 'HEALTHY',
          ProductionAccessEnabled: state.productionAccess,
          SendQuota: state.productionAccess
            ? { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 0 }
            : { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 0 },
          SendingEnabled: true,
          SuppressionAttributes: { SuppressedReasons: [] },
          $metadata: metadata,
        };
        return answer;
      },
    },
    lambdaSettings: {
      async send() {
        calls.push('lambda:GetAccountSettings');
        const answer: GetAccountSettingsCommandOutput = {
          AccountLimit: {
            TotalCodeSize: 80530636800,
            CodeSizeUnzipped: 262144000,
            CodeSizeZipped: 52428800,
            ConcurrentExecutions: state.concurrencyQuota,
            UnreservedConcurrentExecutions: state.concurrencyQuota,
          },
          AccountUsage: { TotalCodeSize: 0, FunctionCount: 0 },
          $metadata: metadata,
        };
        return answer;
      },
    },
  };
  return { clients, calls };
}

const devConcurrency = assumedConcurrency(stageDefaults('dev'), workers);

async function deployWith(state: AccountState, overrides: Partial<DeployRequest> = {}) {
  const aws = fakeAws(state);
  const out: string[] = [];
  const err: string[] = [];
  const runs: ChildCommand[] = [];
  const regions: string[] = [];
  const exitCode = await deploy(
    {
      stageName: 'dev',
      region: REGION,
      mailFrom: SENDER,
      contexts: [],
      approval: 'broadening',
      dryRun: false,
      concurrency: devConcurrency,
      ...overrides,
    },
    {
      clientsIn: (region) => {
        regions.push(region);
        return aws.clients;
      },
      run: async (child) => {
        runs.push(child);
        return 0;
      },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    },
  );
  return { exitCode, out, err, runs, calls: aws.calls, regions };
}

const header = 'Checking what deploying stage dev needs:';
const regionOk = `ok: region: ${REGION}`;
const credentialsOk = `ok: credentials: account ${ACCOUNT} as arn:aws:iam::${ACCOUNT}:user/deployer`;
const bootstrapOk = `ok: CDK bootstrap: version 30 in aws://${ACCOUNT}/${REGION}`;
const senderOk = `ok: mail sender: ${SENDER}, domain shop-mail.de verified in SES in ${REGION}`;

describe('npm run deploy on a fresh account stops at the first missing piece, with the command that fixes it', () => {
  it('without a region, before calling AWS at all', async () => {
    const result = await deployWith(freshAccount, { region: undefined });
    expect(result.exitCode).toBe(1);
    expect(result.out).toEqual([header]);
    expect(result.err).toEqual([
      'refused: No AWS region: the checks and the deploy need one. Set it for this shell (or pass --region eu-central-1):\n' +
        '  export AWS_REGION=eu-central-1',
    ]);
    expect(result.regions).toEqual([]);
    expect(result.runs).toEqual([]);
  });

  it('without credentials: aws configure', async () => {
    const result = await deployWith(freshAccount);
    expect(result.exitCode).toBe(1);
    expect(result.out).toEqual([header, regionOk]);
    expect(result.err).toEqual([
      'refused: No AWS credentials (CredentialsProviderError: Could not load credentials from any providers). Configure an access key, ' +
        'or sign in to IAM Identity Center (`aws configure sso`, then `aws sso login`; AWS_PROFILE=<name> picks a profile), and run this again:\n' +
        '  aws configure',
    ]);
    expect(result.calls).toEqual(['sts:GetCallerIdentity']);
    expect(result.regions).toEqual([REGION]);
    expect(result.runs).toEqual([]);
  });

  it('with expired credentials: fresh ones', async () => {
    const result = await deployWith({ ...freshAccount, credentials: 'expired' });
    expect(result.exitCode).toBe(1);
    expect(result.err).toEqual([
      'refused: The AWS credentials have expired (ExpiredToken: The security token included in the request is expired). ' +
        'Get fresh ones and run this again; for an IAM Identity Center profile:\n  aws sso login',
    ]);
    expect(result.calls).toEqual(['sts:GetCallerIdentity']);
  });

  it('without the CDK bootstrap stack: npx cdk bootstrap aws://<account>/<region>', async () => {
    const result = await deployWith({ ...freshAccount, credentials: 'valid' });
    expect(result.exitCode).toBe(1);
    expect(result.out).toEqual([header, regionOk, credentialsOk]);
    expect(result.err).toEqual([
      `refused: CDK is not bootstrapped in aws://${ACCOUNT}/${REGION}: SSM parameter /cdk-bootstrap/hnb659fds/version not found ` +
        `(cdk deploy would stop there). Bootstrap once per account and region:\n  npx cdk bootstrap aws://${ACCOUNT}/${REGION}`,
    ]);
    expect(result.calls).toEqual(['sts:GetCallerIdentity', 'ssm:GetParameter /cdk-bootstrap/hnb659fds/version']);
    expect(result.runs).toEqual([]);
  });

  it('with a bootstrap stack older than the templates accept: bootstrap again', async () => {
    const result = await deployWith({ ...freshAccount, credentials: 'valid', bootstrapVersion: '5' });
    expect(result.err).toEqual([
      `refused: The CDK bootstrap stack in ${REGION} is version 5; this app needs 6 or newer. Update it:\n  npx cdk bootstrap aws://${ACCOUNT}/${REGION}`,
    ]);
  });

  it("with the stage's placeholder sender: --mail-from, without asking SES", async () => {
    const result = await deployWith(
      { ...freshAccount, credentials: 'valid', bootstrapVersion: '30' },
      { mailFrom: 'invoices@dev.print-shop.example' },
    );
    expect(result.exitCode).toBe(1);
    expect(result.out).toEqual([header, regionOk, credentialsOk, bootstrapOk]);
    expect(result.err).toEqual([
      'refused: The mail sender invoices@dev.print-shop.example is a placeholder: dev.print-shop.example is a reserved name that no one ' +
        `can verify in SES. Pass a sender of a domain you control, verified in SES in ${REGION}:\n` +
        '  npm run deploy -- --stage dev --mail-from invoices@your-domain',
    ]);
    expect(result.calls.some((call) => call.startsWith('sesv2:'))).toBe(false);
  });

  it('without an SES identity for the sender domain: create it, then its DKIM records', async () => {
    const result = await deployWith({ ...freshAccount, credentials: 'valid', bootstrapVersion: '30' });
    expect(result.exitCode).toBe(1);
    expect(result.err).toEqual([
      `refused: SES in ${REGION} has no identity shop-mail.de, the domain of the mail sender ${SENDER}: the stage could send no mail. ` +
        `Create it:\n  aws sesv2 create-email-identity --email-identity shop-mail.de --region ${REGION}\n` +
        "then publish the three DKIM CNAME records it answers (<token>._domainkey.shop-mail.de) in the domain's DNS; " +
        'SES verifies the domain once it finds them.',
    ]);
    // The domain first, then the address: a verified address alone gets its own message (below).
    expect(result.calls.slice(2)).toEqual([`sesv2:GetEmailIdentity shop-mail.de`, `sesv2:GetEmailIdentity ${SENDER}`]);
  });

  it('with the domain identity waiting for its DKIM records: where to find them', async () => {
    const result = await deployWith({
      ...freshAccount,
      credentials: 'valid',
      bootstrapVersion: '30',
      identities: { 'shop-mail.de': 'PENDING' },
    });
    expect(result.err).toEqual([
      `refused: The SES identity shop-mail.de in ${REGION} is not verified yet (DKIM status PENDING). Publish its three DKIM CNAME records, ` +
        "<token>._domainkey.shop-mail.de, in the domain's DNS " +
        `(\`aws sesv2 get-email-identity --email-identity shop-mail.de --region ${REGION} --query DkimAttributes.Tokens\` lists the tokens; ` +
        'the SES console shows the whole records), then deploy once SES shows the domain verified.',
    ]);
  });

  it('with only the sender address verified: the domain, which is what the send grant names', async () => {
    const result = await deployWith({ ...freshAccount, credentials: 'valid', bootstrapVersion: '30', identities: { [SENDER]: 'SUCCESS' } });
    expect(result.err).toEqual([
      `refused: ${SENDER} is a verified SES identity in ${REGION}, but its domain shop-mail.de is not: the stage's functions may send only ` +
        'as the domain identity (identity/shop-mail.de), so their mail would be refused. Verify the domain:\n' +
        `  aws sesv2 create-email-identity --email-identity shop-mail.de --region ${REGION}\n` +
        "then publish the three DKIM CNAME records it answers in the domain's DNS.",
    ]);
  });
});

describe('npm run deploy warns and goes on', () => {
  it('in the SES sandbox and below the Lambda concurrency the stage assumes, then runs cdk deploy', async () => {
    const result = await deployWith({ ...readyAccount, productionAccess: false, concurrencyQuota: 10 });
    expect(result.err).toEqual([]);
    expect(result.out).toEqual([
      header,
      regionOk,
      credentialsOk,
      bootstrapOk,
      senderOk,
      `warning: SES in ${REGION} is in the sandbox: it sends only to verified addresses, at most 200 a day, and refuses the stage's mail ` +
        "even to those (its send grant names only the sender's domain; docs/mail.md). The deploy goes on. To send to customers, request " +
        'production access in the SES console (Account dashboard) or:\n' +
        '  aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL --website-url https://your-domain ' +
        `--use-case-description "Invoices and account mail to our customers" --region ${REGION}`,
      `warning: Lambda concurrency in ${REGION} is 10 (10 unreserved), below the 72 stage dev assumes: 50 for the API ` +
        '(its gateway admits 50 requests/s, each taking up to 1 s) and 22 for the workers (WebhookDelivery 16, WebhookDeadLetter 2, ' +
        'EventRouter 1, DeliverySweeper 1, LegacyPriceSweeper 1, FilePreflight 1). Beyond the quota Lambda throttles: API calls fail and ' +
        'queued work waits. The deploy goes on; ask for more:\n' +
        `  aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 --desired-value 1000 --region ${REGION}`,
      `Running AWS_REGION=${REGION} AWS_DEFAULT_REGION=${REGION} npx cdk deploy -c stage=dev -c mailFrom=${SENDER} --require-approval broadening`,
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.runs).toEqual([
      {
        command: 'npx',
        args: ['cdk', 'deploy', '-c', 'stage=dev', '-c', `mailFrom=${SENDER}`, '--require-approval', 'broadening'],
        env: { AWS_REGION: REGION, AWS_DEFAULT_REGION: REGION },
      },
    ]);
    expect(result.calls).toEqual([
      'sts:GetCallerIdentity',
      'ssm:GetParameter /cdk-bootstrap/hnb659fds/version',
      'sesv2:GetEmailIdentity shop-mail.de',
      'sesv2:GetAccount',
      'lambda:GetAccountSettings',
    ]);
  });
});

describe('npm run deploy on a ready account', () => {
  it('passes every check and runs cdk deploy with the stage, the sender and the passed-through context, exiting with its code', async () => {
    const aws = fakeAws(readyAccount);
    const runs: ChildCommand[] = [];
    const out: string[] = [];
    const exitCode = await deploy(
      {
        stageName: 'staging',
        region: 'eu-west-1',
        mailFrom: SENDER,
        contexts: [
          { key: 'corsOrigins', value: 'https://admin.shop-mail.de' },
          { key: 'legacySecrets', value: 'false' },
        ],
        approval: 'never',
        dryRun: false,
        concurrency: assumedConcurrency(stageDefaults('staging'), workers),
      },
      {
        clientsIn: () => aws.clients,
        run: async (child) => {
          runs.push(child);
          return 3;
        },
        out: (line) => out.push(line),
        err: (line) => out.push(`ERR ${line}`),
      },
    );
    expect(exitCode).toBe(3);
    expect(out.filter((line) => !line.startsWith('ok: ') && line !== 'Checking what deploying stage staging needs:')).toEqual([
      'Running AWS_REGION=eu-west-1 AWS_DEFAULT_REGION=eu-west-1 npx cdk deploy -c stage=staging -c mailFrom=invoices@shop-mail.de ' +
        '-c corsOrigins=https://admin.shop-mail.de -c legacySecrets=false --require-approval never',
    ]);
    expect(out).toContain('ok: SES: production access in eu-west-1');
    expect(out).toContain(
      'ok: Lambda concurrency: 1000 unreserved of 1000 in eu-west-1, enough for the 222 stage staging assumes: 200 for the API (its gateway admits 200 ' +
        'requests/s, each taking up to 1 s) and 22 for the workers (WebhookDelivery 16, WebhookDeadLetter 2, EventRouter 1, ' +
        'DeliverySweeper 1, LegacyPriceSweeper 1, FilePreflight 1)',
    );
    expect(runs.map((run) => run.args)).toEqual([
      [
        'cdk',
        'deploy',
        '-c',
        'stage=staging',
        '-c',
        'mailFrom=invoices@shop-mail.de',
        '-c',
        'corsOrigins=https://admin.shop-mail.de',
        '-c',
        'legacySecrets=false',
        '--require-approval',
        'never',
      ],
    ]);
    expect(runs[0]!.env).toEqual({ AWS_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'eu-west-1' });
  });

  it('with --dry-run prints the cdk command and runs nothing', async () => {
    const result = await deployWith(readyAccount, { dryRun: true });
    expect(result.exitCode).toBe(0);
    expect(result.runs).toEqual([]);
    expect(result.out.at(-1)).toBe(
      `Dry run: would run\n  AWS_REGION=${REGION} AWS_DEFAULT_REGION=${REGION} npx cdk deploy -c stage=dev -c mailFrom=${SENDER} --require-approval broadening`,
    );
  });
});

describe("the stage's concurrency assumption", () => {
  it("adds the gateway's rate limit for a second per request to each worker's most concurrent executions", () => {
    expect(assumedConcurrency(stageDefaults('dev'), workers)).toEqual({
      apiRequestsPerSecond: 50,
      api: 50,
      workers: [
        { id: 'WebhookDelivery', concurrency: 16 },
        { id: 'WebhookDeadLetter', concurrency: 2 },
        { id: 'EventRouter', concurrency: 1 },
        { id: 'DeliverySweeper', concurrency: 1 },
        { id: 'LegacyPriceSweeper', concurrency: 1 },
        { id: 'FilePreflight', concurrency: 1 },
      ],
      total: 72,
    });
    expect(assumedConcurrency(stageDefaults('staging'), workers).total).toBe(222);
    expect(assumedConcurrency(stageDefaults('prod'), workers).total).toBe(1022);
  });

  it("warns prod on an account at AWS's default 1,000 too, and asks for the next hundred above what prod assumes", async () => {
    const prod = assumedConcurrency(stageDefaults('prod'), workers);
    const verdict = await checkConcurrency(
      fakeAws({ ...readyAccount, concurrencyQuota: 1000 }).clients.lambdaSettings,
      REGION,
      'prod',
      prod,
    );
    expect(verdict.kind).toBe('warning');
    expect(verdict.message).toMatch(
      /^Lambda concurrency in eu-central-1 is 1000 \(1000 unreserved\), below the 1022 stage prod assumes: 1000 for the API/,
    );
    expect(verdict.message).toMatch(/--quota-code L-B99A9384 --desired-value 1100 --region eu-central-1$/);
  });

  it('holds while the stack reserves no concurrency (a reservation would have to be counted, and needs 100 unreserved left)', () => {
    const infra = resolve(import.meta.dirname, '../../infra');
    const reserving = readdirSync(infra).filter((file) => /reservedConcurrentExecutions/.test(readFileSync(join(infra, file), 'utf8')));
    expect(reserving).toEqual([]);
  });
});

describe('the cdk deploy command line', () => {
  it('passes through exactly the context keys infra/app.ts reads besides stage and mailFrom', () => {
    const app = readFileSync(resolve(import.meta.dirname, '../../infra/app.ts'), 'utf8');
    const read = [...app.matchAll(/tryGetContext\('(\w+)'\)/g)].map((match) => match[1]);
    expect(new Set(read)).toEqual(new Set(['stage', 'mailFrom', ...passthroughContextKeys]));
  });

  it('refuses context CDK would take silently and never use', () => {
    expect(parseContexts(['corsOrigins=https://a.example,https://b.example', 'detachMethods=ApiDeploymentB2C1'])).toEqual({
      contexts: [
        { key: 'corsOrigins', value: 'https://a.example,https://b.example' },
        { key: 'detachMethods', value: 'ApiDeploymentB2C1' },
      ],
    });
    expect(parseContexts(['legacySecret=false'])).toEqual({
      error: 'unknown context key legacySecret: the app reads corsOrigins, alarmEmail, legacySecrets, detachMethods',
    });
    expect(parseContexts(['stage=prod'])).toEqual({ error: 'the stage goes with --stage, not --context stage=…' });
    expect(parseContexts(['mailFrom=a@b.de'])).toEqual({ error: 'the sender goes with --mail-from, not --context mailFrom=…' });
    expect(parseContexts(['legacySecrets'])).toEqual({ error: '--context takes key=value, not "legacySecrets"' });
    expect(parseContexts(['legacySecrets=true', 'legacySecrets=false'])).toEqual({ error: '--context legacySecrets=… is given twice' });
  });

  it('prints values a shell would split quoted', () => {
    const child = cdkDeployCommand({
      stageName: 'dev',
      mailFrom: 'invoices@shop-mail.de',
      contexts: [{ key: 'corsOrigins', value: "https://a.example, https://o'brien.example" }],
      approval: 'broadening',
      region: 'eu-central-1',
    });
    expect(shellLine(child)).toBe(
      'AWS_REGION=eu-central-1 AWS_DEFAULT_REGION=eu-central-1 npx cdk deploy -c stage=dev -c mailFrom=invoices@shop-mail.de ' +
        "-c 'corsOrigins=https://a.example, https://o'\\''brien.example' --require-approval broadening",
    );
  });
});

describe('npm run deploy, the command line', () => {
  /** The script with no AWS configuration at all: no region anywhere, so it refuses before any request. */
  const runDeploy = (...args: string[]) => {
    const root = resolve(import.meta.dirname, '../..');
    const home = mkdtempSync(join(tmpdir(), 'deploy-cli-'));
    try {
      const result = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/deploy.ts'), ...args], {
        cwd: root,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          HOME: home,
          AWS_CONFIG_FILE: join(home, 'config'),
          AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
          AWS_EC2_METADATA_DISABLED: 'true',
        },
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  };

  it(
    'refuses a wrong command line with the usage (exit 2) and a missing region with the fix (exit 1)',
    () => {
      const typo = runDeploy('--stage', 'dev', '--mail-from', 'invoices@mail.test-shop.de', '-c', 'legacySecret=false');
      expect(typo.status).toBe(2);
      expect(typo.stderr).toMatch(
        /^error: unknown context key legacySecret: the app reads corsOrigins, alarmEmail, legacySecrets, detachMethods\nusage: npm run deploy/,
      );
      expect(runDeploy('--stage', 'qa').stderr).toMatch(/^error: unknown stage qa: one of dev, staging, prod\n/);
      expect(runDeploy('--stage', 'dev').stderr).toMatch(/^error: --mail-from is required: /);
      expect(runDeploy('--stage', 'dev', '--mail-from', 'invoices@mail.test-shop.de', '--require-approval', 'no').stderr).toMatch(
        /^error: --require-approval takes broadening, any-change, destructive, never\n/,
      );

      const noRegion = runDeploy('--stage', 'dev', '--mail-from', 'invoices@mail.test-shop.de', '--dry-run');
      expect(noRegion.status).toBe(1);
      expect(noRegion.stdout).toBe('Checking what deploying stage dev needs:\n');
      expect(noRegion.stderr).toBe(
        'refused: No AWS region: the checks and the deploy need one. Set it for this shell (or pass --region eu-central-1):\n' +
          '  export AWS_REGION=eu-central-1\n',
      );
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
