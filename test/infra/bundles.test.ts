import { describe, expect, it } from 'vitest';
import { BUNDLE_BUDGET_KIB } from '#bench/budgets';
import { buildBundles, type BundleFigure } from '#bench/bundles';

/** Every function bundled exactly as CDK bundles it (infra/bundling.ts), measured from the metafile. */
let figures: BundleFigure[] = [];

describe('bundles', () => {
  it(`keeps every handler at or under ${BUNDLE_BUDGET_KIB} KiB minified`, { timeout: 240_000 }, async () => {
    figures = await buildBundles();
    const over = figures.filter((figure) => figure.bytes > BUNDLE_BUDGET_KIB * 1024).map((figure) => `${figure.id}: ${(figure.bytes / 1024).toFixed(1)} KiB`);
    expect(over).toEqual([]);
  });

  it('bundles no AWS SDK v2, X-Ray or credential chain the Lambda runtime does not need', () => {
    for (const figure of figures) {
      const inputs = Object.keys(Object.values(figure.metafile.outputs).find((output) => output.bytes > 0)!.inputs);
      for (const forbidden of ['node_modules/aws-sdk/', 'aws-xray-sdk', '@aws-sdk/credential-provider-node', '@aws-sdk/nested-clients']) {
        expect(inputs.some((input) => input.includes(forbidden)), `${figure.id} bundles ${forbidden}`).toBe(false);
      }
    }
  });
});
