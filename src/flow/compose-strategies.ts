import { z } from 'zod';
import type { AnswerSpec, FlowDocument, FlowNode } from './schema.js';

/**
 * How two layers' values for one field are combined, and which strategy each
 * field of a flow document gets. The merge itself is in `compose.ts`.
 *
 * - `override`: the later layer's value wins; a different value replacing
 *   another is recorded as a change.
 * - `deep`: objects are merged key by key, each key with its own strategy;
 *   anything else (arrays included) is replaced as by `override`.
 * - `concat`: lists are appended, items already present dropped (strings
 *   compared ignoring case, as the flow compares categories and phrases;
 *   other items by their JSON). Something other than a list on either side
 *   is a conflict.
 * - `error`: a later layer giving a different value is a conflict, and the
 *   composition is refused. For objects, each key the later layer gives is
 *   compared (nested objects likewise), everything inside under `error`
 *   whatever its own strategy; keys no earlier layer set may be added.
 *
 * Whatever the strategy, a value set where no earlier layer set one is added.
 */
export const MergeStrategySchema = z.enum(['override', 'deep', 'concat', 'error']);
export type MergeStrategy = z.infer<typeof MergeStrategySchema>;

/**
 * A field path: keys from the document's root, with nodes and edges keyed by
 * what identifies them rather than by position: `["nodes", "q1", "prompt"]`,
 * `["nodes", "q1", "answer", "synonyms", "Yes"]`, `["edges", "q1", "answered", "to"]`
 * (an edge is `edges.<from>.<outcome>`).
 */
export type FieldPath = readonly string[];

/**
 * Path patterns, as used in `ComposeOptions.strategies`:
 *
 * - segments are separated by `.`: `nodes.*.prompt`;
 * - a bare segment (letters, digits, `_`, `-`, `$`) names one key exactly,
 *   case included;
 * - any other key is written as a JSON string: `nodes.q1.answer.synonyms."New patient"`;
 * - `*` stands for exactly one segment (a node id, a field, a category, an outcome);
 * - `**` stands for any number of segments, none included: `nodes.q1.**`
 *   is the node `q1` and everything in it.
 *
 * A pattern names whole paths: `nodes.*` is a node, not its fields. Items of a
 * list are not addressable: a strategy applies to a list as a whole.
 *
 * Every path in a composition report, printed with {@link formatPath}, is a
 * pattern that names exactly that path.
 */
export type PathPattern = readonly PatternSegment[];
export type PatternSegment = { literal: string } | '*' | '**';

const BARE = /^[A-Za-z0-9_$-]+$/;

/** Parses a pattern, or says what is wrong with it. */
export function parsePathPattern(text: string): PathPattern | { error: string } {
  const segments: PatternSegment[] = [];
  let i = 0;
  while (true) {
    if (text[i] === '"') {
      // A JSON string: find its closing quote, skipping escaped characters.
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) return { error: `unterminated quoted segment at character ${i + 1}` };
      let literal: unknown;
      try {
        literal = JSON.parse(text.slice(i, end + 1));
      } catch {
        return { error: `invalid quoted segment at character ${i + 1}` };
      }
      segments.push({ literal: literal as string });
      i = end + 1;
    } else {
      let end = text.indexOf('.', i);
      if (end < 0) end = text.length;
      const segment = text.slice(i, end);
      if (segment === '') return { error: `empty segment at character ${i + 1}` };
      if (segment === '*' || segment === '**') segments.push(segment);
      else if (BARE.test(segment)) segments.push({ literal: segment });
      else
        return {
          error: `segment "${segment}" must be *, **, a name of letters, digits, "_", "-" and "$", or a JSON string`,
        };
      i = end;
    }
    if (i === text.length) return segments;
    if (text[i] !== '.') return { error: `expected "." at character ${i + 1}` };
    i++;
    if (i === text.length) return { error: 'ends with "."' };
  }
}

/** A path as a pattern that names exactly it: `nodes.q1.answer.synonyms."New patient"`. */
export function formatPath(path: FieldPath): string {
  return path.map((key) => (BARE.test(key) ? key : JSON.stringify(key))).join('.');
}

/**
 * Whether `pattern` names `path`. With `template`, a `*` in the path (as in
 * the keys of {@link DEFAULT_STRATEGIES}) stands for any key, so that any
 * pattern segment matches it.
 */
export function matchesPath(pattern: PathPattern, path: FieldPath, template = false): boolean {
  const match = (p: number, s: number): boolean => {
    if (p === pattern.length) return s === path.length;
    const segment = pattern[p]!;
    if (segment === '**') {
      for (let rest = s; rest <= path.length; rest++) if (match(p + 1, rest)) return true;
      return false;
    }
    if (s === path.length) return false;
    if (segment === '*' || (template && path[s] === '*') || segment.literal === path[s]) return match(p + 1, s + 1);
    return false;
  };
  return match(0, 0);
}

