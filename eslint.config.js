// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { allowedGlobs, restrictedPaths } from './scripts/lint/dynamodb-access.js';
import project from './scripts/lint/no-import-cycle.js';

/**
 * The layers of the code that runs in a Lambda, lowest first. A module may import from its own
 * layer and the layers below it, never from a layer above (docs/architecture.md draws the same
 * picture); `project/no-import-cycle` keeps every import graph acyclic, the domains' too.
 *
 *   functions/                      handlers, one per route
 *   events/                         the event pipeline: stream router, delivery worker, dead letters
 *   platform                        shared/http, shared/openapi, shared/{resources,workers}.ts
 *   process                         shared/fulfilment: what spans domains that must not import each other
 *   domains                         shared/<resource>: business rules and storage, one folder per resource
 *   event core                      shared/events: catalogue, outbox writer, stored-event reader
 *   storage                         shared/db, shared/queues: DynamoDB and SQS helpers, key patterns
 *   base                            errors, ids, money, config, logger, routes, clients, auth, crypto, schemas, async,
 *                                   lambda-stand-ins, mail
 */
const domainNames = [
  'accounts',
  'audit',
  'carts',
  'credit-notes',
  'customer-auth',
  'customers',
  'event-log',
  'files',
  'invoices',
  'legacy-products',
  'limits',
  'orders',
  'pricing',
  'production',
  'products',
  'proofs',
  'quotes',
  'shipments',
  'tax',
  'webhooks',
];

/**
 * Each layer: the files in it, and how imports of it are spelled (subpath imports, see
 * package.json), as regular expressions (gitignore-style patterns would read `#…` as a comment).
 */
const layers = [
  {
    name: 'base',
    files: [
      'shared/{errors,ids,money,config,logger,routes}.ts',
      'shared/{clients,auth,async,crypto,schemas,lambda-stand-ins,mail}/**/*.ts',
    ],
    imports: '^#shared/((errors|ids|money|config|logger|routes)$|(clients|auth|async|crypto|schemas|mail)/)',
  },
  { name: 'storage', files: ['shared/{db,queues}/**/*.ts'], imports: '^#shared/(db|queues)/' },
  { name: 'the event core', files: ['shared/events/**/*.ts'], imports: '^#shared/events/' },
  { name: 'the domains', files: [`shared/{${domainNames.join(',')}}/**/*.ts`], imports: `^#shared/(${domainNames.join('|')})/` },
  // What spans domains that must not import each other (an order's change and production's part in it).
  { name: 'the process layer (shared/fulfilment)', files: ['shared/fulfilment/**/*.ts'], imports: '^#shared/fulfilment/' },
  {
    name: 'the platform (HTTP, OpenAPI)',
    files: ['shared/{http,openapi}/**/*.ts', 'shared/{resources,workers}.ts'],
    imports: '^#shared/((http|openapi)/|(resources|workers)$)',
  },
  { name: 'the event pipeline (events/)', files: ['events/**/*.ts'], imports: '^#events/' },
  { name: 'the handlers (functions/)', files: ['functions/**/*.ts'], imports: '^#functions/' },
];
const tooling = '^#(infra|local-aws|scripts|test|bench|admin)/';

/**
 * The order has one owner (docs/orders.md#one-owner): outside shared/orders (and the process layer
 * above the domains) nothing builds an order's keys — so no update, condition check or delete of an
 * order item can be written elsewhere — nor takes orders' item builders; other writers ask
 * shared/orders/transitions.ts for the parts of a change and join them to their transactions.
 */
const orderOwner = [
  {
    selector:
      "MemberExpression[object.name='tenantKeys'][property.name=/^(order|orderListEntry|orderOfListEntry|ordersCollection|ordersByStatus|customerOrders|customerOrdersByStatus|orderNumberSequence)$/]",
    message: "Only shared/orders builds an order's keys: use its transitions (orderChangeParts, orderKey, the checks) instead.",
  },
  {
    selector:
      "ImportDeclaration[source.value='#shared/orders/stored'] ImportSpecifier[imported.name=/^(orderUpdate|statusMoveItems|customerCounts|orderPut|listEntryPut|creationCounters|creationCustomerCounts|creationCustomerMoves)$/]",
    message: "Orders' item builders are orders' own: ask shared/orders/transitions.ts for the parts of a change.",
  },
];

