import { ESLint } from 'eslint';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DYNAMODB_CLIENT, PENDING, PLATFORM, TRANSACTION_WRITER, TRANSACTIONS } from '../../scripts/lint/dynamodb-access.js';

/**
 * One way to write (docs/architecture.md, "A resource folder"): every folder of shared/ with
 * stored entities has the documented file set; only a repository.ts talks to DynamoDB — besides
 * the modules scripts/lint/dynamodb-access.js lists, each with its reason, and none listed without
 * need; and docs/architecture.md names every folder of shared/.
 */
const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const isFolder = (path: string) => statSync(join(root, path)).isDirectory();

/** The .ts files under `folder`, relative to the root. */
function sources(folder: string): string[] {
  return readdirSync(join(root, folder))
    .sort()
    .flatMap((name) => {
      const path = `${folder}/${name}`;
      return isFolder(path) ? sources(path) : path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
    });
}

const sharedFolders = readdirSync(join(root, 'shared'))
  .filter((name) => isFolder(`shared/${name}`))
  .sort();
const sharedModules = readdirSync(join(root, 'shared'))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => name.slice(0, -'.ts'.length))
  .sort();

/** A folder with stored entities: a stored.ts, or a field list (`entity({…})`) in any of its modules. */
const resourceFolders = sharedFolders.filter(
  (folder) =>
    existsSync(join(root, `shared/${folder}/stored.ts`)) ||
    sources(`shared/${folder}`).some((file) => /\bentity\(/.test(read(file)) && read(file).includes('#shared/schemas/fields')),
);

/** The documented file set (docs/architecture.md): events.ts only where the folder emits. */
const FILE_SET = ['schema.ts', 'stored.ts', 'repository.ts', 'service.ts', 'contract.ts'];
/** Folders whose services are named for what they serve, in place of service.ts (docs/architecture.md). */
const SERVICES_NAMED_OTHERWISE: Record<string, string[]> = { production: ['jobs.ts', 'machines.ts'] };
const STANDARD = new Set([...FILE_SET, 'events.ts']);

/** Every import of a module: the specifier and, for a static one, what it names (type-only imports make no call). */
function importsOf(file: string): { specifier: string; names: string[] | 'all' }[] {
  const text = read(file);
  const found: { specifier: string; names: string[] | 'all' }[] = [];
  for (const match of text.matchAll(/^[ \t]*(import|export)[ \t]+(type[ \t]+)?([^'";]*?)[ \t\n]from[ \t]+['"]([^'"]+)['"]/gm)) {
    if (match[2]) continue;
    const clause = match[3]!;
    const braced = /\{([\s\S]*)\}/.exec(clause);
    const named = braced
      ? braced[1]!
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part && !part.startsWith('type '))
          .map((part) => part.split(/\s+as\s+/)[0]!)
      : [];
    // A default or namespace import (`* as x`), or `export *`, reaches every export.
    const whole = /^\s*(\*|[A-Za-z_$][\w$]*\s*(,|$))/.test(clause);
    found.push({ specifier: match[4]!, names: whole ? 'all' : named });
  }
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ specifier: match[1]!, names: 'all' });
  return found;
}

/** The project file a specifier names, relative to the root (packages: undefined). */
function target(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('#shared/')) return `shared/${specifier.slice('#shared/'.length)}.ts`;
  if (specifier.startsWith('.')) {
    const base = normalize(join(dirname(file), specifier));
    return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => existsSync(join(root, candidate)) && !isFolder(candidate));
  }
  return undefined;
}

const clientFile = target('', DYNAMODB_CLIENT)!;
const transactionsFile = target('', TRANSACTIONS)!;

/** What of DynamoDB a module imports: the client, the transaction writer, both or nothing. */
function dynamoDbAccess(file: string): string[] {
  const access = new Set<string>();
  for (const { specifier, names } of importsOf(file)) {
    const into = target(file, specifier);
    if (into === clientFile) access.add('the DynamoDB client');
    if (into === transactionsFile && (names === 'all' || names.includes(TRANSACTION_WRITER))) access.add('the transaction writer');
  }
  return [...access];
}

const entryFor = (list: Readonly<Record<string, string>>, file: string) =>
  Object.keys(list).find((path) => (path.endsWith('/') ? file.startsWith(path) : file === path));

const isRepository = (file: string) => /^shared\/[^/]+\/repository\.ts$/.test(file);

const lambdaCode = ['shared', 'events', 'functions'].flatMap(sources);

