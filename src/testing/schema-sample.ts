import type { JSONSchema7 } from 'ai';
import type { Random } from './random.js';

/**
 * Random values that fit a JSON Schema (draft 7, the subset zod's
 * `toJSONSchema` and the AI SDK emit): types, enum, const, anyOf/oneOf/allOf,
 * objects with required and optional properties, arrays with bounds, strings
 * with bounds and a few formats, numbers with bounds, $ref into $defs or
 * definitions. What a grammar-constrained server would let a model say.
 * Strings are often words taken from the request (`words`), as a model echoes
 * its prompt, so that generated calls name things that exist.
 */

export interface SampleOptions {
  random: Random;
  /** Words to draw strings from (the request's own words, most often). */
  words?: readonly string[];
  /** Deepest nesting generated; deeper optional parts are left out, deeper required ones get their smallest value. */
  maxDepth?: number;
  /** Most items in a generated array when the schema gives no maximum. */
  maxItems?: number;
}

type Schema = JSONSchema7 | boolean;

const ODD_STRINGS = ['', ' ', 'null', 'undefined', '0', '-1', 'Ünïcödé ✓', 'e\u0301', '"quoted"', "O'Brien", 'a\nb', '<b>x</b>', 'DROP TABLE x', '$$', '`', '\\', '{}', '🙂'];
const FILLER = ['alpha', 'beta', 'open', 'closed', 'Ticket', 'User', 'TICKET-1', 'status', 'name', 'yes', 'no', 'stop', 'confirm', 'edit'];

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

