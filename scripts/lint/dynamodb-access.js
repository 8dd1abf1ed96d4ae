// @ts-check
/**
 * Who may talk to DynamoDB (docs/architecture.md, "A resource folder"): in the code that runs in a
 * Lambda, only a resource folder's `repository.ts` imports the DynamoDB client
 * (`#shared/clients/dynamodb`) or the transaction writer (`transactWrite` of
 * `#shared/db/transactions`); services decide and hand the repository the whole write. Besides the
 * repositories: the platform modules of PLATFORM, each with why it must, and — until they move —
 * the modules of PENDING.
 *
 * Read by eslint.config.js (`no-restricted-imports` on every other module of shared/, events/ and
 * functions/) and by test/unit/resource-folders.test.ts, which also fails on an entry that is no
 * longer needed: when a module moves its calls to its repository, its entry goes.
 */

export const DYNAMODB_CLIENT = '#shared/clients/dynamodb';
export const TRANSACTIONS = '#shared/db/transactions';
export const TRANSACTION_WRITER = 'transactWrite';

/** The repository of each resource folder (`shared/<resource>/repository.ts`). */
export const REPOSITORIES = 'shared/*/repository.ts';

/** Modules (or folders, ending in `/`) that talk to DynamoDB for good, and why. */
export const PLATFORM = {
  'shared/db/': 'the DynamoDB helpers themselves: the transaction writer, query loops, batches, counters, totals',
  'shared/clients/': 'the SDK clients: dynamodb.ts is the client; kms.ts takes the region and credentials the DynamoDB client resolved',
  'shared/events/stored-event.ts':
    'the event core reads its own outbox items back by key (the delivery worker); no resource folder owns them',
  'shared/http/idempotency.ts': 'the Idempotency-Key records of every POST, written by the handler stack around whatever operation runs',
  'shared/limits/rate-limit.ts': "the rate limiter's window counters: bookkeeping of every request, no stored entity",
  'shared/webhooks/delivery-repository.ts': "a repository: the deliveries', the second entity of webhooks (with its delivery-service.ts)",
};

/**
 * Modules that still talk to DynamoDB outside their repository, each with its reason: the list only
 * shrinks (the folder test fails on an entry no longer needed). Empty: every resource folder writes
 * through its repository.
 * @type {Record<string, string>}
 */
export const PENDING = {};

/** The files that may import the client or the writer, as ESLint globs. */
export const allowedGlobs = () =>
  [REPOSITORIES, ...Object.keys(PLATFORM), ...Object.keys(PENDING)].map((path) => (path.endsWith('/') ? `${path}**` : path));

/** The `no-restricted-imports` paths every other module gets. */
export const restrictedPaths = [
  {
    name: DYNAMODB_CLIENT,
    message:
      "Only a resource folder's repository.ts talks to DynamoDB: add a typed function there (docs/architecture.md#a-resource-folder).",
  },
  {
    name: TRANSACTIONS,
    importNames: [TRANSACTION_WRITER],
    message: "Only a resource folder's repository.ts writes a transaction: hand it the parts (docs/architecture.md#a-resource-folder).",
  },
];
