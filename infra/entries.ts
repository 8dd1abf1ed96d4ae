/**
 * Every Lambda function's handler module — the authorizer, one per route, one per worker, and
 * the audit shipper — in one list, for the benchmark (bundle sizes) and the infra tests (stub
 * handlers). CDK itself builds them from the same sources (route table, worker table).
 */
import { routes } from '#shared/routes';
import { workers } from '#shared/workers';

export const AUTHORIZER_HANDLER = 'functions/authorizer.ts';
export const AUDIT_SHIPPER_HANDLER = 'functions/audit/ship.ts';

export function functionEntries(routeList = routes, workerList = workers): { id: string; entry: string }[] {
  return [
    { id: 'authorizer', entry: AUTHORIZER_HANDLER },
    ...routeList.map((route) => ({ id: route.id, entry: route.handler })),
    ...workerList.map((worker) => ({ id: `worker.${worker.id}`, entry: worker.handler })),
    { id: 'audit.ship', entry: AUDIT_SHIPPER_HANDLER },
  ];
}