describe('resource folders', () => {
  it('are found: the folders of shared/ with stored entities', () => {
    expect(resourceFolders).toContain('customers');
    expect(resourceFolders).toContain('customer-auth');
    expect(resourceFolders).not.toContain('limits');
    expect(resourceFolders).not.toContain('db');
  });

  it('each have the documented file set: schema, stored, repository, service (or their named services), contract', () => {
    const missing = resourceFolders.flatMap((folder) =>
      FILE_SET.flatMap((name) => (name === 'service.ts' && SERVICES_NAMED_OTHERWISE[folder] ? SERVICES_NAMED_OTHERWISE[folder] : [name]))
        .filter((name) => !existsSync(join(root, `shared/${folder}/${name}`)))
        .map((name) => `shared/${folder}/${name}`),
    );
    expect(missing).toEqual([]);
    // A folder whose services are named otherwise has no service.ts beside them.
    for (const folder of Object.keys(SERVICES_NAMED_OTHERWISE))
      expect(existsSync(join(root, `shared/${folder}/service.ts`)), folder).toBe(false);
  });

  it('have a repository only where entities are stored', () => {
    const strays = sharedFolders
      .filter((folder) => existsSync(join(root, `shared/${folder}/repository.ts`)) && !resourceFolders.includes(folder))
      .map((folder) => `shared/${folder}/repository.ts`);
    expect(strays).toEqual([]);
  });

  it('have events.ts where they emit: one writing events (eventPut) declares kinds there, each gathered for the OpenAPI document', () => {
    // `eventPut` writes a declared kind; a sample of any kind (webhooks' test event, `testEventPut`) is no kind of the folder's own.
    const writesOutbox = (folder: string) =>
      sources(`shared/${folder}`).some((file) =>
        importsOf(file).some(
          ({ specifier, names }) => specifier === '#shared/events/outbox' && (names === 'all' || names.includes('eventPut')),
        ),
      );
    const withoutEvents = resourceFolders.filter((folder) => writesOutbox(folder) && !existsSync(join(root, `shared/${folder}/events.ts`)));
    expect(withoutEvents).toEqual([]);
    const declaring = resourceFolders.filter((folder) => existsSync(join(root, `shared/${folder}/events.ts`)));
    const gathered = read('shared/openapi/events.ts');
    for (const folder of declaring) {
      expect(read(`shared/${folder}/events.ts`), folder).toMatch(/\bdefineEvent\(/);
      expect(gathered, folder).toContain(`'#shared/${folder}/events'`);
    }
    // Kinds are declared in events.ts only (and defineEvent itself lives in the catalogue).
    const elsewhere = sources('shared').filter(
      (file) => /\bdefineEvent\(/.test(read(file)) && !/^shared\/[^/]+\/events\.ts$/.test(file) && file !== 'shared/events/catalogue.ts',
    );
    expect(elsewhere).toEqual([]);
  });
});

describe('one way to write: only repository.ts talks to DynamoDB', () => {
  it('reads imports as they are written: named, renamed, whole-module, re-exported and dynamic; type-only ones make no call', () => {
    expect(dynamoDbAccess('shared/customers/repository.ts').sort()).toEqual(['the DynamoDB client', 'the transaction writer']);
    expect(dynamoDbAccess('shared/customers/service.ts')).toEqual([]);
    expect(dynamoDbAccess('shared/clients/kms.ts')).toEqual(['the DynamoDB client']);
  });

  it('no module of shared/, events/ or functions/ imports the DynamoDB client or the transaction writer but a repository and the listed ones', () => {
    const offenders = lambdaCode
      .filter((file) => !isRepository(file) && !entryFor(PLATFORM, file) && !entryFor(PENDING, file))
      .flatMap((file) => dynamoDbAccess(file).map((what) => `${file} imports ${what}`));
    expect(offenders).toEqual([]);
  });

  it('lists no module without need: each listed file exists and still imports one of them (a module that moved its calls leaves PENDING)', () => {
    const stale = [...Object.keys(PLATFORM), ...Object.keys(PENDING)].filter((path) =>
      path.endsWith('/') ? !existsSync(join(root, path)) : !existsSync(join(root, path)) || dynamoDbAccess(path).length === 0,
    );
    expect(stale).toEqual([]);
    // Every entry says why; a repository needs no entry.
    for (const [path, reason] of [...Object.entries(PLATFORM), ...Object.entries(PENDING)]) {
      expect(reason.length, path).toBeGreaterThan(20);
      expect(isRepository(path), path).toBe(false);
    }
    expect(Object.keys(PLATFORM).filter((path) => entryFor(PENDING, path))).toEqual([]);
  });

  const eslint = new ESLint({ cwd: root });
  const lint = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(root, file) });
    // Only this rule's messages: a probe may break another (a base module importing storage).
    return (result?.messages ?? [])
      .map((message) => message.message)
      .filter((message) => message.includes("Only a resource folder's repository.ts"));
  };
  const probe = `import { dynamo } from '${DYNAMODB_CLIENT}';\nimport { ${TRANSACTION_WRITER} } from '${TRANSACTIONS}';\nexport const x = [dynamo, ${TRANSACTION_WRITER}];\n`;

  it('fails `npm run lint` for a DynamoDB call in a service, a rule module, a handler or the pipeline — not in a repository', async () => {
    for (const file of ['shared/orders/service.ts', 'shared/customer-auth/lockout.ts', 'functions/orders/create.ts', 'events/router.ts']) {
      const messages = await lint(file, probe);
      expect(messages.length, file).toBe(2);
    }
    expect(await lint('shared/customer-auth/repository.ts', probe)).toEqual([]);
    expect(await lint('shared/db/probe.ts', probe)).toEqual([]);
    // Other names of the transactions module (the attempt count) stay free to import.
    expect(
      await lint(
        'shared/orders/service.ts',
        `import { TRANSACTION_ATTEMPTS } from '${TRANSACTIONS}';\nexport const x = TRANSACTION_ATTEMPTS;\n`,
      ),
    ).toEqual([]);
  });

  it('lets the listed modules through ESLint as the test does', async () => {
    for (const path of [...Object.keys(PLATFORM), ...Object.keys(PENDING)]) {
      const file = path.endsWith('/') ? `${path}probe.ts` : path;
      expect(await lint(file, probe), file).toEqual([]);
    }
  });
});

