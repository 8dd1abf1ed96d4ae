import { useEffect, useRef, useState } from 'preact/hooks';

/** Calls `tick` every `ms` while `active` and the tab is visible (no polling in background tabs). */
export function useInterval(tick: () => void, ms: number, active: boolean): void {
  const tickRef = useRef(tick);
  tickRef.current = tick;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') tickRef.current();
    }, ms);
    return () => window.clearInterval(timer);
  }, [ms, active]);
}

/** The current time, renewed every `ms`, so relative times ("5 s ago") keep moving. */
export function useNow(ms = 15_000): number {
  const [now, setNow] = useState(Date.now);
  useInterval(() => setNow(Date.now()), ms, true);
  return now;
}
