import { unsure } from './unsure.js';

/**
 * The offline reader's tokens: words (keys such as TICKET-123 and john.doe are
 * one word), quoted text (kept as written, never a grammar word), punctuation
 * (a line break is one), a possessive 's, and any other symbol, which no rule
 * reads (so text with symbols is abstained on unless they are quoted).
 */
export type TokenKind = 'word' | 'quoted' | 'punct' | 'sym' | 'poss';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** Lower case, for matching grammar words. */
  readonly lower: string;
  /** For quoted text: the opening mark (a backtick names a tool or holds code: never a key, label or value). */
  readonly quote?: string;
}

const WORD = /[\p{L}\p{N}]+(?:[._\-@'’][\p{L}\p{N}]+)*/uy;
const PUNCT = new Set(['.', ',', ';', ':', '!', '?', '\n']);
const CLOSING: Readonly<Record<string, string>> = { "'": "'", '"': '"', '`': '`', '‘': '’', '“': '”' };
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** Words with 's that are not possessives. */
const CONTRACTIONS = new Set(["what's", "it's", "that's", "there's", "here's", "let's", "he's", "she's", "who's", "where's", "how's"]);

/**
 * Where the quotation opened at `open` closes, or -1. Quoted text starts and
 * ends with no space ('TICKET-1', not ' TICKET-1 '), and an apostrophe inside
 * a word (Bob's) does not close it: a quotation that fits neither is unreadable.
 */
function closingAt(text: string, open: number, close: string): number {
  if (/\s/u.test(text[open + 1] ?? ' ')) return -1;
  for (let i = open + 2; i < text.length; i++) {
    const ch = text[i] ?? '';
    const closes = close === "'" ? (ch === "'" || ch === '’') && !LETTER_OR_DIGIT.test(text[i + 1] ?? '') : ch === close;
    if (closes) return /\s/u.test(text[i - 1] ?? '') ? -1 : i;
  }
  return -1;
}

function pushWord(tokens: Token[], word: string): void {
  const lower = word.toLowerCase().replace(/’/g, "'");
  if (lower.length > 2 && lower.endsWith("'s") && !CONTRACTIONS.has(lower)) {
    const base = word.slice(0, -2);
    tokens.push({ kind: 'word', text: base, lower: base.toLowerCase() }, { kind: 'poss', text: "'s", lower: "'s" });
  } else tokens.push({ kind: 'word', text: word, lower });
}

/** The text's tokens; an unclosed or empty quotation is unreadable. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch !== '\n' && /\s/u.test(ch)) {
      i++;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      pushWord(tokens, word[0]);
      i += word[0].length;
      continue;
    }
    const close = CLOSING[ch];
    if (close) {
      const end = closingAt(text, i, close);
      if (end < 0) return unsure(`a quotation (${ch}) is not closed, or is empty`);
      const content = text.slice(i + 1, end);
      tokens.push({ kind: 'quoted', text: content, lower: content.toLowerCase(), quote: ch });
      i = end + 1;
      continue;
    }
    tokens.push({ kind: PUNCT.has(ch) ? 'punct' : 'sym', text: ch, lower: ch });
    i++;
  }
  return tokens;
}

/** Tokens as a person would read them again, for reasons given back. */
export const spell = (tokens: readonly Token[]): string =>
  tokens
    .map((t, i) => {
      const text = t.kind === 'quoted' ? `${t.quote}${t.text}${CLOSING[t.quote ?? "'"] ?? t.quote}` : t.text;
      return i === 0 || t.kind === 'poss' || (t.kind === 'punct' && t.text !== '\n') ? text : ` ${text}`;
    })
    .join('');

/**
 * A position in one clause's tokens. Rules consume tokens and return a value,
 * or return null; `attempt` puts the position back when a rule fails, so rules
 * are tried one after another without side effects.
 */
export class Cursor {
  constructor(
    readonly tokens: readonly Token[],
    public at = 0,
  ) {}

  get done(): boolean {
    return this.at >= this.tokens.length;
  }

  peek(ahead = 0): Token | undefined {
    return this.tokens[this.at + ahead];
  }

  /** The next token if it is a word among `words` (consumed), else null. */
  oneOf(words: ReadonlySet<string> | readonly string[]): string | null {
    const t = this.peek();
    if (t?.kind !== 'word') return null;
    const found = words instanceof Set ? words.has(t.lower) : (words as readonly string[]).includes(t.lower);
    if (!found) return null;
    this.at++;
    return t.lower;
  }

  /** Whether the next tokens are this phrase (words and punctuation, space-separated); nothing is consumed. */
  sees(phrase: string): boolean {
    return phrase.split(' ').every((part, k) => {
      const t = this.peek(k);
      return t !== undefined && t.kind !== 'quoted' && t.lower === part;
    });
  }

  /** One of the phrases, consumed whole, or nothing. */
  phrase(...phrases: string[]): boolean {
    const found = phrases.find((phrase) => this.sees(phrase));
    if (found === undefined) return false;
    this.at += found.split(' ').length;
    return true;
  }

  /** The next token if it is of this kind (consumed). */
  take(kind: TokenKind): Token | null {
    const t = this.peek();
    if (t?.kind !== kind) return null;
    this.at++;
    return t;
  }

  /** Runs a rule; when it fails, the position is where it was. */
  attempt<T>(rule: (c: Cursor) => T | null): T | null {
    const start = this.at;
    const result = rule(this);
    if (result === null) this.at = start;
    return result;
  }

  /** The rest of the tokens, consumed. */
  rest(): Token[] {
    const rest = this.tokens.slice(this.at);
    this.at = this.tokens.length;
    return rest;
  }

  spell(from: number, to = this.at): string {
    return spell(this.tokens.slice(from, to));
  }
}
