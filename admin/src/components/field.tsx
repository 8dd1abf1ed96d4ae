import type { ComponentChildren } from 'preact';

/** ids for a control's hint and error, for aria-describedby. */
export function describedBy(id: string, parts: { hint?: unknown; error?: unknown }): string | undefined {
  const ids = [parts.error ? `${id}-error` : '', parts.hint ? `${id}-hint` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

/** A labelled form field: label, the control, a hint, and the error right under the control. */
export function Field(props: {
  id: string;
  label: string;
  optional?: boolean;
  hint?: ComponentChildren;
  error?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={`field${props.error ? ' field-invalid' : ''}`}>
      <label for={props.id} class="field-label">
        {props.label}
        {props.optional && <span class="field-optional"> (optional)</span>}
      </label>
      {props.children}
      {props.error && (
        <p id={`${props.id}-error`} class="field-error">
          <span aria-hidden="true">✕ </span>
          {props.error}
        </p>
      )}
      {props.hint && (
        <p id={`${props.id}-hint`} class="field-hint">
          {props.hint}
        </p>
      )}
    </div>
  );
}

/**
 * The end of a form: the error that stopped it (announced at once), the submit button — its
 * `busyLabel` while the request runs — and any other buttons (`children`: Cancel).
 */
export function FormActions({
  error,
  busy,
  label,
  busyLabel,
  children,
}: {
  error?: string;
  busy: boolean;
  label: string;
  busyLabel: string;
  children?: ComponentChildren;
}) {
  return (
    <>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? busyLabel : label}
        </button>
        {children}
      </div>
    </>
  );
}
