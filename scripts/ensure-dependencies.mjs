#!/usr/bin/env node
/**
 * The first step of `npm start`, `npm test` and `.ci/run`: installs the locked dependencies when
 * node_modules is missing or stale, and with `--chromium` makes sure the tests have the Debian
 * tools they drive: the end-to-end tests' browser, and the PDF and XML tools of the invoice
 * document tests.
 *
 *   node scripts/ensure-dependencies.mjs [--chromium]
 *
 * A plain ES module with no dependencies, run by whatever `node` is on PATH: on a fresh clone
 * that is the machine's own Node (20 or newer), since the project's Node 24 (the `node` dev
 * dependency) is in node_modules, which does not exist yet.
 *
 * Dependencies: node_modules is current when the stamp written after the last successful install
 * (node_modules/.print-shop-install) holds the SHA-256 of package-lock.json, or, without a
 * matching stamp, when npm's own record of the installed tree (node_modules/.package-lock.json)
 * has exactly the locked versions (an `npm install` by hand). Otherwise it runs `npm ci`, saying
 * so in one line. npm runs on the machine's Node and warns (EBADENGINE) about every package that
 * asks for Node 22 or 24; those warnings are summed up in one line, since the bundled Node 24 runs
 * every script.
 *
 * Chromium: the end-to-end tests drive Debian's `chromium` (/usr/bin/chromium, or CHROMIUM_PATH).
 * Document tools: the invoice document tests (test/unit/invoice-pdf.test.ts, e-invoice.test.ts)
 * read PDFs with poppler-utils (pdftotext, pdftoppm, pdfinfo, pdffonts, pdfdetach) and validate
 * XML with libxml2-utils (xmllint), and check PDF structure with qpdf. Whatever is missing is installed with apt-get if this process may
 * (root, apt-get present); otherwise this fails with the command to run. It never lets the tests
 * skip quietly.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const log = (line) => process.stdout.write(`${line}\n`);
const warn = (line) => process.stderr.write(`${line}\n`);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const lockFile = join(root, 'package-lock.json');
const modules = join(root, 'node_modules');
const stampFile = join(modules, '.print-shop-install');
const installedRecord = join(modules, '.package-lock.json');
const DEFAULT_CHROMIUM = '/usr/bin/chromium';

class Failure extends Error {}

// ---------------------------------------------------------------------------------------------
// Dependencies

function lockHash() {
  return createHash('sha256').update(readFileSync(lockFile)).digest('hex');
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** True when npm's record of node_modules has exactly the locked packages, each present on disk. */
function installedTreeMatchesLock() {
  const locked = readJson(lockFile)?.packages;
  const installed = readJson(installedRecord)?.packages;
  if (!locked || !installed) return false;
  for (const [path, entry] of Object.entries(locked)) {
    if (path === '' || !path.startsWith('node_modules/')) continue; // the project itself, workspaces
    const got = installed[path];
    // Optional packages for other platforms (esbuild's, rolldown's…) are not installed here.
    if (!got) {
      if (entry.optional || entry.devOptional) continue;
      return false;
    }
    if (got.version !== entry.version || !existsSync(join(root, path))) return false;
  }
  return Object.keys(installed).every((path) => path in locked);
}

/** Why node_modules must be (re)installed, or undefined when it is current. */
function staleness() {
  if (!existsSync(lockFile)) throw new Failure('package-lock.json is missing: this script installs the locked dependencies only.');
  if (!existsSync(modules)) return 'node_modules is missing';
  const hash = lockHash();
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : undefined;
  if (stamp === hash) return undefined;
  if (installedTreeMatchesLock()) {
    writeFileSync(stampFile, `${hash}\n`); // installed by hand, or a change that installs nothing: current
    return undefined;
  }
  return stamp ? 'package-lock.json changed since the last install' : 'node_modules does not match package-lock.json';
}

/** The npm that runs this script (`npm start` → npm_execpath), on its own Node; else `npm` on PATH. */
function npmCommand(args) {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.[cm]?js$/.test(execPath)) {
    return { command: process.env.npm_node_execpath || process.execPath, args: [execPath, ...args], shell: false };
  }
  return { command: 'npm', args, shell: process.platform === 'win32' };
}

/** The version of the `node` dev dependency that the npm scripts run on (24.x), from the lock file. */
function bundledNodeVersion() {
  return readJson(lockFile)?.packages?.['node_modules/node']?.version;
}

/**
 * Runs npm, passing its output through except EBADENGINE warnings (counted instead: npm runs on
 * the machine's Node and warns about every package that asks for Node 22 or 24, while every npm
 * script of this project runs on the bundled Node 24 — the `node` dev dependency). Resolves to
 * npm's exit code and the number of warnings left out.
 */
