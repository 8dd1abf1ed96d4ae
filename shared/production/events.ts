/**
 * The events production emits, each carrying the job as the API shows it (`data.production_job`,
 * which names its order: `order_id`, `order_number`). The order-level two carry the job whose move
 * started or finished the order, and the order's id, number and status after the move
 * (`data.order`); the order's own `order.updated` carries the whole order.
 */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { JobSchema } from './schema';

const jobPayload = /* @__PURE__ */ z.object({ production_job: JobSchema });

const orderReference = /* @__PURE__ */ z
  .object({ id: z.number().int(), order_number: z.string(), status: z.string() })
  .meta({ id: 'ProductionOrderReference', description: 'The order, after the move' });

const orderPayload = /* @__PURE__ */ z.object({
  production_job: JobSchema,
  order: orderReference,
});

/** One per order line, in the transaction that confirms the order. */
const jobCreatedDeclaration = /* @__PURE__ */ defineEvent('production.job.created', jobPayload);
/** Each job entering completed. */
const jobCompletedDeclaration = /* @__PURE__ */ defineEvent('production.job.completed', jobPayload);
/** Once per order: its first job entered printing. */
const productionStartedDeclaration = /* @__PURE__ */ defineEvent('production.started', orderPayload);
/** Once per order: its last open job completed; the order moved to ready. */
const productionCompletedDeclaration = /* @__PURE__ */ defineEvent('production.completed', orderPayload);

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [jobCreatedDeclaration, jobCompletedDeclaration, productionStartedDeclaration, productionCompletedDeclaration];

/** What services write with (`eventPut`): the kinds, typed by their declarations, without their schemas. */
export const jobCreated = /* @__PURE__ */ writerOf<typeof jobCreatedDeclaration>('production.job.created');
export const jobCompleted = /* @__PURE__ */ writerOf<typeof jobCompletedDeclaration>('production.job.completed');
export const productionStarted = /* @__PURE__ */ writerOf<typeof productionStartedDeclaration>('production.started');
export const productionCompleted = /* @__PURE__ */ writerOf<typeof productionCompletedDeclaration>('production.completed');
