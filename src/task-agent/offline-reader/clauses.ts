import { CLAUSE_VERBS } from './lexicon.js';
import { Cursor, type Token } from './tokens.js';

/**
 * A text as clauses to read one by one: sentences end at . ! ? ; or a line
 * break; within one, a clause ends at "then", "after that", "but", a dash or bullet,
 * or an "and" or a comma before a verb ("..., create ...", "... and delete
 * ..."). Politeness and sequence words around a clause are dropped here, so
 * the grammar reads commands only.
 */

export interface Clause {
  readonly tokens: readonly Token[];
  /** Opened with "can you", "could you"...: a request put as a question. */
  readonly asked: boolean;
}

export interface Sentence {
  readonly clauses: readonly Clause[];
  /** Ended with a question mark. */
  readonly question: boolean;
}

const ENDS = new Set(['.', '!', '?', ';', '\n']);
const BULLETS = new Set(['-', '*', '•', '–', '—']);
const SEQUENCE = ['then', 'after that', 'afterwards', 'but'];
const JOINERS = ['and', ','];
/** Words that may stand between a joiner and the verb that opens the next clause. */
const LEADS = new Set(['and', ',', 'then', 'also', 'finally', 'next', 'lastly', 'please', 'now']);

const ASKING = ['can you please', 'could you please', 'would you please', 'will you please', 'can you', 'could you', 'would you', 'will you'];
const POLITE_OPENINGS = [
  'please', 'kindly', 'just', 'hi', 'hello', 'hey', 'ok', 'okay', 'i want you to', 'i would like you to', "i'd like you to",
  'i need you to', 'i want to', 'i would like to', "i'd like to", 'i need to', "let's", 'go ahead and',
];
const CONNECTORS = [
  'and then', 'and', 'then', 'also', 'next', 'finally', 'lastly', 'first', 'firstly', 'second', 'secondly', 'third',
  'thirdly', 'additionally', 'afterwards', 'after that', 'now', ',',
];
const POLITE_ENDINGS = ['please', 'thanks', 'thank you', 'for me', 'now', ','];

const isWord = (t: Token | undefined, word: string) => t?.kind !== 'quoted' && t?.lower === word;

function startsClause(tokens: readonly Token[], from: number): boolean {
  let i = from;
  while (i < tokens.length && tokens[i]?.kind !== 'quoted' && LEADS.has(tokens[i]?.lower ?? '')) i++;
  const t = tokens[i];
  return t?.kind === 'word' && CLAUSE_VERBS.has(t.lower);
}

function splitClauses(tokens: readonly Token[]): Token[][] {
  const parts: Token[][] = [[]];
  const cut = () => {
    const current = parts.at(-1) ?? [];
    while (current.length && JOINERS.some((j) => isWord(current.at(-1), j))) current.pop();
    parts.push([]);
  };
  const c = new Cursor(tokens);
  for (let t = c.peek(); t; t = c.peek()) {
    if (c.phrase(...SEQUENCE)) {
      cut();
      continue;
    }
    c.at++;
    if (t.kind === 'sym' && BULLETS.has(t.text)) cut();
    else if (JOINERS.some((j) => isWord(t, j)) && startsClause(tokens, c.at)) cut();
    else parts.at(-1)?.push(t);
  }
  return parts;
}

/** Politeness and sequence words dropped from both ends of a clause. */
function trim(tokens: readonly Token[]): Clause {
  const c = new Cursor(tokens);
  let asked = false;
  for (let moved = true; moved; ) {
    const before = c.at;
    if (c.phrase(...ASKING)) asked = true;
    c.phrase(...POLITE_OPENINGS, ...CONNECTORS);
    moved = c.at !== before;
  }
  let end = tokens.length;
  const endsWith = (phrase: string) => {
    const from = end - phrase.split(' ').length;
    return from >= c.at && new Cursor(tokens, from).sees(phrase);
  };
  for (let found = POLITE_ENDINGS.find(endsWith); found !== undefined; found = POLITE_ENDINGS.find(endsWith)) end -= found.split(' ').length;
  return { tokens: tokens.slice(c.at, end), asked };
}

/** A sentence that is only a list number ("1.") says nothing. */
const listNumber = (tokens: readonly Token[]) => tokens.length === 1 && /^\d{1,2}$/.test(tokens[0]?.text ?? '');

export function sentencesOf(tokens: readonly Token[]): Sentence[] {
  const sentences: Sentence[] = [];
  let start = 0;
  for (let i = 0; i <= tokens.length; i++) {
    const t = tokens[i];
    if (t && !(t.kind === 'punct' && ENDS.has(t.text))) continue;
    const own = tokens.slice(start, i);
    start = i + 1;
    if (listNumber(own)) continue;
    const clauses = splitClauses(own)
      .map(trim)
      .filter((clause) => clause.tokens.length > 0);
    if (clauses.length) sentences.push({ clauses, question: t?.text === '?' });
  }
  return sentences;
}