describe('docs/architecture.md names every folder of shared/', () => {
  const architecture = read('docs/architecture.md');
  const section = (heading: string) => {
    const start = architecture.indexOf(heading);
    expect(start, heading).toBeGreaterThanOrEqual(0);
    const next = architecture.indexOf('\n#', start + heading.length);
    return architecture.slice(start, next < 0 ? undefined : next);
  };
  /** The text from `marker` up to the first full stop after it. */
  const sentence = (text: string, marker: string) => {
    const start = text.indexOf(marker);
    expect(start, marker).toBeGreaterThanOrEqual(0);
    return text.slice(start + marker.length, text.indexOf('.', start + marker.length));
  };
  const codeNames = (text: string) => [...text.matchAll(/`([a-z][a-z-]*)`/g)].map((match) => match[1]!).sort();

  const diagram = /```\n([\s\S]*?)```/.exec(section('## Dependencies point down'))![1]!;
  const diagramDomains = diagram
    .slice(diagram.indexOf('shared/<resource>:') + 'shared/<resource>:'.length, diagram.indexOf('event core'))
    .replace(/[│▼]/g, ' ')
    .split(/[\s,]+/)
    .filter(Boolean)
    .sort();

  it('in the layers of "Dependencies point down": each folder and module of shared/ in one of them', () => {
    const mentioned = (name: string, suffix: string) =>
      new RegExp(`shared/${name}${suffix.replace('.', '\\.')}\\b|[{,]${name}[,}]|[ ,]${name}\\.ts`).test(diagram) ||
      diagramDomains.includes(name);
    expect(sharedFolders.filter((folder) => !mentioned(folder, ''))).toEqual([]);
    expect(sharedModules.filter((module) => !mentioned(module, '.ts'))).toEqual([]);
    expect(diagramDomains.filter((name) => !sharedFolders.includes(name))).toEqual([]);
  });

  it('with the domains ESLint keeps in the domain layer (eslint.config.js), no more, no fewer', async () => {
    const eslint = new ESLint({ cwd: root });
    const refused = async (file: string, specifier: string) => {
      const [result] = await eslint.lintText(`import * as probe from '${specifier}';\nexport const x = probe;\n`, {
        filePath: join(root, file),
      });
      return (result?.messages ?? []).some((message) => message.ruleId === 'no-restricted-imports');
    };
    // A domain may import another domain, never the process layer or the HTTP platform above it.
    const domains: string[] = [];
    for (const folder of sharedFolders) {
      const file = `shared/${folder}/probe.ts`;
      if (
        !(await refused(file, '#shared/pricing/tax')) &&
        (await refused(file, '#shared/fulfilment/order-changes')) &&
        (await refused(file, '#shared/http/envelope'))
      )
        domains.push(folder);
    }
    expect(diagramDomains).toEqual(domains);
  });

  it('in "A resource folder": the resource folders and the domains without a stored entity', () => {
    const text = section('## A resource folder');
    expect(codeNames(sentence(text, 'follow it:'))).toEqual(resourceFolders);
    expect(codeNames(sentence(text, '**Domains without a stored entity**:'))).toEqual(
      diagramDomains.filter((name) => !resourceFolders.includes(name)),
    );
  });

  it('in "Rule modules by folder": each resource folder with modules beyond the file set', () => {
    const text = section('### Rule modules by folder');
    const listed = [...text.matchAll(/^- `([a-z][a-z-]*)\/`/gm)].map((match) => match[1]!).sort();
    const withRules = resourceFolders.filter((folder) =>
      sources(`shared/${folder}`).some((file) => !STANDARD.has(file.slice(`shared/${folder}/`.length))),
    );
    expect(listed).toEqual(withRules);
  });
});
