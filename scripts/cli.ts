/**
 * What the operator CLIs (`npm run accounts`, `npm run events`, `npm run deploy`) share: reading
 * the command line strictly — a mistyped option (with a suggestion), a stray word, an option the
 * command does not take, or brackets copied from the usage are refused with one line and the
 * usage, exit code 2, never ignored — and finding the running local stack.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { runningStacks, runningStacksDir } from '#local-aws/running-stacks';
import { dataDir, endpointsFile, readEndpoints, type EndpointsState } from '#local-aws/state';

type Options = NonNullable<ParseArgsConfig['options']>;
/** The values of the options given: strings (a list for a `multiple` option), or true for flags. */
type Values<O extends Options> = {
  [K in keyof O]?: O[K] extends { multiple: true } ? string[] : O[K]['type'] extends 'boolean' ? boolean : string;
} & { help?: boolean };

export interface CliSpec<O extends Options> {
  /** `accounts`, `events`: how the program is run (`npm run <program> -- …`). */
  program: string;
  usage: string;
  options: O;
  /** The options each command reads; `globalOptions` go with any. */
  commandOptions: Record<string, readonly (keyof O & string)[]>;
  globalOptions: readonly (keyof O & string)[];
  /** Options whose values may hold brackets (a name). */
  freeText?: readonly (keyof O & string)[];
}

export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The option names closest to a mistyped one (`--rmp` → `--rpm`). */
function suggestion(unknown: string, names: string[]): string {
  const typed = unknown.replace(/^-+/, '').split('=')[0]!;
  const distances = names.map((name) => ({ name, distance: editDistance(typed, name) }));
  const best = Math.min(...distances.map((entry) => entry.distance));
  const close = best <= 2 ? distances.filter((entry) => entry.distance === best).map((entry) => `--${entry.name}`) : [];
  return close.length ? ` (did you mean ${close.join(' or ')}?)` : '';
}

function editDistance(a: string, b: string): number {
  // Optimal string alignment: a swap of two neighbours (rmp/rpm) counts as one edit.
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** Reads the command line against `spec`; refuses every mistake (see above). */
export function commandLine<O extends Options>(spec: CliSpec<O>) {
  const usageError = (message: string): never => fail(`error: ${message}\n${spec.usage}`);
  let parsed: { values: Values<O>; positionals: string[] } | undefined;
  try {
    parsed = parseArgs({ allowPositionals: true, options: spec.options }) as unknown as { values: Values<O>; positionals: string[] };
  } catch (error) {
    if (!((error as NodeJS.ErrnoException).code ?? '').startsWith('ERR_PARSE_ARGS')) throw error;
    const message = (error as Error).message;
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (unknown) usageError(`unknown option ${unknown}${suggestion(unknown, Object.keys(spec.options))}`);
    usageError(message.split('. ')[0]!.replace(/^Option/, 'option'));
  }
  const { values, positionals } = parsed!;
  const [command, ...extra] = positionals;
  // `[--rpm 2000]` copied from the usage arrives as the words "[--rpm" and "2000]": refused,
  // since taking them for nothing would silently drop the option (set-plan would reset the limit).
  // (A bracketed value, `--rpm [2000]`, too; free-text options such as a name may hold brackets.)
  const bracketedValue = Object.entries(values).find(
    ([name, value]) => !spec.freeText?.includes(name) && typeof value === 'string' && /^\[.*\]$/.test(value),
  );
  const written = extra.some((word) => /[[\]]/.test(word))
    ? extra.join(' ')
    : bracketedValue
      ? `--${bracketedValue[0]} ${String(bracketedValue[1])}`
      : undefined;
  if (written) {
    usageError(
      `remove the brackets in "${written}": in the usage they only mark an optional part (write ${written.replace(/[[\]]/g, '')})`,
    );
  }
  if (extra.length) {
    usageError(
      `unexpected argument${extra.length > 1 ? 's' : ''} ${extra.map((word) => `"${word}"`).join(' ')}: each value follows its option, e.g. --account acct_…`,
    );
  }
  if (command && !values.help) {
    const allowed = spec.commandOptions[command];
    if (!allowed) usageError(`unknown command ${command}`);
    const misplaced = Object.keys(values).filter((name) => !allowed!.includes(name) && !spec.globalOptions.includes(name));
    if (misplaced.length) {
      const takes = allowed!.length ? `it takes ${allowed!.map((name) => `--${name}`).join(', ')}` : 'it takes no options';
      usageError(
        `${misplaced.map((name) => `--${name}`).join(', ')} ${misplaced.length > 1 ? 'do' : 'does'} not apply to ${command} (${takes})`,
      );
    }
  }
  /** A required string option. */
  const need = (name: keyof O & string): string => {
    const value: unknown = values[name];
    if (typeof value !== 'string' || !value) usageError(`--${name} is required`);
    return value as string;
  };
  return { values, command, need, usageError };
}

/** This command line, to show with DATA_DIR in front (words with spaces quoted). */
const shownCommandLine = () =>
  process.argv
    .slice(2)
    .map((word) => (/^[\w@%+=:,./-]*$/.test(word) && word ? word : JSON.stringify(word)))
    .join(' ');

/**
 * The running local stack: the one whose data folder is DATA_DIR (default .data), else — when
 * DATA_DIR is not set — the only stack of this checkout running under another data folder
 * (local-aws/running-stacks.ts). Otherwise says where it looked and how to point it elsewhere.
 */
export function findLocalStack(program: string, quiet: boolean): EndpointsState {
  const dir = dataDir();
  const here = readEndpoints(dir);
  if (here) return here;
  const others = runningStacks().filter((stack) => stack.dataDir !== dir);
  const chosen = process.env.DATA_DIR === undefined && others.length === 1 ? others[0]! : undefined;
  const state = chosen && readEndpoints(chosen.dataDir);
  if (chosen && state) {
    if (!quiet) console.error(`Using the local stack running with DATA_DIR=${chosen.dataDir} (${chosen.api}).`);
    return state;
  }
  const where = process.env.DATA_DIR === undefined ? ' (the default; DATA_DIR chooses another folder)' : ' (DATA_DIR)';
  const looked = `No local stack is running with its data in ${dir}${where}: looked for ${endpointsFile(dir)}`;
  if (others.length) {
    const list = others.map((stack) => `  DATA_DIR=${stack.dataDir}  (${stack.api}, pid ${stack.pid})`).join('\n');
    fail(`${looked}.\nRunning local stacks:\n${list}\nPick one: DATA_DIR=<folder> npm run ${program} -- ${shownCommandLine()}`);
  }
  return fail(
    `${looked} and among the stacks \`npm start\` registers in ${runningStacksDir()}.\n` +
      `Start one with \`npm start\`, point the CLI at a running stack's data folder (DATA_DIR=<folder> npm run ${program} -- ${shownCommandLine()}), or pass --stage NAME for a deployed stage.`,
  );
}
