import type { PropertyValue } from '../../graph/model.js';

/**
 * The offline reader's words: verbs by what they do to the graph, the words
 * that are grammar (never a label, a property, an edge type or a value), and
 * how a written word becomes a label, an edge type, a key or a value.
 */

const words = (...list: string[]): ReadonlySet<string> => new Set(list);

export const VERBS = {
  create: words('create', 'add', 'make', 'insert'),
  link: words('connect', 'link'),
  update: words('update', 'set', 'change', 'modify', 'edit'),
  mark: words('mark'),
  delete: words('delete', 'remove', 'erase'),
  unset: words('unset', 'clear'),
  query: words('find', 'show', 'list', 'get', 'display', 'fetch', 'retrieve', 'return', 'search'),
  tool: words('use', 'call', 'invoke', 'run', 'execute', 'trigger'),
  detach: words('detach'),
} as const;

/** Verbs that set a ticket's status: "close ticket T-1". */
export const STATUS_VERBS: ReadonlyMap<string, string> = new Map([
  ['close', 'closed'],
  ['reopen', 'open'],
  ['resolve', 'resolved'],
]);

/** Words that begin a new clause after "and" or a comma ("..., then create ...", "... and delete ..."). */
export const CLAUSE_VERBS: ReadonlySet<string> = new Set([...Object.values(VERBS).flatMap((set) => [...set]), ...STATUS_VERBS.keys()]);

/**
 * Status values read without quotes, as adjectives ("open tickets") and after
 * "mark ... as" or "should be". Values not listed are read only where a
 * property name says what they are ("with priority high").
 */
export const STATUS_VALUES: readonly (readonly string[])[] = [
  ['open'], ['closed'], ['resolved'], ['pending'], ['blocked'], ['done'], ['completed'], ['cancelled'], ['canceled'],
  ['archived'], ['draft'], ['approved'], ['rejected'], ['reopened'], ['todo'], ['in-progress'], ['on-hold'],
  ['in', 'progress'], ['on', 'hold'], ['in', 'review'], ['to', 'do'],
];

export const ARTICLES = words('the', 'a', 'an');
export const DETERMINERS = words('the', 'this', 'that');
export const NODE_WORDS = words('node', 'vertex');
export const EDGE_WORDS = words('edge', 'relationship', 'relation', 'link', 'connection');
export const NEIGHBOUR_WORDS = words('neighbours', 'neighbors', 'edges', 'connections', 'relationships', 'relations', 'links');
export const PROPERTY_WORDS = words('property', 'field', 'attribute');
export const TOOL_WORDS = words('tool', 'function', 'action', 'command');

/** Never a name nor a value. */
export const STOP = words(
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'its', "it's", 'them', 'they', 'their', 'theirs', 'he', 'she',
  'him', 'his', 'her', 'me', 'my', 'mine', 'we', 'us', 'our', 'you', 'your', 'i', 'to', 'from', 'of', 'for', 'on', 'in',
  'at', 'by', 'with', 'without', 'into', 'onto', 'about', 'and', 'or', 'but', 'nor', 'then', 'than', 'as', 'is', 'are',
  'was', 'were', 'be', 'been', 'being', 'am', 'should', 'must', 'will', 'shall', 'would', 'could', 'can', 'may', 'might',
  'do', 'does', 'did', 'has', 'have', 'had', 'not', 'no', 'never', 'all', 'every', 'each', 'any', 'some', 'which', 'what',
  'who', 'whom', 'whose', 'where', 'when', 'if', 'unless', 'there', 'so',
);

/** Never a label, a property name or an edge type (but may be a value: "set status to new"). */
const NON_NAMES = new Set([
  ...STOP, ...CLAUSE_VERBS, ...NODE_WORDS, ...EDGE_WORDS, ...NEIGHBOUR_WORDS, ...PROPERTY_WORDS, ...TOOL_WORDS,
  'nodes', 'vertices', 'edges', 'properties', 'props', 'prop', 'attributes', 'fields', 'key', 'keys', 'label', 'labels',
  'values', 'graph', 'database', 'new', 'called', 'named', 'labelled', 'labeled', 'keyed', 'having', 'please', 'thanks',
  'everything', 'something', 'anything', 'nothing', 'one', 'first', 'top', 'me', 'true', 'false',
  ...STATUS_VALUES.filter((v) => v.length === 1).map((v) => v[0] ?? ''),
]);

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
const LABEL_WORD = /^[A-Za-z][A-Za-z_]{0,62}$/;

export const isIdentifier = (text: string): boolean => IDENTIFIER.test(text);
export const isName = (lower: string): boolean => !NON_NAMES.has(lower);

/** The singular of an English plural noun as written (tickets → ticket, companies → company); the word itself otherwise. */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length > 3 && lower.endsWith('ies')) return word.slice(0, -3) + (word.endsWith('IES') ? 'Y' : 'y');
  if (/(sses|ches|shes|xes|zes|uses)$/.test(lower)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(lower) || !lower.endsWith('s') || lower.length < 3) return word;
  return word.slice(0, -1);
}

/** Status is the property status words set ("remove status 'open'" is not about a Status node). */
const NOT_LABELS = words('status', 'statuses');

/**
 * A label written without quotes: ticket, tickets, Ticket → Ticket (singular,
 * capitalised); null for a word that cannot be one. `plural` says how it was written.
 */
export function labelWord(text: string): { label: string; plural: boolean } | null {
  // TICKET in capitals is not Ticket for sure (nor an acronym's label): quoted, it is read as written.
  if (!LABEL_WORD.test(text) || !isName(text.toLowerCase()) || NOT_LABELS.has(text.toLowerCase()) || /^[A-Z_]{2,}$/.test(text)) return null;
  const one = singular(text);
  const label = one.charAt(0).toUpperCase() + one.slice(1);
  return isName(one.toLowerCase()) ? { label, plural: one !== text } : null;
}

/** An edge type written without quotes, upper case as edge types are (reports → REPORTS). */
export function edgeTypeWord(text: string): string | null {
  return IDENTIFIER.test(text) && isName(text.toLowerCase()) ? text.toUpperCase() : null;
}

/** A property name written without quotes; "Status" at a sentence's start is "status". */
export function propertyWord(text: string): string | null {
  if (!IDENTIFIER.test(text) || !isName(text.toLowerCase())) return null;
  return /^[A-Z][a-z0-9]*$/.test(text) ? text.toLowerCase() : text;
}

/** A word that can only be a key: it holds a digit or one of . - _ @ (TICKET-123, john.doe, u1). */
export const isKeyWord = (text: string): boolean => /[0-9._@-]/.test(text);

const NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?$/;

/** An unquoted value: numbers as numbers (not 007), true and false as booleans, the rest as written. */
export function typedValue(text: string): PropertyValue {
  if (NUMBER.test(text)) return Number(text);
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  return text;
}

/** Words that make a reading unsafe wherever they are: a negation, a condition, a hedge or a choice. */
export const NEGATIONS = words('not', 'no', 'never', 'nor', 'neither', 'without', 'except', 'cannot', 'dont', 'doesnt', 'didnt', 'wont', 'shouldnt');
export const CONDITIONS = words('if', 'unless', 'when', 'whenever', 'once', 'otherwise', 'else', 'provided', 'assuming', 'suppose', 'until', 'while');
export const HEDGES = words('maybe', 'perhaps', 'possibly', 'probably', 'somehow', 'whatever', 'either', 'or', 'etc', 'might');
