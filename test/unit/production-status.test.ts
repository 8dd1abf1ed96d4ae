import { describe, expect, it } from 'vitest';
import { DomainError } from '#shared/errors';
import { estimateMinutes, queueWindows } from '#shared/production/estimates';
import {
  JOB_STATUSES,
  assertJobTransition,
  canMoveJob,
  heldFromAfter,
  machineEffects,
  nextJobStatuses,
  priorityRank,
  type JobStatus,
} from '#shared/production/status';

/** The table of docs/production.md, written out independently of the module (on_hold: see below). */
const allowed = new Set([
  'queued→scheduled',
  'queued→failed',
  'queued→cancelled',
  'scheduled→printing',
  'scheduled→failed',
  'scheduled→cancelled',
  'printing→finishing',
  'printing→on_hold',
  'printing→failed',
  'printing→cancelled',
  'finishing→quality_check',
  'finishing→on_hold',
  'finishing→failed',
  'finishing→cancelled',
  'quality_check→completed',
  'quality_check→on_hold',
  'quality_check→failed',
  'quality_check→cancelled',
  'on_hold→failed',
  'on_hold→cancelled',
  'failed→queued',
  'failed→cancelled',
]);

const pairs = JOB_STATUSES.flatMap((from) => JOB_STATUSES.map((to): [JobStatus, JobStatus] => [from, to]));

function refusal(from: JobStatus, to: JobStatus, heldFrom: JobStatus | null = null): DomainError {
  try {
    assertJobTransition(from, to, heldFrom);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error(`${from} → ${to} was allowed`);
}

describe('the production job status machine', () => {
  it.each(pairs)('%s → %s is allowed exactly when the table says so (holds aside)', (from, to) => {
    const expected = allowed.has(`${from}→${to}`);
    expect(canMoveJob(from, to)).toBe(expected);
    if (expected) return expect(() => assertJobTransition(from, to)).not.toThrow();
    const error = refusal(from, to);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('invalid_transition');
    const next = nextJobStatuses(from);
    expect(error.details).toEqual([
      {
        field: 'status',
        message: next.length ? `allowed next states: ${next.join(', ')}` : `${from} is final; no further state is allowed`,
      },
    ]);
  });

  it('returns a held job only to the state it left', () => {
    for (const heldFrom of ['printing', 'finishing', 'quality_check'] as const) {
      expect(heldFromAfter(heldFrom, 'on_hold')).toBe(heldFrom);
      expect(nextJobStatuses('on_hold', heldFrom)).toEqual([heldFrom, 'failed', 'cancelled']);
      for (const other of JOB_STATUSES.filter((status) => ![heldFrom, 'failed', 'cancelled'].includes(status))) {
        expect(canMoveJob('on_hold', other, heldFrom), `${heldFrom} → on_hold → ${other}`).toBe(false);
      }
    }
    expect(heldFromAfter('printing', 'finishing')).toBeNull();
    expect(refusal('on_hold', 'quality_check', 'printing').message).toBe(
      'A job cannot move from on_hold to quality_check; allowed next states: printing, failed, cancelled',
    );
  });

  it('names the final states as final', () => {
    expect(refusal('completed', 'printing').message).toBe(
      'A job cannot move from completed to printing; completed is final; no further state is allowed',
    );
    expect(refusal('cancelled', 'cancelled').message).toBe('The job is already cancelled; cancelled is final; no further state is allowed');
  });

  it('orders priorities rush, high, normal, low', () => {
    expect((['low', 'normal', 'high', 'rush'] as const).map(priorityRank)).toEqual([3, 2, 1, 0]);
  });
});

describe('what a move does to machines', () => {
  it('claims the machine a job starts printing on', () => {
    expect(machineEffects('scheduled', 'printing', 1, 1)).toEqual({ claim: 1 });
    expect(machineEffects('on_hold', 'finishing', 1, 1)).toEqual({ claim: 1 });
  });

  it('releases the machine a job stops running on', () => {
    for (const to of ['on_hold', 'failed', 'cancelled'] as const) expect(machineEffects('printing', to, 1, 1)).toEqual({ release: 1 });
    expect(machineEffects('finishing', 'quality_check', 2, 2)).toEqual({ release: 2 });
  });

  it('keeps the machine from printing to finishing on it, and moves it when finishing is elsewhere', () => {
    expect(machineEffects('printing', 'finishing', 1, 1)).toEqual({});
    expect(machineEffects('printing', 'finishing', 1, 2)).toEqual({ release: 1, claim: 2 });
  });

  it('leaves machines alone for moves that neither start nor stop a run', () => {
    expect(machineEffects('queued', 'scheduled', null, 3)).toEqual({});
    expect(machineEffects('quality_check', 'completed', 1, 1)).toEqual({});
    expect(machineEffects('failed', 'queued', 1, 1)).toEqual({});
  });
});

describe('production estimates', () => {
  const machine = { speed_per_hour: 600, setup_minutes: 10 };

  it('is setup plus quantity over speed, rounded up to whole minutes', () => {
    expect(estimateMinutes(600, machine)).toBe(70);
    expect(estimateMinutes(1, machine)).toBe(11);
    expect(estimateMinutes(0, { speed_per_hour: 1, setup_minutes: 0 })).toBe(0);
  });

  it('lays the queue out in consecutive windows from now', () => {
    const now = new Date('2026-11-24T08:00:00.000Z');
    const windows = queueWindows(now, machine, [{ quantity: 300 }, { quantity: 600 }]);
    expect(windows).toEqual([
      { estimated_minutes: 40, estimated_start: '2026-11-24T08:00:00.000Z', estimated_end: '2026-11-24T08:40:00.000Z' },
      { estimated_minutes: 70, estimated_start: '2026-11-24T08:40:00.000Z', estimated_end: '2026-11-24T09:50:00.000Z' },
    ]);
  });

  it('starts the running job when it started, and lets an overrunning one end now', () => {
    const now = new Date('2026-11-24T08:00:00.000Z');
    const [running, next] = queueWindows(now, machine, [{ quantity: 600, since: '2026-11-24T07:30:00.000Z' }, { quantity: 60 }]);
    expect(running).toMatchObject({ estimated_start: '2026-11-24T07:30:00.000Z', estimated_end: '2026-11-24T08:40:00.000Z' });
    expect(next).toMatchObject({ estimated_start: '2026-11-24T08:40:00.000Z' });
    const [late] = queueWindows(now, machine, [{ quantity: 600, since: '2026-11-24T05:00:00.000Z' }]);
    expect(late).toMatchObject({ estimated_start: '2026-11-24T05:00:00.000Z', estimated_end: '2026-11-24T08:00:00.000Z' });
  });
});
