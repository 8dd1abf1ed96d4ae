/**
 * `npm run deploy` without its command line: the preflight, then `cdk deploy` through the runner
 * (or, with --dry-run, the command printed). The CLI (scripts/deploy.ts) passes the real clients,
 * a runner that spawns the child, and the console; the tests pass fakes.
 */
import { type ApprovalLevel, type ChildCommand, type ContextValue, cdkDeployCommand, shellLine } from './cdk-command';
import type { ConcurrencyAssumption } from './concurrency';
import { type PreflightClients, preflight } from './preflight';

export interface DeployRequest {
  stageName: string;
  region: string | undefined;
  mailFrom: string;
  contexts: readonly ContextValue[];
  approval: ApprovalLevel;
  dryRun: boolean;
  concurrency: ConcurrencyAssumption;
}

export interface DeployDependencies {
  clientsIn: (region: string) => PreflightClients;
  /** Runs the child with the terminal attached; resolves to its exit code. */
  run: (child: ChildCommand) => Promise<number>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Exit code when the preflight refuses (2 stays the command line's own: cli.ts). */
export const REFUSED_EXIT_CODE = 1;

export async function deploy(request: DeployRequest, deps: DeployDependencies): Promise<number> {
  deps.out(`Checking what deploying stage ${request.stageName} needs:`);
  const { verdicts, target } = await preflight(request, deps.clientsIn);
  for (const verdict of verdicts) {
    if (verdict.kind === 'refusal') deps.err(`refused: ${verdict.message}`);
    else deps.out(`${verdict.kind}: ${verdict.message}`);
  }
  if (!target || verdicts.some((verdict) => verdict.kind === 'refusal')) return REFUSED_EXIT_CODE;

  const child = cdkDeployCommand({ ...request, region: target.region });
  if (request.dryRun) {
    deps.out(`Dry run: would run\n  ${shellLine(child)}`);
    return 0;
  }
  deps.out(`Running ${shellLine(child)}`);
  return deps.run(child);
}