/**
 * Which of two patterns that both name a path is the more specific: compared
 * segment by segment from the left, a name beats `*`, which beats `**`; when
 * one is the beginning of the other, the longer wins; equal ranks fall back
 * to the patterns' text (code point order), so the choice never depends on
 * the order the patterns were given in.
 */
function compareSpecificity(a: { text: string; pattern: PathPattern }, b: { text: string; pattern: PathPattern }): number {
  const rank = (s: PatternSegment) => (s === '**' ? 0 : s === '*' ? 1 : 2);
  for (let i = 0; i < Math.min(a.pattern.length, b.pattern.length); i++) {
    const diff = rank(b.pattern[i]!) - rank(a.pattern[i]!);
    if (diff !== 0) return diff;
  }
  if (a.pattern.length !== b.pattern.length) return b.pattern.length - a.pattern.length;
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
}

type TopField = Exclude<keyof FlowDocument, 'nodes' | 'edges'>;
type KeysOfUnion<T> = T extends unknown ? keyof T : never;
type NodeField = KeysOfUnion<FlowNode>;
type AnswerField = KeysOfUnion<AnswerSpec>;

/**
 * The strategy of every field of a flow document unless the options say
 * otherwise. (The type makes the table name every field of the schema: a new
 * field there does not compile until it has a strategy here.)
 *
 * | path                                          | strategy   | why                                                   |
 * |-----------------------------------------------|------------|-------------------------------------------------------|
 * | `id`                                          | `error`    | every layer describes the same flow                   |
 * | `version`, `title`, `description`, `start`, `$schema` | `override` | the most specific layer says it             |
 * | `migrations`                                  | `concat`   | maps from every earlier version are kept              |
 * | `nodes.*`                                     | `deep`     | nodes are merged by `id`, field by field              |
 * | `nodes.*.id`                                  | `error`    | the merge key: never differs                          |
 * | `nodes.*.kind`                                | `error`    | a layer may not turn a question into something else   |
 * | `nodes.*.prompt`, `label`, `stopMessage`      | `override` | wording: tenants reword                               |
 * | `nodes.*.confirmLabel`, `editLabel`, `message`| `override` | wording                                               |
 * | `nodes.*.outcome`                             | `override` | a tenant may hand off where the global flow stops     |
 * | `nodes.*.answer`                              | `deep`     | merged key by key                                     |
 * | `nodes.*.answer.type`                         | `error`    | the kind of answer is the question's meaning          |
 * | `nodes.*.answer.categories`                   | `concat`   | packs add categories                                  |
 * | `nodes.*.answer.synonyms`                     | `deep`     | merged by category (ignoring case, as the matcher does) |
 * | `nodes.*.answer.synonyms.*`                   | `concat`   | each category's phrases are appended                  |
 * | `nodes.*.answer.labels`                       | `deep`     | merged by category (ignoring case); a layer relabels  |
 * | `nodes.*.limitingValues`                      | `concat`   | an instance may stop on more values                   |
 * | `edges.*.*`                                   | `deep`     | edges are merged by `from` and outcome                |
 * | `edges.*.*.to`                                | `override` | a layer may redirect an edge                          |
 * | `nodes.*.key`                                 | `error`    | guards read it: it is the answer's identity           |
 * | `nodes.*.validators`, `constraints`           | `concat`   | a tenant may add rules, not drop the global ones      |
 * | `nodes.*.ui`, `params`, `assign`, `subgraphs`, `paths` | `deep` | merged key by key                               |
 * | `nodes.*.inputs`                              | `override` | an input node's inputs are replaced as a whole        |
 * | `nodes.*.to`, `deadline`                      | `override` | a tenant may address another role, set its own deadline |
 * | `inputs`                                      | `deep`     | merged by answer key                                  |
 * | anything else                                 | `override` |                                                       |
 *
 * `nodes` and `edges` themselves are always merged by key (their entries in
 * the order they first appear); no strategy replaces the lists as a whole.
 */
