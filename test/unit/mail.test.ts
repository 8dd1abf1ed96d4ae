import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AccountSuspendedException,
  MailFromDomainNotVerifiedException,
  MessageRejected,
  SendingPausedException,
  TooManyRequestsException,
  type SendEmailCommandInput,
} from '@aws-sdk/client-sesv2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ses, setSes } from '#shared/clients/ses';
import { env, resetConfig } from '#shared/config';
import { mailConfig, mailEnv } from '#shared/mail/config';
import { DomainError, MailNotSentError, ValidationError } from '#shared/errors';
import { toErrorResult } from '#shared/http/error-mapping';
import { composeRawMessage, mailboxOf, type MailMessage } from '#shared/mail/message';
import { sendMail } from '#shared/mail/send';
import { mailbox, parseMail } from '#test/support/mail';

const SENDER = 'invoices@test.print-shop.example';
const SUBJECT = 'Rechnung INV-2026-000001 – Müller';
/** Every byte value, so a transfer encoding that is not binary-safe would show. */
const pdf = new Uint8Array([...Buffer.from('%PDF-1.7\n'), ...Array.from({ length: 256 }, (_, byte) => byte), ...Buffer.from('\n%%EOF\n')]);
const xml = new TextEncoder().encode('<?xml version="1.0" encoding="UTF-8"?>\n<Invoice><Buyer>Müller GmbH</Buyer></Invoice>\n');

const invoiceMail = (): MailMessage => ({
  to: 'Müller GmbH <buchhaltung@mueller.example>',
  subject: SUBJECT,
  text: 'Guten Tag,\nanbei Ihre Rechnung INV-2026-000001 über 1.234,56 €.\n',
  html: '<p>Guten Tag,</p><p>anbei Ihre Rechnung <b>INV-2026-000001</b> über 1.234,56 €.</p>',
  attachments: [
    { filename: 'Rechnung INV-2026-000001.pdf', contentType: 'application/pdf', content: pdf },
    { filename: 'Rechnung-INV-2026-000001-Müller.xml', contentType: 'application/xml', content: xml },
  ],
  replyTo: 'Druckerei Schön <buero@druckerei.example>',
});