function runNpm(args) {
  const { command, args: fullArgs, shell } = npmCommand(args);
  const child = spawn(command, fullArgs, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], shell });
  let leftOut = 0;
  const finished = [];
  const pass = (stream, output) => {
    let inWarning = false; // inside the lines of one EBADENGINE warning
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const plain = line.replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
      if (/^npm warn EBADENGINE Unsupported engine \{/.test(plain)) {
        inWarning = true;
        leftOut++;
      }
      if (inWarning) {
        if (/^npm warn EBADENGINE \}$/.test(plain)) inWarning = false;
        return;
      }
      output.write(`${line}\n`);
    });
    finished.push(new Promise((done) => lines.once('close', done)));
  };
  pass(child.stdout, process.stdout);
  pass(child.stderr, process.stderr);
  return new Promise((done, reject) => {
    child.once('error', (error) => reject(new Failure(`Cannot run npm (${error.message}): is npm on PATH?`)));
    child.once('close', async (code, signal) => {
      await Promise.all(finished);
      done({ code: code ?? (signal ? 128 : 1), leftOut });
    });
  });
}

async function ensureDependencies() {
  const reason = staleness();
  if (!reason) return;
  log(`${reason}: installing the locked dependencies (npm ci)…`);
  const hash = lockHash();
  const result = await runNpm(['ci', '--no-audit', '--no-fund']);
  if (result.code !== 0) throw new Failure(`npm ci failed (exit code ${result.code}); node_modules is not ready.`);
  writeFileSync(stampFile, `${hash}\n`);
  if (result.leftOut) {
    log(
      `(npm warned that ${result.leftOut} packages want a newer Node than ${process.version}, the one npm ran on; every npm script runs on the bundled Node ${bundledNodeVersion()}.)`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Chromium

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && isExecutable(join(dir, command)));
}

/** True when this process may install Debian packages itself. */
function mayInstall() {
  return process.platform === 'linux' && process.getuid?.() === 0 && onPath('apt-get');
}

/** apt-get install, after refreshing the package lists (they may be missing or old on a fresh machine). */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  return apt(['update', '-qq']) && apt(['install', '-y', '-qq', ...packages]);
}

function ensureChromium() {
  const custom = process.env.CHROMIUM_PATH;
  if (custom) {
    if (isExecutable(custom)) return;
    throw new Failure(
      `CHROMIUM_PATH is ${custom}, which is not an executable file: point it at a Chromium binary, or unset it to use Debian's ${DEFAULT_CHROMIUM}.`,
    );
  }
  if (isExecutable(DEFAULT_CHROMIUM)) return;
  if (!mayInstall()) {
    throw new Failure(
      `The end-to-end tests need Chromium at ${DEFAULT_CHROMIUM}, which is missing. Install it with:\n` +
        '  sudo apt-get install -y chromium\n' +
        '(elsewhere: install Chromium and set CHROMIUM_PATH to its binary; `npm run test:unit` and `npm run test:integration` need no browser).',
    );
  }
  log(
    `Chromium (${DEFAULT_CHROMIUM}) is missing: installing Debian's chromium package for the end-to-end tests (apt-get install chromium)…`,
  );
  if (!aptInstall(['chromium']) || !isExecutable(DEFAULT_CHROMIUM)) {
    throw new Failure(`Installing Chromium failed (see apt-get's messages above). Install it with: sudo apt-get install -y chromium`);
  }
}

/** The commands the invoice document tests run, by the Debian package that has them. */
const DOCUMENT_TOOLS = {
  'poppler-utils': ['pdftotext', 'pdftoppm', 'pdfinfo', 'pdffonts', 'pdfdetach'],
  'libxml2-utils': ['xmllint'],
  qpdf: ['qpdf'],
};

function ensureDocumentTools() {
  const missing = Object.entries(DOCUMENT_TOOLS)
    .filter(([, commands]) => !commands.every(onPath))
    .map(([name]) => name);
  if (!missing.length) return;
  const command = `sudo apt-get install -y ${missing.join(' ')}`;
  if (!mayInstall()) {
    throw new Failure(
      `The invoice document tests need ${missing.join(' and ')} (${Object.values(DOCUMENT_TOOLS).flat().join(', ')}). Install them with:\n  ${command}`,
    );
  }
  log(`${missing.join(' and ')} missing: installing them for the invoice document tests (apt-get install ${missing.join(' ')})…`);
  const installed = aptInstall(missing);
  if (!installed || !Object.values(DOCUMENT_TOOLS).flat().every(onPath)) {
    throw new Failure(`Installing ${missing.join(' and ')} failed (see apt-get's messages above). Install them with: ${command}`);
  }
}

// ---------------------------------------------------------------------------------------------

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--chromium');
try {
  if (unknown.length)
    throw new Failure(
      `ensure-dependencies: unknown argument ${unknown.join(' ')} (usage: node scripts/ensure-dependencies.mjs [--chromium])`,
    );
  await ensureDependencies();
  if (args.includes('--chromium')) {
    ensureChromium();
    ensureDocumentTools();
  }
} catch (error) {
  if (!(error instanceof Failure)) throw error;
  warn(error.message);
  process.exit(1);
}
