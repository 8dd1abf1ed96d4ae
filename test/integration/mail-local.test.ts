/**
 * The local runner's mail folder: the handlers (in the global setup's process) and the test files
 * get the same MAIL_DIR, `mail/` in the run's temporary data folder, so mail never reaches SES and
 * tests can read what was sent (test/support/mail.ts).
 */
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { inject, describe, expect, it } from 'vitest';
import { mailEnv } from '#shared/mail/config';
import { sendMail } from '#shared/mail/send';
import { mailbox } from '#test/support/mail';

describe('mail under the local runner', () => {
  it('writes into mail/ of the temporary data folder, the folder the gateway handlers were given', async () => {
    const dir = inject('fixtures').env[mailEnv.mailDir]!;
    expect(process.env[mailEnv.mailDir]).toBe(dir);
    expect(basename(dir)).toBe('mail');
    expect(basename(dirname(dir))).toMatch(/^print-shop-test-/);
    expect(dir.startsWith(tmpdir())).toBe(true);

    const subject = `Probe ${Date.now()} – Grüße`;
    const { messageId } = await sendMail({ to: 'kunde@example.com', subject, text: 'Hallo' });
    const written = mailbox(dir).find((mail) => mail.file.endsWith(`${messageId}.eml`));
    expect(written?.header('Subject')).toBe(subject);
  });
});