describe('composeRawMessage', () => {
  it('writes the headers, a UTF-8 subject, text and HTML, and both attachments as base64 of their exact bytes', async () => {
    const raw = await composeRawMessage(invoiceMail(), SENDER);
    const mail = parseMail(raw);

    expect(mail.header('From')).toBe(SENDER);
    expect(mail.header('To')).toBe('Müller GmbH <buchhaltung@mueller.example>');
    expect(mail.header('Reply-To')).toBe('Druckerei Schön <buero@druckerei.example>');
    expect(mail.header('Subject')).toBe(SUBJECT);
    expect(mail.header('MIME-Version')).toBe('1.0');
    expect(mail.header('Message-ID')).toMatch(/^<[^@>\s]+@test\.print-shop\.example>$/);
    expect(Date.parse(mail.header('Date')!)).not.toBeNaN();
    expect(mail.header('Content-Type')).toMatch(/^multipart\/mixed; boundary=/);
    // Headers are 7-bit: the subject and the display names travel as encoded words.
    const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
    expect(head).toMatch(/^Subject: =\?UTF-8\?[QB]\?/m);
    expect(/[^\x20-\x7e\r\n\t]/.test(head)).toBe(false);

    expect(mail.text).toBe('Guten Tag,\r\nanbei Ihre Rechnung INV-2026-000001 über 1.234,56 €.\r\n');
    expect(mail.html).toContain('über 1.234,56 €');

    expect(mail.attachments.map(({ filename, contentType, transferEncoding }) => ({ filename, contentType, transferEncoding }))).toEqual([
      { filename: 'Rechnung INV-2026-000001.pdf', contentType: 'application/pdf', transferEncoding: 'base64' },
      { filename: 'Rechnung-INV-2026-000001-Müller.xml', contentType: 'application/xml', transferEncoding: 'base64' },
    ]);
    expect(mail.attachments[0]!.content.equals(Buffer.from(pdf))).toBe(true);
    expect(mail.attachments[1]!.content.equals(Buffer.from(xml))).toBe(true);
  });

  it('ends every line with CRLF and keeps lines short (RFC 5322)', async () => {
    const raw = Buffer.from(await composeRawMessage(invoiceMail(), SENDER)).toString('latin1');
    expect(raw).not.toMatch(/(^|[^\r])\n/);
    expect(Math.max(...raw.split('\r\n').map((line) => line.length))).toBeLessThanOrEqual(78);
  });

  it('sends text only as a single text/plain part, attachments only when given', async () => {
    const mail = parseMail(await composeRawMessage({ to: 'kunde@example.com', subject: 'Hallo', text: 'Nur Text' }, SENDER));
    expect(mail.header('Content-Type')).toMatch(/^text\/plain; charset=utf-8/);
    expect(mail.text).toBe('Nur Text');
    expect(mail.attachments).toEqual([]);
  });

  it('keeps a long non-ASCII filename whole (RFC 2231 continuations)', async () => {
    const filename = `Rechnung-INV-2026-000001-${'Müller-Schön-Größe-'.repeat(6)}.pdf`;
    const raw = await composeRawMessage(
      { to: 'kunde@example.com', subject: 's', text: 't', attachments: [{ filename, contentType: 'application/pdf', content: pdf }] },
      SENDER,
    );
    expect(Buffer.from(raw).toString('latin1')).toContain('filename*1*=');
    expect(parseMail(raw).attachments.map((attachment) => attachment.filename)).toEqual([filename]);
  });

  it('cannot be made to add headers or recipients', async () => {
    const mail = parseMail(
      await composeRawMessage({ to: 'kunde@example.com', subject: 'Hallo\r\nBcc: evil@example.net', text: 'x' }, SENDER),
    );
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.raw).not.toMatch(/^Bcc:/im);

    for (const to of ['a@example.com, b@example.net', 'Group: a@example.com, b@example.net;', 'not an address', '']) {
      const refused = composeRawMessage({ to, subject: 's', text: 't' }, SENDER);
      await expect(refused, to).rejects.toBeInstanceOf(ValidationError);
      await expect(refused, to).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'to' }] });
    }
    await expect(
      composeRawMessage({ to: 'a@example.com', replyTo: 'x@a.example, y@b.example', subject: 's', text: 't' }, SENDER),
    ).rejects.toMatchObject({
      details: [{ field: 'replyTo' }],
    });
    expect(mailboxOf('Müller GmbH <buchhaltung@mueller.example>')).toBe('buchhaltung@mueller.example');
  });
});

/** Sets the given variables (undefined: removed) for one test; afterEach restores them. */
const saved = new Map<string, string | undefined>();
function setEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'print-shop-mail-'));
});
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
  resetConfig();
  setSes(undefined);
  rmSync(folder, { recursive: true, force: true });
});

/**
 * The real client of shared/clients/ses.ts (region, retries as configured), with its transport
 * replaced: a middleware inside the retry loop answers in place of SES (no request leaves). The
 * project allows mocking the AWS SDK only to inject faults.
 */
function fakeSes(answer: (input: SendEmailCommandInput, attempt: number) => { MessageId: string } | Error) {
  const inputs: SendEmailCommandInput[] = [];
  const client = ses();
  client.middlewareStack.add(
    () => async (args) => {
      const input = args.input as SendEmailCommandInput;
      inputs.push(input);
      const result = answer(input, inputs.length);
      if (result instanceof Error) throw result;
      return { output: { ...result, $metadata: { httpStatusCode: 200 } }, response: {} };
    },
    // Per attempt, after signing and ahead of the deserializer: the SDK's retries see these faults.
    { step: 'deserialize', priority: 'high', name: 'fakeSes' },
  );
  return inputs;
}

