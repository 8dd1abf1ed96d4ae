/** Helpers for the production tests: machines, job moves and whole orders produced over HTTP. */
import { expect } from 'vitest';
import type { DataOf } from './api-types';
import { call } from './http';

export async function newMachine(key: string, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/production/machines', {
    key,
    body: { name: 'Indigo 1', type: 'digital_press', speed_per_hour: 600, setup_minutes: 10, ...overrides },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; name: string; status: string };
}

export const moveJob = (key: string, jobId: number, body: Record<string, unknown>) =>
  call('PUT', `/v1/production/jobs/${jobId}/status`, { key, body });

export const getJob = async (key: string, jobId: number) => (await call('GET', `/v1/production/jobs/${jobId}`, { key })).body.data;

export const getMachine = async (key: string, machineId: number) =>
  (await call('GET', `/v1/production/machines/${machineId}`, { key })).body.data;

type Job = DataOf<'GET', '/v1/production/jobs/{id}'>;
type AtLeast<Count extends number, Found extends Job[] = []> = Found['length'] extends Count
  ? [...Found, ...Job[]]
  : AtLeast<Count, [...Found, Job]>;

/** The jobs of an order, in queue order; with `atLeast`, checked to be that many or more (the first ones then typed as there). */
export async function jobsOfOrder(key: string, orderId: number): Promise<Job[]>;
export async function jobsOfOrder<Count extends 1 | 2 | 3>(key: string, orderId: number, atLeast: Count): Promise<AtLeast<Count>>;
export async function jobsOfOrder(key: string, orderId: number, atLeast = 0): Promise<Job[]> {
  const response = await call('GET', `/v1/production/jobs?order_id=${orderId}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.data.length, `jobs of order ${orderId}`).toBeGreaterThanOrEqual(atLeast);
  return response.body.data;
}

/** The statuses from queued to completed, each needing a 200. */
export const PRODUCTION_PATH = ['scheduled', 'printing', 'finishing', 'quality_check', 'completed'] as const;

/** Walks a job from queued to completed on `machineId`. */
export async function produceJob(key: string, jobId: number, machineId: number): Promise<void> {
  for (const status of PRODUCTION_PATH) {
    const response = await moveJob(key, jobId, status === 'scheduled' ? { status, machine_id: machineId } : { status });
    expect(response.status, `${status}: ${JSON.stringify(response.body)}`).toBe(200);
  }
}

/** Produces every job of a confirmed order on a new machine, one after the other: the order ends ready. */
export async function produceOrder(key: string, orderId: number): Promise<void> {
  const machine = await newMachine(key);
  for (const job of await jobsOfOrder(key, orderId)) await produceJob(key, job.id, machine.id);
}
