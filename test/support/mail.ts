/**
 * A minimal reader of the MIME messages shared/mail composes, for tests: headers (unfolded, encoded
 * words decoded), the text and HTML bodies, the attachments as bytes. It knows exactly what
 * MailComposer writes (base64 and quoted-printable, RFC 2047 words, RFC 2231 filenames, nested
 * multiparts), nothing more; it is not a general mail parser. `mailbox` lists the `.eml` files the
 * local runner writes (MAIL_DIR: `<data dir>/mail` under `npm start` and the tests).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ParsedPart {
  /** Header name in lower case → its raw value, unfolded (the first one of a name). */
  headers: Map<string, string>;
  /** The undecoded body. */
  body: string;
  parts: ParsedPart[];
}

export interface ParsedAttachment {
  filename: string;
  contentType: string;
  transferEncoding: string;
  content: Buffer;
}

export interface ParsedMail {
  raw: string;
  headers: Map<string, string>;
  /** A header with its encoded words decoded (`Subject`, `To`…). */
  header(name: string): string | undefined;
  text?: string;
  html?: string;
  attachments: ParsedAttachment[];
}

/** RFC 2047: `=?UTF-8?Q?M=C3=BCller?=` / `=?UTF-8?B?…?=` → text; whitespace between adjacent words is dropped. */
export function decodeWords(value: string): string {
  const joined = value.replace(/(\?=)\s+(=\?)/g, '$1$2');
  return joined.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(decodeQuotedPrintable(text.replace(/_/g, ' ')), 'latin1').toString('utf8'),
  );
}

/** Quoted-printable to bytes (as a latin1 string: one character per byte). */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function decodeBody(part: ParsedPart): Buffer {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return Buffer.from(decodeQuotedPrintable(part.body), 'latin1');
  return Buffer.from(part.body, 'utf8');
}

/** A parameter of a header value (`; boundary="…"`, `; filename*0*=utf-8''…; filename*1*=…`), decoded. */
export function parameter(value: string, name: string): string | undefined {
  const pieces = new Map<number, { text: string; encoded: boolean }>();
  let plain: string | undefined;
  for (const match of value.matchAll(/;\s*([\w-]+)(\*(\d+))?(\*)?\s*=\s*("([^"]*)"|[^;\s]+)/g)) {
    if (match[1]!.toLowerCase() !== name) continue;
    const text = match[6] ?? match[5]!;
    if (match[3] === undefined && !match[4]) plain = text;
    else pieces.set(Number(match[3] ?? 0), { text, encoded: Boolean(match[4]) });
  }
  if (!pieces.size) return plain === undefined ? undefined : decodeWords(plain);
  const ordered = [...pieces.entries()].sort(([a], [b]) => a - b).map(([, piece]) => piece);
  // RFC 2231: the first encoded piece starts with `charset'language'`; encoded pieces are percent-encoded bytes.
  const bytes = ordered
    .map((piece, index) => {
      const text = index === 0 && piece.encoded ? piece.text.replace(/^[^']*'[^']*'/, '') : piece.text;
      return piece.encoded ? text.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
    })
    .join('');
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export function parsePart(raw: string): ParsedPart {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  const boundary = parameter(headers.get('content-type') ?? '', 'boundary');
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1)
        .filter((chunk) => !chunk.startsWith('--'))
        .map((chunk) => parsePart(chunk.replace(/^\r\n/, '').replace(/\r\n$/, '')))
    : [];
  return { headers, body, parts };
}

const leaves = (part: ParsedPart): ParsedPart[] => (part.parts.length ? part.parts.flatMap(leaves) : [part]);

export function parseMail(bytes: Uint8Array | string): ParsedMail {
  const raw = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('latin1');
  // The message's own last line break ends the message, not its body.
  const root = parsePart(raw.replace(/\r\n$/, ''));
  const mail: ParsedMail = {
    raw,
    headers: root.headers,
    header: (name) => {
      const value = root.headers.get(name.toLowerCase());
      return value === undefined ? undefined : decodeWords(value);
    },
    attachments: [],
  };
  for (const leaf of leaves(root)) {
    const contentType = leaf.headers.get('content-type') ?? 'text/plain';
    const disposition = leaf.headers.get('content-disposition') ?? '';
    if (/^attachment/i.test(disposition)) {
      mail.attachments.push({
        filename: parameter(disposition, 'filename') ?? parameter(contentType, 'name') ?? '',
        contentType: contentType.split(';')[0]!.trim(),
        transferEncoding: (leaf.headers.get('content-transfer-encoding') ?? '').toLowerCase(),
        content: decodeBody(leaf),
      });
    } else if (/^text\/plain/i.test(contentType)) mail.text = decodeBody(leaf).toString('utf8');
    else if (/^text\/html/i.test(contentType)) mail.html = decodeBody(leaf).toString('utf8');
  }
  return mail;
}

/** The `.eml` files in a mail folder, oldest first (their names start with the time), parsed. */
export function mailbox(dir: string): (ParsedMail & { file: string })[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => ({ ...parseMail(readFileSync(join(dir, name))), file: join(dir, name) }));
}