const awsEnv = {
  [env.localMode]: undefined,
  [mailEnv.mailDir]: undefined,
  [mailEnv.mailFrom]: SENDER,
  [mailEnv.configurationSet]: undefined,
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_SESSION_TOKEN: undefined,
};

describe('sendMail locally', () => {
  it('writes the message as an .eml file into MAIL_DIR and sends nothing', async () => {
    setEnv({ ...awsEnv, [mailEnv.mailDir]: join(folder, 'mail') });
    const inputs = fakeSes(() => new Error('SES must not be called locally'));

    const { messageId } = await sendMail(invoiceMail());

    expect(inputs).toEqual([]);
    expect(messageId).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d{4}-[0-9a-f]{16}$/);
    expect(readdirSync(join(folder, 'mail'))).toEqual([`${messageId}.eml`]);
    const [mail] = mailbox(join(folder, 'mail'));
    expect(mail!.header('From')).toBe(SENDER);
    expect(mail!.header('Subject')).toBe(SUBJECT);
    expect(mail!.attachments[0]!.content.equals(Buffer.from(pdf))).toBe(true);
  });

  it('keeps every message: each send a file, in the order sent (also within one millisecond)', async () => {
    setEnv({ ...awsEnv, [mailEnv.mailDir]: folder });
    const subjects = Array.from({ length: 20 }, (_, index) => `message ${String(index).padStart(2, '0')}`);
    const sent = [];
    for (const subject of subjects) sent.push(await sendMail({ to: 'a@example.com', subject, text: subject }));
    expect(new Set(sent.map((mail) => mail.messageId)).size).toBe(subjects.length);
    expect(mailbox(folder).map((mail) => mail.header('Subject'))).toEqual(subjects);
  });

  it('without MAIL_FROM, sends from the stage placeholder', async () => {
    setEnv({ ...awsEnv, [mailEnv.mailDir]: folder, [mailEnv.mailFrom]: undefined, [env.stage]: 'local' });
    await sendMail({ to: 'a@example.com', subject: 's', text: 't' });
    expect(mailbox(folder)[0]!.header('From')).toBe('invoices@local.print-shop.example');
  });

  it('in local mode without MAIL_DIR, writes to <DATA_DIR>/mail, never to SES', async () => {
    setEnv({ ...awsEnv, [env.localMode]: 'true', DATA_DIR: folder });
    expect(mailConfig().mailDir).toBe(join(folder, 'mail'));
    const inputs = fakeSes(() => new Error('SES must not be called locally'));
    const { messageId } = await sendMail({ to: 'a@example.com', subject: 's', text: 't' });
    expect(inputs).toEqual([]);
    const written = readFileSync(join(folder, 'mail', `${messageId}.eml`), 'latin1');
    expect(written).toContain('To: a@example.com');
    expect(written).toContain(`From: ${SENDER}`);
  });
});

