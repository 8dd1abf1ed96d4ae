/**
 * Obtains the DynamoDB Local jar. AWS publishes it only as a download from its own site; the npm
 * package `amplify-dynamodb-simulator` ships the same jar in `emulator/`, so we fetch that through
 * the npm registry (the only network we may assume) with `npm pack` — a plain download, no install,
 * none of its dependency tree — pin the version, check the tarball's sha256 and keep only `emulator/`
 * in a cache outside the repository.
 *
 * Run directly (`npm run dynamodb:fetch`) to warm the cache, e.g. in CI before the tests.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const DYNAMODB_LOCAL_PACKAGE = {
  name: 'amplify-dynamodb-simulator',
  version: '2.9.30',
  // sha256 of the registry tarball; contains DynamoDB Local 1.25.1.
  sha256: '3503ffac19f183407909fecdacf4db51ab1fdad1da7b2f177016670b2d80e4b9',
} as const;

const { name, version, sha256 } = DYNAMODB_LOCAL_PACKAGE;
/** Written last; its content names the exact tarball, so a folder from another version is never reused. */
const MARKER = '.complete';
const MARKER_CONTENT = `${name}@${version} sha256=${sha256}\n`;

export function dynamoDbLocalCacheDir(): string {
  return process.env.DYNAMODB_LOCAL_CACHE ?? join(homedir(), '.cache', 'print-shop-api', 'dynamodb-local', version);
}

/** Returns the folder holding DynamoDBLocal.jar and DynamoDBLocal_lib/, downloading it once. */
export async function ensureDynamoDbLocal(): Promise<{ jarDir: string }> {
  const cacheDir = dynamoDbLocalCacheDir();
  const jarDir = join(cacheDir, 'emulator');
  if (await isComplete(cacheDir)) return { jarDir };

  await mkdir(dirname(cacheDir), { recursive: true });
  // Build everything in a sibling temp folder and rename it into place at the end: an interrupted
  // download or a concurrent start (tests while `npm start` runs) never sees half a jar.
  const staging = await mkdtemp(`${cacheDir}.tmp-`);
  try {
    const tarball = await npmPack(staging);
    await verifySha256(tarball);
    await run('tar', ['-xzf', tarball, '-C', staging, '--strip-components=1', 'package/emulator']);
    await rm(tarball);
    await stat(join(staging, 'emulator', 'DynamoDBLocal.jar')); // the tarball must hold the jar
    await writeFile(join(staging, MARKER), MARKER_CONTENT);
    try {
      await rename(staging, cacheDir);
    } catch (error) {
      // A concurrent fetch finished first: use its copy.
      if (await isComplete(cacheDir)) return { jarDir };
      throw new Error(
        `Cannot install DynamoDB Local into ${cacheDir}: the folder exists but is not a complete ` +
          `cache (delete it, or point DYNAMODB_LOCAL_CACHE elsewhere). ${String(error)}`,
        { cause: error },
      );
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { jarDir };
}

async function isComplete(cacheDir: string): Promise<boolean> {
  try {
    const marker = await readFile(join(cacheDir, MARKER), 'utf8');
    await stat(join(cacheDir, 'emulator', 'DynamoDBLocal.jar'));
    return marker === MARKER_CONTENT;
  } catch {
    return false;
  }
}

/** `npm pack <pkg>@<version>` downloads the registry tarball into `dir` without installing it. */
async function npmPack(dir: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', `${name}@${version}`, '--pack-destination', dir, '--json', '--loglevel=error'], dir);
  let filename = `${name}-${version}.tgz`;
  try {
    const parsed = JSON.parse(stdout) as { filename?: string }[];
    if (parsed[0]?.filename) filename = basename(parsed[0].filename);
  } catch {
    // Older npm prints plain text; the conventional file name above applies.
  }
  return join(dir, filename);
}

async function verifySha256(file: string): Promise<void> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const actual = hash.digest('hex');
  if (actual !== sha256) {
    await rm(file, { force: true });
    throw new Error(
      `${name}@${version}: tarball sha256 is ${actual}, expected ${sha256}. ` +
        'The download was deleted; refusing to run an unverified DynamoDB Local jar.',
    );
  }
}

/** Runs a command quietly; its output only surfaces when it fails. */
function run(command: string, args: string[], cwd?: string): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error) => reject(new Error(`Fetching DynamoDB Local: cannot run \`${command}\`: ${error.message}`)));
    child.once('close', (code) => {
      if (code === 0) resolve({ stdout });
      else
        reject(
          new Error(`Fetching DynamoDB Local: \`${command} ${args.join(' ')}\` exited with ${code}:\n` + `${stderr.trim().slice(-2000)}`),
        );
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { jarDir } = await ensureDynamoDbLocal();
  console.log(jarDir);
}
