/**
 * Production jobs and machines in the single table (keys and access patterns: docs/data-model.md).
 * Reads, lists and writes here; every write is one TransactWriteItems that a service assembles
 * from the item builders of stored.ts (with what the process layer joins: an order's part in a
 * job's move) and hands to `writeJobMove` / `writeProduction`.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import {
  countCollectionUpTo,
  countRangesUpTo,
  getMany,
  readTotal,
  readWindow,
  readWindowOfRanges,
  type CollectionQuery,
  type PageRequest,
  type Total,
} from '#shared/db/collections';
import { cursorKeys, jobsDueBefore, machineSortKey, productionKeys } from '#shared/db/keys';
import { tableName, type TransactItem, type TransactionPart } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { NotFoundError } from '#shared/errors';
import {
  JOBS,
  MACHINES,
  jobFromItem,
  jobStatusCounter,
  machineFromItem,
  queueKeyOf,
  type JobRecord,
  type MachineRecord,
  type MachineStatus,
} from './stored';
import { PRIORITY_RANKS, type JobStatus } from './status';

export async function readJob(tenant: Tenant, id: number, consistent = false): Promise<JobRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: productionKeys.job(tenant, id), ConsistentRead: consistent }),
  );
  return result.Item ? jobFromItem(result.Item) : undefined;
}

export async function requireJob(tenant: Tenant, id: number, consistent = false): Promise<JobRecord> {
  const job = await readJob(tenant, id, consistent);
  if (!job) throw new NotFoundError('production job', id);
  return job;
}

/** The jobs with these ids (one BatchGetItem), in the order of `ids`; missing ones are left out. */
export async function readJobs(tenant: Tenant, ids: readonly number[], consistent = false): Promise<JobRecord[]> {
  if (ids.length === 0) return [];
  return (
    await getMany(
      ids.map((id) => productionKeys.job(tenant, id)),
      { consistent },
    )
  ).map(jobFromItem);
}

export async function readMachine(tenant: Tenant, id: number, consistent = false): Promise<MachineRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: productionKeys.machine(tenant, id), ConsistentRead: consistent }),
  );
  return result.Item ? machineFromItem(result.Item) : undefined;
}

export async function requireMachine(tenant: Tenant, id: number, consistent = false): Promise<MachineRecord> {
  const machine = await readMachine(tenant, id, consistent);
  if (!machine) throw new NotFoundError('machine', id);
  return machine;
}

/** The machines with these ids by id (one BatchGetItem, strongly consistent: a move decides on them). */
export async function readMachines(tenant: Tenant, ids: Iterable<number>): Promise<Map<number, MachineRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const machines = (
    await getMany(
      unique.map((id) => productionKeys.machine(tenant, id)),
      { consistent: true },
    )
  ).map(machineFromItem);
  return new Map(machines.map((machine) => [machine.id, machine]));
}

// ---- Job lists --------------------------------------------------------------------------------

export interface JobFilter {
  status?: JobStatus;
  machineId?: number;
  /** YYYY-MM-DD, exclusive. */
  dueBefore?: string;
}

type JobPage = { items: JobRecord[]; hasMore: boolean } & Total;

/** A list request: a page number, or the jobs after `after` (a cursor: the job named by `starting_after`). */
export interface JobPageRequest extends PageRequest {
  after?: JobRecord;
}

/**
 * Every filter combination is one index partition in queue order: all jobs and one machine's
 * through the list entries, one status and one machine's status through the job items. A due
 * date bound is one sort-key range per priority (ranges read one after the other). Totals: the
 * counters for all jobs and per status; counted up to TOTAL_CAP on the keys-only index otherwise.
 * A cursor starts the Query after the cursor job's place in the queue order (its priority, due
 * date and creation now); with a due date bound the ranges before its place are not read.
 */
