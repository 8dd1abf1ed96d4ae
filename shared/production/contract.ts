/**
 * The production operations: jobs and machines. Handlers import this module as a namespace
 * (`import * as productionOperations`) and the schemas are marked pure, so each bundle keeps — and
 * builds at cold start — only its own operation's.
 */
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

export const listJobs = { route: jobsList, query: JobListQuerySchema, response: JobSchema, list: true } satisfies Operation;
export const getJob = { route: jobsGet, params: jobPath, response: JobSchema, errors: [404] } satisfies Operation;
export const updateJob = {
  route: jobsUpdate,
  params: jobPath,
  body: JobUpdateSchema,
  response: JobSchema,
  errors: [404, 409],
} satisfies Operation;
export const setJobStatus = {
  route: jobsSetStatus,
  params: jobPath,
  body: JobStatusChangeSchema,
  response: JobSchema,
  errors: [404, 409],
} satisfies Operation;

export const listMachines = { route: machinesList, query: MachineListQuerySchema, response: MachineSchema, list: true } satisfies Operation;
export const createMachine = {
  route: machinesCreate,
  body: MachineCreateSchema,
  response: MachineSchema,
  status: 201,
} satisfies Operation;
export const getMachine = { route: machinesGet, params: machinePath, response: MachineSchema, errors: [404] } satisfies Operation;
export const updateMachine = {
  route: machinesUpdate,
  params: machinePath,
  body: MachineUpdateSchema,
  response: MachineSchema,
  errors: [404, 409],
} satisfies Operation;
export const deleteMachine = {
  route: machinesDelete,
  params: machinePath,
  response: DeletedSchema,
  errors: [404, 409],
} satisfies Operation;
export const machineQueue = { route: machinesQueue, params: machinePath, response: MachineQueueSchema, errors: [404] } satisfies Operation;
