import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Order, Parcel } from '../api/types';
import { fieldErrors, otherErrors } from '../lib/errors';
import { FormActions } from './field';
import { pathFor } from '../lib/routes';
import { navigate } from '../router';
import { useFlash, useSession } from '../session-context';
import { errorText } from './states';

type ParcelText = Record<keyof Parcel, string>;
const emptyParcel = (): ParcelText => ({ weight_g: '1000', length_mm: '300', width_mm: '210', height_mm: '50' });
const measures: [keyof Parcel, string][] = [
  ['weight_g', 'Weight (g)'],
  ['length_mm', 'Length (mm)'],
  ['width_mm', 'Width (mm)'],
  ['height_mm', 'Height (mm)'],
];
const MAX_PARCELS = 15;

/** Ships an order: carrier, service and parcels (POST /v1/shipments); the label follows on the shipment's page. */
export function ShipmentForm({ order, onCancel, onCreated }: { order: Order; onCancel: () => void; onCreated: () => void }) {
  const { account, client } = useSession();
  const flash = useFlash();
  const test = account.mode === 'test';
  const [carrier, setCarrier] = useState<'sandbox' | 'sendcloud'>(test ? 'sandbox' : 'sendcloud');
  const [service, setService] = useState('postnl:standard');
  const [parcels, setParcels] = useState<ParcelText[]>([emptyParcel()]);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const partial = order.status === 'in_production';

  function check(): { parcels: Parcel[]; problems: Record<string, string> } {
    const found: Record<string, string> = {};
    if (!service.trim()) found.service = 'Enter the carrier’s service, such as postnl:standard.';
    const values = parcels.map((parcel, index) => {
      const out = {} as Parcel;
      for (const [key, label] of measures) {
        const text = parcel[key].trim();
        if (!/^[1-9]\d*$/.test(text)) found[`parcels.${index}.${key}`] = `${label}: a whole number above 0.`;
        out[key] = Number(text);
      }
      return out;
    });
    return { parcels: values, problems: found };
  }

  async function submit(event: Event) {
    event.preventDefault();
    const checked = check();
    setProblems(checked.problems);
    setError(undefined);
    if (Object.keys(checked.problems).length > 0) return;
    setBusy(true);
    try {
      const shipment = await client.createShipment({
        order_id: order.id,
        carrier,
        service: service.trim(),
        parcels: checked.parcels,
        ...(partial ? { partial: true } : {}),
      });
      onCreated();
      flash({ tone: 'success', text: `Shipment ${shipment.id} created: its label is ready.` });
      navigate(pathFor({ name: 'shipment', id: shipment.id }));
    } catch (caught) {
      if (caught instanceof ApiError) {
        const fields = fieldErrors(caught.details, ['service', 'carrier', 'parcels']);
        const perParcel: Record<string, string> = {};
        for (const detail of caught.details)
          if (detail.field.startsWith('parcels.')) perParcel[detail.field.split('.').slice(0, 2).join('.')] = detail.message;
        setProblems({ ...fields, ...perParcel });
        const rest = otherErrors(caught.details, ['service', 'carrier', 'parcels']);
        setError([caught.message, ...rest].join(' · ') + (caught.requestId ? ` (request ${caught.requestId})` : ''));
      } else setError(errorText(caught));
      setBusy(false);
    }
  }

  const setMeasure = (index: number, key: keyof Parcel, value: string) =>
    setParcels((current) => current.map((parcel, i) => (i === index ? { ...parcel, [key]: value } : parcel)));

  return (
    <form class="form shipment-form" onSubmit={(event) => void submit(event)} aria-label="New shipment" noValidate>
      {partial && (
        <p class="notice notice-info">
          This order is still in production: the shipment is partial (what is not shipped yet of every line). It becomes shipped once
          production is done.
        </p>
      )}
      <div class="form-row">
        <div class="field">
          <label for="shipment-carrier" class="field-label">
            Carrier
          </label>
          <select
            id="shipment-carrier"
            class="input select"
            value={carrier}
            onChange={(e) => setCarrier(e.currentTarget.value as typeof carrier)}
          >
            {test && <option value="sandbox">Sandbox (test labels)</option>}
            <option value="sendcloud">Sendcloud</option>
          </select>
          {test && <p class="field-hint">Test mode: the sandbox carrier makes every label, whatever is chosen.</p>}
        </div>
        <div class={`field${problems.service ? ' field-invalid' : ''}`}>
          <label for="shipment-service" class="field-label">
            Service
          </label>
          <input
            id="shipment-service"
            class="input"
            value={service}
            aria-invalid={problems.service ? 'true' : undefined}
            aria-describedby={problems.service ? 'shipment-service-error' : 'shipment-service-hint'}
            onInput={(e) => setService(e.currentTarget.value)}
          />
          {problems.service && (
            <p id="shipment-service-error" class="field-error">
              {problems.service}
            </p>
          )}
          <p id="shipment-service-hint" class="field-hint">
            The carrier's shipping option, such as <code>postnl:standard</code> or <code>dhl:paket</code>.
          </p>
        </div>
      </div>
      <fieldset class="parcels">
        <legend class="field-label">Parcels</legend>
        {parcels.map((parcel, index) => (
          <div class="parcel" key={index} role="group" aria-label={`Parcel ${index + 1}`}>
            <span class="parcel-title">Parcel {index + 1}</span>
            {measures.map(([key, label]) => {
              const id = `parcel-${index}-${key}`;
              const problem = problems[`parcels.${index}.${key}`] ?? (key === 'weight_g' ? problems[`parcels.${index}`] : undefined);
              return (
                <div class={`field field-compact${problem ? ' field-invalid' : ''}`} key={key}>
                  <label for={id} class="field-label">
                    {label}
                  </label>
                  <input
                    id={id}
                    class="input"
                    inputMode="numeric"
                    value={parcel[key]}
                    aria-invalid={problem ? 'true' : undefined}
                    aria-describedby={problem ? `${id}-error` : undefined}
                    onInput={(e) => setMeasure(index, key, e.currentTarget.value)}
                  />
                  {problem && (
                    <p id={`${id}-error`} class="field-error">
                      {problem}
                    </p>
                  )}
                </div>
              );
            })}
            {parcels.length > 1 && (
              <button
                type="button"
                class="btn btn-secondary btn-small"
                aria-label={`Remove parcel ${index + 1}`}
                onClick={() => setParcels((current) => current.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            )}
          </div>
        ))}
        {parcels.length < MAX_PARCELS && (
          <button type="button" class="btn btn-secondary btn-small" onClick={() => setParcels((current) => [...current, emptyParcel()])}>
            + Add parcel
          </button>
        )}
      </fieldset>
      <FormActions error={error} busy={busy} label="Create shipment and label" busyLabel="Creating the label…">
        <button type="button" class="btn btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </FormActions>
    </form>
  );
}
