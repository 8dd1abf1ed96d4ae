/**
 * Product schema v1.1 renamed or removed four fields. A request that still sends one gets a 422
 * whose detail names the field and what replaced it — more useful to a client migrating from
 * v1.0 than a bare "Unknown field". The names never appear in a schema, so never in the OpenAPI
 * document or in a response.
 */
import * as z from 'zod';

export const RENAMED_PRODUCT_FIELDS: Readonly<Record<string, string>> = {
  sku: 'sku was removed in v1.1; identify products by id',
  status: 'status was replaced by is_active (boolean) in v1.1',
  category_id: 'category_id was replaced by category (string) in v1.1',
  min_quantity: 'min_quantity was renamed to min_qty in v1.1',
};

/**
 * A strict object whose unknown keys are reported one by one, with the migration message for the
 * renamed ones. Built as a loose object plus a check that always runs (`when`), so missing or
 * invalid known fields are reported in the same response; documented as additionalProperties: false.
 */
export function strictProductObject<T extends z.ZodRawShape>(shape: T) {
  return z.looseObject(shape).superRefine(
    (value, ctx) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return; // the type error says it all
      for (const key of Object.keys(value)) {
        if (Object.hasOwn(shape, key)) continue;
        const renamed = Object.hasOwn(RENAMED_PRODUCT_FIELDS, key) ? RENAMED_PRODUCT_FIELDS[key] : undefined;
        ctx.addIssue({ code: 'custom', path: [key], message: renamed ?? 'Unknown field' });
      }
    },
    { when: () => true },
  );
}