export const DEFAULT_STRATEGIES = {
  $schema: 'override',
  id: 'error',
  version: 'override',
  title: 'override',
  description: 'override',
  start: 'override',
  migrations: 'concat',
  format: 'override',
  fallback: 'override',
  maxAttempts: 'override',
  ui: 'deep',
  subgraphs: 'deep',
  constraints: 'concat',
  paths: 'deep',
  inputs: 'deep',
  'nodes.*': 'deep',
  'nodes.*.id': 'error',
  'nodes.*.kind': 'error',
  'nodes.*.prompt': 'override',
  'nodes.*.label': 'override',
  'nodes.*.stopMessage': 'override',
  'nodes.*.confirmLabel': 'override',
  'nodes.*.editLabel': 'override',
  'nodes.*.message': 'override',
  'nodes.*.outcome': 'override',
  'nodes.*.answer': 'deep',
  'nodes.*.answer.type': 'error',
  'nodes.*.answer.categories': 'concat',
  'nodes.*.answer.synonyms': 'deep',
  'nodes.*.answer.synonyms.*': 'concat',
  'nodes.*.limitingValues': 'concat',
  'nodes.*.key': 'error',
  'nodes.*.required': 'override',
  'nodes.*.when': 'override',
  'nodes.*.validators': 'concat',
  'nodes.*.maxAttempts': 'override',
  'nodes.*.ui': 'deep',
  'nodes.*.actor': 'override',
  'nodes.*.params': 'deep',
  'nodes.*.assign': 'deep',
  'nodes.*.ref': 'override',
  'nodes.*.to': 'override',
  'nodes.*.deadline': 'override',
  'nodes.*.inputs': 'override',
  'nodes.*.answer.minLength': 'override',
  'nodes.*.answer.maxLength': 'override',
  'nodes.*.answer.pattern': 'override',
  'nodes.*.answer.patternMessage': 'override',
  'nodes.*.answer.min': 'override',
  'nodes.*.answer.max': 'override',
  'nodes.*.answer.integer': 'override',
  'nodes.*.answer.exact': 'override',
  'nodes.*.answer.unit': 'override',
  'nodes.*.answer.trueLabel': 'override',
  'nodes.*.answer.falseLabel': 'override',
  'nodes.*.answer.labels': 'deep',
  'nodes.*.answer.format': 'override',
  'nodes.*.answer.country': 'override',
  'edges.*.*': 'deep',
  'edges.*.*.to': 'override',
} as const satisfies Record<
  | TopField
  | 'nodes.*'
  | `nodes.*.${NodeField}`
  | `nodes.*.answer.${AnswerField}`
  | 'nodes.*.answer.synonyms.*'
  | 'edges.*.*'
  | 'edges.*.*.to',
  MergeStrategy
>;

/** The strategy of a path that no pattern names. */
export const FALLBACK_STRATEGY: MergeStrategy = 'override';

/** Objects whose keys are categories: a key differing only in case is the same key. */
export const KEYS_IGNORING_CASE: readonly string[] = ['nodes.*.answer.synonyms', 'nodes.*.answer.labels'];

/** The fields of a flow document as path templates (`*` for any id, category or outcome). */
export const FIELD_TEMPLATES: readonly FieldPath[] = Object.keys(DEFAULT_STRATEGIES).map((key) => key.split('.'));

const compiled = (entries: [string, MergeStrategy][]) =>
  entries.map(([text, strategy]) => {
    const pattern = parsePathPattern(text);
    if ('error' in pattern) throw new Error(`strategy pattern "${text}": ${pattern.error}`);
    return { text, pattern, strategy };
  });

const DEFAULTS = compiled(Object.entries(DEFAULT_STRATEGIES));
const CASE_INSENSITIVE = compiled(KEYS_IGNORING_CASE.map((text) => [text, 'deep']));

/**
 * The strategy for each path: the most specific matching pattern of
 * `overrides` if any matches (an option always beats a default), else the
 * most specific default, else {@link FALLBACK_STRATEGY}.
 */
export function strategyResolver(overrides: Readonly<Record<string, MergeStrategy>> = {}): (path: FieldPath) => MergeStrategy {
  const options = compiled(Object.entries(overrides));
  const cache = new Map<string, MergeStrategy>();
  const best = (candidates: typeof options, path: FieldPath) =>
    candidates.filter((c) => matchesPath(c.pattern, path)).sort(compareSpecificity)[0];
  return (path) => {
    const key = formatPath(path);
    let strategy = cache.get(key);
    if (strategy === undefined) {
      strategy = (best(options, path) ?? best(DEFAULTS, path))?.strategy ?? FALLBACK_STRATEGY;
      cache.set(key, strategy);
    }
    return strategy;
  };
}

export function keysIgnoreCase(path: FieldPath): boolean {
  return CASE_INSENSITIVE.some((c) => matchesPath(c.pattern, path));
}

/** Whether a pattern names at least one field of a flow document (to catch typos). */
export function namesAField(pattern: PathPattern): boolean {
  return FIELD_TEMPLATES.some((template) => matchesPath(pattern, template, true));
}

/** Zod schema of a pattern: refused with what is wrong, or when it names no field. */
export const PathPatternSchema = z.string().superRefine((text, ctx) => {
  const pattern = parsePathPattern(text);
  if ('error' in pattern) ctx.addIssue({ code: 'custom', message: `invalid path pattern "${text}": ${pattern.error}` });
  else if (!namesAField(pattern))
    ctx.addIssue({
      code: 'custom',
      message: `path pattern "${text}" names no field of a flow document (fields: ${Object.keys(DEFAULT_STRATEGIES).join(', ')})`,
    });
});

/** JSON with object keys sorted: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

/** A copy of a JSON value with every object's keys sorted (code point order). */
export function canonical<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => canonical(item) as unknown) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = canonical(value[key]);
    return out as T;
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** How `concat` tells two items apart: strings ignoring case, other values by their JSON. */
export function concatKey(item: unknown): string {
  return typeof item === 'string' ? `s:${item.trim().toLowerCase()}` : `j:${canonicalJson(item)}`;
}
