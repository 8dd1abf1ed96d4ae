/**
 * Where the signed-in key lives: sessionStorage only. It survives a reload of the tab but not the
 * tab itself, is never shared with other tabs, never written to localStorage or a cookie, and
 * never put in a URL. Signing out (or any 401) removes it.
 */
const STORAGE_KEY = 'print-shop-admin.api-key';

export function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined; // storage disabled: the user signs in again on reload
  }
}

export function storeKey(key: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Still signed in for this page's lifetime.
  }
}

export function forgetKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}
