/**
 * A secret just returned by create or rotate-secret, handed from the action to the view that
 * shows it once. Memory only: a reload forgets it, as the API does.
 */
export interface RevealedSecret {
  webhookId: number;
  secret: string;
  reason: 'created' | 'rotated';
}

let pending: RevealedSecret | undefined;

export function handOverSecret(secret: RevealedSecret): void {
  pending = secret;
}

export function takeSecret(webhookId: number): RevealedSecret | undefined {
  if (pending?.webhookId !== webhookId) return undefined;
  const taken = pending;
  pending = undefined;
  return taken;
}
