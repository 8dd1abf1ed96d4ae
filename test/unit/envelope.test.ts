/**
 * Envelope encryption of stored secrets (shared/crypto/envelope.ts): with the local key file, and
 * with KMS — the minimal KMS client (shared/clients/kms.ts) against a stand-in KMS endpoint that
 * checks each request's SigV4 signature over exactly what arrived and binds each data key to its
 * encryption context as KMS does. Each kind of secret has its own context (shared/crypto/kinds.ts):
 * a value sealed as one kind never opens as another, also when its data key is cached; values
 * sealed before under the one shared context open as the kinds that had them, and only those.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes, createCipheriv, createDecipheriv } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { secretsKeyEnv } from '#shared/crypto/env';
import { dynamoBase } from '#shared/clients/dynamodb';
import { resetKms } from '#shared/clients/kms';
import { isCurrentSeal, isSealed, open, resetEnvelope, seal } from '#shared/crypto/envelope';
import { SECRET_KINDS, contextOf, type SecretKind } from '#shared/crypto/kinds';
import { ensureSecretsKey } from '#local-aws/secrets-key';
import { sealLegacy } from '#test/support/legacy-seal';

const secret = 'whsec_' + randomBytes(36).toString('base64');
const WEBHOOK: SecretKind = 'webhook-signing-secret';
const CREDENTIALS: SecretKind = 'carrier-credentials';
const CALLBACK: SecretKind = 'carrier-callback-secret';
const dir = mkdtempSync(join(tmpdir(), 'envelope-test-'));
const saved = { ...process.env };

afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.env = { ...saved };
  resetEnvelope();
  resetKms();
});

describe('with the local key file', () => {
  beforeEach(() => {
    process.env[secretsKeyEnv.localKeyFile] = ensureSecretsKey(join(dir, 'one'));
  });

  it('stores no plaintext and opens what it sealed', async () => {
    const stored = await seal(secret, 'owner-1', WEBHOOK);
    expect(isSealed(stored)).toBe(true);
    expect(isCurrentSeal(stored, WEBHOOK)).toBe(true);
    expect(stored.startsWith('enc2.webhook-signing-secret.local.')).toBe(true);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(6, 30));
    expect(await open(stored, 'owner-1', WEBHOOK)).toBe(secret);
    expect(await seal(secret, 'owner-1', WEBHOOK)).not.toBe(stored); // a fresh IV every time
  });

  it('does not open a value under another owner, or with another key file', async () => {
    const stored = await seal(secret, 'owner-1', WEBHOOK);
    await expect(open(stored, 'owner-2', WEBHOOK)).rejects.toThrow();
    resetEnvelope();
    process.env[secretsKeyEnv.localKeyFile] = ensureSecretsKey(join(dir, 'two'));
    await expect(open(stored, 'owner-1', WEBHOOK)).rejects.toThrow(/sealed with local key/);
  });

  it('never opens a value sealed as one kind as another — not by its label, not by its data key, not from the cache', async () => {
    for (const kind of SECRET_KINDS) {
      const stored = await seal(secret, 'owner-1', kind);
      expect(await open(stored, 'owner-1', kind)).toBe(secret); // its data key is cached now
      for (const other of SECRET_KINDS.filter((candidate) => candidate !== kind)) {
        await expect(open(stored, 'owner-1', other), `${kind} as ${other}`).rejects.toThrow(/sealed as/);
        // Relabelled as the other kind: the data key's context (the wrap's authenticated data) is still the first kind's.
        const relabelled = stored.replace(`enc2.${kind}.`, `enc2.${other}.`);
        await expect(open(relabelled, 'owner-1', other), `${kind} relabelled ${other}`).rejects.toThrow();
        resetEnvelope();
        await expect(open(relabelled, 'owner-1', other), `${kind} relabelled ${other}, cold`).rejects.toThrow();
        expect(await open(stored, 'owner-1', kind)).toBe(secret);
      }
    }
  });

  it('keeps one data key per kind: what it seals for one kind is wrapped under that kind only', async () => {
    const [callback, credentials] = [await seal(secret, 'owner-1', CALLBACK), await seal(secret, 'owner-1', CREDENTIALS)];
    expect(callback.split('.')[4]).not.toBe(credentials.split('.')[4]); // the wrapped data keys differ
    expect((await seal('x', 'owner-2', CALLBACK)).split('.')[4]).toBe(callback.split('.')[4]); // one per kind and container
  });

  it('reads a webhook secret stored before sealing existed as it is, and no other kind of plaintext', async () => {
    expect(isSealed(secret)).toBe(false);
    expect(await open(secret, 'owner-1', WEBHOOK)).toBe(secret);
    for (const kind of SECRET_KINDS.filter((candidate) => candidate !== WEBHOOK)) {
      await expect(open(secret, 'owner-1', kind), kind).rejects.toThrow(/not sealed/);
    }
  });

  it('opens values sealed before under the one shared context as the kinds that had them, never as the callback secret', async () => {
    const legacy = sealLegacy(secret, 'owner-1');
    expect(isSealed(legacy)).toBe(true);
    for (const kind of SECRET_KINDS) expect(isCurrentSeal(legacy, kind), kind).toBe(false);
    for (const kind of ['webhook-signing-secret', 'customer-token-signing-key', 'carrier-credentials'] as const) {
      expect(await open(legacy, 'owner-1', kind), kind).toBe(secret);
    }
    await expect(open(legacy, 'owner-1', CALLBACK)).rejects.toThrow(/shared context/);
    await expect(open(legacy, 'owner-2', CREDENTIALS)).rejects.toThrow(); // still bound to its owner
    // A value of the new form is never read through the old context, even with its data key swapped for an old one.
    const current = (await seal(secret, 'owner-1', CALLBACK)).split('.');
    const old = legacy.split('.');
    const mixed = [...current.slice(0, 3), old[2], old[3], ...current.slice(5)].join('.');
    await expect(open(mixed, 'owner-1', CALLBACK)).rejects.toThrow();
  });

  it('creates the key file once, readable only by its owner, keeps it, and refuses to replace a damaged one', () => {
    const file = ensureSecretsKey(join(dir, 'three'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const content = readFileSync(file, 'utf8');
    expect(ensureSecretsKey(join(dir, 'three'))).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(content);
    mkdirSync(join(dir, 'bad'));
    writeFileSync(join(dir, 'bad', 'secrets.key'), 'short');
    expect(() => ensureSecretsKey(join(dir, 'bad'))).toThrow(/not replaced/);
  });
});

/** A stand-in KMS: AES-GCM "wraps" data keys under one master key, after checking each request's signature. */
function fakeKms() {
  const master = randomBytes(32);
  const calls: { target: string; body: Record<string, unknown> }[] = [];
  const problems: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const target = String(request.headers['x-amz-target']);
      calls.push({ target, body: JSON.parse(body) });
      // Re-sign what arrived: the signature must match, so nothing was changed on the way.
      const authorization = String(request.headers.authorization);
      const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(';');
      const headers = Object.fromEntries(signedHeaders.map((name) => [name, String(request.headers[name])]));
      const signer = new SignatureV4({
        service: 'kms',
        region: 'eu-central-1',
        credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
        sha256: (dynamoBase().config as unknown as { sha256: never }).sha256,
      });
      const [date] = [String(request.headers['x-amz-date'])];
      const expected = await signer.sign(
        { method: 'POST', protocol: 'http:', hostname: '127.0.0.1', path: '/', query: {}, headers, body },
        { signingDate: new Date(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')) },
      );
      if (expected.headers.authorization !== authorization) problems.push(`bad signature for ${target}`);
      if (!authorization.includes('/eu-central-1/kms/aws4_request')) problems.push('not signed for kms');
      if (request.headers['content-type'] !== 'application/x-amz-json-1.1') problems.push('content type');
      const input = JSON.parse(body) as { EncryptionContext: unknown; CiphertextBlob?: string };
      const aad = Buffer.from(JSON.stringify(input.EncryptionContext));
      response.setHeader('content-type', 'application/x-amz-json-1.1');
      if (target === 'TrentService.GenerateDataKey') {
        const plaintext = randomBytes(32);
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(aad);
        const blob = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
        response.end(
          JSON.stringify({
            KeyId: 'arn:aws:kms:eu-central-1:1:key/k1',
            Plaintext: plaintext.toString('base64'),
            CiphertextBlob: blob.toString('base64'),
          }),
        );
      } else if (target === 'TrentService.Decrypt') {
        try {
          const blob = Buffer.from(input.CiphertextBlob!, 'base64');
          const decipher = createDecipheriv('aes-256-gcm', master, blob.subarray(0, 12)).setAAD(aad);
          decipher.setAuthTag(blob.subarray(blob.length - 16));
          const plaintext = Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]);
          response.end(JSON.stringify({ KeyId: 'arn:aws:kms:eu-central-1:1:key/k1', Plaintext: plaintext.toString('base64') }));
        } catch {
          response.statusCode = 400;
          response.end(JSON.stringify({ __type: 'InvalidCiphertextException', message: 'bad' }));
        }
      } else {
        response.statusCode = 400;
        response.end(JSON.stringify({ __type: 'UnknownOperationException' }));
      }
    });
  });
  return { server, calls, problems };
}

