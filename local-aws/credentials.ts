/**
 * The one set of fake credentials and the region every local client uses.
 *
 * s3rver only accepts signatures made with its built-in key pair S3RVER/S3RVER (it has no
 * "accept anything" mode short of allowMismatchedSignatures, which would also hide real signing
 * bugs in presigned URLs). DynamoDB Local (run with -sharedDb) and local-aws-sqs accept any key,
 * so S3RVER/S3RVER works for all three emulators and nobody has to pick per service.
 */
export const LOCAL_REGION = 'eu-central-1';

export const LOCAL_CREDENTIALS = {
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
} as const;
