import fc from 'fast-check';
import { z } from 'zod';

/** The parts of a JSON Schema (as zod writes them) that shape generated values. */
interface JsonSchema {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
}

const isoDate = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/**
 * Values a client would plausibly send for a schema: mostly valid, so the fuzz reaches the code
 * behind validation, not only the validator.
 */
export function plausibleFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return plausible(json, json.$defs ?? {}, 0);
}

function plausible(schema: JsonSchema, defs: Record<string, JsonSchema>, depth: number): fc.Arbitrary<unknown> {
  if (schema.$ref) return plausible(defs[schema.$ref.replace('#/$defs/', '')] ?? {}, defs, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => plausible(s, defs, depth)));
  if (schema.allOf?.[0]) return plausible(schema.allOf[0], defs, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date') return isoDate;
      if (schema.format === 'date-time') return isoDate.map((d) => `${d}T10:00:00Z`);
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uri') return fc.constantFrom('https://example.com/a', 'https://app.example.org/cb');
      if (schema.pattern === '^[A-Z]{3}$') return fc.constantFrom('EUR', 'USD', 'GBP');
      return fc.string({ minLength: Math.max(1, schema.minLength ?? 0), maxLength: Math.min(schema.maxLength ?? 24, 24) });
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6) });
    case 'number':
      return fc.double({
        min: Math.max(schema.minimum ?? -1e4, -1e6),
        max: Math.min(schema.maximum ?? 1e4, 1e6),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      if (depth > 4 || !schema.items) return fc.constant([]);
      return fc.array(plausible(schema.items, defs, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      if (depth > 4 || !schema.properties) return fc.constant({});
      const keys = Object.keys(schema.properties);
      const required = (schema.required ?? []).filter((k) => keys.includes(k));
      return fc.record(Object.fromEntries(keys.map((k) => [k, plausible(schema.properties![k], defs, depth + 1)])), {
        requiredKeys: required,
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const deeplyNested = (levels: number): unknown => Array.from({ length: levels }).reduce((inner) => ({ a: inner }), 'bottom');

/**
 * JSON text of arrays `levels` deep. Sent as text: JSON.stringify cannot write such a value, and any
 * recursive walk of it overflows the stack, which is what a body this deep is for.
 */
export const deepJson = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** What an attacker sends instead of a field's value. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    '',
    ' ',
    'a\u0000b',
    '\u0000',
    'x'.repeat(300_000),
    1e308,
    -1e308,
    1e15,
    -0,
    Number.MAX_SAFE_INTEGER + 2,
    0.1 + 0.2,
    '0000-01-01',
    '9999-99-99',
    '2026-02-30',
    '10000-01-01T00:00:00Z',
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    "'; drop table transactions; --",
    '<script>alert(1)</script>',
    '\u202e\ud83d\ude00',
    '\ud800',
    [],
    {},
    [[[[[]]]]],
    { $ne: null },
    true,
    false,
    deeplyNested(200),
  ),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
);

/**
 * A request body that is wrong in one way: a field replaced by a hostile value, an unknown key, a
 * field dropped, or the whole body replaced by something that is not the object the route wants.
 */
export function hostileBody(schema: z.ZodType): fc.Arbitrary<unknown> {
  const valid = plausibleFor(schema);
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(valid, hostileValue, fc.nat()).map(([body, value, pick]) => replaceOne(body, value, pick)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), hostileValue)
        .map(([body, key, value]) => withKey(body, key, value)),
    },
    { weight: 2, arbitrary: fc.tuple(valid, fc.nat()).map(([body, pick]) => dropOne(body, pick)) },
    { weight: 1, arbitrary: hostileValue },
    { weight: 1, arbitrary: valid },
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function replaceOne(body: unknown, value: unknown, pick: number): unknown {
  if (!isRecord(body)) return value;
  const keys = Object.keys(body);
  if (!keys.length) return { field: value };
  return { ...body, [keys[pick % keys.length]]: value };
}

function withKey(body: unknown, key: string, value: unknown): unknown {
  return isRecord(body) ? { ...body, [key]: value } : { [key]: value };
}

function dropOne(body: unknown, pick: number): unknown {
  if (!isRecord(body)) return body;
  const keys = Object.keys(body);
  if (!keys.length) return body;
  const { [keys[pick % keys.length]]: _dropped, ...rest } = body;
  return rest;
}

/** Stands for the deep text in a body until it is written out (JSON.stringify cannot write that text itself). */
const DEEP_PLACEHOLDER = '\u0000deep-placeholder\u0000';

/**
 * A JSON text nested deeper than the gateway takes (64 levels): the whole body, or a plausible body
 * with one field holding the deep part. Every JSON door must answer it with 400.
 */
export function tooDeepText(schema: z.ZodType): fc.Arbitrary<string> {
  return fc
    .tuple(plausibleFor(schema), fc.constantFrom(65, 1_000, 10_000, 100_000), fc.nat(), fc.boolean())
    .map(([body, levels, pick, whole]) => {
      if (whole || !isRecord(body)) return deepJson(levels);
      const keys = Object.keys(body);
      const key = keys.length ? keys[pick % keys.length] : 'field';
      return JSON.stringify({ ...body, [key]: DEEP_PLACEHOLDER }).replace(JSON.stringify(DEEP_PLACEHOLDER), deepJson(levels));
    });
}

/**
 * A plausible body with one unknown key added to an object nested in it (a line item, a body under
 * `data`), or to the body itself when nothing is nested. Inputs refuse unknown keys at every depth,
 * so every door must answer it with 400.
 */
export function withUnknownKey(schema: z.ZodType): fc.Arbitrary<unknown> {
  return fc
    .tuple(plausibleFor(schema), fc.nat(), fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }))
    .map(([generated, pick, name, value]) => {
      const body = structuredClone(generated);
      const [top, ...nested] = objectsIn(body);
      const target = nested.length ? nested[pick % nested.length] : top;
      if (!target) return { [`unknown_${name}`]: value };
      target[`unknown_${name}`] = value;
      return body;
    });
}

/** Every plain object in a value, the value itself first. */
function objectsIn(value: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const pending = [value];
  for (let i = 0; i < pending.length; i++) {
    const v = pending[i];
    if (Array.isArray(v)) pending.push(...(v as unknown[]));
    else if (isRecord(v)) {
      found.push(v);
      pending.push(...Object.values(v));
    }
  }
  return found;
}

/**
 * A body a form endpoint (OAuth, the browser session) cannot read, sent as JSON: text that is not
 * JSON, JSON that is not an object of parameters, or JSON nested too deep.
 */
export const unreadableJsonBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{"client_id":', '{', '[', '"unterminated', 'nul', '{"a":1}}', '{"a" 1}', '\u0000'),
  fc
    .oneof(fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.array(fc.jsonValue({ maxDepth: 2 })))
    .map((v) => JSON.stringify(v)),
  fc.constantFrom(65, 1_000, 100_000).map((levels) => `{"client_id":${deepJson(levels)}}`),
);
