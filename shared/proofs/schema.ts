import * as z from 'zod';
import { bodyId, lineText, optionalText } from '#shared/schemas/common';
import { paginationQuery } from '#shared/schemas/pagination';
import { responseSchema } from '#shared/schemas/response';
import { storedDecision, storedProof } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses. The artwork a proof covers is never taken from the client: the
 * lines' current files (and their SHA-256) are copied when the proof is made.
 */

/** How long a proof (and its link) stays open when the request does not say: 14 days. */
export const DEFAULT_PROOF_DAYS = 14;
/** The longest a proof may stay open. */
export const MAX_PROOF_DAYS = 90;

export const DecisionSchema = /* @__PURE__ */ (() =>
  responseSchema(storedDecision, {
    id: 'ProofDecision',
    description: 'The immutable record of a decision on a proof: written once, never changed or deleted',
  }))();

const ProofBaseSchema = /* @__PURE__ */ (() => responseSchema(storedProof, { id: 'ProofBase' }))();

export const ProofSchema = /* @__PURE__ */ (() =>
  ProofBaseSchema.extend({
    decisions: z.array(DecisionSchema).meta({ description: 'Its decision record (at most one: a proof takes one decision)' }),
  }).meta({ id: 'Proof', description: 'A proof of order lines, bound to the exact artwork files (SHA-256) it shows' }))();

/** The link, answered once when it is made: the token is stored only as its SHA-256. */
export const ProofLinkSchema = /* @__PURE__ */ (() =>
  z
    .object({
      token: z.string().meta({ description: 'The capability token (at least 256 random bits; shown once)' }),
      url: z.string().meta({ description: 'GET /v1/proof-links/{token} on this API' }),
      expires_at: z.string(),
    })
    .meta({ id: 'ProofLink' }))();

export const ProofCreatedSchema = /* @__PURE__ */ (() =>
  ProofSchema.extend({
    link: ProofLinkSchema.meta({ description: 'The link for the customer, with its token: shown only in this answer' }),
    notified: z.boolean().meta({ description: 'Whether the link was emailed to the customer (notify: true)' }),
  }).meta({ id: 'ProofCreated' }))();

export const ProofCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      line_ids: z
        .array(z.number().int().min(1))
        .min(1, 'name at least one line')
        .max(25)
        .refine((ids) => new Set(ids).size === ids.length, 'each line once')
        .meta({ description: 'The order lines the proof shows (their current artwork is bound to it)' }),
      file_id: bodyId('The proof document: a ready file of the shop (a soft-proof PDF)'),
      message: optionalText(2000, { multiline: true }),
      requires_approval: z
        .boolean()
        .optional()
        .default(true)
        .meta({ description: "Whether the lines' production waits for its approval (default true)" }),
      expires_at: z.iso
        .datetime({ offset: false })
        .optional()
        .meta({ description: `When it (and its link) expires; default ${DEFAULT_PROOF_DAYS} days, at most ${MAX_PROOF_DAYS}` }),
      notify: z.boolean().optional().default(false).meta({ description: 'Email the link to the order’s customer' }),
    })
    .meta({
      id: 'ProofCreate',
      example: { line_ids: [1], file_id: 12, message: 'Please check the bleed on the back.', notify: true },
    }))();

export const ProofApproveSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      comment: optionalText(2000, { multiline: true }),
      name: optionalText(200).meta({ description: 'Who approves (a name, recorded as given)' }),
    })
    .meta({ id: 'ProofApprove', example: { comment: 'Looks good.' } }))();

export const ProofRequestChangesSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      comment: lineText(2000, true).min(1, 'say what should change').meta({ description: 'What should change (required)' }),
      name: optionalText(200).meta({ description: 'Who asks (a name, recorded as given)' }),
    })
    .meta({ id: 'ProofRequestChanges', example: { comment: 'The logo should be larger.' } }))();

export const ProofListQuerySchema = /* @__PURE__ */ (() => z.strictObject({ ...paginationQuery }))();

/** A link token in the path: anything else than a token's form is as unknown as a wrong token (404). */
export const ProofLinkPathSchema = /* @__PURE__ */ (() =>
  z.object({
    token: z
      .string()
      .max(200)
      .meta({ description: 'The proof link token', param: { name: 'token', in: 'path' } }),
  }))();

/** What a link holder sees: the shop's name, the proof, the lines it covers, a short-lived download of the document. */
export const ProofLinkViewSchema = /* @__PURE__ */ (() =>
  z
    .object({
      shop: z.object({ name: z.string() }),
      proof: z.object({
        id: z.number().int(),
        order_number: z.string(),
        state: z.enum(['pending', 'approved', 'changes_requested', 'superseded', 'expired']),
        message: z.string().nullable(),
        requires_approval: z.boolean(),
        expires_at: z.string(),
        created_at: z.string(),
        decided_at: z.string().nullable(),
      }),
      lines: z.array(
        z.object({
          line_id: z.number().int(),
          description: z.string(),
          quantity: z.number().int(),
          options: z.record(z.string(), z.string()),
          artwork: z.array(z.object({ filename: z.string(), sha256: z.string() })),
        }),
      ),
      document: z.object({
        filename: z.string(),
        content_type: z.string(),
        url: z.string().meta({ description: 'A presigned download of the proof document (15 minutes)' }),
        expires_at: z.string(),
      }),
      decision: z
        .object({ decision: z.enum(['approved', 'changes_requested']), decided_at: z.string(), comment: z.string().nullable() })
        .nullable(),
    })
    .meta({ id: 'ProofLinkView', description: 'A proof as its link shows it (no account needed)' }))();

export type ProofCreate = z.output<typeof ProofCreateSchema>;
export type ProofApprove = z.output<typeof ProofApproveSchema>;
export type ProofRequestChanges = z.output<typeof ProofRequestChangesSchema>;
export type ProofListQuery = z.output<typeof ProofListQuerySchema>;
export type Proof = z.output<typeof ProofSchema>;
export type ProofLinkView = z.output<typeof ProofLinkViewSchema>;
