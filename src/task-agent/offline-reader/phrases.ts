import type { PropertyValue } from '../../graph/model.js';
import {
  ARTICLES,
  DETERMINERS,
  EDGE_WORDS,
  edgeTypeWord,
  isIdentifier,
  isKeyWord,
  labelWord,
  NEIGHBOUR_WORDS,
  NODE_WORDS,
  propertyWord,
  STATUS_VALUES,
  STOP,
  typedValue,
} from './lexicon.js';
import type { Cursor, Token } from './tokens.js';

/**
 * The noun phrases every clause is made of: a node mentioned (with its label,
 * its key, or by reference to one named before), a value, a list of
 * properties, an edge type. Each rule reads from the cursor or returns null.
 */

/** A node as written: label and key when given; what it refers to is decided later, against what was read before. */
export interface Mention {
  readonly label: string | null;
  readonly key: string | null;
  /** As written, for reasons given back. */
  readonly text: string;
}

/** "it", "the node": the one node named before. */
export const IT: Mention = { label: null, key: null, text: 'it' };
/** "its status", "her name": a property of the one node named before. */
export const POSSESSIVES = ['its', 'his', 'her', 'their'];

export interface Written {
  readonly value: PropertyValue;
  /** As the person wrote it. */
  readonly raw: string;
  /** Read as a status word (open, closed, in progress). */
  readonly status: boolean;
}

export interface Assign {
  readonly name: string;
  readonly value: PropertyValue;
  readonly raw: string;
}

export type Item = { kind: 'prop'; assign: Assign } | { kind: 'key'; key: string } | { kind: 'label'; label: string };

export interface Neighbours {
  direction: 'both';
  type?: string;
}

/** Quoted text that may be a name or a value (backticks hold code or a tool's name). */
const plainQuote = (t: Token | undefined): Token | null => (t?.kind === 'quoted' && t.quote !== '`' ? t : null);

/** A key: quoted text, or a word only a key can be (TICKET-123, john.doe). */
export function key(c: Cursor): string | null {
  const t = c.peek();
  const q = plainQuote(t);
  // Keys hold no spaces: 'Fix login button' is a title, 'name: Bob' a property.
  const read = q ? (/\s/.test(q.text) ? null : q.text) : t?.kind === 'word' && isKeyWord(t.text) ? t.text : null;
  if (read !== null) c.at++;
  return read;
}

/** "with the key 'K'", "keyed K". */
export const keyPhrase = (c: Cursor): string | null =>
  c.attempt((c) => (c.phrase('with the key', 'with key', 'keyed', 'with the id', 'with id') ? key(c) : null));

/** A label: quoted as written (it must be a valid label), or a word (ticket → Ticket); `plural` says how it was written. */
export function label(c: Cursor): { label: string; plural: boolean } | null {
  const t = c.peek();
  const q = plainQuote(t);
  const read = q ? (isIdentifier(q.text) ? { label: q.text, plural: false } : null) : t?.kind === 'word' ? labelWord(t.text) : null;
  if (read) c.at++;
  return read;
}

/** A label written in the singular (a node, not a set of them). */
export const singularLabel = (c: Cursor): string | null =>
  c.attempt((c) => {
    const read = label(c);
    return read && !read.plural ? read.label : null;
  });

/**
 * A node: "ticket TICKET-123", "the 'User' node 'john.doe'", "the User node
 * with the key 'john.doe'", "node T-1", a bare key, "the ticket" or "the
 * 'User' node" (a label only: the node of that label read before), "it" or
 * "the node" (the one node read before).
 */
export function mention(c: Cursor): Mention | null {
  const start = c.at;
  const made = (label: string | null, key: string | null): Mention => ({ label, key, text: c.spell(start) });
  return (
    c.attempt((c) => {
      c.oneOf(DETERMINERS);
      const l = singularLabel(c);
      if (!l) return null;
      c.oneOf(NODE_WORDS);
      const k = key(c) ?? keyPhrase(c);
      return k ? made(l, k) : null;
    }) ??
    c.attempt((c) => {
      c.oneOf(DETERMINERS);
      if (!c.oneOf(NODE_WORDS)) return null;
      const k = key(c) ?? keyPhrase(c);
      return k ? made(null, k) : null;
    }) ??
    c.attempt((c) => {
      const k = key(c);
      return k ? made(null, k) : null;
    }) ??
    c.attempt((c) => {
      const determiner = c.oneOf(DETERMINERS);
      const l = singularLabel(c);
      if (!l) return null;
      const node = c.oneOf(NODE_WORDS);
      return determiner || node ? made(l, null) : null;
    }) ??
    c.attempt((c) => (c.oneOf(['it']) || (c.oneOf(DETERMINERS) && c.oneOf(NODE_WORDS)) ? made(null, null) : null))
  );
}

