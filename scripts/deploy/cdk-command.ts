/**
 * The `cdk deploy` the deploy script runs once the preflight passed: the stage and its sender as
 * context, the other context values infra/app.ts reads passed through, and the approval setting.
 */

/** The context keys infra/app.ts reads besides `stage` and `mailFrom` (a test holds the list to that file). */
export const passthroughContextKeys = ['corsOrigins', 'alarmEmail', 'legacySecrets', 'detachMethods'] as const;

/** What `--require-approval` of `cdk deploy` takes. */
export const approvalLevels = ['broadening', 'any-change', 'destructive', 'never'] as const;
export type ApprovalLevel = (typeof approvalLevels)[number];

/**
 * `broadening`, CDK's own default: a person deploying confirms every change that widens IAM
 * permissions or network access (on a first deploy, all of them) before CloudFormation runs; a
 * pipeline without a terminal passes `--require-approval never`.
 */
export const DEFAULT_APPROVAL: ApprovalLevel = 'broadening';

export interface ContextValue {
  key: string;
  value: string;
}

/**
 * Reads `--context key=value` words. Refuses what CDK would take silently and never use: a key the
 * app does not read (a typo), the same key twice, and `stage` or `mailFrom`, which have options of their own.
 */
export function parseContexts(words: readonly string[]): { contexts: ContextValue[] } | { error: string } {
  const contexts: ContextValue[] = [];
  for (const word of words) {
    const separator = word.indexOf('=');
    const key = separator > 0 ? word.slice(0, separator) : '';
    if (!key) return { error: `--context takes key=value, not "${word}"` };
    if (key === 'stage') return { error: 'the stage goes with --stage, not --context stage=…' };
    if (key === 'mailFrom') return { error: 'the sender goes with --mail-from, not --context mailFrom=…' };
    if (!(passthroughContextKeys as readonly string[]).includes(key)) {
      return { error: `unknown context key ${key}: the app reads ${passthroughContextKeys.join(', ')}` };
    }
    if (contexts.some((context) => context.key === key)) return { error: `--context ${key}=… is given twice` };
    contexts.push({ key, value: word.slice(separator + 1) });
  }
  return { contexts };
}

export interface CdkDeploy {
  stageName: string;
  mailFrom: string;
  contexts: readonly ContextValue[];
  approval: ApprovalLevel;
  /** The region the preflight checked: the deploy goes there whatever the profile says. */
  region: string;
}

/** A program, its arguments and what it adds to the environment. */
export interface ChildCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export function cdkDeployCommand(deploy: CdkDeploy): ChildCommand {
  const contexts = [{ key: 'stage', value: deploy.stageName }, { key: 'mailFrom', value: deploy.mailFrom }, ...deploy.contexts];
  return {
    command: 'npx',
    args: ['cdk', 'deploy', ...contexts.flatMap(({ key, value }) => ['-c', `${key}=${value}`]), '--require-approval', deploy.approval],
    // CDK reads AWS_REGION first, then AWS_DEFAULT_REGION, then the profile.
    env: { AWS_REGION: deploy.region, AWS_DEFAULT_REGION: deploy.region },
  };
}

/** The command as one shell line (words with spaces or quotes quoted), as --dry-run prints it. */
export function shellLine(child: ChildCommand): string {
  const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  const env = Object.entries(child.env).map(([name, value]) => `${name}=${quote(value)}`);
  return [...env, child.command, ...child.args].map((word, index) => (index < env.length ? word : quote(word))).join(' ');
}