describe('with KMS', () => {
  const kms = fakeKms();
  beforeAll(() => new Promise<void>((resolve) => kms.server.listen(0, '127.0.0.1', () => resolve())));
  afterAll(() => new Promise<void>((resolve) => kms.server.close(() => resolve())));
  beforeEach(() => {
    const { port } = kms.server.address() as { port: number };
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_KMS: `http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: 'AKIDTEST',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_REGION: 'eu-central-1',
      [secretsKeyEnv.kmsKeyId]: 'arn:aws:kms:eu-central-1:1:key/k1',
    });
    delete process.env[secretsKeyEnv.localKeyFile];
    delete process.env.AWS_SESSION_TOKEN;
    kms.calls.length = 0;
  });

  it('seals with one data key per kind and container and opens each stored data key with one Decrypt', async () => {
    const stored = await Promise.all([
      seal(secret, 'owner-1', WEBHOOK),
      seal('whsec_other', 'owner-2', WEBHOOK),
      seal(secret, 'owner-3', WEBHOOK),
    ]);
    expect(kms.calls.map((call) => call.target)).toEqual(['TrentService.GenerateDataKey']);
    expect(kms.calls[0]!.body).toEqual({
      KeyId: 'arn:aws:kms:eu-central-1:1:key/k1',
      KeySpec: 'AES_256',
      EncryptionContext: { purpose: 'webhook-signing-secret' },
    });
    for (const value of stored) {
      expect(value.startsWith('enc2.webhook-signing-secret.kms.')).toBe(true);
      expect(value).not.toContain(secret);
    }
    resetEnvelope(); // another container: nothing cached
    expect(await open(stored[0]!, 'owner-1', WEBHOOK)).toBe(secret);
    expect(await open(stored[1]!, 'owner-2', WEBHOOK)).toBe('whsec_other');
    expect(await open(stored[2]!, 'owner-3', WEBHOOK)).toBe(secret);
    expect(kms.calls.map((call) => call.target)).toEqual(['TrentService.GenerateDataKey', 'TrentService.Decrypt']);
    expect(kms.calls[1]!.body.EncryptionContext).toEqual({ purpose: 'webhook-signing-secret' });
    expect(kms.problems).toEqual([]);
  });

  it("sends each kind's own encryption context, and KMS opens a data key only under the context it was made with", async () => {
    for (const kind of SECRET_KINDS) {
      kms.calls.length = 0;
      const stored = await seal(secret, 'owner-1', kind);
      expect(kms.calls.map((call) => call.body.EncryptionContext)).toEqual([contextOf(kind)]);
      for (const other of SECRET_KINDS.filter((candidate) => candidate !== kind)) {
        resetEnvelope();
        const relabelled = stored.replace(`enc2.${kind}.`, `enc2.${other}.`);
        await expect(open(relabelled, 'owner-1', other), `${kind} as ${other}`).rejects.toMatchObject({
          name: 'InvalidCiphertextException',
        });
        expect(kms.calls.at(-1)!.body.EncryptionContext).toEqual(contextOf(other));
      }
    }
  });

  it('reports what KMS refuses', async () => {
    const stored = await seal(secret, 'owner-1', WEBHOOK);
    const parts = stored.split('.');
    parts[4] = Buffer.from('not a data key of this key').toString('base64url');
    resetEnvelope();
    await expect(open(parts.join('.'), 'owner-1', WEBHOOK)).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
  });

  it('needs a key to seal with', async () => {
    delete process.env[secretsKeyEnv.kmsKeyId];
    await expect(seal(secret, 'owner-1', WEBHOOK)).rejects.toThrow(/WEBHOOK_SECRETS_KEY_ID/);
  });
});
