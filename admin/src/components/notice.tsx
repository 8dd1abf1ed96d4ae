import type { ComponentChildren } from 'preact';

type Tone = 'success' | 'info' | 'warning' | 'danger';

const symbols: Record<Tone, string> = { success: '✓', info: 'i', warning: '!', danger: '✕' };

/** A message block; errors are announced at once (role=alert), the rest politely. */
export function Notice({
  tone,
  title,
  children,
  onDismiss,
}: {
  tone: Tone;
  title?: string;
  children?: ComponentChildren;
  onDismiss?: () => void;
}) {
  return (
    <div class={`notice notice-${tone}`} role={tone === 'danger' ? 'alert' : 'status'}>
      <span class="notice-symbol" aria-hidden="true">
        {symbols[tone]}
      </span>
      <div class="notice-body">
        {title && <p class="notice-title">{title}</p>}
        {children}
      </div>
      {onDismiss && (
        <button type="button" class="btn-icon" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

/** What an action says about its outcome, shown above the part of the page it changed. */
export interface Message {
  tone: 'success' | 'danger';
  text: string;
}

/** An action's message, dismissible; nothing without one. */
export function MessageNotice({ message, onDismiss }: { message: Message | undefined; onDismiss: () => void }) {
  if (!message) return null;
  return (
    <Notice tone={message.tone} onDismiss={onDismiss}>
      {message.text}
    </Notice>
  );
}
