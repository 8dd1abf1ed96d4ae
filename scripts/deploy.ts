/**
 * `npm run deploy -- --stage dev|staging|prod [--mail-from ADDRESS] [options]`: deploys a stage,
 * also into a fresh AWS account. First it checks what the deploy needs and stops at the first
 * missing piece with the command that fixes it — region and credentials, the CDK bootstrap stack,
 * the sender's verified SES domain — and warns about the SES sandbox and a Lambda concurrency quota
 * below what the stage assumes (scripts/deploy/preflight.ts). Then it runs `npx cdk deploy` with the
 * stage, the sender and the other context values, and exits with its code. `--dry-run` prints that
 * command instead.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { workers } from '#shared/workers';
import { isStageName, mailIdentityOf, stageDefaults, stageNames } from '#infra/stages';
import {
  approvalLevels,
  DEFAULT_APPROVAL,
  parseContexts,
  passthroughContextKeys,
  type ApprovalLevel,
  type ChildCommand,
} from './deploy/cdk-command';
import { assumedConcurrency } from './deploy/concurrency';
import type { PreflightClients } from './deploy/preflight';
import { deploy } from './deploy/run';
import { commandLine } from './cli';

const usage = `usage: npm run deploy -- --stage ${stageNames.join('|')} [--mail-from ADDRESS] [--region REGION] [--context KEY=VALUE]…
                         [--require-approval ${approvalLevels.join('|')}] [--dry-run]
  --mail-from         the stage's sender: its domain must be a verified SES identity in the region (the stages' defaults are placeholders)
  --region            default: AWS_REGION, else AWS_DEFAULT_REGION, else the AWS profile's region
  --context, -c       passed on to cdk, once per key: ${passthroughContextKeys.map((key) => `${key}=…`).join(', ')}
  --require-approval  default ${DEFAULT_APPROVAL}: confirm changes that widen permissions before they are made (a pipeline passes never)
  --dry-run           check everything, then print the cdk command instead of running it
([…] marks an optional part: type it without the brackets.)`;

const options = {
  stage: { type: 'string' },
  'mail-from': { type: 'string' },
  region: { type: 'string' },
  context: { type: 'string', short: 'c', multiple: true },
  'require-approval': { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const { values, need, usageError } = commandLine({
  program: 'deploy',
  usage,
  options,
  // No commands: a word without an option is refused as one.
  commandOptions: {},
  globalOptions: Object.keys(options) as (keyof typeof options)[],
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const stageName = need('stage');
if (!isStageName(stageName)) usageError(`unknown stage ${stageName}: one of ${stageNames.join(', ')}`);
const stage = stageDefaults(stageName);
const mailFrom = values['mail-from']?.trim() ?? '';
if (!mailFrom) usageError('--mail-from is required: the address the stage sends its mail from, on a domain verified in SES (docs/mail.md)');
try {
  mailIdentityOf(mailFrom);
} catch (error) {
  usageError((error as Error).message);
}
const approval = values['require-approval'] ?? DEFAULT_APPROVAL;
if (!(approvalLevels as readonly string[]).includes(approval)) usageError(`--require-approval takes ${approvalLevels.join(', ')}`);
const parsedContexts = parseContexts(values.context ?? []);
if ('error' in parsedContexts) usageError(parsedContexts.error);

/** The region the checks and the deploy use: the option, the environment, else the profile's, as the SDK reads it. */
async function regionOf(option: string | undefined): Promise<string | undefined> {
  const named = option || process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION;
  if (named) return named;
  try {
    return await new STSClient({}).config.region();
  } catch {
    return undefined; // "Region is missing": the preflight says how to set one
  }
}

function clientsIn(region: string): PreflightClients {
  const ses = new SESv2Client({ region });
  return {
    callerIdentity: new STSClient({ region }),
    bootstrapVersion: new SSMClient({ region }),
    emailIdentity: ses,
    sesAccount: ses,
    lambdaSettings: new LambdaClient({ region }),
  };
}

/** Runs the child on this terminal (cdk asks its approval questions there) and answers its exit code. */
function run(child: ChildCommand): Promise<number> {
  // Ctrl-C reaches cdk too, which stops its deploy cleanly: wait for it rather than leave it behind.
  const keepWaiting = () => {};
  process.on('SIGINT', keepWaiting);
  return new Promise((resolve) => {
    const proc = spawn(child.command, child.args, { stdio: 'inherit', env: { ...process.env, ...child.env } });
    proc.on('error', (error) => {
      console.error(`Could not start ${child.command}: ${error.message}`);
      resolve(1);
    });
    proc.on('exit', (code, signal) => {
      process.off('SIGINT', keepWaiting);
      // A shell's convention for a child ended by a signal: 128 + its number.
      resolve(code ?? (signal ? 128 + constants.signals[signal] : 1));
    });
  });
}

const exitCode = await deploy(
  {
    stageName,
    region: await regionOf(values.region),
    mailFrom,
    contexts: 'contexts' in parsedContexts ? parsedContexts.contexts : [],
    approval: approval as ApprovalLevel,
    dryRun: values['dry-run'] ?? false,
    concurrency: assumedConcurrency(stage, workers),
  },
  { clientsIn, run, out: (line) => console.log(line), err: (line) => console.error(line) },
);
process.exit(exitCode);
