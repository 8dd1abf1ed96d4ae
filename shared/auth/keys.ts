import { createHash } from 'node:crypto';
import { randomToken } from '#shared/ids';

export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];
export const KEY_KINDS = ['secret', 'publishable'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

const keyPattern = /^(sk|pk)_(test|live)_[0-9A-Za-z]{32}$/;

export interface ParsedKey {
  kind: KeyKind;
  mode: Mode;
}

export function generateApiKey(kind: KeyKind, mode: Mode): string {
  return `${kind === 'secret' ? 'sk' : 'pk'}_${mode}_${randomToken(32)}`;
}

/** Recognises the shape of a key without touching storage; anything else is not a key. */
export function parseApiKey(key: string): ParsedKey | undefined {
  const match = keyPattern.exec(key);
  if (!match) return undefined;
  return { kind: match[1] === 'sk' ? 'secret' : 'publishable', mode: match[2] as Mode };
}

/** Only this hash is stored; the key itself is shown once at creation. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What may be shown of a key later (logs, listings): type, mode and the first four characters. */
export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}

/** Pulls the key out of `Authorization: Bearer <key>`; tolerant of case and extra spaces. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
