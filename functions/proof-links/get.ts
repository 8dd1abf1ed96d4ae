/**
 * A proof by its link: no key; the path's token is the capability (shared/proofs/links.ts). Never
 * cached: the download URL is short-lived.
 */
import { ok } from '#shared/http/envelope';
import { definePublicHandler } from '#shared/http/public-handler';
import * as proofOperations from '#shared/proofs/contract';
import { viewLink } from '#shared/proofs/link-access';

export const handler = definePublicHandler(proofOperations.linkGet, async ({ params }) => ({
  ...ok(await viewLink(params.token)),
  headers: { 'Cache-Control': 'no-store' },
}));
