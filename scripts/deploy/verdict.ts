/** What every preflight check answers, and how it reaches AWS. */

/**
 * One operation of an AWS SDK v3 client: the real clients fit (the CLI passes them), and so do
 * the tests' fakes, which answer with the service's response shapes and error names.
 */
export interface Operation<Command, Output> {
  send(command: Command): Promise<Output>;
}

/**
 * `ok`: the piece is in place; `warning`: the deploy goes on, with something to fix; `refusal`:
 * a first deploy would fail or deploy a stage that cannot work — stop, with the command that fixes it.
 */
export type Verdict = { kind: 'ok' | 'warning' | 'refusal'; message: string };

/** An SDK failure as `Name: message` (service errors carry the service's error code as their name). */
export function failureOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** The error code of an SDK failure (`ParameterNotFound`, `NotFoundException`, `ExpiredToken`, …). */
export function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}
