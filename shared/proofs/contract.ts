/**
 * The proof operations (docs/proofs.md). Handlers import this module as a namespace
 * (`import * as proofOperations`) and the schemas are marked pure, so each bundle keeps — and
 * builds at cold start — only its own operation's. The link operations take no key: the path's
 * token is the capability, and every token that opens nothing answers 404 alike.
 */
import type * as z from 'zod';
import { idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import {
  proofLinksApprove,
  proofLinksGet,
  proofLinksRequestChanges,
  proofsApprove,
  proofsCreate,
  proofsGet,
  proofsList,
  proofsRequestChanges,
  proofsRevokeLink,
} from '#shared/routes';
import {
  ProofApproveSchema,
  ProofCreatedSchema,
  ProofCreateSchema,
  ProofLinkPathSchema,
  ProofLinkViewSchema,
  ProofListQuerySchema,
  ProofRequestChangesSchema,
  ProofSchema,
} from './schema';

const orderPath = /* @__PURE__ */ idPath('Order id');
const proofPath = /* @__PURE__ */ idPath('Proof id');

export const create = {
  route: proofsCreate,
  params: orderPath,
  body: ProofCreateSchema,
  status: 201,
  errors: [404, 409, 502],
} satisfies Operation;
export const list = { route: proofsList, params: orderPath, query: ProofListQuerySchema, list: true, errors: [404] } satisfies Operation;
export const get = { route: proofsGet, params: proofPath, errors: [404] } satisfies Operation;
export const approve = { route: proofsApprove, params: proofPath, body: ProofApproveSchema, errors: [404, 409] } satisfies Operation;
export const requestChanges = {
  route: proofsRequestChanges,
  params: proofPath,
  body: ProofRequestChangesSchema,
  errors: [404, 409],
} satisfies Operation;
export const revokeLink = { route: proofsRevokeLink, params: proofPath, errors: [404] } satisfies Operation;
export const linkGet = { route: proofLinksGet, params: ProofLinkPathSchema, errors: [404] } satisfies Operation;
export const linkApprove = {
  route: proofLinksApprove,
  params: ProofLinkPathSchema,
  body: ProofApproveSchema,
  errors: [404, 409],
} satisfies Operation;
export const linkRequestChanges = {
  route: proofLinksRequestChanges,
  params: ProofLinkPathSchema,
  body: ProofRequestChangesSchema,
  errors: [404, 409],
} satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  create: ProofCreatedSchema,
  list: ProofSchema,
  get: ProofSchema,
  approve: ProofSchema,
  requestChanges: ProofSchema,
  revokeLink: ProofSchema,
  linkGet: ProofLinkViewSchema,
  linkApprove: ProofLinkViewSchema,
  linkRequestChanges: ProofLinkViewSchema,
} satisfies Record<string, z.ZodType>;
