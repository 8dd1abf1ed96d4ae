import { defineHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/envelope';
import { webhookOperations } from '../../shared/webhooks/contract';
import { rotateSecret } from '../../shared/webhooks/service';

export const handler = defineHandler(webhookOperations.rotateSecret, async ({ tenant, params }) => ok(await rotateSecret(tenant, params.id)));
