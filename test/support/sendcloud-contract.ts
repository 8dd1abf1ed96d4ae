/**
 * The contract the fake Sendcloud holds every request to: the project's own JSON Schemas of the
 * Sendcloud v3 requests the adapter sends, written from Sendcloud's published descriptions —
 * "Sendcloud API v3 OpenAPI description, shipments" (operation `POST /shipments/announce`, its
 * request schema `shipment-request-sync-announce` and what it is made of; `POST
 * /shipments/{id}/cancel`; the lookup `GET /shipments` and its query parameters), "Sendcloud API v3
 * OpenAPI description, parcel documents" (`GET /parcels/{id}/documents/{type}`) and "… parcel
 * tracking" (`GET /parcels/tracking/{tracking_number}`) and "… returns" (`POST
 * /returns/announce-synchronously`, request body `CreateReturn`), all Apache 2.0. Nothing here is copied
 * from those files: each rule restates what they state, and names the schema it comes from.
 *
 * Stricter than the descriptions in one respect, on purpose: unknown fields are refused
 * (`additionalProperties: false`), because Sendcloud answers them with its `unknown_field` error
 * code (schema `ErrorObject`), and a misspelt field would otherwise be silently dropped.
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { EU_CUSTOMS_AREA } from '#shared/shipments/carriers/customs-area';

/** Schema `address` (every field optional there; `name`, `postal_code`, `city`, `country_code` at least one character). */
const addressFields = {
  name: { type: 'string', minLength: 1 },
  company_name: { type: 'string' },
  address_line_1: { type: 'string' },
  house_number: { type: 'string' },
  address_line_2: { type: 'string' },
  postal_code: { type: 'string', minLength: 1 },
  city: { type: 'string', minLength: 1 },
  po_box: { type: ['string', 'null'] },
  // "The character state code … represented as ISO 3166-2 code" (example `IT-RM`): a country, a hyphen, 1–3 letters or digits.
  state_province_code: { type: 'string', pattern: '^[A-Z]{2}-[A-Z0-9]{1,3}$' },
  // "represented as ISO 3166-1 alpha-2"
  country_code: { type: 'string', pattern: '^[A-Z]{2}$' },
  email: { type: 'string', format: 'email' },
  phone_number: { type: 'string' },
} as const;

/** Schema `address-with-required-fields`. */
const fullAddress = {
  type: 'object',
  properties: addressFields,
  required: ['name', 'address_line_1', 'postal_code', 'city', 'country_code'],
  additionalProperties: false,
} as const;

/** Schema `address-with-sender-address-id`: a sender address configured at Sendcloud, by id ("with optional address field overrides"). */
const senderAddressById = {
  type: 'object',
  properties: { sender_address_id: { type: 'integer' }, ...addressFields },
  required: ['sender_address_id'],
  additionalProperties: false,
} as const;

/** Schema `required-price` (`Price` with both fields required). */
const price = {
  type: 'object',
  properties: {
    value: { type: 'string', pattern: '^\\d+(\\.\\d+)?$' },
    currency: { type: 'string', minLength: 3, maxLength: 3 },
  },
  required: ['value', 'currency'],
  additionalProperties: false,
} as const;

/** Schema `optional-price`. */
const optionalPrice = { anyOf: [{ type: 'null' }, price] } as const;

/** Schemas `dimension-units`, `weight-units`. */
export const DIMENSION_UNITS = ['cm', 'mm', 'm', 'yd', 'ft', 'in'] as const;
export const WEIGHT_UNITS = ['kg', 'g', 'lbs', 'oz'] as const;

