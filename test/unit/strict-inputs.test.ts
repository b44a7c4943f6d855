import { z } from 'zod';
import { OPERATIONS } from '../../api/operations';
import { trpcProcedures } from '../support/doors';

type Def = z.core.$ZodTypeDef & Record<string, unknown>;
const defOf = (schema: unknown) => (schema as z.ZodType)._zod.def as Def;

/**
 * Where `schema` has an object that does not refuse unknown keys, by path (`lineItems.*`: each
 * element of lineItems). Records are free-form by design and only their values are looked into.
 */
function looseObjects(schema: z.ZodType, opts: { ownKeysMayBeLoose: boolean }): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const walk = (s: unknown, path: string, top: boolean): void => {
    if (seen.has(s)) return;
    seen.add(s);
    const def = defOf(s);
    const same = (...parts: unknown[]) => parts.forEach((part) => walk(part, path, top));
    const below = (key: string, child: unknown) => walk(child, path ? `${path}.${key}` : key, false);
    switch (def.type) {
      case 'object':
        if (defOf(def.catchall ?? z.unknown()).type !== 'never' && !(top && opts.ownKeysMayBeLoose)) found.push(path || '(root)');
        for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) below(key, field);
        break;
      case 'array':
        below('*', def.element);
        break;
      case 'record':
        below('{key}', def.valueType);
        break;
      case 'tuple':
        (def.items as unknown[]).forEach((item, i) => below(String(i), item));
        if (def.rest) below('*', def.rest);
        break;
      case 'union':
        same(...(def.options as unknown[]));
        break;
      case 'intersection':
        same(def.left, def.right);
        break;
      case 'pipe':
        same(def.in, def.out);
        break;
      case 'lazy':
        same((def.getter as () => unknown)());
        break;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
        same(def.innerType);
        break;
    }
  };
  walk(schema, '', true);
  return found;
}

describe('request inputs refuse unknown keys at every depth', () => {
  it('finds a loose object wherever it sits (the check itself)', () => {
    const item = z.object({ vatRate: z.number() });
    const input = z.object({ lineItems: z.array(item).optional(), meta: z.record(z.string(), z.unknown()) }).strict();
    expect(looseObjects(input, { ownKeysMayBeLoose: false })).toEqual(['lineItems.*']);
    expect(looseObjects(z.object({ a: item.strict() }), { ownKeysMayBeLoose: true })).toEqual([]);
    expect(looseObjects(z.object({ a: item.strict() }), { ownKeysMayBeLoose: false })).toEqual(['(root)']);
  });

  it('every object nested in an operation input is strict', () => {
    // A query's own keys come from a URL over REST, where unknown parameters are not refused; a
    // mutation's top level is made strict for tRPC by its door (checked below).
    const loose = OPERATIONS.flatMap((op) =>
      op.input ? looseObjects(op.input, { ownKeysMayBeLoose: true }).map((path) => `${op.name}: ${path}`) : [],
    );
    expect(loose).toEqual([]);
  });

  it('every tRPC mutation refuses unknown keys from its top level down', () => {
    const mutations = trpcProcedures().filter(([, p]) => p._def.type === 'mutation' && p._def.inputs[0]);
    expect(mutations.length).toBeGreaterThan(50);
    const loose = mutations.flatMap(([name, p]) =>
      looseObjects(p._def.inputs[0], { ownKeysMayBeLoose: false }).map((path) => `${name}: ${path}`),
    );
    expect(loose).toEqual([]);
  });
});
