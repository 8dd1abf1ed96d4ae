/**
 * The files the local runner keeps in its data folder: `endpoints.json` (written while `npm start`
 * runs, so the accounts CLI and other tools reach the same engines) and `demo-account.json`
 * (the demo account's keys, written on first start, readable only by the owner).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const dataDir = (): string => resolve(process.env.DATA_DIR ?? '.data');
export const endpointsFile = (dir = dataDir()): string => join(dir, 'endpoints.json');
export const demoAccountFile = (dir = dataDir()): string => join(dir, 'demo-account.json');

export interface EndpointsState {
  pid: number;
  api: string;
  inMemory: boolean;
  /** Environment that points AWS SDK clients at the running engines. */
  env: Record<string, string>;
}

export function writeEndpoints(state: EndpointsState, dir = dataDir()): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(endpointsFile(dir), JSON.stringify(state, null, 2) + '\n');
}

/** The running stack's endpoints, or undefined when none is running (a stale file is ignored). */
export function readEndpoints(dir = dataDir()): EndpointsState | undefined {
  const file = endpointsFile(dir);
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as EndpointsState;
  try {
    process.kill(state.pid, 0);
  } catch {
    return undefined;
  }
  return state;
}

export function removeEndpoints(dir = dataDir()): void {
  rmSync(endpointsFile(dir), { force: true });
}