describe('sendMail through SES', () => {
  it('refuses to call SES without MAIL_FROM (a function of a route without `mail: true`)', async () => {
    setEnv({ ...awsEnv, [mailEnv.mailFrom]: undefined });
    const inputs = fakeSes(() => ({ MessageId: 'never' }));
    await expect(sendMail(invoiceMail())).rejects.toThrow(/MAIL_FROM is not set/);
    expect(inputs).toEqual([]);
  });

  it('sends the composed message raw, from MAIL_FROM, to the bare recipient address', async () => {
    setEnv(awsEnv);
    const inputs = fakeSes(() => ({ MessageId: 'ses-0001' }));

    await expect(sendMail(invoiceMail())).resolves.toEqual({ messageId: 'ses-0001' });

    expect(inputs).toHaveLength(1);
    const [input] = inputs;
    expect(input).toMatchObject({ FromEmailAddress: SENDER, Destination: { ToAddresses: ['buchhaltung@mueller.example'] } });
    const mail = parseMail(input!.Content!.Raw!.Data!);
    expect(mail.header('Subject')).toBe(SUBJECT);
    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual([
      'Rechnung INV-2026-000001.pdf',
      'Rechnung-INV-2026-000001-Müller.xml',
    ]);
    expect(await ses().config.region()).toBe('eu-central-1');
  });

  it("names the configuration set of MAIL_CONFIGURATION_SET (the stage's bounce and complaint handling), none without it", async () => {
    setEnv({ ...awsEnv, [mailEnv.configurationSet]: 'print-shop-prod-mail' });
    const inputs = fakeSes(() => ({ MessageId: 'ses-0002' }));
    await sendMail(invoiceMail());
    expect(inputs[0]).toMatchObject({ ConfigurationSetName: 'print-shop-prod-mail', FromEmailAddress: SENDER });

    setEnv({ ...awsEnv, [mailEnv.configurationSet]: undefined });
    await sendMail(invoiceMail());
    expect(inputs[1]).not.toHaveProperty('ConfigurationSetName');
  });

  it('turns MessageRejected into a 502 mail_not_sent, without SES wording or a stack in the answer', async () => {
    setEnv(awsEnv);
    const sesMessage =
      'Email address is not verified. The following identities failed the check in region EU-CENTRAL-1: buchhaltung@mueller.example';
    fakeSes(() => new MessageRejected({ message: sesMessage, $metadata: { httpStatusCode: 400 } }));

    const error = await sendMail(invoiceMail()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(MailNotSentError);
    expect(error).toMatchObject({ code: 'mail_not_sent', reason: 'MessageRejected' });
    expect((error as Error).cause).toBeInstanceOf(MessageRejected);
    const result = toErrorResult(error, 'req-mail-1');
    expect(result.statusCode).toBe(502);
    const body = JSON.parse(result.body);
    expect(body.error).toMatchObject({ code: 'mail_not_sent', message: 'The mail service rejected the message; it was not sent' });
    expect(result.body).not.toContain('EU-CENTRAL-1');
    expect(result.body).not.toContain('    at ');
  });

  it.each([
    ['MailFromDomainNotVerifiedException', MailFromDomainNotVerifiedException],
    ['AccountSuspendedException', AccountSuspendedException],
    ['SendingPausedException', SendingPausedException],
  ])('turns %s into mail_not_sent', async (name, Refusal) => {
    setEnv(awsEnv);
    const inputs = fakeSes(() => new Refusal({ message: `${name} from SES`, $metadata: { httpStatusCode: 400 } }));
    const error = await sendMail(invoiceMail()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'mail_not_sent', reason: name });
    expect(toErrorResult(error, 'req').statusCode).toBe(502);
    expect(inputs).toHaveLength(1); // a refusal is final: not retried
  });

  it('lets the SDK retry throttling, and reports a limit that outlasts the retries as mail_not_sent', async () => {
    setEnv(awsEnv);
    const throttled = () => new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', $metadata: { httpStatusCode: 429 } });
    let inputs = fakeSes((_input, attempt) => (attempt === 1 ? throttled() : { MessageId: 'ses-after-retry' }));
    await expect(sendMail({ to: 'a@example.com', subject: 's', text: 't' })).resolves.toEqual({ messageId: 'ses-after-retry' });
    expect(inputs).toHaveLength(2);
    expect(await ses().config.maxAttempts()).toBe(3);

    setSes(undefined);
    inputs = fakeSes(() => throttled());
    const error = await sendMail({ to: 'a@example.com', subject: 's', text: 't' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'mail_not_sent', reason: 'TooManyRequestsException' });
    expect(inputs).toHaveLength(3);
  }, 15_000);

  it('leaves any other failure unknown: a bare 500, nothing of it in the answer', async () => {
    setEnv(awsEnv);
    const denied = Object.assign(new Error('User arn:aws:sts::123456789012:assumed-role/x is not authorized to perform ses:SendEmail'), {
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 403 },
    });
    fakeSes(() => denied);
    const error = await sendMail(invoiceMail()).catch((caught: unknown) => caught);
    expect(error).toBe(denied);
    expect(error).not.toBeInstanceOf(DomainError);
    const result = toErrorResult(error, 'req');
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('123456789012');
  });
});
