/**
 * Gap-free numbers taken in turn (invoices, quotes; credit notes with a counter of their own). Tax
 * law wants an unbroken sequence: a number exists only once its document is written, so the
 * number counter moves in the document's own transaction. Writers of one counter commit one at a
 * time, in the order they arrived:
 *
 * 1. **Ticket.** The writer takes a ticket t with an atomic `ADD` on the ticket counter beside the
 *    number counter (`gapFreeKeys.tickets`).
 * 2. **Wait.** It reads the number counter item (strongly consistent: the last number and the turn
 *    `served`) until `served = t − 1`, pausing in proportion to its place in the queue (the turns
 *    ahead of the current one at the observed time per turn, at most MAX_POLL_MS; the next in line
 *    a fifth of a turn apart, since the whole queue waits for it to notice).
 * 3. **Commit.** Its transaction holds the document's parts and one update of the counter item:
 *    the number from the last one read to the next, and `served` from t − 1 to t, on condition that
 *    both still hold what was read. The number moves only with the document: no gap; only from the
 *    value read: no duplicate.
 * 4. **Release.** A transaction refused for a business reason (a condition of the document's parts,
 *    e.g. the order invoiced meanwhile) wrote nothing; the writer still moves `served` from t − 1
 *    to t, alone, without the number, so the queue goes on.
 *
 * What a writer that never comes back leaves (its Lambda died between ticket and commit):
 *
 * - **Takeover.** A turn unused for `stallMs` since it began (the later of `served_at`, set with
 *   every move of `served`, and the waiter's own ticket, taken after the turn's) is taken over by
 *   any waiter: `served` from s to s + 1 on condition that it still holds s (so only one waiter
 *   does it). No number moves. Should the holder only have been slow, its
 *   commit now fails the `served` condition with nothing written, and it queues again with a fresh
 *   ticket (TURN_ROUNDS tickets in all). Safety never rests on the stall time: every move of the
 *   number is conditional on the number read, so two writers that both believe they hold a turn
 *   cannot both commit the same number — the turn only orders the writers, so that they stop
 *   racing (the optimistic loop this replaces let 20 concurrent creates race for 20 rounds).
 * - **Give-up.** A writer still waiting `waitMs` after its request's work began (below the
 *   function's timeout), its turn not due within GRACE_MS at the observed pace, leaves the queue:
 *   it adds its ticket to the counter's `skipped` set (on condition that its turn has not come) and
 *   answers 503 with Retry-After. A waiter that finds the next turns in `skipped` moves `served`
 *   over all of them in one update — writers that gave up cost the others one write, where a
 *   stalled turn costs `stallMs`.
 *
 * The ceiling: one transaction at a time per counter, so a tenant issues at most about
 * 1 / (latency of one TransactWriteItems + one read) numbers a second per sequence and year
 * (docs/invoices.md has the measured figures).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import { ServiceUnavailableError, VersionConflict } from '#shared/errors';
import { logger } from '#shared/logger';
import { incrementCounter } from './counters';
import { gapFreeKeys, type ItemKey } from './keys';
import { isConditionFailure, tableName, type TransactItem, type TransactionPart } from './table';
import { transactWrite } from './transactions';

/** What a writer commits with its number: the document's parts, and what the caller answers. */
export interface NumberedWrite<T> {
  parts: (TransactItem | TransactionPart)[];
  result: T;
}

export interface TurnTiming {
  /**
   * How long a writer waits for its turn, in all, before it gives up with 503: well inside the
   * API functions' 10 s timeout (shared/routes.ts; the request is answered 504 at 9.5 s), leaving
   * the reads before and the commit after.
   */
  waitMs: number;
  /**
   * How long a turn may stay unused (its holder's commit or release not arrived) before a waiter
   * takes it over: a hundred commits on AWS, above the 2 s a commit was seen to take on DynamoDB
   * Local on a saturated host (a slow holder sent back costs it its place).
   */
  stallMs: number;
}

