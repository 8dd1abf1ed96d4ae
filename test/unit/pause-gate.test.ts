import { describe, expect, it } from 'vitest';
import { PauseGate } from '#local-aws/pause-gate';

/**
 * Whether `promise` has settled by the time every pending callback has run: the gate resolves its
 * promises synchronously when its state changes, so anything not settled by then is still waiting
 * (no clock involved).
 */
const isSettled = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setImmediate(() => resolve(false))),
  ]);

describe('the pause gate of the local pollers', () => {
  it('lets loops through while running', async () => {
    const gate = new PauseGate(2, new AbortController().signal);
    await expect(gate.pass()).resolves.toBeUndefined();
  });

  it('pauses once every loop waits at the gate, and lets them on when resumed', async () => {
    const gate = new PauseGate(2, new AbortController().signal);
    let paused = false;
    const pausing = gate.pause().then(() => (paused = true));
    const passed: number[] = [];
    const first = gate.pass().then(() => passed.push(1));
    expect(await isSettled(pausing)).toBe(false); // one loop is still busy with its batch
    expect(paused).toBe(false);
    const second = gate.pass().then(() => passed.push(2));
    await pausing;
    expect(passed).toEqual([]);
    gate.resume();
    await Promise.all([first, second]);
    expect(passed.sort()).toEqual([1, 2]);
  });

  it('releases waiting loops and pending pauses when the poller stops', async () => {
    const abort = new AbortController();
    const gate = new PauseGate(2, abort.signal);
    const pausing = gate.pause();
    const waiting = gate.pass();
    abort.abort();
    await expect(Promise.all([pausing, waiting])).resolves.toBeDefined();
  });
});
