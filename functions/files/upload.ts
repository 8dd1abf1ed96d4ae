import * as fileOperations from '#shared/files/contract';
import { MAX_MULTIPART_FILE_BYTES } from '#shared/files/limits';
import { MultipartFieldsSchema, multipartUploadOf } from '#shared/files/multipart';
import { uploadFile } from '#shared/fulfilment/order-files';
import { created } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { multipartBody } from '#shared/http/middleware/multipart-body';
import { parseOrThrow } from '#shared/http/validation';

export const handler = defineHandler(
  fileOperations.upload,
  async ({ tenant, principal, event }) => {
    const fields = parseOrThrow(MultipartFieldsSchema, event.body ?? {}, 'upload');
    return created(await uploadFile(tenant, principal, multipartUploadOf(fields)));
  },
  {
    idempotency: idempotent(),
    body: multipartBody({
      maxFileBytes: MAX_MULTIPART_FILE_BYTES,
      tooLarge: `Files through the API are at most ${MAX_MULTIPART_FILE_BYTES} bytes (4 MiB); use POST /v1/files/uploads for larger ones`,
    }),
  },
);
