/**
 * `npm run documents -- <command> [options]`: operate the stored documents.
 *
 *   rerender --account ID --mode test|live [--invoice ID] [--all]
 *       renders again the stored documents (PDF, CII and UBL XML) of the tenant's invoices whose
 *       text holds a character XML 1.0 cannot hold — stored before input refused such characters,
 *       so their e-invoices may be ill-formed; the renderers draw them as U+FFFD now
 *       (shared/invoices/document-repair.ts). `--invoice` renders one invoice's again whatever it
 *       holds; `--all` every invoice's. Documents never downloaded are left to their first download.
 *
 * Works against the running local stack (as `npm run events` does) or, with `--stage NAME` and
 * `--documents-bucket NAME` (the stack output DocumentsBucketName), against a deployed stage with
 * your AWS credentials. `--json` prints JSON. A mistyped option or a stray word is refused with the
 * usage (exit code 2).
 */
import { env, resetConfig } from '#shared/config';
import { DomainError } from '#shared/errors';
import { rerenderInvoiceDocuments } from '#shared/invoices/document-repair';
import { physicalName, table } from '#shared/resources';
import { commandLine, fail, findLocalStack } from './cli';

const usage = `usage: npm run documents -- rerender --account ID --mode test|live [--invoice ID] [--all] [--json]
                             [--stage NAME --documents-bucket NAME]
  rerender  renders again the stored documents of invoices whose text XML 1.0 cannot hold (U+FFFF, control characters)
            --invoice ID: that invoice's, whatever it holds; --all: every invoice's
([…] marks an optional part: type it without the brackets.)`;

const options = {
  account: { type: 'string' },
  mode: { type: 'string' },
  invoice: { type: 'string' },
  all: { type: 'boolean' },
  stage: { type: 'string' },
  'documents-bucket': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const { values, command, need, usageError } = commandLine({
  program: 'documents',
  usage,
  options,
  commandOptions: { rerender: ['account', 'mode', 'invoice', 'all'] },
  globalOptions: ['stage', 'documents-bucket', 'json', 'help'],
});

/** Points the SDK clients and the config at the running local stack or at a deployed stage. */
function connect(): void {
  if (values.stage) {
    process.env[env.stage] = values.stage;
    process.env[env.tableName] = physicalName(values.stage, table.id);
    process.env[env.documentsBucket] = values['documents-bucket'] ?? usageError('--documents-bucket is required with --stage');
  } else {
    if (values['documents-bucket'] !== undefined) usageError('--documents-bucket goes with --stage');
    Object.assign(process.env, findLocalStack('documents', values.json === true).env);
  }
  resetConfig();
}

async function main(): Promise<void> {
  if (values.help || !command) {
    console.log(usage);
    return;
  }
  const accountId = need('account');
  const mode = need('mode');
  if (mode !== 'test' && mode !== 'live') usageError('--mode must be test or live');
  const invoiceId = values.invoice === undefined ? undefined : Number(values.invoice);
  if (invoiceId !== undefined && !(Number.isSafeInteger(invoiceId) && invoiceId > 0)) usageError('--invoice must be an invoice id');
  if (invoiceId !== undefined && values.all) usageError('give --invoice or --all, not both');
  connect();
  const tenant = { accountId, mode: mode as 'test' | 'live' };
  const result = await rerenderInvoiceDocuments(tenant, {
    ...(invoiceId === undefined ? {} : { invoiceId }),
    all: values.all === true,
    onProgress: (progress) => {
      if (!values.json && progress.invoices % 1000 === 0) console.error(`… ${progress.invoices} invoices looked at`);
    },
  });
  if (values.json) console.log(JSON.stringify({ account: accountId, mode, ...result }, null, 2));
  else
    console.log(
      `Looked at ${result.invoices} invoice(s) of ${accountId} (${mode}): ${result.documents} stored document(s) of ` +
        `${result.rerendered} invoice(s) rendered again.`,
    );
}

main().catch((error: unknown) => {
  if (error instanceof DomainError) fail(error.message); // e.g. --invoice names no invoice
  console.error(error);
  process.exit(1);
});
