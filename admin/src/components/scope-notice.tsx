import type { Account } from '../api/types';
import type { Area } from '../lib/access';
import { Notice } from './notice';

const what: Record<Area, string> = {
  orders: 'orders',
  production: 'production jobs and machines',
  invoices: 'invoices',
  shipments: 'shipments',
  files: 'files',
  events: 'events',
  customers: 'customers',
};

/**
 * What a key without a section's read scope sees, in place of that section (a whole page, or one
 * card of the order page): which scope is missing, what the key has, and how to make a key that has it.
 */
export function ScopeNotice({ account, area, compact = false }: { account: Account; area: Area; compact?: boolean }) {
  const scopes = account.key.scopes.length ? account.key.scopes.join(', ') : 'none';
  return (
    <Notice tone="warning" title={`This key cannot see ${what[area]}.`}>
      <p>
        This needs the <code>{area}:read</code> scope
        {area === 'events' ? (
          ''
        ) : (
          <>
            {' '}
            (or <code>{area}:write</code> to change them)
          </>
        )}
        . The key <code>{account.key.prefix}…</code> has: <code>{scopes}</code>.
      </p>
      {!compact && (
        <p>
          Sign in with a key that has it, or create one, for example:
          <br />
          <code class="command">
            npm run accounts -- create-key --account {account.id} --mode {account.mode} --scopes {area}:
            {area === 'events' ? 'read' : 'write'}
          </code>
        </p>
      )}
    </Notice>
  );
}

/** A page whose section the key cannot read: its title and the notice. */
export function ScopePage({ account, area, title }: { account: Account; area: Area; title: string }) {
  return (
    <>
      <h1 class="page-title" tabIndex={-1}>
        {title}
      </h1>
      <ScopeNotice account={account} area={area} />
    </>
  );
}

/** One line under a section a key may read but not change. */
export function ReadOnlyNote({ area }: { area: Exclude<Area, 'events'> }) {
  return (
    <p class="muted read-only-note">
      This key can read {what[area]} but not change them (needs <code>{area}:write</code>).
    </p>
  );
}

/** What a key without webhooks:read sees instead of a broken page. */
export function WebhooksScopePage({ account }: { account: Account }) {
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