/** Rules for every module that runs in a Lambda: no Scan, no `../` chains, no tooling. */
const noScan = ['@aws-sdk/lib-dynamodb', '@aws-sdk/client-dynamodb'].map((name) => ({
  name,
  importNames: ['ScanCommand', 'paginateScan'],
  message: 'No request path or worker may scan the table: query an index instead (docs/data-model.md).',
}));

/** zod's named `z` export is its whole namespace object: esbuild then keeps every locale (~300 KiB). */
const zodNamespace = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
  message: "Import zod as `import * as z from 'zod'`: the named `z` export pulls all of zod's locales into the bundle.",
};

/**
 * One layer's `no-restricted-imports`: no layer above, no tooling, no `../` chain, no Scan — and,
 * with `dynamoDb`, neither the DynamoDB client nor the transaction writer, which only repositories
 * (and the modules scripts/lint/dynamodb-access.js lists) import. A file gets its layer's last
 * matching entry (ESLint does not merge a rule's options), so each layer has two: without the
 * DynamoDB paths for the allowed files, with them for every other file.
 */
const layerRule = (/** @type {typeof layers[number]} */ layer, /** @type {number} */ position, /** @type {boolean} */ dynamoDb) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: [...noScan, ...(dynamoDb ? restrictedPaths : [])],
      patterns: [
        ...layers.slice(position + 1).map((above) => ({
          regex: above.imports,
          message: `${layer.name} must not import ${above.name}: dependencies point down (docs/architecture.md).`,
        })),
        { regex: tooling, message: 'Code that runs in a Lambda never imports tooling, tests or the CDK app.' },
        { regex: '^\\.\\./', message: 'Import across folders with a subpath import (#shared/…), not a ../ chain.' },
      ],
    },
  ],
});

const layerRules = layers.flatMap((layer, position) => [
  { files: layer.files, rules: layerRule(layer, position, false) },
  { files: layer.files, ignores: allowedGlobs(), rules: layerRule(layer, position, true) },
]);

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      '.data/',
      'dist/',
      'coverage/',
      'admin/dist/',
      'openapi.json',
      // The SDK's generated client (`npm run sdk`), not committed.
      'sdk/src/generated/',
      'bench/out/',
      'docs/screenshots/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // Prettier bounds code at 140 columns; this keeps comments there too (long strings may run on).
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  ...layerRules,
  {
    files: ['functions/**/*.ts', 'events/**/*.ts', 'shared/**/*.ts'],
    plugins: { project },
    rules: { 'project/no-import-cycle': 'error' },
  },
  {
    files: ['functions/**/*.ts', 'events/**/*.ts', 'shared/**/*.ts'],
    ignores: ['shared/orders/**', 'shared/fulfilment/**', 'shared/db/keys.ts'],
    rules: { 'no-restricted-syntax': ['error', ...orderOwner, zodNamespace] },
  },
  {
    files: ['shared/orders/**/*.ts', 'shared/fulfilment/**/*.ts', 'shared/db/keys.ts'],
    rules: { 'no-restricted-syntax': ['error', zodNamespace] },
  },
  {
    // The admin panel takes the API's types from the shared schemas, as types only: its bundle
    // holds no zod and no server code. Values come only from the pure modules it shares with the
    // API (the event catalogue, the scope rules, the status tables) — docs/admin.md.
    files: ['admin/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'The panel bundles no zod: import its types with `import type`.', allowTypeImports: true }],
          patterns: [
            {
              regex: '^#shared/(?!(events/catalogue|auth/scopes|orders/status|production/status|shipments/status)$)',
              message: 'The panel imports this shared module as types only (`import type`): it bundles no server code (docs/admin.md).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Handlers and domain code log through the structured logger, never console.
    files: ['functions/**/*.ts', 'shared/**/*.ts', 'events/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
);
