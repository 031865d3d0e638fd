import { z } from 'zod';
import { didYouMean } from '../extract/suggest.js';

/**
 * What an author is told when a document does not fit the schema: the field
 * by name and what to write there ("prompt" must be text, e.g. "What is your
 * name?"), instead of zod's wording ("Invalid input: expected string,
 * received number"). Passed to `safeParse` as its error map, it words only
 * the issues the schemas leave to zod: a message a schema states itself
 * ("must not be empty", "needs at least one node") is kept. The examples and
 * the names a misspelt field or value probably meant come from the schemas
 * themselves (their `.meta({ examples })`, their fields, their options).
 */
export const flowIssueWording: z.core.$ZodErrorMap = (issue) => {
  const field = fieldName(issue.path ?? []);
  const schema = issue.schema ?? (issue.inst as z.core.$ZodType | undefined);
  const example = exampleOf(schema);
  const eg = example === undefined ? '' : `, e.g. ${example}`;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = expectedWords(issue.expected);
      if (issue.input === undefined) return `${field} is missing: write ${expected}${eg}`;
      return `${field} must be ${expected}${eg} (not ${inputWords(issue.input)})`;
    }
    case 'unrecognized_keys': {
      const known = Object.keys(shapeOf(issue.inst));
      const where = (issue.path ?? []).length === 0 ? 'a flow document' : kindOf(issue.input);
      return issue.keys
        .map((key) => `unknown field "${key}"${didYouMean(key, known) || (known.length > 0 ? ` (${where} has ${known.map((k) => `"${k}"`).join(', ')})` : '')}`)
        .join('; ');
    }
    case 'invalid_union': {
      const discriminated: unknown = issue.options;
      if (typeof issue.discriminator === 'string' && Array.isArray(discriminated)) {
        const options = discriminated.map(String);
        const given = (issue.input as Record<string, unknown> | undefined)?.[issue.discriminator];
        const list = options.map((o) => `"${o}"`).join(', ');
        if (given === undefined) return `${field} is missing: write one of ${list}`;
        return `${field} must be one of ${list}, not ${JSON.stringify(given)}${typeof given === 'string' ? didYouMean(given, options) : ''}`;
      }
      // A value no branch takes: the forms it may take, or what the branch that got furthest wants.
      const branches = ('errors' in issue && Array.isArray(issue.errors) ? issue.errors : []).flat();
      const deeper = branches.find((i) => i.code !== 'invalid_type' && i.code !== 'invalid_value');
      if (deeper) return `${field} ${deeper.message.replace(/^(the document|"[^"]*") /, '')}`;
      const forms = [
        ...new Set(branches.flatMap((i) => (i.code === 'invalid_type' ? [expectedWords(i.expected)] : i.code === 'invalid_value' ? i.values.map((v) => JSON.stringify(v)) : []))),
      ];
      if (forms.length === 0) return `${field} is not one of the forms it may take${eg}`;
      const not = issue.input === undefined ? '' : ` (not ${inputWords(issue.input)})`;
      return issue.input === undefined ? `${field} is missing: write ${forms.join(' or ')}${eg}` : `${field} must be ${forms.join(' or ')}${eg}${not}`;
    }
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v));
      const given = issue.input;
      const guess = typeof given === 'string' ? didYouMean(given, issue.values.map(String)) : '';
      if (given === undefined) return `${field} is missing: write ${options.length === 1 ? options[0] : `one of ${options.join(', ')}`}`;
      return `${field} must be ${options.length === 1 ? options[0] : `one of ${options.join(', ')}`}, not ${JSON.stringify(given)}${guess}`;
    }
    case 'too_small': {
      const at = issue.inclusive === false ? 'more than' : 'at least';
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? `${field} must not be empty` : `${field} must be ${at} ${issue.minimum} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${field} needs ${at} ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      return `${field} must be ${at} ${issue.minimum}${eg}`;
    }
    case 'too_big': {
      const at = issue.inclusive === false ? 'less than' : 'at most';
      if (issue.origin === 'string') return `${field} must be ${at} ${issue.maximum} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${field} may have ${at} ${issue.maximum} items`;
      return `${field} must be ${at} ${issue.maximum}${eg}`;
    }
    case 'invalid_format':
      if (issue.format === 'date') return `${field} must be a date written YYYY-MM-DD${eg || ', e.g. "2026-12-01"'}`;
      if (issue.format === 'regex') return `${field} does not have the expected form${eg}`;
      return `${field} must be ${issue.format === 'email' ? 'an email address' : `a valid ${issue.format}`}${eg}`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${issue.divisor}`;
    case 'invalid_key':
      return `${field} has a key that is not allowed: ${issue.issues[0]?.message ?? 'see the schema'}`;
    default:
      return undefined;
  }
};

/** `"prompt"`, or `item 2 of "categories"` for an array item. */
function fieldName(path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  if (last === undefined) return 'the document';
  if (typeof last === 'number') {
    const owner = path.at(-2);
    return owner === undefined ? `item ${last + 1}` : `item ${last + 1} of ${JSON.stringify(String(owner))}`;
  }
  return JSON.stringify(String(last));
}

function expectedWords(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'number':
    case 'int':
      return expected === 'int' ? 'a whole number' : 'a number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list [...]';
    case 'object':
    case 'record':
      return 'an object {...}';
    default:
      return expected;
  }
}

function inputWords(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'string') return `the text ${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)}`;
  if (typeof input === 'object') return 'an object';
  if (typeof input === 'boolean') return String(input);
  return `the ${typeof input} ${String(input)}`;
}

/** What an object with unknown fields is, for the list of the fields it has: "a question", "an edge". */
function kindOf(input: unknown): string {
  const kind = (input as { kind?: unknown; type?: unknown } | undefined)?.kind ?? (input as { type?: unknown } | undefined)?.type;
  if (typeof kind === 'string') return `a ${kind}${typeof (input as { kind?: unknown }).kind === 'string' ? '' : ' answer'}`;
  return 'it';
}

/** The fields of an object schema (none for anything else). */
function shapeOf(inst: unknown): Record<string, unknown> {
  const def = (inst as { _zod?: { def?: { shape?: unknown } } } | undefined)?._zod?.def;
  return typeof def?.shape === 'object' && def.shape !== null ? (def.shape as Record<string, unknown>) : {};
}

/** The first example the schema gives (`.meta({ examples })`), as JSON. */
function exampleOf(schema: z.core.$ZodType | undefined): string | undefined {
  if (!schema) return undefined;
  const examples = (z.globalRegistry.get(schema) as { examples?: unknown } | undefined)?.examples;
  const first: unknown = Array.isArray(examples) ? examples[0] : undefined;
  return first === undefined ? undefined : JSON.stringify(first);
}
