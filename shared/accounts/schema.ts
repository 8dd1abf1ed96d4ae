import * as z from 'zod';
import { KEY_KINDS, MODES } from '#shared/auth/keys';

/** `GET /v1/account`: the account and the key making the call (a view composed by service.ts describeCaller). */
export const AccountViewSchema = /* @__PURE__ */ z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.string(),
    currency: z.string(),
    tax_rate: z.number(),
    mode: z.enum(MODES),
    limits: z.object({ per_minute: z.number().int(), per_hour: z.number().int().nullable() }),
    key: z.object({ id: z.string(), prefix: z.string(), kind: z.enum(KEY_KINDS), scopes: z.array(z.string()) }),
  })
  .meta({ id: 'Account', description: 'The account and the key making the call' });

export type AccountView = z.output<typeof AccountViewSchema>;