export function sampleSchema(schema: JSONSchema7, options: SampleOptions): unknown {
  const root = schema;
  const { random } = options;
  const words = options.words?.length ? options.words : FILLER;
  const maxDepth = options.maxDepth ?? 6;
  const maxItems = options.maxItems ?? 4;

  const resolve = (ref: string): Schema => {
    // "#/$defs/Name", "#/definitions/Name", "#" (the root)
    if (ref === '#') return root;
    const parts = ref.replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at: unknown = root;
    for (const part of parts) at = (at as Record<string, unknown> | undefined)?.[part];
    return (at as Schema | undefined) ?? {};
  };

  /** A string that fits, its pattern too where one of a few tries matches it. */
  const string = (s: JSONSchema7): string => {
    if (!s.pattern) return anyString(s);
    let re: RegExp | null = null;
    try {
      re = new RegExp(s.pattern, 'u');
    } catch {
      return anyString(s);
    }
    let out = anyString(s);
    for (let i = 0; i < 12 && !re.test(out); i++) out = anyString(s);
    return out;
  };

  const anyString = (s: JSONSchema7): string => {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Math.max(min, 40);
    let out: string;
    switch (s.format) {
      case 'email':
        out = `${pick(random, ['ana', 'bo', 'x'])}@example.com`;
        break;
      case 'uuid':
        out = '00000000-0000-4000-8000-' + String(int(random, 0, 999999999999)).padStart(12, '0');
        break;
      case 'date-time':
        out = new Date(Date.UTC(2026, int(random, 0, 11), int(random, 1, 28), int(random, 0, 23))).toISOString();
        break;
      case 'date':
        out = `2026-${String(int(random, 1, 12)).padStart(2, '0')}-${String(int(random, 1, 28)).padStart(2, '0')}`;
        break;
      default: {
        const r = random();
        if (r < 0.6) out = pick(random, words);
        else if (r < 0.75) out = pick(random, ODD_STRINGS);
        else out = Array.from({ length: int(random, 1, 6) }, () => pick(random, words)).join(' ');
      }
    }
    // Lengths are counted in code points, as zod and JSON Schema count them.
    const points = [...out];
    if (points.length > max) out = points.slice(0, max).join('');
    while ([...out].length < min) out += pick(random, ['x', 'y', 'z']);
    return out;
  };

  const number = (s: JSONSchema7, integer: boolean): number => {
    const lo = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : (s.minimum ?? (random() < 0.5 ? 0 : -1000));
    const hi = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : (s.maximum ?? (random() < 0.5 ? 1 : 1000));
    const r = random();
    const raw = r < 0.15 ? lo : r < 0.3 ? hi : lo + random() * (hi - lo);
    return integer ? Math.min(Math.floor(hi), Math.max(Math.ceil(lo), Math.round(raw))) : raw;
  };

  const typesOf = (s: JSONSchema7): string[] => {
    if (Array.isArray(s.type)) return s.type;
    if (s.type) return [s.type];
    if (s.properties || s.required) return ['object'];
    if (s.items) return ['array'];
    return ['string', 'number', 'boolean', 'null', 'object', 'array'];
  };

  const gen = (schema: Schema, depth: number): unknown => {
    if (schema === true) return pick(random, words);
    if (schema === false) return null; // nothing fits: the caller should not have asked
    const s = schema;
    if (s.$ref) return gen(resolve(s.$ref), depth);
    if (s.const !== undefined) return s.const;
    if (s.enum) return pick(random, s.enum);
    if (s.anyOf?.length) return gen(pick(random, s.anyOf), depth);
    if (s.oneOf?.length) return gen(pick(random, s.oneOf), depth);
    if (s.allOf?.length) {
      // Merged shallowly: enough for zod's intersections of objects.
      const merged: JSONSchema7 = { ...s, allOf: undefined };
      for (const part of s.allOf) if (typeof part === 'object') Object.assign(merged, part, { properties: { ...merged.properties, ...part.properties }, required: [...(merged.required ?? []), ...(part.required ?? [])] });
      return gen(merged, depth);
    }
    const types = typesOf(s);
    const scalars = types.filter((t) => t !== 'object' && t !== 'array');
    const type = pick(random, depth >= maxDepth && scalars.length > 0 ? scalars : types);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return random() < 0.5;
      case 'integer':
        return number(s, true);
      case 'number':
        return number(s, false);
      case 'string':
        return string(s);
      case 'array': {
        const min = s.minItems ?? 0;
        const max = depth >= maxDepth ? min : Math.max(min, Math.min(s.maxItems ?? maxItems, min + maxItems));
        const count = int(random, min, max);
        if (Array.isArray(s.items)) return s.items.map((item: Schema) => gen(item, depth + 1));
        const items = Array.from({ length: count }, () => gen((s.items as Schema | undefined) ?? {}, depth + 1));
        if (!s.uniqueItems) return items;
        // Distinct items: duplicates drawn again a few times, then left out while above the minimum.
        const seen = new Set<string>();
        const out: unknown[] = [];
        for (let item of items) {
          for (let i = 0; i < 8 && seen.has(JSON.stringify(item)); i++) item = gen(s.items ?? {}, depth + 1);
          if (seen.has(JSON.stringify(item)) && out.length >= min) continue;
          seen.add(JSON.stringify(item));
          out.push(item);
        }
        return out;
      }
      case 'object': {
        const out: Record<string, unknown> = {};
        const required = new Set(s.required ?? []);
        for (const [key, prop] of Object.entries(s.properties ?? {})) {
          if (required.has(key) || (depth < maxDepth && random() < 0.5)) out[key] = gen(prop, depth + 1);
        }
        // Keys that match a pattern: the request's words that do, each with the pattern's value schema.
        for (const [pattern, prop] of Object.entries(s.patternProperties ?? {})) {
          if (depth >= maxDepth) break;
          let re: RegExp;
          try {
            re = new RegExp(pattern, 'u');
          } catch {
            continue;
          }
          const fits = words.filter((w) => re.test(w) && !(w in out));
          for (let i = int(random, 0, Math.min(3, fits.length)); i > 0; i--) out[pick(random, fits)] = gen(prop, depth + 1);
        }
        // A free-form object (a record) gets a few entries of its own.
        const extra = s.additionalProperties;
        if (!s.properties && !s.patternProperties && extra !== false && depth < maxDepth) {
          const names = typeof s.propertyNames === 'object' && s.propertyNames.enum ? (s.propertyNames.enum as string[]) : words;
          for (let i = int(random, 0, 3); i > 0; i--) out[pick(random, names)] = gen(typeof extra === 'object' ? extra : {}, depth + 1);
        }
        return out;
      }
      default:
        return null;
    }
  };

  return gen(schema, 0);
}

/** The distinct words of a text (letters, digits, - and _), as strings to draw from. */
export function wordsOf(text: string, limit = 400): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu)) {
    if (seen.size >= limit) break;
    seen.add(match[0]);
  }
  return [...seen];
}