/** Schema `parcel-item` (`parcel-item-with-optional-fields` with `hs_code`, `weight`, `description`, `price`, `quantity` required). */
const parcelItem = {
  type: 'object',
  properties: {
    item_id: { type: 'string', minLength: 1 },
    description: { type: 'string', minLength: 1, maxLength: 255 },
    quantity: { type: 'integer', minimum: 1 },
    // Schema `weight`: a number here, unlike the parcel's decimal string.
    weight: {
      type: 'object',
      properties: { value: { type: 'number', exclusiveMinimum: 0 }, unit: { enum: WEIGHT_UNITS } },
      required: ['value', 'unit'],
      additionalProperties: false,
    },
    price,
    hs_code: { type: 'string', maxLength: 12 },
    origin_country: { type: 'string', pattern: '^[A-Z]{2}$' },
    sku: { type: 'string' },
    product_id: { type: 'string' },
    properties: { type: 'object' },
  },
  required: ['hs_code', 'weight', 'description', 'price', 'quantity'],
  additionalProperties: false,
} as const;

/** Schema `parcel-common`: `str-weight` required, `str-dimensions` optional (each measure a string, with its unit). */
const parcel = {
  type: 'object',
  properties: {
    dimensions: {
      type: 'object',
      properties: {
        length: { type: 'string' },
        width: { type: 'string' },
        height: { type: 'string' },
        unit: { enum: DIMENSION_UNITS },
      },
      required: ['length', 'width', 'height', 'unit'],
      additionalProperties: false,
    },
    weight: {
      type: 'object',
      properties: { value: { type: 'string' }, unit: { enum: WEIGHT_UNITS } },
      required: ['value', 'unit'],
      additionalProperties: false,
    },
    additional_insured_price: optionalPrice,
    label_notes: { type: ['array', 'null'], maxItems: 255, items: { type: 'string', minLength: 1, maxLength: 255 } },
    parcel_items: { type: 'array', maxItems: 1000, items: parcelItem },
  },
  required: ['weight'],
  additionalProperties: false,
} as const;

/** Schema `customs-information` (`customs-information-with-optional-fields` with `invoice_number` and `export_reason` required). */
const customsInformation = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string', minLength: 1, maxLength: 40 },
    export_reason: { enum: ['gift', 'documents', 'commercial_goods', 'commercial_sample'] },
    export_type: { enum: ['private', 'commercial_b2c', 'commercial_b2b'] },
    invoice_date: { type: 'string', format: 'date' },
    discount_granted: optionalPrice,
    freight_costs: optionalPrice,
    insurance_costs: optionalPrice,
    other_costs: optionalPrice,
    goods_description: { type: 'string', maxLength: 255 },
    general_notes: { type: 'string', maxLength: 500 },
    additional_declaration_statements: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 1024 } },
    importer_of_record: { type: ['object', 'null'] },
    tax_numbers: { type: 'object' },
  },
  required: ['invoice_number', 'export_reason'],
  additionalProperties: false,
} as const;

/**
 * `POST /shipments/announce`, schema `shipment-request-sync-announce`: `shipment-request`
 * (`shipment-common` + `from_address`) with 1 to 15 `parcel-common` parcels. Plus the rule its
 * description states in prose ("International shipments"): to a destination outside the EU,
 * `customs_information` and the parcels' items (each with `hs_code` and `origin_country`, "required
 * if it's an international shipment") are mandatory — the EU customs area is one table
 * (shared/shipments/carriers/customs-area.ts) — and "mixed currencies are not accepted": every
 * price of the request in one currency (checked in `contractErrors`, which JSON Schema cannot say).
 */
