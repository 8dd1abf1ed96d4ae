import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { getJob } from '#shared/production/jobs';

export const handler = defineHandler(productionOperations.getJob, async ({ tenant, params }) => ok(await getJob(tenant, params.id)));
