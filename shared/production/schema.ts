import * as z from 'zod';
import { bodyId, calendarDate, lineText, optionalText, queryId, requiredText, storableText, timestamp } from '#shared/schemas/common';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { responseSchema } from '#shared/schemas/response';
import { JOB_PRIORITIES, JOB_STATUSES } from './status';
import { MACHINE_STATUSES, MACHINE_TYPES, storedJob, storedMachine } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses.
 */

/** A job as responses show it: derived from the stored field list (stored.ts). */
export const JobSchema = /* @__PURE__ */ (() => responseSchema(storedJob, { id: 'ProductionJob' }))();

/** A machine as responses show it: derived from the stored field list (stored.ts). */
export const MachineSchema = /* @__PURE__ */ (() => responseSchema(storedMachine, { id: 'Machine' }))();

const oneOf = <const E extends readonly [string, ...string[]]>(values: E) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

/** Statuses a machine can be given by hand: `running` follows its jobs. */
export const HAND_SET_MACHINE_STATUSES = ['idle', 'maintenance', 'offline'] as const;

const MAX_OTHER_CAPABILITIES = 20;
const capabilityName = /* @__PURE__ */ z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be lower-case letters, digits and _, starting with a letter (at most 40)');

const size = (description: string) => z.number().int('must be an integer').min(1).max(100_000).nullable().optional().meta({ description });

/** Known capabilities are typed; anything else goes in `other`, bounded. */
const CapabilitiesInputSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      max_sheet_width_mm: size('Largest sheet width in mm'),
      max_sheet_height_mm: size('Largest sheet height in mm'),
      colors: z.number().int('must be an integer').min(1).max(16).nullable().optional().meta({ description: 'Colour units (4 = CMYK)' }),
      duplex: z.boolean().nullable().optional(),
      other: z
        .record(capabilityName, lineText(200))
        .refine((value) => Object.keys(value).length <= MAX_OTHER_CAPABILITIES, `must name at most ${MAX_OTHER_CAPABILITIES} capabilities`)
        .optional()
        .meta({ description: 'Further capabilities, name → value', example: { coating: 'uv' }, maxProperties: MAX_OTHER_CAPABILITIES }),
    })
    .meta({ id: 'MachineCapabilitiesInput' }))();

const machineFields = /* @__PURE__ */ (() => ({
  name: requiredText(200).meta({ example: 'HP Indigo 12000' }),
  type: oneOf(MACHINE_TYPES),
  status: oneOf(HAND_SET_MACHINE_STATUSES).optional().meta({ description: 'idle, or maintenance / offline (then no job can start on it)' }),
  capabilities: CapabilitiesInputSchema.optional(),
  speed_per_hour: z.number().int('must be an integer').min(1, 'must be at least 1').max(10_000_000).meta({ example: 3000 }),
  setup_minutes: z
    .number()
    .int('must be an integer')
    .min(0)
    .max(24 * 60)
    .optional()
    .meta({ example: 15 }),
}))();

export const MachineCreateSchema = /* @__PURE__ */ z.strictObject(machineFields).meta({
  id: 'MachineCreate',
  example: {
    name: 'HP Indigo 12000',
    type: 'digital_press',
    speed_per_hour: 3000,
    setup_minutes: 15,
    capabilities: { max_sheet_width_mm: 750, max_sheet_height_mm: 530, colors: 7, duplex: true, other: { coating: 'uv' } },
  },
});

export const MachineUpdateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...machineFields,
      name: machineFields.name.optional(),
      type: machineFields.type.optional(),
      speed_per_hour: machineFields.speed_per_hour.optional(),
    })
    .refine((value) => Object.values(value).some((field) => field !== undefined), 'send at least one field to change')
    .meta({
      id: 'MachineUpdate',
      description: 'Only the fields sent change; capabilities are replaced whole.',
      example: { status: 'maintenance' },
    }))();

export const MachineListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      status: oneOf(MACHINE_STATUSES).optional(),
      type: oneOf(MACHINE_TYPES).optional(),
      starting_after: idCursor('machines'),
    })
    .superRefine(cursorOnFirstPage))();

export const JobListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      status: oneOf(JOB_STATUSES).optional(),
      machine_id: queryId('machine_id').optional().meta({ description: "One machine's jobs" }),
      order_id: queryId('order_id').optional().meta({ description: "One order's jobs" }),
      due_before: calendarDate
        .optional()
        .meta({ description: 'Jobs due before this date (not on it); jobs without a due date never match' }),
      awaiting_approval: z.enum(['true'], { error: 'must be true' }).optional().meta({
        description: "true: only the jobs waiting for a proof's approval (docs/proofs.md); not with status, machine_id or due_before",
      }),
      starting_after: idCursor('jobs'),
    })
    .superRefine(cursorOnFirstPage)
    .refine(
      (query) =>
        query.awaiting_approval === undefined ||
        (query.status === undefined && query.machine_id === undefined && query.due_before === undefined),
      { message: 'awaiting_approval is not combined with status, machine_id or due_before', path: ['awaiting_approval'] },
    ))();

export const JobUpdateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      machine_id: bodyId('Assign the job to this machine (not while it runs)').optional(),
      priority: oneOf(JOB_PRIORITIES).optional(),
      due_date: calendarDate.nullable().optional(),
      notes: optionalText(5000, { multiline: true }),
    })
    .refine(
      (value) => Object.values(value).some((field) => field !== undefined),
      'send at least one of: machine_id, priority, due_date, notes',
    )
    .meta({
      id: 'ProductionJobUpdate',
      description: 'Only the fields sent change; null clears due_date and notes.',
      example: { machine_id: 3, priority: 'rush', due_date: '2026-12-01' },
    }))();

export const JobStatusChangeSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      status: oneOf(JOB_STATUSES),
      machine_id: bodyId('The machine to schedule or run it on (scheduled and printing need one, given or assigned)').optional(),
      note: z
        .string()
        .trim()
        .max(500, 'must be at most 500 characters')
        .superRefine(storableText(true))
        .optional()
        .meta({ example: 'Paper jam, reprinting' }),
    })
    .meta({
      id: 'ProductionJobStatusChange',
      description: 'A move along the job status machine (docs/production.md)',
      example: { status: 'scheduled', machine_id: 3, note: 'Plates ready' },
    }))();

export const MachineQueueSchema = /* @__PURE__ */ (() =>
  z
    .object({
      machine: MachineSchema,
      as_of: timestamp.meta({ description: 'The estimates are computed forward from this moment' }),
      entries: z.array(
        z
          .object({
            position: z.number().int().meta({ description: 'From 1: the running job first, then the scheduled ones in queue order' }),
            job: JobSchema,
            estimated_minutes: z.number().int(),
            estimated_start: timestamp,
            estimated_end: timestamp,
          })
          .meta({ id: 'MachineQueueEntry' }),
      ),
      has_more: z.boolean().meta({ description: 'More scheduled jobs follow the ones shown' }),
    })
    .meta({ id: 'MachineQueue' }))();

export type Job = z.output<typeof JobSchema>;
export type Machine = z.output<typeof MachineSchema>;
export type MachineCreate = z.output<typeof MachineCreateSchema>;
export type MachineUpdate = z.output<typeof MachineUpdateSchema>;
export type MachineListQuery = z.output<typeof MachineListQuerySchema>;
export type JobListQuery = z.output<typeof JobListQuerySchema>;
export type JobUpdate = z.output<typeof JobUpdateSchema>;
export type JobStatusChange = z.output<typeof JobStatusChangeSchema>;
export type MachineQueue = z.output<typeof MachineQueueSchema>;