export const announceRequestSchema = {
  $id: 'sendcloud-v3/announce-request',
  type: 'object',
  properties: {
    brand_id: { type: 'integer' },
    // Schema `ship-with`: the only type is `shipping_option_code`, which then "is mandatory".
    ship_with: {
      type: 'object',
      properties: {
        type: { enum: ['shipping_option_code'] },
        properties: {
          type: 'object',
          properties: {
            shipping_option_code: { type: 'string', minLength: 1 },
            contract_id: { type: ['integer', 'null'], minimum: 1 },
          },
          required: ['shipping_option_code'],
          additionalProperties: false,
        },
      },
      required: ['type', 'properties'],
      additionalProperties: false,
    },
    to_address: fullAddress,
    // `shipment-request`: required; either a full address or a `sender_address_id`.
    from_address: { oneOf: [senderAddressById, fullAddress] },
    order_number: { type: 'string' },
    total_order_price: optionalPrice,
    reference: { type: ['string', 'null'] },
    // "must be unique across shipments of the user": the fake answers a second use 409.
    external_reference_id: { type: ['string', 'null'] },
    validation_methods: { type: 'array', items: { enum: ['here'] } },
    customs_information: customsInformation,
    to_service_point: { type: 'object' },
    // Schema `label-details`.
    label_details: {
      type: 'object',
      properties: {
        mime_type: { enum: ['application/pdf', 'application/zpl', 'image/png'] },
        dpi: { enum: [72, 203, 300, 600] },
      },
      additionalProperties: false,
    },
    delivery_dates: { type: ['object', 'null'] },
    parcels: { type: 'array', minItems: 1, maxItems: 15, items: parcel },
  },
  required: ['to_address', 'ship_with', 'from_address', 'parcels'],
  additionalProperties: false,
  if: {
    type: 'object',
    properties: {
      to_address: { type: 'object', properties: { country_code: { not: { enum: [...EU_CUSTOMS_AREA] } } }, required: ['country_code'] },
    },
    required: ['to_address'],
  },
  then: {
    type: 'object',
    required: ['customs_information'],
    properties: {
      parcels: {
        type: 'array',
        items: {
          type: 'object',
          required: ['parcel_items'],
          properties: {
            parcel_items: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['hs_code', 'origin_country'],
                properties: { hs_code: { type: 'string', minLength: 1 }, origin_country: { type: 'string', minLength: 2 } },
              },
            },
          },
        },
      },
    },
  },
} as const;

/** `POST /shipments/{id}/cancel`: the shipment's id in the path (a string), and no request body (the operation documents none). */
export const cancelRequestSchema = {
  $id: 'sendcloud-v3/cancel-request',
  type: 'object',
  properties: { id: { type: 'string', minLength: 1 }, body: { type: 'null' } },
  required: ['id', 'body'],
  additionalProperties: false,
} as const;

/**
 * `GET /parcels/{id}/documents/{type}` (parcel documents): parameters `id` (an integer from 1), `type`,
 * `dpi` and `paper_size` (query), and the format chosen by the `Accept` header (default PDF).
 */
export const documentRequestSchema = {
  $id: 'sendcloud-v3/document-request',
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    type: { enum: ['label', 'customs-declaration', 'air-waybill'] },
    accept: { enum: ['application/pdf', 'application/zpl', 'image/png'] },
    dpi: { enum: [72, 150, 203, 300, 600] },
    paper_size: { enum: ['A4', 'A5', 'A6'] },
    body: { type: 'null' },
  },
  required: ['id', 'type', 'body'],
  additionalProperties: false,
} as const;

/**
 * `GET /shipments` (shipments, "Retrieve shipments"): only the documented query parameters, each a
 * string (`page_size` an integer from 1), and no body. The adapter's lookup by reference sends
 * `external_reference_id`.
 */
export const shipmentsLookupSchema = {
  $id: 'sendcloud-v3/shipments-lookup',
  type: 'object',
  properties: {
    query: {
      type: 'object',
      properties: {
        parcel_status: { type: 'string', minLength: 1 },
        tracking_number: { type: 'string', minLength: 1 },
        external_reference_id: { type: 'string', minLength: 1 },
        order_number: { type: 'string', minLength: 1 },
        integration_id: { type: 'string', minLength: 1 },
        updated_before: { type: 'string' },
        updated_after: { type: 'string' },
        announced_before: { type: 'string' },
        announced_after: { type: 'string' },
        ids: { type: 'string' },
        shipment_uuids: { type: 'string' },
        cursor: { type: 'string' },
        page_size: { type: 'integer', minimum: 1 },
      },
      additionalProperties: false,
    },
    body: { type: 'null' },
  },
  required: ['query', 'body'],
  additionalProperties: false,
} as const;

