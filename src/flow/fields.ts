import { z } from 'zod';
import { PHONE_COUNTRY_IDS } from '../extract/phone-countries.js';

/**
 * The building blocks of a flow document's schema: ids, keys, guard texts,
 * answer specs, the fields every node has, the outcomes edges leave on, and
 * the small rules read from them. Node kinds (nodes/<kind>.ts) build their
 * schemas from these; `schema.ts` assembles the document. This module imports
 * nothing else of the flow, so that every node kind may import it.
 */

/** A non-empty text (trimmed). */
export const text = z.string().trim().min(1, 'must not be empty');

/**
 * Node ids become state keys, as written: `q.intent` and `sg.led` (the
 * seed's style) too. A dot separates parts (never first, last or doubled);
 * the compiler escapes it in transition targets (`#flow.q\.intent`), and
 * a dotted id that would read as a node inside a subgraph call is refused
 * (check.ts). No `#` or `\` (XState's id and escape characters).
 */
export const NodeIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_-]*(\.[A-Za-z0-9_][A-Za-z0-9_-]*)*$/, 'must use only letters, digits, "_", "-" and "." (a dot between parts, as in "q.intent")');

/** Answer keys are what guards read (`answers.court_size`): CEL identifiers. */
export const AnswerKeySchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an identifier: letters, digits and "_", not starting with a digit');

export const FlowIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must use only lowercase letters, digits, "_" and "-"');

export const FlowVersionSchema = z.union([z.string().trim().min(1), z.number().int().nonnegative()], {
  error: (issue) =>
    issue.input === undefined ? 'is required' : 'must be a non-empty string (such as "1.2.0") or a whole number',
});

/** A CEL expression over `answers`, `context` and `constraints` (see guards/cel.ts). */
export const GuardTextSchema = z.string().trim().min(1, 'must not be empty');

/** Hints for a visual editor and the drawings: kept in the compiled state's `meta.ui`. */
export const UiHintsSchema = z.record(z.string(), z.json());

// ---------------------------------------------------------------- answers

export const CategoryAnswerSchema = z.strictObject({
  type: z.literal('category').describe('"category": one of a list of values, offered as buttons and read from free text.'),
  categories: z
    .array(text)
    .min(1, 'needs at least one category')
    .meta({ description: 'The values the answer may take, in the order the buttons show them. Guards compare with these exactly.', examples: [['Yes', 'No']] }),
  /** Extra words or phrases that mean a category, keyed by the category. */
  synonyms: z
    .record(z.string(), z.array(text))
    .meta({ description: 'Extra words or phrases that mean a category, keyed by the category.', examples: [{ Partial: ['one gap', 'a short gap'] }] })
    .optional(),
  /**
   * What a person sees for a category, keyed by the category (`{ "buy_led":
   * "Buy LED lights" }`): buttons and summaries show the label, the button
   * sends the category, guards read the category, and the label also says
   * the category in free text. The category itself when absent.
   */
  labels: z
    .record(z.string(), text)
    .meta({ description: 'What a person sees for a category (buttons, summaries), keyed by the category; the category itself when absent.', examples: [{ buy_led: 'Buy LED lights' }] })
    .optional(),
});

export const StringAnswerSchema = z.strictObject({
  type: z.literal('string').describe('"string": free text.'),
  minLength: z.number().int().nonnegative().describe('The fewest characters an answer may have (1 when absent).').optional(),
  /** 2000 when absent. */
  maxLength: z.number().int().positive().max(10_000).describe('The most characters an answer may have (2000 when absent).').optional(),
  /** A regular expression the whole answer must match. */
  pattern: z.string().meta({ description: 'A regular expression the whole answer must match.', examples: ['[A-Z]{2}[0-9]{4}'] }).optional(),
  patternMessage: text.describe('What the person is told when the answer does not match `pattern`.').optional(),
  /**
   * How the text is read: `person_name` keeps the name alone ("hi, I'm jane
   * doe" is stored as "Jane Doe") and asks again when the answer does not
   * read as just a name. The text as written (trimmed) when absent.
   */
  format: z.enum(['person_name']).describe('How the text is read: "person_name" keeps the name alone ("hi, I\'m jane doe" → "Jane Doe").').optional(),
});

