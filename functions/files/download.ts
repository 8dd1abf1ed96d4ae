import * as fileOperations from '#shared/files/contract';
import { downloadFile } from '#shared/files/service';
import { ok, redirect } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

/** A 302 to a presigned GET (the file under its name); `?format=url`: the URL as JSON. */
export const handler = defineHandler(fileOperations.download, async ({ tenant, principal, params, query }) => {
  const download = await downloadFile(tenant, principal, params.id);
  return query.format === 'url' ? ok(download) : redirect(download.url);
});
