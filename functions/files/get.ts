import * as fileOperations from '#shared/files/contract';
import { getFile } from '#shared/files/service';
import { ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

export const handler = defineHandler(fileOperations.get, async ({ tenant, principal, params }) =>
  ok(await getFile(tenant, principal, params.id)),
);
