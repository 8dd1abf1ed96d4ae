// @ts-check
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The layers of the code, lowest first. A module may import from its own layer and the layers
 * below it, never from a layer above (docs/architecture.md draws the same picture):
 *
 *   functions/                       handlers, one per route
 *   events/                          the event pipeline: stream router, delivery worker, dead letters
 *   shared/http, shared/openapi,     the request stack, the OpenAPI document, and the tables that
 *   shared/{routes,resources,…}.ts   CDK and the local runtime build from
 *   shared/<domain>                  business rules and storage, one folder per resource
 *   shared/events                    the event core: catalogue, outbox writer, stored-event reader
 *   shared/db, shared/queues         DynamoDB and SQS helpers, key patterns
 *   base                             errors, ids, money, config, logger, clients, auth, schemas, async
 *
 * Domains may import one another; import-x/no-cycle keeps that graph acyclic.
 */
const base = [
  'shared/{errors,ids,money,config,logger}.ts',
  'shared/clients/**',
  'shared/auth/**',
  'shared/async/**',
  'shared/schemas/**',
];
const storage = ['shared/db/**', 'shared/queues/**'];
const eventCore = ['shared/events/**'];
const domains = [
  'shared/accounts/**',
  'shared/audit/**',
  'shared/customers/**',
  'shared/legacy-products/**',
  'shared/limits/**',
  'shared/orders/**',
  'shared/pricing/**',
  'shared/products/**',
  'shared/webhooks/**',
];
const platform = ['shared/http/**', 'shared/openapi/**', 'shared/{routes,resources,workers,route-docs}.ts'];
const tools = ['infra/**', 'local-aws/**', 'scripts/**', 'test/**', 'bench/**', 'admin/**'];

const zone = (target, from, why) => ({ target, from, message: why });

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', 'dist/', 'coverage/', 'admin/dist/', 'openapi.json', 'bench/out/', 'docs/screenshots/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // The dependency direction, and no import cycles anywhere in the code that runs in a Lambda.
    files: ['functions/**/*.ts', 'events/**/*.ts', 'shared/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone(['shared/**', 'events/**'], ['functions/**'], 'handlers are the top layer: nothing imports them'),
            zone(['shared/**'], ['events/**'], 'the event pipeline (events/) sits above shared/: move what shared/ needs into shared/'),
            zone(['functions/**', 'events/**', 'shared/**'], tools, 'code that runs in a Lambda never imports tooling, tests or the CDK app'),
            zone([...base, ...storage, ...eventCore, ...domains], platform, 'domain code knows nothing of HTTP, routes or the OpenAPI document'),
            zone([...base, ...storage, ...eventCore], domains, 'the event core and storage sit below the domains'),
            zone([...base, ...storage], eventCore, 'storage and base modules sit below the event core'),
            zone(base, storage, 'base modules (errors, ids, clients, auth, schemas…) sit below storage'),
          ],
        },
      ],
      // No request path may scan the table (DynamoDB calls per request stay bounded).
      'no-restricted-imports': [
        'error',
        {
          paths: ['@aws-sdk/lib-dynamodb', '@aws-sdk/client-dynamodb'].map((name) => ({
            name,
            importNames: ['ScanCommand', 'paginateScan'],
            message: 'No request path or worker may scan the table: query an index instead (docs/data-model.md).',
          })),
        },
      ],
    },
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
