import { useState } from 'preact/hooks';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copies `text`; says "Copied" (announced to screen readers) or how to copy by hand. */
export function CopyButton({ text, label = 'Copy', onCopied }: { text: string; label?: string; onCopied?: () => void }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span class="copy">
      <button
        type="button"
        class="btn btn-secondary btn-small"
        onClick={async () => {
          const ok = await copyText(text);
          setState(ok ? 'copied' : 'failed');
          if (ok) onCopied?.();
        }}
      >
        {state === 'copied' ? '✓ Copied' : label}
      </button>
      <span class="copy-status" role="status">
        {state === 'failed' ? 'Copying is blocked here: select the text and press Ctrl+C (⌘C).' : ''}
      </span>
    </span>
  );
}
