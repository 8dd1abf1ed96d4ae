/**
 * `npm run bench`: builds every handler exactly as CDK bundles it and measures bundle sizes,
 * cold import, warm latency against DynamoDB Local (with the floor), DynamoDB calls per route
 * (over the integration tests), the preflight of a 50-page PDF and multipart upload throughput
 * through the local gateway, invoice numbering under a burst (bench/numbering.ts; alone:
 * `npx tsx bench/numbering-main.ts`), and the webhook pipeline; prints one report and writes
 * bench/results.json. Timing figures are printed here only, never asserted in tests.
 *   npm run bench -- --skip-calls     (skip the integration run that counts DynamoDB calls)
 *   npm run bench -- --skip-webhooks
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_BUDGET_KIB, bundleBudgetOf, DOCUMENT_BUNDLE_BUDGET_KIB, MAIL_BUNDLE_BUDGET_KIB, SIGNER_BUNDLE_BUDGET_KIB } from './budgets';
import { buildBundles, median, outDir, projectRoot, topModules } from './bundles';
import { measureColdImports } from './cold-import';
import { round, table } from './stats';

const args = new Set(process.argv.slice(2));
const kib = (bytes: number) => round(bytes / 1024, 1);
const mark = (ok: boolean) => (ok ? 'ok' : 'OVER');
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
};
const report: string[] = [];
const section = (title: string, body: string) => {
  report.push(`\n== ${title} ==\n${body}`);
  console.log(`\n== ${title} ==\n${body}`);
};

const budgetOf = bundleBudgetOf;

// 1. Bundles
const started = Date.now();
const bundles = await buildBundles();
const sorted = [...bundles].sort((a, b) => b.bytes - a.bytes);
const largest = sorted[0]!;
results.bundles = {
  budgetKiB: BUNDLE_BUDGET_KIB,
  documentRenderersBudgetKiB: DOCUMENT_BUNDLE_BUDGET_KIB,
  largest: { id: largest.id, kib: kib(largest.bytes) },
  medianKiB: kib(median(bundles.map((bundle) => bundle.bytes))),
  all: Object.fromEntries(sorted.map((bundle) => [bundle.id, kib(bundle.bytes)])),
  topModulesOfLargest: topModules(largest).map((module) => ({ module: module.module, kib: kib(module.bytes) })),
};
section(
  `Bundles (${bundles.length} functions, minified, KiB; budget ${BUNDLE_BUDGET_KIB}, token signers ${SIGNER_BUNDLE_BUDGET_KIB}, mail senders ${MAIL_BUNDLE_BUDGET_KIB}, document renderers ${DOCUMENT_BUNDLE_BUDGET_KIB})`,
  table([
    ['function', 'KiB', ''],
    ...sorted.map((bundle) => [bundle.id, kib(bundle.bytes), mark(bundle.bytes <= budgetOf(bundle.id) * 1024)]),
  ]) +
    `\nlargest ${largest.id} ${kib(largest.bytes)} KiB, median ${kib(median(bundles.map((bundle) => bundle.bytes)))} KiB\n` +
    `top modules of the largest:\n` +
    table(topModules(largest).map((module) => [`  ${module.module}`, kib(module.bytes)])),
);

// 2. Cold import
const representative = [
  'authorizer',
  'customers.get',
  'products.get',
  'orders.create',
  'worker.WebhookDelivery',
  'openapi.get',
  'invoices.pdf',
];
const cold = measureColdImports(
  bundles.filter((bundle) => representative.includes(bundle.id)),
  12,
);
results.coldImport = { budgetMs: 60, runs: 12, figures: cold };
section(
  'Cold import (median of 12 fresh Node 24 processes, minus bare `node -e 0`; budget 60 ms)',
  table([
    ['bundle', 'median ms', 'bare node ms', 'added ms', ''],
    ...cold.map((figure) => [figure.id, figure.medianMs, figure.bareNodeMs, figure.addedMs, mark(figure.addedMs <= 60)]),
  ]),
);

// 3. Warm latency (in-process against DynamoDB Local in memory, audit shipping on)
const dataDir = await mkdtemp(join(tmpdir(), 'print-shop-bench-'));
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
const { startEngines } = await import('#local-aws/engines');
const engines = await startEngines({ dataDir, inMemory: true, stage: 'bench' });
Object.assign(process.env, engines.env);
(await import('#shared/config')).resetConfig();
await (await import('#shared/customer-auth/key-store')).ensureSigningKeys();
const { startAuditShipping } = await import('#local-aws/audit-shipping');
const shipping = startAuditShipping();
try {
  const { benchWarmLatency } = await import('./warm');
  const warm = await benchWarmLatency((id) => join(outDir, `${id}.mjs`));
  results.warmLatency = { budget: { ratioP50: 1.5, cpuMicros: 1500 }, figures: warm };
  section(
    'Warm latency (ms; handler bundles in-process vs the raw DynamoDB call; budgets: GET p50 ≤ 1.5× floor, CPU ≤ 1500 µs)',
    table([
      ['request', 'p50', 'p90', 'p99', 'floor p50', 'floor p99', 'ratio p50', 'CPU µs/req', 'floor CPU µs', ''],
      ...warm.map((figure) => [
        figure.name,
        round(figure.handler.p50),
        round(figure.handler.p90),
        round(figure.handler.p99),
        round(figure.floor.p50),
        round(figure.floor.p99),
        figure.ratioP50,
        figure.cpuMicrosPerRequest,
        figure.floorCpuMicrosPerRequest,
        figure.name.startsWith('GET') ? mark(figure.ratioP50 <= 1.5 && figure.cpuMicrosPerRequest <= 1500) : '',
      ]),
    ]),
  );
  const { benchInvoiceDocuments } = await import('./documents');
  const documents = await benchInvoiceDocuments((id) => join(outDir, `${id}.mjs`));
  results.invoiceDocuments = documents;
  section(
    'Invoice PDF (GET /v1/invoices/{id}/pdf bundle in-process, 20-line invoice, Factur-X; DynamoDB Local + S3 emulator)',
    table([
      ['download', 'ms'],
      ['first, cold process (renderer import + render + store)', documents.firstRenderColdMs],
      ['first of another invoice, warm process (render + store)', documents.renderWarmMs],
      ['cached (from S3, renderer not loaded) p50', documents.cachedDownloadMs.p50],
      ['cached p90', documents.cachedDownloadMs.p90],
    ]) + `\nPDF size ${kib(documents.pdfBytes)} KiB`,
  );
  const { benchFiles } = await import('./files');
  const files = await benchFiles((id) => join(outDir, `${id}.mjs`));
  results.files = files;
  section(
    `Files (preflight of a ${files.preflight.pages}-page PDF in-process; multipart uploads through the local gateway; DynamoDB Local + S3 emulator)`,
    table([
      ['measure', 'p50', 'p90', 'runs'],
      [
        'preflight checks alone (pdf-lib parse + page checks), ms',
        files.preflight.checksMs.p50,
        files.preflight.checksMs.p90,
        files.preflight.checksMs.n,
      ],
      [
        'preflight worker bundle (record, object, checks, write), ms',
        files.preflight.workerMs.p50,
        files.preflight.workerMs.p90,
        files.preflight.workerMs.n,
      ],
      ['POST /v1/files multipart, 4 MiB, ms', files.multipartUpload.ms.p50, files.multipartUpload.ms.p90, files.multipartUpload.ms.n],
    ]) +
      `\nPDF ${kib(files.preflight.pdfBytes)} KiB, preflight ${files.preflight.status}; upload ${kib(files.multipartUpload.fileBytes)} KiB: ` +
      `${files.multipartUpload.mbPerSecondAtP50} MB/s at the p50`,
  );
  const { benchNumbering } = await import('./numbering');
  const numbering = await benchNumbering();
  results.invoiceNumbering = numbering;
  section(
    `Invoice numbering (createInvoice in-process, ${numbering.bursts} bursts of ${numbering.burstSize} concurrent creates for one tenant; gap-free numbers in turn; DynamoDB Local)`,
    table([
      ['measure', 'p50', 'p90', 'p99', 'n'],
      ['create in a burst, ms from the burst start', ...Object.values(numbering.burstLatencyMs)],
      ['create alone, ms', ...Object.values(numbering.aloneMs)],
      ['raw TransactWriteItems (5 items), ms', ...Object.values(numbering.transactionMs)],
    ]) + `\n${numbering.createsPerSecond} invoice creates per second per tenant (median burst); ${numbering.failures} failed`,
  );
} finally {
  await shipping.stop();
  await engines.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// 4. DynamoDB calls per route, over every request the integration tests make
if (!args.has('--skip-calls')) {
  const callsFile = join(outDir, 'dynamodb-calls.json');
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', '--reporter=dot'], {
    cwd: projectRoot,
    // LOCAL_DEBUG_HEADERS: the gateway's X-Local-DynamoDB-* headers, as the tests' global setup asks for them too.
    env: { ...process.env, LOCAL_DEBUG_HEADERS: '1', DYNAMODB_CALLS_FILE: callsFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (existsSync(callsFile)) {
    const calls = JSON.parse(readFileSync(callsFile, 'utf8')) as {
      route: string;
      requests: number;
      median: number;
      max: number;
      budget: number | null;
      commands: Record<string, number>;
    }[];
    results.dynamodbCallsPerRoute = { integrationExitCode: run.status, routes: calls };
    section(
      'DynamoDB calls per request (successful requests of the integration tests; budget on the median; no Scan)',
      table([
        ['route', 'requests', 'median', 'max', 'budget', 'commands'],
        ...calls
          .sort((a, b) => a.route.localeCompare(b.route))
          .map((row) => [row.route, row.requests, row.median, row.max, row.budget ?? '∞', Object.keys(row.commands).join(',')]),
      ]),
    );
  }
}

// 5. Webhook pipeline
if (!args.has('--skip-webhooks') && existsSync(join(projectRoot, 'bench', 'webhooks.ts'))) {
  const { benchWebhookPipeline } = await import('./webhooks');
  const figures = await benchWebhookPipeline();
  results.webhookPipeline = figures;
  section('Webhook pipeline (budgets: latency p50 ≤ 1 s, p99 ≤ 3 s; ≥ 500 deliveries/s)', JSON.stringify(figures, null, 2));
}

results.elapsedSeconds = Math.round((Date.now() - started) / 1000);
writeFileSync(join(projectRoot, 'bench', 'results.json'), JSON.stringify(results, null, 2) + '\n');
console.log(`\nbench/results.json written (${results.elapsedSeconds} s).`);
process.exit(0);
