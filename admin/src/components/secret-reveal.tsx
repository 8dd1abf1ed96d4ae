import { useState } from 'preact/hooks';
import type { RevealedSecret } from '../secret-store';
import { CopyButton } from './copy-button';

/** The signing secret, shown once after create or rotate, with a copy button and a clear warning. */
export function SecretReveal({ revealed, onDone }: { revealed: RevealedSecret; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section class="secret" aria-labelledby="secret-title">
      <h2 id="secret-title" class="secret-title">
        {revealed.reason === 'created' ? 'Webhook created — save its signing secret' : 'New signing secret'}
      </h2>
      <p class="secret-warning">
        <strong>This secret will not be shown again.</strong> Store it in your receiver's configuration now; it verifies the{' '}
        <code>X-Webhook-Signature</code> header (HMAC-SHA256 of the raw body).
        {revealed.reason === 'rotated' &&
          ' The previous secret keeps signing as a second signature for 24 hours, so you can switch without missing deliveries.'}
      </p>
      <div class="secret-row">
        <label for="signing-secret" class="visually-hidden">
          Signing secret
        </label>
        <textarea
          id="signing-secret"
          class="secret-value"
          readOnly
          rows={1}
          value={revealed.secret}
          onFocus={(event) => event.currentTarget.select()}
          spellcheck={false}
        />
        <CopyButton text={revealed.secret} label="Copy secret" onCopied={() => setCopied(true)} />
      </div>
      <button type="button" class={`btn ${copied ? 'btn-primary' : 'btn-secondary'}`} onClick={onDone}>
        I have saved the secret
      </button>
    </section>
  );
}
