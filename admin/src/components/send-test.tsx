import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Webhook } from '../api/types';
import { describeError } from '../lib/errors';
import { catalogue, isAllEvents } from '../lib/events';
import { useSession } from '../session-context';
import { MessageNotice, type Message } from './notice';

/** "Send test event": a sample event of a chosen kind through the real pipeline, with the answer shown. */
export function SendTest({ webhook, disabledReason, onSent }: { webhook: Webhook; disabledReason?: string; onSent: () => void }) {
  const { client } = useSession();
  const kinds = isAllEvents(webhook.events) ? catalogue : catalogue.filter((kind) => webhook.events.includes(kind));
  const [kind, setKind] = useState(kinds[0] ?? 'order.created');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Message>();

  async function send() {
    setBusy(true);
    setResult(undefined);
    try {
      const answer = await client.sendTest(webhook.id, kind);
      setResult({
        tone: 'success',
        text: `${answer.message}: a sample ${kind} event is on its way. Its delivery appears below in a moment.`,
      });
      onSent();
    } catch (caught) {
      setResult({ tone: 'danger', text: caught instanceof ApiError ? describeError(caught) : String(caught) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card send-test" aria-labelledby="send-test-title">
      <h2 id="send-test-title" class="card-title">
        Send a test event
      </h2>
      <p class="muted">
        A sample payload marked <code>"test": true</code>, signed and delivered like any other event.
      </p>
      <div class="inline-form">
        <label for="test-event" class="inline-label">
          Event
        </label>
        <select
          id="test-event"
          class="input select"
          value={kind}
          onChange={(event) => setKind(event.currentTarget.value)}
          disabled={Boolean(disabledReason)}
        >
          {kinds.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <button
          type="button"
          class="btn btn-primary"
          onClick={send}
          disabled={busy || Boolean(disabledReason)}
          aria-describedby={disabledReason ? 'send-test-disabled' : undefined}
        >
          {busy ? 'Sending…' : 'Send test event'}
        </button>
      </div>
      {disabledReason && (
        <p id="send-test-disabled" class="field-hint">
          {disabledReason}
        </p>
      )}
      <MessageNotice message={result} onDismiss={() => setResult(undefined)} />
    </section>
  );
}