export const TURN_TIMING: TurnTiming = { waitMs: 7_000, stallMs: 3_000 };
/** After the wait, a writer whose turn should come within this much longer (at the observed pace) stays. */
const GRACE_MS = 1_000;

/** Tickets one writer takes at most: a fresh one each time its turn was taken over. */
export const TURN_ROUNDS = 3;
/** Commits within one turn: again after a transaction conflict, or a number moved outside the turns. */
const COMMIT_ATTEMPTS = 3;
/** The time per turn assumed until the queue is seen to move (about one transaction and one read). */
const FIRST_TURN_ESTIMATE_MS = 25;
const MIN_POLL_MS = 5;
/**
 * The next in line polls a fifth of a turn apart (at most this): the hand-over from one turn to the
 * next costs a tenth of a turn on average, and the polls stay about five per turn.
 */
const NEXT_POLL_MS = 100;
const MAX_POLL_MS = 1_000;
const MAX_RETRY_AFTER_SECONDS = 30;

/** The counter's condition failed: another writer's turn, or a number moved meanwhile. */
class TurnMoved extends Error {
  constructor() {
    super('The gap-free counter moved since it was read');
    this.name = 'TurnMoved';
  }
}

interface TurnState {
  /** The last number taken (0 before the first). */
  last: number;
  /** The last ticket whose turn is over (0 before the first). */
  served: number;
  /** When `served` last moved (ms since the epoch; absent before the first move). */
  servedAt: number | undefined;
  /** Tickets whose writers gave up before their turn. */
  skipped: Set<number>;
}

const names = { '#value': 'value', '#served': 'served', '#served_at': 'served_at', '#skipped': 'skipped' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

async function readTurn(counter: ItemKey): Promise<TurnState> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: counter, ConsistentRead: true }));
  const skipped = (Item?.skipped as Set<number> | undefined) ?? new Set<number>();
  return {
    last: Number(Item?.value ?? 0),
    served: Number(Item?.served ?? 0),
    servedAt: Item?.served_at === undefined ? undefined : Number(Item.served_at),
    skipped: new Set([...skipped].map(Number)),
  };
}

/** `#served` holds `served` (absent counts as 0). */
const servedIs = (served: number): { condition: string; values: Record<string, number> } =>
  served === 0 ? { condition: 'attribute_not_exists(#served)', values: {} } : { condition: '#served = :from', values: { ':from': served } };

/** Ticket t's commit: the number from `last` to `last + 1` and the turn from t − 1 to t, on condition that both still hold. */
function commitPart(counter: ItemKey, ticket: number, last: number): TransactionPart {
  const served = servedIs(ticket - 1);
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: counter,
        UpdateExpression: 'SET #value = :next, #served = :ticket, #served_at = :now',
        ConditionExpression: `${served.condition} AND ${last === 0 ? 'attribute_not_exists(#value)' : '#value = :last'}`,
        ExpressionAttributeNames: { '#value': names['#value'], '#served': names['#served'], '#served_at': names['#served_at'] },
        ExpressionAttributeValues: {
          ...served.values,
          ...(last === 0 ? {} : { ':last': last }),
          ':next': last + 1,
          ':ticket': ticket,
          ':now': Date.now(),
        },
      },
    },
    onConditionFailure: () => new TurnMoved(),
  };
}

/**
 * Moves the turn from `from` to `to` without a number: by one, a release after a refused commit or
 * a takeover of a stalled turn; over `skipped` tickets (`from + 1` … `to`, their writers gave up),
 * at once. False when the turn had moved already.
 */
