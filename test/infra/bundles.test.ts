import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLE_BUDGET_KIB,
  bundleBudgetOf,
  DOCUMENT_BUNDLE_BUDGET_KIB,
  MAIL_BUNDLE_BUDGET_KIB,
  SIGNER_BUNDLE_BUDGET_KIB,
} from '#bench/budgets';
import { readFileSync } from 'node:fs';
import { buildBundles, type BundleFigure } from '#bench/bundles';
import { routes } from '#shared/routes';
import { workers } from '#shared/workers';
import { secretRoutes, webhookSecretReaders } from '#infra/secrets';

/**
 * Every function bundled exactly as CDK bundles it (infra/bundling.ts), measured from the metafile.
 * Built once before the tests, so each of them also holds when run alone (`-t`), never vacuously.
 */
let figures: BundleFigure[] = [];

/** The bundle itself among esbuild's outputs (the source map is listed first, and names no inputs). */
const bundleOutput = (figure: BundleFigure) => Object.entries(figure.metafile.outputs).find(([name]) => name.endsWith('.mjs'))![1];

/** Functions besides the routes and the workers: the request authorizer and the audit log shipper. */
const OTHER_FUNCTIONS = ['authorizer', 'audit.ship'];

beforeAll(async () => {
  figures = await buildBundles();
}, 240_000);

describe('bundles', () => {
  it('builds one bundle per function: every route, every worker, the authorizer and the audit shipper', () => {
    expect(figures).toHaveLength(routes.length + workers.length + OTHER_FUNCTIONS.length);
    const ids = figures.map((figure) => figure.id).sort();
    expect(ids).toEqual([...routes.map((route) => route.id), ...workers.map((worker) => `worker.${worker.id}`), ...OTHER_FUNCTIONS].sort());
    for (const figure of figures) expect(figure.bytes, figure.id).toBeGreaterThan(0);
  });

  const budgetOf = bundleBudgetOf;

  it(`keeps every handler at or under ${BUNDLE_BUDGET_KIB} KiB minified, token signers under ${SIGNER_BUNDLE_BUDGET_KIB}, mail senders under ${MAIL_BUNDLE_BUDGET_KIB}, document renderers under ${DOCUMENT_BUNDLE_BUDGET_KIB}`, () => {
    expect(figures.length).toBeGreaterThan(0);
    const over = figures
      .filter((figure) => figure.bytes > budgetOf(figure.id) * 1024)
      .map((figure) => `${figure.id}: ${(figure.bytes / 1024).toFixed(1)} KiB`);
    expect(over).toEqual([]);
  });

  it('keeps the renderers (pdfkit, the e-invoice library, the fonts) out of every bundle but the document routes', () => {
    const renderer = ['node_modules/pdfkit/', 'node_modules/@e-invoice-eu/core/', 'node_modules/@expo-google-fonts/'];
    const carrying = figures
      .filter((figure) =>
        Object.entries(bundleOutput(figure).inputs).some(
          ([input, { bytesInOutput }]) => bytesInOutput > 0 && renderer.some((module) => input.includes(module)),
        ),
      )
      .map((figure) => figure.id)
      .sort();
    expect(carrying).toEqual(
      routes
        .filter((route) => route.documents)
        .map((route) => route.id)
        .sort(),
    );
  });

  it('bundles no AWS SDK v2, X-Ray or credential chain the Lambda runtime does not need', () => {
    expect(figures.length).toBeGreaterThan(0);
    for (const figure of figures) {
      const inputs = Object.keys(bundleOutput(figure).inputs);
      for (const forbidden of ['node_modules/aws-sdk/', 'aws-xray-sdk', '@aws-sdk/credential-provider-node', '@aws-sdk/nested-clients']) {
        expect(
          inputs.some((input) => input.includes(forbidden)),
          `${figure.id} bundles ${forbidden}`,
        ).toBe(false);
      }
    }
  });

  it('keeps the request schemas out of the GET bundles (schemas are marked pure, so unused ones are dropped)', () => {
    const inputSchemas = [
      'CustomerCreate',
      'AddressCreate',
      'ProductCreate',
      'ProductUpdate',
      'OrderCreate',
      'OrderLineInput',
      'OrderUpdate',
      'WebhookCreate',
      'LegacyProductCreate',
    ];
    for (const id of ['customers.get', 'products.get', 'orders.get', 'webhooks.get', 'legacy-products.get']) {
      const figure = figures.find((candidate) => candidate.id === id)!;
      const code = readFileSync(figure.file, 'utf8');
      expect(
        inputSchemas.filter((schema) => code.includes(`"${schema}"`)),
        id,
      ).toEqual([]);
    }
  });

  it('carries the KMS client in exactly the bundles granted the key: webhook create and rotate-secret, the delivery worker, the customer-token signers, the carrier-credential users', () => {
    const withKms = figures
      .filter((figure) => {
        return Object.entries(bundleOutput(figure).inputs).some(
          ([input, { bytesInOutput }]) => input.endsWith('shared/clients/kms.ts') && bytesInOutput > 0,
        );
      })
      .map((figure) => figure.id)
      .sort();
    expect(withKms).toEqual([...secretRoutes, ...webhookSecretReaders.map((id) => `worker.${id}`)].sort());
  });

  it('keeps zod and the DynamoDB client where they belong: no zod in the authorizer, no DynamoDB client in the OpenAPI document', () => {
    const inputsOf = (id: string) => Object.keys(bundleOutput(figures.find((figure) => figure.id === id)!).inputs);
    expect(inputsOf('authorizer').some((input) => input.includes('node_modules/zod/'))).toBe(false);
    expect(inputsOf('openapi.get').some((input) => input.includes('@aws-sdk/client-dynamodb'))).toBe(false);
  });
});