export const NumberAnswerSchema = z.strictObject({
  type: z.literal('number').describe('"number": a number read from digits or words ("about 650 m2" → 650).'),
  min: z.number().describe('The smallest number allowed.').optional(),
  max: z.number().describe('The largest number allowed.').optional(),
  integer: z.boolean().describe('true: only whole numbers.').optional(),
  /** True: the exact number is needed, and an approximate one ("about 60", "60 or so") is asked again; when absent it is read as the number. */
  exact: z.boolean().describe('true: only an exact number; "about 60" or "60 or so" is asked again. Approximate numbers are read as the number when absent.').optional(),
  /** Shown after the number in summaries ("W", "m²"). */
  unit: text.meta({ description: 'Shown after the number in summaries and messages.', examples: ['m²'] }).optional(),
});

export const BooleanAnswerSchema = z.strictObject({
  type: z.literal('boolean').describe('"boolean": yes or no, offered as two buttons; stored as true or false.'),
  /** "Yes" when absent. */
  trueLabel: text.describe('The button (and word) for true; "Yes" when absent.').optional(),
  /** "No" when absent. */
  falseLabel: text.describe('The button (and word) for false; "No" when absent.').optional(),
});

/** An ISO date (YYYY-MM-DD) or `today`, resolved when the answer is checked. */
export const DateBoundSchema = z.union([z.iso.date({ error: 'must be a date written YYYY-MM-DD (such as "2026-12-01") or "today"' }), z.literal('today')]);

export const DateAnswerSchema = z.strictObject({
  type: z.literal('date').describe('"date": a day, read from "2026-12-01", "12 March" or "next friday"; stored as YYYY-MM-DD.'),
  min: DateBoundSchema.meta({ description: 'The earliest day allowed: YYYY-MM-DD or "today".', examples: ['today'] }).optional(),
  max: DateBoundSchema.meta({ description: 'The latest day allowed: YYYY-MM-DD or "today".', examples: ['2026-12-31'] }).optional(),
});

export const EmailAnswerSchema = z.strictObject({ type: z.literal('email').describe('"email": an email address.') });
export const PhoneAnswerSchema = z.strictObject({
  type: z.literal('phone').describe('"phone": a phone number, stored as digits with an optional leading "+".'),
  /**
   * The country a number without "+" belongs to (ISO 3166 code such as
   * "US"): it must have that country's length, and is stored with its
   * country code ("+15550102233"). A number written with "+" and a country
   * code is checked against that country's length, whatever this says.
   */
  country: z.enum(PHONE_COUNTRY_IDS).meta({ description: 'The country of a number written without "+" (ISO 3166 code): its length is checked and its country code added.', examples: ['US'] }).optional(),
});

export const AnswerSpecSchema = z.discriminatedUnion('type', [
  CategoryAnswerSchema,
  StringAnswerSchema,
  NumberAnswerSchema,
  BooleanAnswerSchema,
  DateAnswerSchema,
  EmailAnswerSchema,
  PhoneAnswerSchema,
]);

/** A rule an answer must pass before it is stored: a CEL expression over `value`, `answers` and `context`. */
export const ValidatorSchema = z.strictObject({
  check: GuardTextSchema.meta({ description: 'A CEL expression that must be true for the answer to be stored; reads `value` (the answer), `answers` and `context`.', examples: ['value != 13.0'] }),
  /** What the person is told when the rule fails. */
  message: text.meta({ description: 'What the person is told when the check fails.', examples: ['Please choose another number.'] }),
});

// ---------------------------------------------------------------- what every node has

