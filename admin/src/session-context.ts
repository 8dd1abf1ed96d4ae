/** The signed-in session, shared by every view: the API client, the key's account and sign-out. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from './api/client';
import type { Account } from './api/types';

export interface Session {
  client: ApiClient;
  account: Account;
  /** The API's base URL, shown on the sign-in screen and in errors. */
  apiUrl: string;
  signOut: (reason?: string) => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in view');
  return session;
}

export interface Flash {
  tone: 'success' | 'info' | 'danger';
  text: string;
}

/** A one-time message for the next view ("Webhook deleted."). */
export const FlashContext = createContext<(flash: Flash) => void>(() => undefined);
export const useFlash = () => useContext(FlashContext);
