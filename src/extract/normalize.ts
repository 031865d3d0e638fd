/**
 * Text normalization for matching: lowercase, no accents, contractions
 * expanded ("don't" → "do not"), letters repeated for emphasis folded
 * ("yesss" → "yes"), punctuation dropped except clause breaks, which stay as
 * the token "|" so that a negation never reaches across them.
 */

/** A clause break: negation does not reach across it. */
export const BREAK = '|';

/** Contractions written with an apostrophe (looked for only in a text that has one). */
const CONTRACTIONS: [RegExp, string][] = [
  [/\bcan't\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\bain't\b/g, 'is not'],
  [/\bshan't\b/g, 'shall not'],
  [/n't\b/g, ' not'],
  [/\bi'm\b/g, 'i am'],
  [/'re\b/g, ' are'],
  [/'ve\b/g, ' have'],
  [/'ll\b/g, ' will'],
  [/'d\b/g, ' would'],
  [/\b(it|that|there|what|he|she|who)'s\b/g, '$1 is'],
];
/** Contractions and short forms without one ("cannot", and apostrophes people leave out). */
const BARE_CONTRACTIONS: [RegExp, string][] = [
  [/\bcannot\b/g, 'can not'],
  [/\b(do|does|did|is|are|was|were|have|has|had|could|would|should)nt\b/g, '$1 not'],
  [/\bcant\b/g, 'can not'],
  [/\bwont\b/g, 'will not'],
  [/\bim\b/g, 'i am'],
  [/\bive\b/g, 'i have'],
  [/\b(s?he|that|there|what)s\b/g, '$1 is'],
  [/\bkinda\b/g, 'kind of'],
  [/\bsorta\b/g, 'sort of'],
  [/\bdunno\b/g, 'do not know'],
  [/\bidk\b/g, 'i do not know'],
  // Units of time written short, after a number or a word that counts them ("15 yrs", "last yr", "every 2 wks"),
  // where "yr" is no "your" ("yr engineer"); and "at the mo".
  [/(\d|\b(?:a|last|this|next|per|every|each|one|few|couple|several)) ?yr(s?)\b/g, '$1 year$2'],
  [/(\d|\b(?:a|last|this|next|per|every|each|one|few|couple|several)) ?wk(s?)\b/g, '$1 week$2'],
  [/(\d|\b(?:a|last|this|next|per|every|each|one|few|couple|several)) ?mth(s?)\b/g, '$1 month$2'],
  [/\bat the mo\b/g, 'at the moment'],
];

/**
 * The texts normalized last, and what they became. A message is normalized by
 * each reader that looks at it (and its clauses again), tens of times per
 * turn, by two dozen regular expressions; a few recent ones are kept.
 */
const recent = new Map<string, string>();
const RECENT_MAX = 256;

export function normalize(text: string): string {
  const known = recent.get(text);
  if (known !== undefined) return known;
  const normalized = normalizeAnew(text);
  // Long texts are not kept: a cache of a few short ones, never a store of what people typed.
  if (text.length <= 2000) {
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(text, normalized);
  }
  return normalized;
}

function normalizeAnew(text: string): string {
  let s = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  s = s.replace(/[\u2018\u2019\u02bc`´]/g, "'");
  if (s.includes("'")) for (const [pattern, replacement] of CONTRACTIONS) s = s.replace(pattern, replacement);
  for (const [pattern, replacement] of BARE_CONTRACTIONS) s = s.replace(pattern, replacement);
  // "Anything but a van" excludes the van: "but" there is "except", no contrast.
  s = s.replace(/\b(anything|everything|all|whatever|any)\s+but\b/g, '$1 except');
  s = s.replace(/[.,;:!?()[\]{}"\u201c\u201d…]+|\s[-–—]+\s|\bbut\b|\bhowever\b|\bthough\b/g, ` ${BREAK} `);
  s = s.replace(/[^\p{L}\p{N}+|\s]+/gu, ' ');
  s = s.replace(/(\p{L})\1{2,}/gu, '$1');
  return s.replace(/\s+/g, ' ').trim();
}

/** Where the clause holding token `at` starts: just after the last break before it (0 at none). */
export function clauseStart(tokens: readonly string[], at: number): number {
  let from = Math.min(at, tokens.length);
  while (from > 0 && tokens[from - 1] !== BREAK) from--;
  return from;
}

/** Where the clause holding token `at` ends: at the next break from it (the length at none). */
export function clauseEnd(tokens: readonly string[], at: number): number {
  let to = Math.max(at, 0);
  while (to < tokens.length && tokens[to] !== BREAK) to++;
  return to;
}

export function tokenize(text: string): string[] {
  const tokens = normalize(text).split(' ').filter((t) => t.length > 0);
  // No breaks at the ends, none doubled.
  return tokens.filter((t, i) => t !== BREAK || (i > 0 && i < tokens.length - 1 && tokens[i - 1] !== BREAK));
}

/** Damerau-Levenshtein distance (optimal string alignment), stopping early past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]![j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      best = Math.min(best, d);
    }
    if (i > 0 && best > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

/** A word's stem, roughly: "smoker", "smoking", "smokes" and "smoke" share "smok" (a stem under three letters is the word). */
export function wordStem(w: string): string {
  const s = w.replace(/(?:ings?|ers?|ed|es|s|e)$/u, '');
  return s.length >= 3 ? s : w;
}
