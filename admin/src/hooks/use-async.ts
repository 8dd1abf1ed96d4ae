/** Loads data for a view: loading and error states, a reload, and no state updates after unmount. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again; `quiet` keeps the current data on screen (background refresh). */
  reload: (quiet?: boolean) => Promise<void>;
  setData: (data: T) => void;
}

export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(async (quiet = false) => {
    const mine = ++generation.current;
    if (!quiet) setLoading(true);
    try {
      const result = await loadRef.current();
      if (mine !== generation.current) return;
      setData(result);
      setError(undefined);
    } catch (caught) {
      if (mine !== generation.current) return;
      // A failed background refresh keeps what is on screen and says so.
      setError(caught);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    setData(undefined);
    void reload();
    return () => {
      generation.current++;
    };
  }, deps);

  return { data, error, loading, reload, setData };
}
