/** A very small router over the History API: the current location as state, and navigate(). */
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  pathname: string;
  search: string;
}

const listeners = new Set<() => void>();
const current = (): Location => ({ pathname: window.location.pathname, search: window.location.search });

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === window.location.pathname + window.location.search) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  for (const listener of listeners) listener();
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return location;
}