/** `GET /parcels/tracking/{tracking_number}` (parcel tracking): the tracking number in the path (a string), no query, no body. */
export const trackingRequestSchema = {
  $id: 'sendcloud-v3/tracking-request',
  type: 'object',
  properties: {
    tracking_number: { type: 'string', minLength: 1 },
    query: { type: 'object', maxProperties: 0 },
    body: { type: 'null' },
  },
  required: ['tracking_number', 'query', 'body'],
  additionalProperties: false,
} as const;

/** Returns' schema `weight`: a number (not the announce's decimal string) with its unit. */
const numberWeight = {
  type: 'object',
  properties: { value: { type: 'number', exclusiveMinimum: 0 }, unit: { enum: WEIGHT_UNITS } },
  required: ['value', 'unit'],
  additionalProperties: false,
} as const;

/**
 * `POST /returns/announce-synchronously` (returns, request body `CreateReturn`): `from_address`,
 * `to_address` (`address-with-required-fields`), `ship_with` (`ShipWith`: `shipping_option_code`
 * "required if `type` is `shipping_option_code`") and `weight` required; `dimensions` numbers with
 * their unit; `parcel_items` (`parcel-item-returns-create`: price `price-with-any-currency`, a number
 * with an ISO 4217 code). From outside the EU ("The `parcel_items` field is mandatory if you're
 * creating a return from outside the EU"; `customs_invoice_nr` "required if it's an international
 * return"): both required, each item with its HS code and origin.
 */
export const returnRequestSchema = {
  $id: 'sendcloud-v3/return-request',
  type: 'object',
  properties: {
    from_address: fullAddress,
    to_address: fullAddress,
    ship_with: {
      type: 'object',
      properties: {
        type: { enum: ['shipping_option_code', 'shipping_product_code'] },
        shipping_option_code: { type: 'string', minLength: 1 },
        shipping_product_code: { type: 'string', minLength: 1 },
        functionalities: { type: 'object' },
        contract: { type: 'integer' },
      },
      if: { type: 'object', properties: { type: { const: 'shipping_option_code' } }, required: ['type'] },
      then: { type: 'object', required: ['shipping_option_code'] },
      additionalProperties: false,
    },
    dimensions: {
      type: 'object',
      properties: {
        length: { type: 'number', minimum: 0 },
        width: { type: 'number', minimum: 0 },
        height: { type: 'number', minimum: 0 },
        unit: { enum: DIMENSION_UNITS },
      },
      required: ['length', 'width', 'height', 'unit'],
      additionalProperties: false,
    },
    weight: numberWeight,
    collo_count: { type: 'integer', minimum: 1 },
    parcel_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          item_id: { type: ['string', 'null'] },
          description: { type: 'string', minLength: 1 },
          quantity: { type: 'integer', minimum: 1 },
          weight: numberWeight,
          price: {
            type: 'object',
            properties: { value: { type: 'number' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
            required: ['value', 'currency'],
            additionalProperties: false,
          },
          hs_code: { type: 'string', maxLength: 12 },
          origin_country: { type: 'string', pattern: '^[A-Z]{2}$' },
          sku: { type: 'string' },
          product_id: { type: 'string' },
        },
        required: ['description', 'quantity', 'weight', 'price'],
        additionalProperties: false,
      },
    },
    send_tracking_emails: { type: 'boolean' },
    brand_id: { type: 'integer', minimum: 1 },
    order_number: { type: 'string' },
    external_reference: { type: 'string' },
    customs_invoice_nr: { type: ['string', 'null'] },
    delivery_option: { enum: ['drop_off_point', 'drop_off_labelless', 'pickup', 'in_store', null] },
    customs_information: { type: 'object' },
    apply_rules: { type: 'boolean' },
  },
  required: ['from_address', 'to_address', 'ship_with', 'weight'],
  additionalProperties: false,
  if: {
    type: 'object',
    properties: {
      from_address: { type: 'object', properties: { country_code: { not: { enum: [...EU_CUSTOMS_AREA] } } }, required: ['country_code'] },
    },
    required: ['from_address'],
  },
  then: {
    type: 'object',
    required: ['parcel_items', 'customs_invoice_nr'],
    properties: {
      customs_invoice_nr: { type: 'string', minLength: 1 },
      parcel_items: { type: 'array', minItems: 1, items: { type: 'object', required: ['hs_code', 'origin_country'] } },
    },
  },
} as const;

