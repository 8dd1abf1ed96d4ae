/**
 * The events proofs emit, each carrying the proof as the API shows it (`data.proof`; a decision's
 * also its immutable record, `data.decision`), written in the transaction of the change (outbox).
 */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { DecisionSchema, ProofSchema } from './schema';

const proofCreatedDeclaration = /* @__PURE__ */ defineEvent('proof.created', z.object({ proof: ProofSchema }));
/** Approved: the lines it covers may print while their artwork is the approved one. */
const proofApprovedDeclaration = /* @__PURE__ */ defineEvent('proof.approved', z.object({ proof: ProofSchema, decision: DecisionSchema }));
const proofChangesRequestedDeclaration = /* @__PURE__ */ defineEvent(
  'proof.changes_requested',
  z.object({ proof: ProofSchema, decision: DecisionSchema }),
);

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [proofCreatedDeclaration, proofApprovedDeclaration, proofChangesRequestedDeclaration];

/** What services write with (`eventPut`): the kinds, typed by their declarations, without their schemas. */
export const proofCreated = /* @__PURE__ */ writerOf<typeof proofCreatedDeclaration>('proof.created');
export const proofApproved = /* @__PURE__ */ writerOf<typeof proofApprovedDeclaration>('proof.approved');
export const proofChangesRequested = /* @__PURE__ */ writerOf<typeof proofChangesRequestedDeclaration>('proof.changes_requested');