/** A status value, quoted or not ("closed", 'in progress'). */
export const status = (c: Cursor): Assign | null =>
  c.attempt((c) => {
    const v = value(c);
    return v?.status ? { name: 'status', value: v.value, raw: v.raw } : null;
  });

/** A status word or phrase, the longest that fits (in progress before in). */
export function statusValue(c: Cursor): string | null {
  const longest = STATUS_VALUES.filter((v) => c.sees(v.join(' '))).sort((a, b) => b.length - a.length)[0];
  if (!longest) return null;
  c.at += longest.length;
  return longest.join(' ');
}

const CAPITALISED = /^\p{Lu}[\p{Ll}'’.-]*$/u;

/**
 * A value: quoted (as written), a status word, a name in capitals ("John
 * Doe"), or one word (30 → 30, true → true). Two words in lower case are
 * not one value: "open in the backlog" leaves "in the backlog" unread.
 */
export function value(c: Cursor): Written | null {
  const t = c.peek();
  const q = plainQuote(t);
  if (q) {
    c.at++;
    return { value: q.text, raw: q.text, status: STATUS_VALUES.some((v) => v.join(' ') === q.lower) };
  }
  const status = statusValue(c);
  if (status) return { value: status, raw: status, status: true };
  if (t?.kind !== 'word' || STOP.has(t.lower)) return null;
  c.at++;
  const parts = [t.text];
  if (CAPITALISED.test(t.text)) {
    for (let next = c.peek(); next?.kind === 'word' && CAPITALISED.test(next.text) && !STOP.has(next.lower); next = c.peek()) {
      parts.push(next.text);
      c.at++;
    }
  }
  const raw = parts.join(' ');
  return { value: parts.length > 1 ? raw : typedValue(raw), raw, status: false };
}

/** A property name: a quoted identifier, or a word that is not grammar. */
export function propName(c: Cursor): string | null {
  const t = c.peek();
  const q = plainQuote(t);
  const name = q ? (isIdentifier(q.text) && q.text !== 'key' ? q.text : null) : t?.kind === 'word' ? propertyWord(t.text) : null;
  if (name) c.at++;
  return name;
}

const PAIR = /^([A-Za-z][A-Za-z0-9_]{0,62})\s*[:=]\s*(\S(?:[\s\S]*\S)?)$/;

/** A quoted pair: 'summary: Fix login button' (its value typed as an unquoted one: 'age: 30' is 30). */
export function quotedPair(c: Cursor): { name: string; raw: string } | null {
  const t = c.peek();
  const q = plainQuote(t);
  const [, name, raw] = (q ? PAIR.exec(q.text) : null) ?? [];
  if (!name || !raw) return null;
  c.at++;
  return { name, raw };
}

/** A quoted pair that sets a property ('key: K' is the key, not a property). */
const pairAssign = (c: Cursor): Assign | null =>
  c.attempt((c) => {
    const pair = quotedPair(c);
    return pair && pair.name !== 'key' ? { name: pair.name, value: typedValue(pair.raw), raw: pair.raw } : null;
  });

/** Between a property's name and its value: nothing, ":", "=", "of", "is", "set to", ... */
const connector = (c: Cursor): void => {
  c.phrase(':', '=', 'set to', 'equal to', 'equals', 'of', 'as', 'is', 'being');
};

/** One item of a property list: the properties 'a: b', 'a: b', the key K, the label L, the status 'open', age 30. */
export function item(c: Cursor, allow: { key?: boolean; label?: boolean } = {}): Item | null {
  const prop = (assign: Assign | null): Item | null => assign && { kind: 'prop', assign };
  return (
    c.attempt((c) => {
      c.oneOf(ARTICLES);
      return c.oneOf(['property', 'properties', 'prop', 'props']) ? (c.phrase(':'), prop(pairAssign(c))) : null;
    }) ??
    prop(pairAssign(c)) ??
    (allow.key
      ? c.attempt((c) => {
          const pair = quotedPair(c);
          return pair?.name === 'key' ? { kind: 'key', key: pair.raw } : null;
        }) ??
        c.attempt((c) => {
          c.oneOf(ARTICLES);
          if (!c.oneOf(['key', 'id'])) return null;
          connector(c);
          const k = key(c);
          return k ? { kind: 'key', key: k } : null;
        })
      : null) ??
    (allow.label
      ? c.attempt((c) => {
          c.oneOf(ARTICLES);
          if (!c.oneOf(['label'])) return null;
          connector(c);
          const l = singularLabel(c);
          return l ? { kind: 'label', label: l } : null;
        })
      : null) ??
    c.attempt((c) => {
      c.oneOf(ARTICLES);
      const name = propName(c);
      if (!name) return null;
      connector(c);
      const v = value(c);
      return v && prop({ name, value: v.value, raw: v.raw });
    })
  );
}

/** Items joined by "and" and commas. */
export function items(c: Cursor, allow: { key?: boolean; label?: boolean } = {}): Item[] | null {
  const first = item(c, allow);
  if (!first) return null;
  const all = [first];
  for (;;) {
    const next = c.attempt((c) => (c.phrase(', and', ',', 'and') ? item(c, allow) : null));
    if (!next) return all;
    all.push(next);
  }
}

/** The properties of a list (keys and labels refused). */
export const assignsOf = (list: readonly Item[]): Assign[] | null =>
  list.every((i) => i.kind === 'prop') ? list.map((i) => (i as { assign: Assign }).assign) : null;

/** "with the status 'open' and priority high" (no key). */
export const withProps = (c: Cursor): Assign[] | null =>
  c.attempt((c) => {
    c.phrase(',');
    if (!c.phrase('with', 'having', 'that has', 'which has')) return null;
    const list = items(c);
    return list && assignsOf(list);
  });

/** An edge type: quoted as written, or a word (upper-cased). */
export function edgeType(c: Cursor): string | null {
  const t = c.peek();
  const q = plainQuote(t);
  const type = q ? (isIdentifier(q.text) ? q.text : null) : t?.kind === 'word' ? edgeTypeWord(t.text) : null;
  if (type) c.at++;
  return type;
}

/** "a 'REPORTS' edge", "the edge of type REPORTS", "an ASSIGNED_TO relationship". */
export const edgeHead = (c: Cursor): string | null =>
  c.attempt((c) => {
    c.oneOf(ARTICLES);
    c.oneOf(['new']);
    const type = edgeType(c);
    return type && c.oneOf(EDGE_WORDS) ? type : null;
  }) ??
  c.attempt((c) => {
    c.oneOf(ARTICLES);
    c.oneOf(['new']);
    if (!c.oneOf(EDGE_WORDS)) return null;
    c.phrase('of type', 'of the type', 'with type', 'with the type', 'typed', 'called', 'named', ':');
    return edgeType(c);
  });

/** "and its edges", "with their REPORTS neighbours". */
export const neighbours = (c: Cursor): Neighbours | null =>
  c.attempt((c) => {
    if (!c.phrase('and', 'with', 'along with', 'together with', 'including', 'plus')) return null;
    c.oneOf(['all']);
    if (!c.oneOf(['its', 'their'])) return null;
    const type = c.attempt((c) => {
      const t = edgeType(c);
      const next = c.peek();
      return t && next?.kind === 'word' && NEIGHBOUR_WORDS.has(next.lower) ? t : null;
    });
    if (!c.oneOf(NEIGHBOUR_WORDS)) return null;
    return type ? { direction: 'both', type } : { direction: 'both' };
  });

/** "in the graph", "from the database": says where, changes nothing. */
export const graphTail = (c: Cursor): void => {
  c.phrase('in the graph', 'to the graph', 'into the graph', 'from the graph', 'in the database', 'from the database', 'to the database');
};
