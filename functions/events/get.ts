import * as eventOperations from '#shared/event-log/contract';
import { getEvent } from '#shared/event-log/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';

export const handler = defineHandler(eventOperations.get, async ({ tenant, params }) => ok(await getEvent(tenant, params.id)));
