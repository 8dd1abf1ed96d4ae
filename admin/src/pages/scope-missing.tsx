import type { Account } from '../api/types';
import { Notice } from '../components/notice';

/** What a key without webhooks:read sees instead of a broken page. */
export function ScopeMissing({ account }: { account: Account }) {
  const scopes = account.key.scopes.length ? account.key.scopes.join(', ') : 'none';
  return (
    <>
      <h1 class="page-title" tabIndex={-1}>
        Webhooks
      </h1>
      <Notice tone="warning" title="This key cannot see webhooks.">
        <p>
          Webhook settings need the <code>webhooks:read</code> scope (or <code>webhooks:write</code> to change them). The key{' '}
          <code>{account.key.prefix}…</code> has: <code>{scopes}</code>.
        </p>
        <p>
          Sign in with a key that has these scopes, or create one, for example:
          <br />
          <code class="command">
            npm run accounts -- create-key --account {account.id} --mode {account.mode} --scopes webhooks:write
          </code>
        </p>
      </Notice>
    </>
  );
}
