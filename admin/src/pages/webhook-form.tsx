import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Webhook, WebhookInput } from '../api/types';
import { Breadcrumbs } from '../components/breadcrumbs';
import { EventPicker } from '../components/event-picker';
import { describedBy, Field, FormActions } from '../components/field';
import { Link } from '../components/link';
import { Notice } from '../components/notice';
import { Unloaded } from '../components/states';
import { useAsync } from '../hooks/use-async';
import { useTitle } from '../hooks/use-title';
import { canWriteWebhooks } from '../lib/access';
import { describeError, fieldErrors, fieldSentence, otherErrors } from '../lib/errors';
import { validateEvents } from '../lib/events';
import { pathFor } from '../lib/routes';
import { validateWebhookUrl } from '../lib/webhook-url';
import { navigate } from '../router';
import { handOverSecret } from '../secret-store';
import { useFlash, useSession } from '../session-context';
import { WebhooksScopePage } from '../components/scope-notice';

const FIELDS = ['url', 'events', 'active', 'description'] as const;
const DESCRIPTION_MAX = 500;

/** Adds a webhook (no `id`) or edits one: the same form, the edited registration's values filled in. */
export function WebhookForm({ id }: { id?: number }) {
  useTitle(id === undefined ? 'Add webhook' : 'Edit webhook');
  return id === undefined ? <WebhookFormPage /> : <EditedWebhook id={id} />;
}

function EditedWebhook({ id }: { id: number }) {
  const { client } = useSession();
  const webhook = useAsync(() => client.getWebhook(id), [client, id]);
  if (!webhook.data) return <Unloaded state={webhook} what="the webhook" />;
  return <WebhookFormPage existing={webhook.data} />;
}

