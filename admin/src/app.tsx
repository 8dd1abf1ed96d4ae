import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiClient, ApiError } from './api/client';
import type { Account } from './api/types';
import { Link } from './components/link';
import { Notice } from './components/notice';
import { Shell, type Section } from './components/shell';
import { EmptyState, Loading } from './components/states';
import type { PanelConfig } from './config';
import { parseRoute, pathFor, type Route } from './lib/routes';
import { DeliveryDetail } from './pages/delivery-detail';
import { InvoiceDetail } from './pages/invoice-detail';
import { InvoiceList } from './pages/invoice-list';
import { MachineDetail } from './pages/machine-detail';
import { MachineList } from './pages/machine-list';
import { OrderDetail } from './pages/order-detail';
import { OrderList } from './pages/order-list';
import { ProductionBoard } from './pages/production-board';
import { ShipmentDetail } from './pages/shipment-detail';
import { ShipmentList } from './pages/shipment-list';
import { SignIn } from './pages/sign-in';
import { WebhookDetail } from './pages/webhook-detail';
import { WebhookForm } from './pages/webhook-form';
import { WebhookList } from './pages/webhook-list';
import { navigate, useLocation } from './router';
import { forgetKey, storeKey, storedKey } from './session';
import { FlashContext, SessionContext, type Flash, type Session } from './session-context';

const EXPIRED = 'You were signed out: the API no longer accepts this key (it may have been revoked). Sign in again.';

export function App({ config }: { config: PanelConfig }) {
  const [signedIn, setSignedIn] = useState<{ key: string; account: Account }>();
  const [restoring, setRestoring] = useState(() => storedKey() !== undefined);
  const [reason, setReason] = useState<string>();

  const signOut = (why?: string) => {
    forgetKey();
    setSignedIn(undefined);
    setReason(why);
  };

  const session = useMemo<Session | null>(() => {
    if (!signedIn) return null;
    const client = new ApiClient({ baseUrl: config.apiUrl, key: signedIn.key, onUnauthorized: () => signOut(EXPIRED) });
    return { client, account: signedIn.account, apiUrl: config.apiUrl, signOut };
  }, [signedIn, config.apiUrl]);

  // A reload keeps the tab's session: check the stored key again before showing anything.
  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    new ApiClient({ baseUrl: config.apiUrl, key })
      .account()
      .then((account) => setSignedIn({ key, account }))
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) signOut(EXPIRED);
        else setReason(error instanceof ApiError ? error.message : String(error));
      })
      .finally(() => setRestoring(false));
  }, []);

  if (restoring) {
    return (
      <div class="signin-page">
        <Loading label="Signing in…" />
      </div>
    );
  }
  if (!session) {
    return (
      <SignIn
        apiUrl={config.apiUrl}
        reason={reason}
        onSignedIn={(key, account) => {
          storeKey(key);
          setReason(undefined);
          setSignedIn({ key, account });
        }}
      />
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <SignedIn session={session} />
    </SessionContext.Provider>
  );
}

function SignedIn({ session }: { session: Session }) {
  const location = useLocation();
  const route = parseRoute(location.pathname);
  const [flash, setFlash] = useState<Flash & { path?: string }>();
  const lastPath = useRef(location.pathname);

  // Canonical address for the start page (/admin, /admin/, or / on CloudFront).
  useEffect(() => {
    if ((route.name === 'webhooks' || route.name === 'orders') && location.pathname !== pathFor(route))
      navigate(pathFor(route) + location.search, { replace: true });
  }, [location.pathname]);

  // A new view: move focus to its heading so keyboard and screen-reader users start at the top.
  useEffect(() => {
    if (lastPath.current === location.pathname) return;
    lastPath.current = location.pathname;
    window.scrollTo(0, 0);
    window.setTimeout(() => (document.querySelector<HTMLElement>('main h1') ?? document.getElementById('main'))?.focus(), 0);
  }, [location.pathname]);

  // A flash is set just before navigate() and belongs to the view navigated to; the next
  // navigation retires it.
  useEffect(() => {
    setFlash((current) =>
      !current
        ? current
        : current.path === undefined
          ? { ...current, path: location.pathname }
          : current.path === location.pathname
            ? current
            : undefined,
    );
  }, [location.pathname]);
  const visibleFlash = flash?.path === location.pathname ? flash : undefined;

  return (
    <FlashContext.Provider value={setFlash}>
      <Shell
        account={session.account}
        section={sectionOf(route)}
        onSignOut={() => session.signOut('You signed out. The key was removed from this tab.')}
      >
        {visibleFlash && (
          <Notice tone={visibleFlash.tone} onDismiss={() => setFlash(undefined)}>
            {visibleFlash.text}
          </Notice>
        )}
        <View route={route} search={location.search} />
      </Shell>
    </FlashContext.Provider>
  );
}

function sectionOf(route: Route): Section {
  switch (route.name) {
    case 'orders':
    case 'order':
      return 'orders';
    case 'production':
      return 'production';
    case 'machines':
    case 'machine':
      return 'machines';
    case 'invoices':
    case 'invoice':
      return 'invoices';
    case 'shipments':
    case 'shipment':
      return 'shipments';
    case 'not-found':
      return 'other';
    default:
      return 'webhooks';
  }
}

function View({ route, search }: { route: Route; search: string }) {
  switch (route.name) {
    case 'orders':
      return <OrderList search={search} />;
    case 'order':
      return <OrderDetail key={route.id} id={route.id} />;
    case 'production':
      return <ProductionBoard search={search} />;
    case 'machines':
      return <MachineList />;
    case 'machine':
      return <MachineDetail key={route.id} id={route.id} />;
    case 'invoices':
      return <InvoiceList search={search} />;
    case 'invoice':
      return <InvoiceDetail key={route.id} id={route.id} />;
    case 'shipments':
      return <ShipmentList search={search} />;
    case 'shipment':
      return <ShipmentDetail key={route.id} id={route.id} />;
    case 'webhooks':
      return <WebhookList />;
    case 'webhook-new':
      return <WebhookForm key="new" />;
    case 'webhook':
      return <WebhookDetail key={route.id} id={route.id} search={search} />;
    case 'webhook-edit':
      return <WebhookForm key={route.id} id={route.id} />;
    case 'delivery':
      return <DeliveryDetail key={route.deliveryId} id={route.id} deliveryId={route.deliveryId} />;
    case 'not-found':
      return (
        <EmptyState
          title="Page not found"
          action={
            <Link href={pathFor({ name: 'orders' })} class="btn btn-secondary">
              Go to orders
            </Link>
          }
        >
          <p>
            There is nothing at <span class="mono">{route.path}</span>.
          </p>
        </EmptyState>
      );
  }
}
