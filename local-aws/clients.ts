/**
 * How code reaches the emulators. Handlers never see this module: they build plain AWS SDK v3
 * clients, and the environment below (AWS_ENDPOINT_URL_<SERVICE>, read by the SDK itself) points
 * them at the local engines. Scripts here that create their own clients use localClientConfig().
 */
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './credentials';

export { LOCAL_CREDENTIALS, LOCAL_REGION } from './credentials';

export interface LocalEndpoints {
  dynamodb: string;
  sqs: string;
  s3: string;
}

export function localAwsEnv(endpoints: LocalEndpoints): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    // DynamoDB Local serves the Streams API on the same port.
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    // A developer's shell or ~/.aws/config may say to ignore the variables above.
    AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'false',
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    // Fake keys that all three emulators accept (see credentials.ts). They win over a developer's
    // real profile, since the SDK reads environment credentials first; a real session token from
    // the shell is blanked so it is not attached to local requests.
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: '',
    // The SDK's default CRC32 checksums send streamed uploads as aws-chunked with a trailer;
    // s3rver does not decode that and would store the chunk framing as the object's content.
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    // There is no environment variable for S3 path-style addressing in SDK v3. Endpoints here
    // are IP addresses (127.0.0.1), for which the SDK already uses path style; code should still
    // set `forcePathStyle: true` when LOCAL_MODE=true so a `localhost` endpoint works too.
  };
}

/** Client configuration for code in scripts/ and tests that talks to one emulator directly. */
export function localClientConfig(endpoint: string) {
  return {
    endpoint,
    region: LOCAL_REGION,
    credentials: { ...LOCAL_CREDENTIALS },
    forcePathStyle: true, // S3 only; other clients ignore it
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  } as const;
}
