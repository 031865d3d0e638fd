import { CypherRefusedError } from './errors.js';

/**
 * The first check on Cypher a model wrote: read it as tokens (so that strings,
 * comments and quoted names hide nothing) and refuse, before the database sees
 * it, anything that is not one read query over Cypher's own functions. This
 * check gives clear reasons; it is not the last word: the plan is checked with
 * EXPLAIN and the query runs read-only in a savepoint that is rolled back.
 */

export const MAX_CYPHER_LENGTH = 4000;
export const MAX_CYPHER_COLUMNS = 32;

type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'punct';
interface Token {
  kind: TokenKind;
  /** The word, the quoted name without its backticks, or the character. */
  text: string;
  at: number;
  end: number;
}

/** Clauses that write or reach outside the graph; refused wherever they appear as keywords. */
const WRITING_CLAUSES = new Set(['create', 'merge', 'set', 'delete', 'detach', 'remove', 'foreach', 'load', 'call', 'yield', 'drop']);

/** Keywords that a `(` may follow without being a function call. */
const KEYWORDS_BEFORE_PAREN = new Set([
  'match', 'optional', 'where', 'return', 'with', 'unwind', 'as', 'and', 'or', 'xor', 'not', 'in', 'is', 'case', 'when',
  'then', 'else', 'distinct', 'union', 'all', 'by', 'skip', 'limit', 'contains', 'starts', 'ends', 'order',
]);

/**
 * The functions a read query may call: Cypher's (AGE maps `f` to
 * `ag_catalog.age_f`). Anything else is refused, including AGE's
 * administrative functions (graph creation, loading files, the VLE cache) and,
 * above all, schema-qualified PostgreSQL functions (`pg_catalog.f()`), which
 * AGE would call: `query_to_xml` runs any SQL, `pg_reload_conf` has effects no
 * rollback undoes.
 */
export const CYPHER_FUNCTIONS: ReadonlySet<string> = new Set([
  // scalar
  'id', 'label', 'type', 'properties', 'keys', 'labels', 'nodes', 'relationships', 'startnode', 'endnode', 'start_id',
  'end_id', 'length', 'size', 'head', 'last', 'tail', 'range', 'reverse', 'coalesce', 'exists', 'isempty', 'timestamp', 'rand',
  // predicates
  'any', 'none', 'single',
  // conversion
  'toboolean', 'tobooleanlist', 'tofloat', 'tofloatlist', 'tointeger', 'tointegerlist', 'tostring', 'tostringlist',
  // strings
  'left', 'right', 'substring', 'replace', 'split', 'trim', 'ltrim', 'rtrim', 'tolower', 'toupper',
  // numbers
  'abs', 'ceil', 'floor', 'round', 'sign', 'sqrt', 'exp', 'log', 'log10', 'e', 'pi', 'sin', 'cos', 'tan', 'cot', 'asin',
  'acos', 'atan', 'atan2', 'degrees', 'radians',
  // aggregates
  'count', 'collect', 'sum', 'avg', 'min', 'max', 'stdev', 'stdevp', 'percentilecont', 'percentiledisc',
]);

const refuse = (reason: ConstructorParameters<typeof CypherRefusedError>[0], detail: string, at?: number): never => {
  throw new CypherRefusedError(reason, detail, at);
};

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const at = i;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) refuse('unterminated', 'a /* comment is never closed', at);
      i = close + 2;
    } else if (c === "'" || c === '"') {
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) refuse('unterminated', 'a string is never closed', at);
      i++;
      tokens.push({ kind: 'string', text: text.slice(at, i), at, end: i });
    } else if (c === '`') {
      let name = '';
      i++;
      for (;;) {
        if (i >= text.length) refuse('unterminated', 'a `quoted name` is never closed', at);
        if (text[i] === '`' && text[i + 1] === '`') {
          name += '`';
          i += 2;
        } else if (text[i] === '`') {
          i++;
          break;
        } else name += text[i++];
      }
      tokens.push({ kind: 'quoted', text: name, at, end: i });
    } else if (c === '$') {
      refuse('parameter', 'cypher_query takes no parameters ($name): write the values into the query', at);
    } else if (/[0-9]/.test(c)) {
      const m = /^\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(text.slice(i))!;
      i += m[0].length;
      tokens.push({ kind: 'number', text: m[0], at, end: i });
    } else if (/[\p{L}_]/u.test(c)) {
      const m = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(text.slice(i))!;
      i += m[0].length;
      tokens.push({ kind: 'word', text: m[0], at, end: i });
    } else {
      i++;
      tokens.push({ kind: 'punct', text: c, at, end: i });
    }
  }
  return tokens;
}

