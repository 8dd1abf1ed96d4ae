// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import project from './scripts/lint/no-import-cycle.js';

/**
 * The layers of the code that runs in a Lambda, lowest first. A module may import from its own
 * layer and the layers below it, never from a layer above (docs/architecture.md draws the same
 * picture); `project/no-import-cycle` keeps every import graph acyclic, the domains' too.
 *
 *   functions/                      handlers, one per route
 *   events/                         the event pipeline: stream router, delivery worker, dead letters
 *   platform                        shared/http, shared/openapi, shared/{resources,workers}.ts
 *   domains                         shared/<resource>: business rules and storage, one folder per resource
 *   event core                      shared/events: catalogue, outbox writer, stored-event reader
 *   storage                         shared/db, shared/queues: DynamoDB and SQS helpers, key patterns
 *   base                            errors, ids, money, config, logger, routes, clients, auth, crypto, schemas, async, mail
 */
const domainNames = [
  'accounts',
  'audit',
  'carts',
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
  'quotes',
  'shipments',
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
  {
    name: 'the platform (HTTP, OpenAPI)',
    files: ['shared/{http,openapi}/**/*.ts', 'shared/{resources,workers}.ts'],
    imports: '^#shared/((http|openapi)/|(resources|workers)$)',
  },
  { name: 'the event pipeline (events/)', files: ['events/**/*.ts'], imports: '^#events/' },
  { name: 'the handlers (functions/)', files: ['functions/**/*.ts'], imports: '^#functions/' },
];
const tooling = '^#(infra|local-aws|scripts|test|bench|admin)/';

/** Rules for every module that runs in a Lambda: no Scan, no `../` chains, no tooling. */
const noScan = ['@aws-sdk/lib-dynamodb', '@aws-sdk/client-dynamodb'].map((name) => ({
  name,
  importNames: ['ScanCommand', 'paginateScan'],
  message: 'No request path or worker may scan the table: query an index instead (docs/data-model.md).',
}));

const layerRules = layers.map((layer, position) => ({
  files: layer.files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: noScan,
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
  },
}));

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
    // Tests read JSON bodies of many shapes; typing each one would add noise, not safety.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Handlers and domain code log through the structured logger, never console.
    files: ['functions/**/*.ts', 'shared/**/*.ts', 'events/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
);