export async function listJobs(tenant: Tenant, filter: JobFilter, page: JobPageRequest): Promise<JobPage> {
  const { status, machineId, dueBefore } = filter;
  const entries = { itemKey: productionKeys.jobOfListEntry };
  let query: CollectionQuery;
  if (machineId !== undefined) {
    query = status
      ? { index: 'gsi2', partition: productionKeys.machineJobsByStatus(tenant, machineId, status), newestFirst: false }
      : { index: 'gsi2', partition: productionKeys.machineJobs(tenant, machineId), newestFirst: false, ...entries };
  } else {
    query = status
      ? { index: 'gsi1', partition: productionKeys.jobsByStatus(tenant, status), newestFirst: false }
      : { index: 'gsi1', partition: productionKeys.jobsCollection(tenant), newestFirst: false, ...entries };
  }
  const { after } = page;
  const window = {
    perPage: page.perPage,
    offset: (page.page - 1) * page.perPage,
    startAfter:
      after &&
      cursorKeys.job(tenant, after.id, {
        index: query.index,
        partition: query.partition,
        sortKey: queueKeyOf(after),
        entry: query.itemKey !== undefined,
      }),
  };
  if (dueBefore !== undefined) {
    const ranges = PRIORITY_RANKS.map((rank) => jobsDueBefore(rank, dueBefore));
    const [found, count] = await Promise.all([readWindowOfRanges(query, ranges, window), countRangesUpTo(query, ranges)]);
    return { items: found.items.map(jobFromItem), hasMore: found.hasMore, ...count };
  }
  const total = async (): Promise<Total> =>
    machineId === undefined
      ? { total: await readTotal(tenant, status ? jobStatusCounter(status) : JOBS), capped: false }
      : countCollectionUpTo(query);
  const [found, count] = await Promise.all([readWindow(query, window), total()]);
  return { items: found.items.map(jobFromItem), hasMore: found.hasMore, ...count };
}

/**
 * The jobs waiting for a proof's approval (their sparse entries, gsi1): in queue order as of when
 * each began waiting; the total counted up to TOTAL_CAP.
 */
export async function listAwaitingJobs(tenant: Tenant, page: JobPageRequest): Promise<JobPage> {
  const query: CollectionQuery = {
    index: 'gsi1',
    partition: productionKeys.jobsAwaitingApproval(tenant),
    newestFirst: false,
    itemKey: productionKeys.jobOfListEntry,
  };
  const { after } = page;
  const startAfter = after && {
    ...productionKeys.jobAwaitingEntry(tenant, after.id),
    gsi1pk: query.partition,
    gsi1sk: queueKeyOf(after),
  };
  const [found, count] = await Promise.all([
    readWindow(query, { perPage: page.perPage, offset: (page.page - 1) * page.perPage, startAfter }),
    countCollectionUpTo(query),
  ]);
  return { items: found.items.map(jobFromItem), hasMore: found.hasMore, ...count };
}

/** The first `limit` scheduled jobs of a machine in queue order, and whether more follow. */
export async function scheduledJobs(tenant: Tenant, machineId: number, limit: number): Promise<{ jobs: JobRecord[]; hasMore: boolean }> {
  const window = await readWindow(
    { index: 'gsi2', partition: productionKeys.machineJobsByStatus(tenant, machineId, 'scheduled'), newestFirst: false },
    { perPage: limit },
  );
  return { jobs: window.items.map(jobFromItem), hasMore: window.hasMore };
}

// ---- Machine lists ----------------------------------------------------------------------------

export interface MachineFilter {
  status?: MachineStatus;
  type?: string;
}

/** A list request: a page number, or the machines after `after` (a cursor: the machine named by `starting_after`). */
export interface MachinePageRequest extends PageRequest {
  after?: MachineRecord;
}

/**
 * By type then creation; a type is a sort-key prefix of either partition, a status the gsi2
 * partition. A cursor starts the Query after the cursor machine's place (its type and creation now).
 */
export async function listMachines(
  tenant: Tenant,
  filter: MachineFilter,
  page: MachinePageRequest,
): Promise<{ items: MachineRecord[]; hasMore: boolean } & Total> {
  const query: CollectionQuery = {
    ...(filter.status
      ? { index: 'gsi2', partition: productionKeys.machinesByStatus(tenant, filter.status) }
      : { index: 'gsi1', partition: productionKeys.machinesCollection(tenant) }),
    ...(filter.type ? { sortKeyPrefix: `${filter.type}#` } : {}),
    newestFirst: false,
  };
  const total = async (): Promise<Total> =>
    filter.status || filter.type ? countCollectionUpTo(query) : { total: await readTotal(tenant, MACHINES), capped: false };
  const { after } = page;
  const startAfter =
    after &&
    cursorKeys.machine(tenant, after.id, {
      index: query.index,
      partition: query.partition,
      sortKey: machineSortKey(after.type, after.created_at, after.id),
    });
  const [window, count] = await Promise.all([
    readWindow(query, { perPage: page.perPage, offset: (page.page - 1) * page.perPage, startAfter }),
    total(),
  ]);
  return { items: window.items.map(machineFromItem), hasMore: window.hasMore, ...count };
}

/** Writes a change of jobs and machines as one transaction: its parts, built from stored.ts. */
export async function writeProduction(parts: (TransactItem | TransactionPart)[]): Promise<void> {
  await transactWrite(parts);
}

/** Writes a job's move: its parts and its order's (shared/fulfilment/job-moves.ts), one transaction. */
export const writeJobMove = writeProduction;
