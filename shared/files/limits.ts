/**
 * How large a file may be, by the way it comes (docs/files.md).
 *
 * Through the API (`multipart/form-data`): API Gateway passes the body to Lambda base64-encoded,
 * and a synchronous Lambda invocation carries at most 6 MB (6,291,456 bytes) of event: 4/3 of the
 * body plus the request's headers. 4 MiB of file, with the form's framing, stays inside that.
 * Above it the API answers 413 `payload_too_large` and stores nothing.
 *
 * Presigned uploads go to S3 directly: up to 2 GiB (one POST; S3 takes up to 5 GB that way). Their
 * completion verifies one of up to SYNC_COMPLETE_MAX_BYTES itself (hashing and copying it takes a
 * second or two); a larger one is handed to the file worker, which streams it through the hash and
 * copies it off the request path, so that the request does the same bounded work at any size.
 * Preflight reads files up to PREFLIGHT_MAX_BYTES; a larger one is marked `skipped`.
 */
export const MAX_MULTIPART_FILE_BYTES = 4 * 1024 * 1024;
export const MAX_PRESIGNED_BYTES = 2 * 1024 * 1024 * 1024;
export const SYNC_COMPLETE_MAX_BYTES = 32 * 1024 * 1024;
export const PREFLIGHT_MAX_BYTES = 200 * 1024 * 1024;
/** How long a presigned upload or download URL is valid. */
export const PRESIGNED_SECONDS = 15 * 60;