function WebhookFormPage({ existing }: { existing?: Webhook }) {
  const { client, account } = useSession();
  const flash = useFlash();
  const [form, setForm] = useState<WebhookInput>(() => ({
    url: existing?.url ?? '',
    events: existing?.events ?? [],
    active: existing?.active ?? true,
    description: existing?.description ?? '',
  }));
  const [touched, setTouched] = useState({ url: false, submitted: false });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  if (!canWriteWebhooks(account)) return <WebhooksScopePage account={account} />;

  const urlError = serverErrors.url ?? (touched.url || touched.submitted ? validateWebhookUrl(form.url) : undefined);
  const eventsError = serverErrors.events ?? (touched.submitted ? validateEvents(form.events) : undefined);
  const descriptionError = serverErrors.description;
  const back = existing ? pathFor({ name: 'webhook', id: existing.id }) : pathFor({ name: 'webhooks' });

  const update = <K extends keyof WebhookInput>(name: K, value: WebhookInput[K]) => {
    setForm((current) => ({ ...current, [name]: value }));
    // A server message is about the value it saw; editing the field retires it.
    setServerErrors(({ [name]: _retired, ...rest }) => rest);
  };

  async function submit(event: Event) {
    event.preventDefault();
    setTouched((current) => ({ ...current, submitted: true }));
    setFormError(undefined);
    const localUrl = validateWebhookUrl(form.url);
    const localEvents = validateEvents(form.events);
    if (localUrl || localEvents) {
      document.getElementById(localUrl ? 'webhook-url' : 'events-first')?.focus();
      return;
    }
    const body: WebhookInput = {
      url: form.url.trim(),
      events: form.events,
      active: form.active,
      description: form.description?.trim() || null,
    };
    setBusy(true);
    try {
      if (existing) {
        await client.updateWebhook(existing.id, changedFields(existing, body));
        flash({ tone: 'success', text: 'Webhook saved.' });
        navigate(pathFor({ name: 'webhook', id: existing.id }));
      } else {
        const created = await client.createWebhook(body);
        handOverSecret({ webhookId: created.id, secret: created.secret, reason: 'created' });
        navigate(pathFor({ name: 'webhook', id: created.id }));
      }
    } catch (caught) {
      setBusy(false);
      if (caught instanceof ApiError && caught.details.length > 0) {
        const byField = fieldErrors(caught.details, FIELDS);
        const labels: Record<string, string> = {
          url: 'The URL',
          events: 'The event list',
          description: 'The description',
          active: 'Active',
        };
        setServerErrors(
          Object.fromEntries(Object.entries(byField).map(([field, message]) => [field, fieldSentence(labels[field] ?? field, message)])),
        );
        const rest = otherErrors(caught.details, FIELDS);
        setFormError(
          rest.length ? `${caught.message}: ${rest.join('; ')}` : Object.keys(byField).length ? undefined : describeError(caught),
        );
        if (byField.url) document.getElementById('webhook-url')?.focus();
      } else {
        setFormError(caught instanceof ApiError ? describeError(caught) : String(caught));
      }
    }
  }

  return (
    <>
      <Breadcrumbs
        trail={[{ href: pathFor({ name: 'webhooks' }), label: 'Webhooks' }, ...(existing ? [{ href: back, label: existing.url }] : [])]}
      />
      <h1 class="page-title" tabIndex={-1}>
        {existing ? 'Edit webhook' : 'Add webhook'}
      </h1>
      <form class="card form" onSubmit={submit} noValidate>
        {formError && <Notice tone="danger">{formError}</Notice>}
        <Field
          id="webhook-url"
          label="Endpoint URL"
          error={urlError}
          hint="Where the signed POST requests go. https only (a local stack also accepts http://localhost)."
        >
          <input
            id="webhook-url"
            type="url"
            inputMode="url"
            class="input mono"
            value={form.url}
            placeholder="https://example.com/webhooks/print-shop"
            autoComplete="off"
            spellcheck={false}
            required
            aria-invalid={urlError ? 'true' : undefined}
            aria-describedby={describedBy('webhook-url', { hint: true, error: urlError })}
            onInput={(event) => update('url', event.currentTarget.value)}
            onBlur={() => setTouched((current) => ({ ...current, url: form.url.trim() !== '' || current.url }))}
          />
        </Field>

        <EventPicker value={form.events} onChange={(events) => update('events', events)} error={eventsError} />

        <Field
          id="webhook-description"
          label="Description"
          optional
          error={descriptionError}
          hint={`What this endpoint is for, e.g. “ERP sync”. ${(form.description ?? '').length}/${DESCRIPTION_MAX}`}
        >
          <textarea
            id="webhook-description"
            class="input"
            rows={2}
            maxLength={DESCRIPTION_MAX}
            value={form.description ?? ''}
            aria-invalid={descriptionError ? 'true' : undefined}
            aria-describedby={describedBy('webhook-description', { hint: true, error: descriptionError })}
            onInput={(event) => update('description', event.currentTarget.value)}
          />
        </Field>

        <div class="field">
          <label class="switch">
            <input
              type="checkbox"
              role="switch"
              checked={form.active}
              onChange={(event) => update('active', event.currentTarget.checked)}
              aria-describedby="webhook-active-hint"
            />
            <span class="switch-track" aria-hidden="true" />
            <span class="switch-label">Active</span>
          </label>
          <p id="webhook-active-hint" class="field-hint">
            {form.active
              ? 'Events are delivered to this endpoint.'
              : 'Paused: nothing is sent to this endpoint until it is activated again.'}
          </p>
        </div>

        <FormActions busy={busy} label={existing ? 'Save changes' : 'Create webhook'} busyLabel="Saving…">
          <Link href={back} class="btn btn-secondary">
            Cancel
          </Link>
        </FormActions>
      </form>
    </>
  );
}

/** PUT is a partial update: send only what changed. */
function changedFields(before: Webhook, after: WebhookInput): Partial<WebhookInput> {
  const changes: Partial<WebhookInput> = {};
  if (after.url !== before.url) changes.url = after.url;
  if (after.events.join() !== before.events.join()) changes.events = after.events;
  if (after.active !== before.active) changes.active = after.active;
  if ((after.description ?? null) !== (before.description ?? null)) changes.description = after.description;
  return changes;
}
