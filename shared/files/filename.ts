/**
 * File names as clients send them are only for display and for `Content-Disposition`: the object
 * key never contains one. A name is reduced to its last path segment, stripped of control and
 * bidi-override characters and of characters that break headers or file systems, and bounded.
 */
export const MAX_FILENAME_LENGTH = 200;

// Control characters are exactly what this strips.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069"\\/:*?<>|]/g;

export function sanitizeFilename(raw: string | undefined, fallback = 'file'): string {
  const lastSegment = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = lastSegment.normalize('NFC').replace(UNSAFE, '_').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  const bounded = [...cleaned].slice(0, MAX_FILENAME_LENGTH).join('');
  return bounded.replace(/^_+$/, '') || fallback;
}

/**
 * `Content-Disposition: attachment` for a sanitised name (RFC 6266): an ASCII fallback in
 * `filename` and the exact name, percent-encoded, in `filename*` (RFC 8187).
 */
export function attachmentDisposition(filename: string): string {
  const asciiName = filename.replace(/[^\x20-\x7e]/g, '_').replace(/[%;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encoded}`;
}