/** One error as Sendcloud writes them (schema `ErrorObject`; `status`, `code` and `detail` required in `errors`). */
export interface SendcloudError {
  status: string;
  code: string;
  detail: string;
  source?: { pointer: string };
}

// strictRequired off: the customs rule's `then` requires fields the main schema defines.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats(ajv);
const validators = {
  announce: ajv.compile(announceRequestSchema),
  cancel: ajv.compile(cancelRequestSchema),
  document: ajv.compile(documentRequestSchema),
  lookup: ajv.compile(shipmentsLookupSchema),
  tracking: ajv.compile(trackingRequestSchema),
  return: ajv.compile(returnRequestSchema),
};
export type ContractOperation = keyof typeof validators;

/** Ajv's errors as Sendcloud's 400 answers them: a JSON:API error per field, with its pointer and one of its documented codes. */
function asSendcloudErrors(errors: ErrorObject[]): SendcloudError[] {
  const answered: SendcloudError[] = [];
  for (const error of errors) {
    // The umbrella errors of `if`/`oneOf`/`anyOf` repeat what their branches say.
    if (['if', 'oneOf', 'anyOf'].includes(error.keyword) && errors.length > 1) continue;
    const params = error.params as Record<string, unknown>;
    let pointer = error.instancePath;
    let code = 'invalid';
    let detail = error.message ?? 'Invalid value.';
    if (error.keyword === 'required') {
      pointer = `${pointer}/${String(params.missingProperty)}`;
      code = 'required';
      detail = 'This field is required.';
    } else if (error.keyword === 'additionalProperties') {
      pointer = `${pointer}/${String(params.additionalProperty)}`;
      code = 'unknown_field';
      detail = 'Unknown field.';
    } else if (error.keyword === 'enum') {
      code = 'invalid_choice';
      detail = 'This is not a valid choice.';
    } else if (error.keyword === 'minimum' || error.keyword === 'exclusiveMinimum') {
      code = 'min_value';
    } else if (error.keyword === 'minLength' && params.limit === 1) {
      detail = 'This field may not be blank.';
    } else if (error.keyword === 'maxItems') {
      detail = `Ensure this field has no more than ${String(params.limit)} elements.`;
    } else if (error.keyword === 'type' && params.type === 'array') {
      code = 'not_a_list';
    }
    if (answered.some((seen) => seen.source?.pointer === pointer && seen.code === code)) continue;
    answered.push({ status: '400', code, detail, source: { pointer } });
  }
  return answered;
}

/** The request's breaches of the contract of `operation`, as Sendcloud would answer them (none: an empty list). */
export function contractErrors(operation: ContractOperation, request: unknown): SendcloudError[] {
  const validate = validators[operation];
  const errors = validate(request) ? [] : asSendcloudErrors(validate.errors ?? []);
  return operation === 'announce' || operation === 'return' ? [...errors, ...mixedCurrencies(request)] : errors;
}

/** "Mixed currencies are not accepted": every `currency` of an announce the same (the shipments description's announce). */
function mixedCurrencies(request: unknown): SendcloudError[] {
  const seen: { pointer: string; currency: string }[] = [];
  const walk = (value: unknown, pointer: string) => {
    if (Array.isArray(value)) value.forEach((inner, index) => walk(inner, `${pointer}/${index}`));
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'currency' && typeof inner === 'string') seen.push({ pointer: `${pointer}/currency`, currency: inner });
        else walk(inner, `${pointer}/${key}`);
      }
    }
  };
  walk(request, '');
  const first = seen[0]?.currency;
  return seen
    .filter((entry) => entry.currency !== first)
    .map((entry) => ({ status: '400', code: 'invalid', detail: 'Mixed currencies are not accepted.', source: { pointer: entry.pointer } }));
}
