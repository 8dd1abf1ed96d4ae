import { useState } from 'preact/hooks';
import { ApiClient, ApiError } from '../api/client';
import type { Account } from '../api/types';
import { describedBy, Field } from '../components/field';
import { Notice } from '../components/notice';
import { useTitle } from '../hooks/use-title';
import { keyFormatProblem } from '../lib/access';
import { describeError } from '../lib/errors';

interface Props {
  apiUrl: string;
  /** Why the last session ended (a 401, or signing out), shown above the form. */
  reason?: string;
  onSignedIn: (key: string, account: Account) => void;
}

const isLocal = (apiUrl: string): boolean => {
  try {
    return ['localhost', '127.0.0.1'].includes(new URL(apiUrl || window.location.origin).hostname);
  } catch {
    return false;
  }
};

export function SignIn({ apiUrl, reason, onSignedIn }: Props) {
  useTitle('Sign in');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const value = key.trim();
    const problem = keyFormatProblem(value);
    if (problem) return setError(problem);
    setBusy(true);
    setError(undefined);
    try {
      const account = await new ApiClient({ baseUrl: apiUrl, key: value }).account();
      if (account.key.kind !== 'secret') throw new ApiError(403, 'forbidden', 'Sign in with a secret key (sk_…).');
      onSignedIn(value, account);
    } catch (caught) {
      setBusy(false);
      if (caught instanceof ApiError && caught.status === 401) setError('The API did not accept this key. It may be mistyped or revoked.');
      else setError(caught instanceof ApiError ? describeError(caught) : String(caught));
    }
  }

  return (
    <div class="signin-page">
      <main class="signin" id="main">
        <div class="signin-brand">
          <span class="brand-mark" aria-hidden="true">
            P
          </span>
          <span class="brand-name">
            Print Shop <span class="brand-sub">Admin</span>
          </span>
        </div>
        <h1 class="signin-title">Sign in with an API key</h1>
        <p class="muted">Manage webhooks and their deliveries. Everything here uses the public API, with the key you paste.</p>
        {reason && <Notice tone="info">{reason}</Notice>}
        <form onSubmit={submit} noValidate class="signin-form">
          <Field
            id="api-key"
            label="Secret API key"
            error={error}
            hint={
              <>
                Starts with <code>sk_test_</code> or <code>sk_live_</code>. It stays in this browser tab only (session storage) and is
                forgotten when you sign out or close the tab.
              </>
            }
          >
            <input
              id="api-key"
              name="api-key"
              type="password"
              class="input mono"
              value={key}
              onInput={(event) => setKey(event.currentTarget.value)}
              autoComplete="off"
              spellcheck={false}
              autoFocus
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={describedBy('api-key', { hint: true, error })}
              placeholder="sk_test_…"
            />
          </Field>
          <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Checking the key…' : 'Sign in'}
          </button>
        </form>
        {isLocal(apiUrl) && (
          <p class="signin-help">
            Running locally? <code>npm start</code> printed the demo account's keys; they are also in <code>.data/demo-account.json</code>.
          </p>
        )}
        <p class="signin-api muted">
          API: <span class="mono">{apiUrl || window.location.origin}</span>
        </p>
      </main>
    </div>
  );
}
