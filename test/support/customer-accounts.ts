/**
 * Customer accounts as a storefront makes them (docs/customer-auth.md): register, read the code
 * from the mail the local runner wrote, confirm it; then log in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { DataOf } from './api-types';
import { call } from './http';
import { parseMail, type ParsedMail } from './mail';

export const PASSWORD = 'correct horse battery';

const mailDir = () => process.env.MAIL_DIR!;

/** The names of the mails written so far (a mark to read later mails from). */
export const mailMark = (): Set<string> => {
  try {
    return new Set(readdirSync(mailDir()).filter((name) => name.endsWith('.eml')));
  } catch {
    return new Set();
  }
};

/** The mails to `email` written since `mark` (all of them without one), oldest first. */
export function mailsTo(email: string, mark: Set<string> = new Set()): ParsedMail[] {
  const names = [...mailMark()].filter((name) => !mark.has(name)).sort();
  return names
    .map((name) => parseMail(readFileSync(join(mailDir(), name))))
    .filter((mail) => mail.header('to')?.toLowerCase().includes(email.toLowerCase()));
}

/** The registration code (`reg_…`) in the newest mail to `email`, or undefined. */
export const registrationCodeFor = (email: string, mark?: Set<string>): string | undefined =>
  mailsTo(email, mark)
    .map((mail) => /reg_[\w-]{43}/.exec(mail.text ?? '')?.[0])
    .filter(Boolean)
    .at(-1);

/** The password-reset code (`prt_…`) in the newest mail to `email`, or undefined. */
export const resetCodeFor = (email: string, mark?: Set<string>): string | undefined =>
  mailsTo(email, mark)
    .map((mail) => /prt_[\w-]{43}/.exec(mail.text ?? '')?.[0])
    .filter(Boolean)
    .at(-1);

/** Registers through the storefront and confirms with the mailed code: the confirmation's answer (201: the customer). */
export async function signUp(publishable: string, input: { email: string; password?: string; name?: string }) {
  const mark = mailMark();
  const registered = await call('POST', '/v1/auth/register', {
    key: publishable,
    body: { email: input.email, password: input.password ?? PASSWORD, name: input.name ?? 'Customer' },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(202);
  const code = registrationCodeFor(input.email, mark);
  expect(code, `a registration code mailed to ${input.email}`).toBeDefined();
  return call('POST', '/v1/auth/register/confirm', { key: publishable, body: { code } });
}

/** A registered and confirmed customer, signed in: their id, email, access and refresh tokens. */
export async function signIn(
  publishable: string,
  input: { email: string; password?: string; name?: string },
): Promise<{ id: number; email: string; token: string; refresh: string; session: DataOf<'POST', '/v1/auth/login'> }> {
  const confirmed = await signUp(publishable, input);
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
  const session = await call('POST', '/v1/auth/login', {
    key: publishable,
    body: { email: input.email, password: input.password ?? PASSWORD },
  });
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  return {
    id: confirmed.body.data.id,
    email: input.email,
    token: session.body.data.access_token,
    refresh: session.body.data.refresh_token,
    session: session.body.data,
  };
}
