/**
 * The production operations: jobs and machines. Handlers import this module as a namespace
 * (`import * as productionOperations`) and the schemas are marked pure, so each bundle keeps — and
 * builds at cold start — only its own operation's.
 */
import type * as z from 'zod';
import { DeletedSchema, idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import {
  jobsGet,
  jobsList,
  jobsSetStatus,
  jobsUpdate,
  machinesCreate,
  machinesDelete,
  machinesGet,
  machinesList,
  machinesQueue,
  machinesUpdate,
} from '#shared/routes';
import {
  JobListQuerySchema,
  JobSchema,
  JobStatusChangeSchema,
  JobUpdateSchema,
  MachineCreateSchema,
  MachineListQuerySchema,
  MachineQueueSchema,
  MachineSchema,
  MachineUpdateSchema,
} from './schema';

const jobPath = /* @__PURE__ */ idPath('Production job id');
const machinePath = /* @__PURE__ */ idPath('Machine id');

export const listJobs = { route: jobsList, query: JobListQuerySchema, list: true } satisfies Operation;
export const getJob = { route: jobsGet, params: jobPath, errors: [404] } satisfies Operation;
export const updateJob = {
  route: jobsUpdate,
  params: jobPath,
  body: JobUpdateSchema,
  errors: [404, 409],
} satisfies Operation;
export const setJobStatus = {
  route: jobsSetStatus,
  params: jobPath,
  body: JobStatusChangeSchema,
  errors: [404, 409],
} satisfies Operation;

export const listMachines = { route: machinesList, query: MachineListQuerySchema, list: true } satisfies Operation;
export const createMachine = {
  route: machinesCreate,
  body: MachineCreateSchema,
  status: 201,
} satisfies Operation;
export const getMachine = { route: machinesGet, params: machinePath, errors: [404] } satisfies Operation;
export const updateMachine = {
  route: machinesUpdate,
  params: machinePath,
  body: MachineUpdateSchema,
  errors: [404, 409],
} satisfies Operation;
export const deleteMachine = {
  route: machinesDelete,
  params: machinePath,
  errors: [404, 409],
} satisfies Operation;
export const machineQueue = { route: machinesQueue, params: machinePath, errors: [404] } satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  listJobs: JobSchema,
  getJob: JobSchema,
  updateJob: JobSchema,
  setJobStatus: JobSchema,
  listMachines: MachineSchema,
  createMachine: MachineSchema,
  getMachine: MachineSchema,
  updateMachine: MachineSchema,
  deleteMachine: DeletedSchema,
  machineQueue: MachineQueueSchema,
} satisfies Record<string, z.ZodType>;
