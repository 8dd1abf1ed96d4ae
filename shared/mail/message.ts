/**
 * An email as the service writes it, and the one way it becomes bytes: an RFC 5322 MIME message
 * built by nodemailer's MailComposer (the composer only, none of nodemailer's transports). The
 * composer encodes non-ASCII subjects and display names as encoded words (RFC 2047) and attachment
 * filenames as RFC 2231 parameters, picks the multipart structure (alternative for text + HTML,
 * mixed with attachments) and folds long headers. SES then takes the bytes as they are
 * (shared/mail/send.ts), and the local runner writes the same bytes to an `.eml` file.
 */
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { ValidationError } from '#shared/errors';

export interface MailAttachment {
  /** Shown to the recipient; any Unicode (`Rechnung-Müller.pdf`). */
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface MailMessage {
  /** One recipient address (`Name <address>` allowed); a list is refused, so no caller adds recipients by accident. */
  to: string;
  subject: string;
  /** The plain-text body; every message has one (mail clients without HTML show it). */
  text: string;
  /** An HTML alternative of `text`. */
  html?: string;
  attachments?: MailAttachment[];
  /** Where replies go, e.g. the print shop's own address: the sender is the platform's address. */
  replyTo?: string;
}

/**
 * The bare address of the single mailbox in `value` (`Name <a@b.example>` → `a@b.example`), or a
 * 422 naming `field`. A comma or a group in an address field would send to more people than the
 * caller meant; an address without `@` is no address.
 */
export function mailboxOf(value: string, field = 'to'): string {
  const parsed = addressparser(value, { flatten: true });
  const address = parsed.length === 1 ? parsed[0]!.address : '';
  if (!/^[^@\s]+@[^@\s]+$/.test(address)) {
    throw new ValidationError('The email could not be addressed', [{ field, message: 'Must be exactly one email address' }]);
  }
  return address;
}

/** A view of the same bytes as a Buffer (what MailComposer takes), without copying them. */
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The complete message, headers and body, with CRLF line breaks, ready for SES's `Content.Raw.Data`. */
export async function composeRawMessage(message: MailMessage, from: string): Promise<Uint8Array> {
  // Checked here, then given as written: the composer encodes a display name (`Müller GmbH <…>`).
  mailboxOf(message.to, 'to');
  if (message.replyTo) mailboxOf(message.replyTo, 'replyTo');
  const composer = new MailComposer({
    from,
    to: message.to,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
    attachments: (message.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: asBuffer(attachment.content),
      // Whatever the type (XML is text too), an attachment's bytes travel unchanged as base64.
      contentTransferEncoding: 'base64',
    })),
    // RFC 5322 lines end in CRLF, also inside text bodies a caller wrote with \n.
    newline: 'windows',
    // Content is always given as bytes or strings here: the composer must never read a path or URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}