const isPunct = (t: Token | undefined, c: string) => t?.kind === 'punct' && t.text === c;
/** A bare word used as a keyword: not a property (`n.set`), a label or type (`:Create`), nor a map key (`{delete: 1}`). */
const isKeyword = (tokens: Token[], i: number, word: string) => {
  const t = tokens[i]!;
  return t.kind === 'word' && t.text.toLowerCase() === word && !isPunct(tokens[i - 1], '.') && !isPunct(tokens[i - 1], ':') && !isPunct(tokens[i + 1], ':');
};

export interface CheckedCypher {
  /** The names of the values the query returns, in order (`AS` names, or the expressions' text). */
  columns: string[];
}

/** Refuses (with {@link CypherRefusedError}) anything but one read query over Cypher's functions; returns its columns. */
export function checkCypherText(text: string): CheckedCypher {
  if (text.trim() === '') refuse('empty', 'the query is empty');
  if (text.length > MAX_CYPHER_LENGTH) refuse('too_long', `the query is longer than ${MAX_CYPHER_LENGTH} characters`);
  if (text.includes('\u0000')) refuse('unterminated', 'the query holds a NUL character', text.indexOf('\u0000'));
  const tokens = tokenize(text);
  tokens.forEach((t, i) => {
    if (isPunct(t, ';')) refuse('several_statements', 'one query only, without ";"', t.at);
    const word = t.text.toLowerCase();
    if (t.kind === 'word' && WRITING_CLAUSES.has(word) && isKeyword(tokens, i, word))
      refuse('write', `${t.text.toUpperCase()} is not allowed: cypher_query only reads; change the graph with add_node, add_edge, update_props, delete_node and delete_edge`, t.at);
    if ((t.kind === 'word' || t.kind === 'quoted') && isPunct(tokens[i + 1], '(')) {
      if (isPunct(tokens[i - 1], '.'))
        refuse('function', `database functions (schema.${t.text}) cannot be called; use Cypher's functions`, tokens[i - 1]!.at);
      if (t.kind === 'word' && KEYWORDS_BEFORE_PAREN.has(word)) return;
      if (!CYPHER_FUNCTIONS.has(word)) refuse('function', `unknown function ${t.text}(); the functions are Cypher's (count, collect, toUpper, size, …)`, t.at);
    }
  });
  checkWork(tokens);
  return { columns: returnColumns(text, tokens) };
}

/** The most items one `range()` may make. */
export const MAX_RANGE_ITEMS = 10_000;
/** The most rows the query's ranges and UNWINDs may make together (their product). */
export const MAX_GENERATED_ROWS = 100_000;
/** What an UNWIND of a list the text does not bound (a collected list, a property) is counted as. */
const UNBOUNDED_UNWIND = 1_000;

/** The items of the list written out at `open` (`[`): its top-level commas, plus one; 1 for a comprehension. */
function listItems(tokens: Token[], open: number): number {
  let depth = 0;
  let items = 1;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && '([{'.includes(t.text)) depth++;
    else if (t.kind === 'punct' && ')]}'.includes(t.text) && --depth === 0) break;
    else if (depth === 1 && (isPunct(t, ',') || isPunct(t, '|'))) items++;
    if (depth === 1 && t.kind === 'word' && t.text.toLowerCase() === 'in') return 1;
  }
  return items;
}

/**
 * The work a query makes up out of nothing, bounded before the database sees
 * it: PGlite has no statement timeout, and the planner's cost does not count
 * what `range()` and `UNWIND` generate (`UNWIND range(1,3000) AS a UNWIND
 * range(1,3000) AS b` blocked every request for seconds). Each range needs
 * number bounds and makes at most {@link MAX_RANGE_ITEMS}; the product of the
 * ranges and the UNWINDs of other lists is at most {@link MAX_GENERATED_ROWS}.
 */