async function passTurn(counter: ItemKey, from: number, to = from + 1, skipped: number[] = []): Promise<boolean> {
  const served = servedIs(from);
  const skips = skipped.length > 0;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: counter,
        UpdateExpression: `SET #served = :to, #served_at = :now${skips ? ' DELETE #skipped :skipped' : ''}`,
        ConditionExpression: served.condition,
        ExpressionAttributeNames: {
          '#served': names['#served'],
          '#served_at': names['#served_at'],
          ...(skips ? { '#skipped': names['#skipped'] } : {}),
        },
        ExpressionAttributeValues: { ...served.values, ':to': to, ':now': Date.now(), ...(skips ? { ':skipped': new Set(skipped) } : {}) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Leaves the queue before the turn comes: the ticket joins `skipped`. False when its turn has come meanwhile. */
async function skipTicket(counter: ItemKey, ticket: number): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: counter,
        UpdateExpression: 'ADD #skipped :ticketSet',
        ConditionExpression: 'attribute_not_exists(#served) OR #served < :previous',
        ExpressionAttributeNames: { '#skipped': names['#skipped'], '#served': names['#served'] },
        ExpressionAttributeValues: { ':ticketSet': new Set([ticket]), ':previous': ticket - 1 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The turn's end after a refused commit; a failure here is logged, and the turn is then taken over after the stall time. */
async function release(counter: ItemKey, ticket: number): Promise<void> {
  await passTurn(counter, ticket - 1).catch((error: unknown) =>
    logger.warn('gap-free turn not released', { counter: counter.sk, ticket, error: String(error) }),
  );
}

function busy(what: string, ahead: number, turnMs: number): ServiceUnavailableError {
  const seconds = clamp(Math.ceil((ahead * turnMs) / 1000), 1, MAX_RETRY_AFTER_SECONDS);
  return new ServiceUnavailableError(
    `Too many ${what}s are being taken at once for this account (${ahead} ahead of this request); nothing was created, try again in ${seconds} s`,
    seconds,
  );
}

type Waited = { turn: true; last: number } | { turn: false };

/** Waits for ticket t's turn and answers the last number; `turn: false` when the turn passed while unused (taken over). */
async function awaitTurn(
  counter: ItemKey,
  ticket: number,
  arrived: number,
  deadline: number,
  timing: TurnTiming,
  what: string,
): Promise<Waited> {
  let turnMs = FIRST_TURN_ESTIMATE_MS;
  let seen: { served: number; at: number } | undefined;
  for (;;) {
    const state = await readTurn(counter);
    const now = Date.now();
    if (state.served === ticket - 1) return { turn: true, last: state.last };
    if (state.served >= ticket) return { turn: false };
    // The pace: the turns served since the last move seen, over the time taken; while none moves,
    // at least as slow as the current turn has lasted (so that waiters back off from a slow queue).
    if (seen && state.served > seen.served) turnMs = clamp((now - seen.at) / (state.served - seen.served), MIN_POLL_MS, 1000);
    else if (seen) turnMs = clamp(Math.max(turnMs, now - seen.at), MIN_POLL_MS, 1000);
    if (!seen || state.served !== seen.served) seen = { served: state.served, at: now };
    const next = state.served + 1;
    // Tickets whose writers gave up, from the next one on: passed over in one update. Only a turn
    // that has not come may join `skipped`, so those read are still there while `served` holds.
    const skipped: number[] = [];
    while (state.skipped.has(next + skipped.length)) skipped.push(next + skipped.length);
    if (skipped.length > 0) {
      await passTurn(counter, state.served, state.served + skipped.length, skipped);
      continue;
    }
    // The next turn began by max(servedAt, arrived) at the latest: `served` moved to it at
    // `servedAt`, and its ticket was taken before ours (`arrived`: after our ticket was). Counted
    // from there, no turn is taken over sooner than stallMs after it began — not one whose ticket
    // is being taken right now, with `served` last moved long ago.
    const since = Math.max(state.servedAt ?? arrived, arrived);
    if (now - since >= timing.stallMs) {
      if (await passTurn(counter, state.served)) {
        logger.warn('gap-free turn taken over', { counter: counter.sk, turn: next, unused_ms: now - since });
      }
      continue;
    }
    const ahead = ticket - 1 - state.served;
    // Past the wait, a writer whose turn should come within the grace still waits for it; the
    // others leave the queue (their tickets skipped) and answer 503.
    if (now >= deadline && now + ahead * turnMs > deadline + GRACE_MS) {
      if (await skipTicket(counter, ticket)) throw busy(what, ahead, turnMs);
      continue;
    }
    // Next in line: its turn comes within one commit, and every ms it notices late is a ms the
    // whole queue waits. Further back: 60–80 % of the time until it is next in line (ahead − 1
    // turns at the observed pace, jittered): it wakes before, however the pace varies, in a few reads.
    const pause =
      ahead === 1
        ? clamp(turnMs / 5, MIN_POLL_MS, NEXT_POLL_MS)
        : clamp((ahead - 1) * turnMs * (0.6 + Math.random() * 0.2), MIN_POLL_MS, MAX_POLL_MS);
    const wakeBy = Math.min(now >= deadline ? deadline + GRACE_MS : deadline, since + timing.stallMs);
    await sleep(Math.min(pause, Math.max(MIN_POLL_MS, wakeBy - now)));
  }
}

type Committed<T> = { committed: true; result: T } | { committed: false };

/** Ticket t's commit, in its turn; a refused one releases the turn and throws the refusal. */
async function commitTurn<T>(
  counter: ItemKey,
  ticket: number,
  last: number,
  build: (number: number) => NumberedWrite<T> | Promise<NumberedWrite<T>>,
  what: string,
): Promise<Committed<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { parts, result } = await build(last + 1);
      await transactWrite([commitPart(counter, ticket, last), ...parts]);
      return { committed: true, result };
    } catch (error) {
      if (error instanceof TurnMoved) {
        const state = await readTurn(counter);
        // Taken over while we were slow: nothing was written; queue again.
        if (state.served !== ticket - 1) return { committed: false };
        // Still our turn, but the number moved outside the turns (a writer of the optimistic scheme during a deploy).
        if (attempt < COMMIT_ATTEMPTS) {
          last = state.last;
          continue;
        }
        await release(counter, ticket);
        throw new VersionConflict(what);
      }
      // Cancelled by a concurrent transaction on the document's items: nothing was written, the turn is still ours.
      if (error instanceof VersionConflict && attempt < COMMIT_ATTEMPTS) continue;
      await release(counter, ticket);
      throw error;
    }
  }
}