/** The fields every node kind has beside its `kind`: spread into each kind's schema. */
export const nodeFields = {
  id: NodeIdSchema.meta({ description: 'The node\'s id, unique in its node list: edges, `start` and messages name it as written.', examples: ['ask_name', 'q.intent'] }),
  label: text.describe('A short name for the node: the summary shows it before a question\'s answer, drawings beside the id.').optional(),
  ui: UiHintsSchema.describe('Hints for a visual editor and the drawings (position, colour, group), kept in the compiled state\'s meta.').optional(),
};

export const TerminalOutcomeSchema = z.enum(['handoff', 'stopped', 'completed']);

// ---------------------------------------------------------------- edges

/**
 * The outcome an edge is taken on. A question leaves on `answered`, on
 * `limiting` when a limiting value was given, on `invalid` when it gives up
 * after its failed answers (see `maxAttempts`); a confirmation on `confirmed` or `edit`; an
 * action on `done` or `error`; a subgraph on `done` (its `__exit__`); a
 * decision and a path node on `next`; an input node on `done` (every input
 * answered) or `timeout` (a deadline passed with no answer and no default).
 */
export const EdgeOutcomeSchema = z.enum(['answered', 'limiting', 'invalid', 'confirmed', 'edit', 'done', 'error', 'next', 'timeout']);

/** The target that leaves a subgraph and returns to the node that called it. */
export const EXIT_TARGET = '__exit__';
/** The guard text of the last edge of a group: taken when no earlier guard holds. */
export const ELSE_GUARD = 'else';

/** An edge taken when no earlier one of its group is: no guard, or `else`. */
export const isElseGuard = (guard: string | undefined): boolean => guard === undefined || guard === ELSE_GUARD;

export type FlowVersion = z.infer<typeof FlowVersionSchema>;
export type CategoryAnswer = z.infer<typeof CategoryAnswerSchema>;
export type AnswerSpec = z.infer<typeof AnswerSpecSchema>;
export type AnswerType = AnswerSpec['type'];
export type Validator = z.infer<typeof ValidatorSchema>;
export type TerminalOutcome = z.infer<typeof TerminalOutcomeSchema>;
export type EdgeOutcome = z.infer<typeof EdgeOutcomeSchema>;

/** The longest text answer when the flow sets none. */
export { DEFAULT_MAX_LENGTH } from '../extract/typed-value.js';

/** Whether a question must be answered (it may be skipped otherwise). */
export const isRequired = (q: { required?: boolean | undefined }): boolean => q.required !== false;

/** The labels of a yes/no answer. */
export { booleanLabels } from '../extract/typed-value.js';

/** What a person sees for a category: its label, or the category itself. */
export const categoryLabel = (spec: { labels?: Record<string, string> | undefined }, category: string): string =>
  spec.labels?.[category] ?? category;

/**
 * The phrases the matcher reads as each category: the author's synonyms and
 * the category's label (a person may type what the button says).
 */
export function matcherSynonyms(spec: Pick<CategoryAnswer, 'categories' | 'synonyms' | 'labels'>): Record<string, string[]> | undefined {
  if (spec.labels === undefined) return spec.synonyms;
  // The same object for the same spec: the matcher caches its lexicon by the synonyms' identity.
  const known = mergedSynonyms.get(spec);
  if (known) return known;
  const synonyms: Record<string, string[]> = { ...spec.synonyms };
  for (const category of spec.categories) {
    const label = spec.labels[category];
    if (label === undefined || label.toLowerCase() === category.toLowerCase()) continue;
    const key = Object.keys(synonyms).find((k) => k.toLowerCase() === category.toLowerCase()) ?? category;
    const phrases = synonyms[key] ?? [];
    if (!phrases.some((p) => p.toLowerCase() === label.toLowerCase())) synonyms[key] = [...phrases, label];
  }
  mergedSynonyms.set(spec, synonyms);
  return synonyms;
}
const mergedSynonyms = new WeakMap<object, Record<string, string[]>>();

/** Where a question's answer is stored. */
export const answerKey = (q: { id: string; key?: string | undefined }): string => q.key ?? q.id;
