import { useEffect, useRef } from 'preact/hooks';
import { ALL_EVENTS, catalogue, checkState, groupEvents, isAllEvents, setKinds } from '../lib/events';

const groups = groupEvents();

interface Props {
  value: string[];
  onChange: (events: string[]) => void;
  error?: string;
}

/** The event checklist: every kind (now and later), or chosen kinds grouped by resource, with select all. */
export function EventPicker({ value, onChange, error }: Props) {
  const all = isAllEvents(value);
  const chosen = all ? [] : value;
  return (
    <fieldset class={`field events${error ? ' field-invalid' : ''}`} aria-describedby={error ? 'events-error' : undefined}>
      <legend class="field-label">Events to send</legend>
      <div class="choice-row">
        <label class="choice">
          <input id="events-first" type="radio" name="events-mode" checked={all} onChange={() => onChange([ALL_EVENTS])} />
          <span>
            All events <span class="muted">— including kinds added later</span>
          </span>
        </label>
        <label class="choice">
          <input type="radio" name="events-mode" checked={!all} onChange={() => onChange(all ? [] : value)} />
          <span>Selected events</span>
        </label>
      </div>
      {!all && (
        <div class="events-pick">
          <div class="events-toolbar">
            <Checkbox
              label={`Select all (${catalogue.length})`}
              state={checkState(chosen, catalogue)}
              onChange={(on) => onChange(setKinds(chosen, catalogue, on))}
            />
            <span class="muted" aria-live="polite">
              {chosen.length} selected
            </span>
          </div>
          <div class="event-groups">
            {groups.map((group) => (
              <fieldset class="event-group" key={group.id}>
                <legend class="visually-hidden">{group.label}</legend>
                <Checkbox
                  label={group.label}
                  strong
                  state={checkState(chosen, group.kinds)}
                  onChange={(on) => onChange(setKinds(chosen, group.kinds, on))}
                />
                <ul>
                  {group.kinds.map((kind) => (
                    <li key={kind}>
                      <Checkbox
                        label={kind}
                        mono
                        state={chosen.includes(kind) ? 'all' : 'none'}
                        onChange={(on) => onChange(setKinds(chosen, [kind], on))}
                      />
                    </li>
                  ))}
                </ul>
              </fieldset>
            ))}
          </div>
        </div>
      )}
      {error && (
        <p id="events-error" class="field-error">
          <span aria-hidden="true">✕ </span>
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** A checkbox that can show "some of these" (indeterminate), as group and select-all boxes do. */
function Checkbox({
  label,
  state,
  onChange,
  strong,
  mono,
}: {
  label: string;
  state: 'all' | 'some' | 'none';
  onChange: (on: boolean) => void;
  strong?: boolean;
  mono?: boolean;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <label class={`check${strong ? ' check-strong' : ''}`}>
      <input ref={ref} type="checkbox" checked={state === 'all'} onChange={(event) => onChange(event.currentTarget.checked)} />
      <span class={mono ? 'mono' : undefined}>{label}</span>
    </label>
  );
}