/**
 * Takes the next number of the gap-free counter at `counter` and writes it with its document:
 * `build(number)` answers the document's parts and the result, and runs in the writer's turn (it
 * may run again if the turn's commit is cancelled by a concurrent transaction). Throws what a part
 * of the document throws (the turn released), or 503 `service_unavailable` with Retry-After when
 * the turn did not come within `timing.waitMs` of `startedAt` (when the request's work began, so
 * that the reads before count too; default now): nothing written, no number taken.
 */
export async function commitInTurn<T>(
  counter: ItemKey,
  what: string,
  build: (number: number) => NumberedWrite<T> | Promise<NumberedWrite<T>>,
  options: { startedAt?: Date; timing?: TurnTiming } = {},
): Promise<T> {
  const timing = options.timing ?? TURN_TIMING;
  const deadline = (options.startedAt?.getTime() ?? Date.now()) + timing.waitMs;
  for (let round = 1; ; round++) {
    const ticket = await incrementCounter(gapFreeKeys.tickets(counter));
    const waited = await awaitTurn(counter, ticket, Date.now(), deadline, timing, what);
    if (waited.turn) {
      const outcome = await commitTurn(counter, ticket, waited.last, build, what);
      if (outcome.committed) return outcome.result;
    }
    logger.warn('gap-free turn lost (taken over); queueing again', { counter: counter.sk, ticket, round });
    if (round >= TURN_ROUNDS || Date.now() >= deadline) throw busy(what, 1, FIRST_TURN_ESTIMATE_MS);
  }
}
