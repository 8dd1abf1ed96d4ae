import type { ComponentChildren } from 'preact';
import type { Account } from '../api/types';
import { pathFor } from '../lib/routes';
import { ModeBadge } from './badges';
import { Link } from './link';

export type Section = 'orders' | 'production' | 'machines' | 'invoices' | 'shipments' | 'webhooks' | 'other';

const shopLinks: { section: Section; label: string; href: string }[] = [
  { section: 'orders', label: 'Orders', href: pathFor({ name: 'orders' }) },
  { section: 'production', label: 'Production', href: pathFor({ name: 'production' }) },
  { section: 'machines', label: 'Machines', href: pathFor({ name: 'machines' }) },
  { section: 'invoices', label: 'Invoices', href: pathFor({ name: 'invoices' }) },
  { section: 'shipments', label: 'Shipments', href: pathFor({ name: 'shipments' }) },
];

/** The signed-in frame: header with the account, its mode and sign-out; the shop's and Settings navigation; content. */
export function Shell({
  account,
  section,
  onSignOut,
  children,
}: {
  account: Account;
  section: Section;
  onSignOut: () => void;
  children: ComponentChildren;
}) {
  return (
    <div class={`app mode-${account.mode}`}>
      <a href="#main" class="skip-link">
        Skip to content
      </a>
      {account.mode === 'test' && (
        <div class="test-strip" role="note">
          Test mode — test data only. Deliveries go to test webhooks; live integrations are not affected.
        </div>
      )}
      <header class="topbar">
        <Link href={pathFor({ name: 'orders' })} class="brand">
          <span class="brand-mark" aria-hidden="true">
            P
          </span>
          <span class="brand-name">
            Print Shop <span class="brand-sub">Admin</span>
          </span>
        </Link>
        <div class="account" aria-label="Signed in account">
          <span class="account-who">
            <span class="account-name" title={account.id}>
              {account.name}
            </span>
            <ModeBadge mode={account.mode} />
          </span>
          <span class="account-key" title={`Key ${account.key.id}; scopes: ${account.key.scopes.join(', ')}`}>
            {account.key.prefix}…
          </span>
          <button type="button" class="btn btn-secondary btn-small" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <div class="layout">
        <nav class="sidenav" aria-label="Administration">
          <p class="sidenav-heading" id="nav-shop">
            Shop
          </p>
          <ul aria-labelledby="nav-shop">
            {shopLinks.map((link) => (
              <li key={link.section}>
                <Link href={link.href} aria-current={section === link.section ? 'page' : undefined}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <p class="sidenav-heading" id="nav-settings">
            Settings
          </p>
          <ul aria-labelledby="nav-settings">
            <li>
              <Link href={pathFor({ name: 'webhooks' })} aria-current={section === 'webhooks' ? 'page' : undefined}>
                Webhooks
              </Link>
            </li>
          </ul>
        </nav>
        <main id="main" class="content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
