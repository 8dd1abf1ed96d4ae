/**
 * The two KMS calls envelope encryption needs — GenerateDataKey and Decrypt — over KMS's JSON
 * protocol (`application/x-amz-json-1.1`, `X-Amz-Target: TrentService.<Operation>`), signed with
 * the SDK's SignatureV4 using the DynamoDB client's credentials, region and SHA-256 (all of them
 * already in every bundle), sent with Node's fetch. The full `@aws-sdk/client-kms` adds about
 * 28 KiB to a bundle, which the delivery worker (344 KiB of the 350 KiB budget) cannot carry.
 * Only the functions that encrypt or decrypt webhook secrets import this (test/infra/bundles.test.ts).
 *
 * The endpoint is `https://kms.<region>.amazonaws.com` unless `AWS_ENDPOINT_URL_KMS` (the SDK's
 * own variable) names another.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { retry } from '#shared/async/retry';
import { dynamoBase } from './dynamodb';

/** A KMS error: `name` is the service's error type (`AccessDeniedException`, `InvalidCiphertextException`…). */
export class KmsError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

interface SdkConfig {
  credentials: () => Promise<Credentials>;
  region: () => Promise<string>;
  sha256: ConstructorParameters<typeof SignatureV4>[0]['sha256'];
}

let signer: Promise<{ sign: SignatureV4; endpoint: URL }> | undefined;

function setup() {
  signer ??= (async () => {
    const config = dynamoBase().config as unknown as SdkConfig;
    const region = await config.region();
    const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    const endpoint = new URL(process.env.AWS_ENDPOINT_URL_KMS ?? `https://kms.${region}.${suffix}`);
    return {
      sign: new SignatureV4({ service: 'kms', region, credentials: () => config.credentials(), sha256: config.sha256 }),
      endpoint,
    };
  })().catch((error: unknown) => {
    signer = undefined;
    throw error;
  });
  return signer;
}

/** KMS errors worth another attempt: throttling and the service's own failures. */
const retryable = (error: unknown) =>
  !(error instanceof KmsError) || error.status >= 500 || /Throttling|LimitExceeded|KMSInternal/.test(error.name);

async function call<T>(operation: string, input: Record<string, unknown>): Promise<T> {
  const { sign, endpoint } = await setup();
  return retry(
    async () => {
      const body = JSON.stringify(input);
      const signed = await sign.sign({
        method: 'POST',
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
        path: endpoint.pathname,
        query: {},
        headers: {
          host: endpoint.host,
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `TrentService.${operation}`,
        },
        body,
      });
      const { host: _host, ...headers } = signed.headers;
      const response = await fetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
      const text = await response.text();
      const parsed = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      if (!response.ok) {
        const type = String(parsed.__type ?? `HTTP${response.status}`)
          .split('#')
          .pop()!;
        throw new KmsError(type, String(parsed.message ?? parsed.Message ?? type), response.status);
      }
      return parsed as T;
    },
    { isRetryable: retryable, maxAttempts: 3, pauseMs: 50 },
  );
}

/** A new 256-bit data key: its plaintext (use, never store) and the same key encrypted under `keyId` (store). */
export async function generateDataKey(
  keyId: string,
  context: Record<string, string>,
): Promise<{ plaintext: Buffer; ciphertext: Buffer; keyId: string }> {
  const result = await call<{ Plaintext: string; CiphertextBlob: string; KeyId: string }>('GenerateDataKey', {
    KeyId: keyId,
    KeySpec: 'AES_256',
    EncryptionContext: context,
  });
  return {
    plaintext: Buffer.from(result.Plaintext, 'base64'),
    ciphertext: Buffer.from(result.CiphertextBlob, 'base64'),
    keyId: result.KeyId,
  };
}

/** The plaintext of an encrypted data key (the encryption context must be the one it was made with). */
export async function decryptDataKey(keyId: string, ciphertext: Buffer, context: Record<string, string>): Promise<Buffer> {
  const result = await call<{ Plaintext: string }>('Decrypt', {
    KeyId: keyId,
    CiphertextBlob: ciphertext.toString('base64'),
    EncryptionContext: context,
  });
  return Buffer.from(result.Plaintext, 'base64');
}

/** Tests: forget the signer (after changing the endpoint or credentials). */
export function resetKms(): void {
  signer = undefined;
}