function checkWork(tokens: Token[]): void {
  let product = 1;
  const number = (i: number): { value: number; next: number } | null => {
    const negative = isPunct(tokens[i], '-');
    const t = tokens[negative ? i + 1 : i];
    if (t?.kind !== 'number' || !/^\d+$/.test(t.text)) return null;
    return { value: (negative ? -1 : 1) * Number(t.text), next: (negative ? i + 2 : i + 1) };
  };
  const ranges = new Set<number>();
  tokens.forEach((t, i) => {
    if (t.kind !== 'word' || t.text.toLowerCase() !== 'range' || !isPunct(tokens[i + 1], '(') || isPunct(tokens[i - 1], '.')) return;
    ranges.add(i);
    const start = number(i + 2);
    const end = start && isPunct(tokens[start.next], ',') ? number(start.next + 1) : null;
    let step: { value: number; next: number } | null = { value: 1, next: end?.next ?? 0 };
    if (end && isPunct(tokens[end.next], ',')) step = number(end.next + 1);
    if (!start || !end || !step || !isPunct(tokens[step.next], ')') || step.value === 0)
      refuse('too_much_work', 'range() takes whole numbers written in the query (range(1, 10) or range(1, 10, 2)), so that its size is known', t.at);
    const items = Math.max(0, Math.floor((end!.value - start!.value) / step!.value) + 1);
    if (items > MAX_RANGE_ITEMS) refuse('too_much_work', `range() would make ${items} values; at most ${MAX_RANGE_ITEMS}`, t.at);
    product *= Math.max(1, items);
  });
  tokens.forEach((t, i) => {
    if (!isKeyword(tokens, i, 'unwind')) return;
    const next = tokens[i + 1];
    // A range is counted already; a list written out counts its items (a comprehension, its range).
    if (next?.kind === 'word' && next.text.toLowerCase() === 'range' && ranges.has(i + 1)) return;
    if (isPunct(next, '[')) return void (product *= listItems(tokens, i + 1));
    product *= UNBOUNDED_UNWIND;
  });
  if (product > MAX_GENERATED_ROWS)
    refuse('too_much_work', `the query's ranges and UNWINDs would make about ${product.toExponential(1)} rows; at most ${MAX_GENERATED_ROWS.toExponential(0)}: unwind one list at a time, or narrow the ranges`);
}

/** The final RETURN's items, split at top-level commas: AGE needs their number in the column list. */
function returnColumns(text: string, tokens: Token[]): string[] {
  let depth = 0;
  let start = -1;
  const depths = tokens.map((t) => {
    if (t.kind === 'punct' && '([{'.includes(t.text)) return depth++;
    if (t.kind === 'punct' && ')]}'.includes(t.text)) return --depth;
    return depth;
  });
  tokens.forEach((_, i) => {
    if (depths[i] === 0 && isKeyword(tokens, i, 'return')) start = i;
  });
  if (start < 0) refuse('no_return', 'a query must end with RETURN (what it reads)');
  let i = start + 1;
  if (tokens[i] && isKeyword(tokens, i, 'distinct')) i++;
  const items: Token[][] = [[]];
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (depths[i] === 0 && ['order', 'skip', 'limit', 'union'].some((w) => isKeyword(tokens, i, w))) break;
    if (depths[i] === 0 && isPunct(t, ',')) items.push([]);
    else items.at(-1)!.push(t);
  }
  const names = items.map((item) => {
    const first = item[0];
    const last = item.at(-1);
    if (!first || !last) return refuse('no_return', 'RETURN needs at least one value, separated by commas', tokens[start]!.at);
    if (item.length === 1 && isPunct(first, '*')) return refuse('return_star', 'RETURN * is not supported: name the values to return', first.at);
    const alias = item.length >= 3 && item.at(-2)!.kind === 'word' && item.at(-2)!.text.toLowerCase() === 'as' ? last : undefined;
    return alias && (alias.kind === 'word' || alias.kind === 'quoted') ? alias.text : text.slice(first.at, last.end).replace(/\s+/g, ' ');
  });
  if (names.length > MAX_CYPHER_COLUMNS) refuse('too_many_columns', `at most ${MAX_CYPHER_COLUMNS} values in RETURN`);
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}_${n}`;
  });
}

/**
 * Cypher text as a SQL dollar-quoted string whose tag does not occur in it,
 * so that nothing in the text can close the quote and continue as SQL. The
 * tag depends on the text only (the same text gives the same SQL).
 */
export function dollarQuoted(text: string): string {
  let tag = 'cypher';
  for (let n = 1; text.includes(`$${tag}$`); n++) tag = `cypher${n}`;
  return `$${tag}$ ${text} $${tag}$`;
}
