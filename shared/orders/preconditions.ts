/**
 * Optimistic concurrency for clients: every order answer carries `ETag: W/"<version>"`, and a
 * `PUT` with `If-Match` (the version, `"<version>"`, the weak ETag, a comma-separated list of
 * these, or `*`) changes the order only while it still has that version — otherwise 412.
 */
import { PreconditionFailedError, ValidationError } from '#shared/errors';

/** undefined: no If-Match; '*': any version; otherwise the versions the client accepts. */
export type IfMatch = '*' | number[] | undefined;

export const etagOf = (version: number): string => `W/"${version}"`;

export const etagHeader = (resource: { version: number }): Record<string, string> => ({ ETag: etagOf(resource.version) });

const entryPattern = /^(?:W\/"([1-9]\d{0,15})"|"([1-9]\d{0,15})"|([1-9]\d{0,15}))$/;

export function parseIfMatch(header: string | undefined): IfMatch {
  if (header === undefined) return undefined;
  const entries = header
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 1 && entries[0] === '*') return '*';
  const versions = entries.map((entry) => {
    const match = entryPattern.exec(entry);
    return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
  });
  if (entries.length === 0 || versions.some((version) => version === undefined)) {
    throw new ValidationError('Invalid If-Match header', [
      { field: 'If-Match', message: 'must be the version (3), its ETag (W/"3") or *' },
    ]);
  }
  return versions.map(Number);
}

/** 412 when the current version is not one the client named. */
export function assertIfMatch(ifMatch: IfMatch, version: number, what = 'order'): void {
  if (ifMatch === undefined || ifMatch === '*' || ifMatch.includes(version)) return;
  throw new PreconditionFailedError(`The ${what} is at version ${version}, not ${ifMatch.join(' or ')}; read it again and retry`);
}
