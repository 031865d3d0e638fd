import { BREAK, tokenize } from './normalize.js';
import { bareName } from './who-asked.js';

/**
 * The ends of an ordered scale (issue 26: common words the author did not list). "The cheapest one", "the fastest
 * you've got", "top tier", "the slowest is fine" name the first or the last category of a question whose
 * categories are ordered: numbers of one kind of unit ("100 Mbit/s" / "500 Mbit/s" / "1 Gbit/s"), or names on a
 * known ladder ("Basic" / "Standard" / "Premium", "Small" / "Medium" / "Large"). Any other list of categories
 * has no ends, and a superlative there reads nothing; so does one said of a speed where the scale is no speed,
 * a second one ("the second cheapest"), both ends at once, or a negation in its clause ("not the cheapest").
 */

/** Ladders of names, lowest first (normalized, without an article). */
const LADDERS: readonly (readonly string[])[] = [
  ['basic', 'standard', 'plus', 'premium'],
  ['basic', 'standard', 'comprehensive'],
  ['bronze', 'silver', 'gold', 'platinum'],
  ['extra small', 'small', 'medium', 'large', 'extra large'],
  ['xs', 's', 'm', 'l', 'xl', 'xxl'],
  ['low', 'medium', 'high'],
  ['light', 'moderate', 'heavy'],
  ['slow', 'medium', 'fast'],
];

/** Superlatives of the low end and of the high end (normalized, longest first where they overlap). */
const LOW = [
  ['cheapest'], ['least', 'expensive'], ['most', 'affordable'], ['lowest'], ['smallest'], ['tiniest'], ['slowest'], ['the', 'minimum'],
  ['bare', 'minimum'], ['entry', 'level'], ['most', 'basic'], ['simplest'], ['bottom', 'tier'], ['lightest'],
];
// ("Best" and a bare "top" or "max" are left out: "whatever is best", "on top of that", "max 100".)
const HIGH = [
  ['fastest'], ['quickest'], ['biggest'], ['largest'], ['highest'], ['top', 'tier'], ['top', 'one'], ['top', 'option'], ['top', 'package'],
  ['top', 'plan'], ['top', 'level'], ['top', 'of', 'the', 'range'], ['most', 'expensive'], ['the', 'maximum'], ['the', 'max'], ['fullest'],
  ['heaviest'], ['all', 'the', 'bells', 'and', 'whistles'], ['the', 'works'],
];
/** Of those, the ones that speak of speed: read only where the scale is a speed. */
const SPEED_WORDS = new Set(['fastest', 'quickest', 'slowest']);
/** Words before a superlative that move it off the end ("second cheapest", "next biggest", "not the"). */
const OFF_THE_END = new Set(['second', 'third', 'next', '2nd', '3rd', 'not', 'no', 'never', 'nor']);

/** Units that scale by a prefix: "500 mbit" and "1 gbit" are one kind. */
const PREFIXED = /^(k|m|g|t)(bit|bits|bps|b|byte|bytes|hz|w)$/u;
const PREFIX: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, g: 1e9, t: 1e12 };

interface Scale {
  /** The categories, lowest first. */
  order: string[];
  speed: boolean;
}
const scaleCache = new Map<string, Scale | null>();

/** The categories as an ordered scale, lowest first, or undefined. */
export function scaleOf(categories: readonly string[]): Scale | undefined {
  const key = categories.join('\u0000');
  let scale = scaleCache.get(key);
  if (scale === undefined) {
    if (scaleCache.size > 500) scaleCache.clear();
    scaleCache.set(key, (scale = numericScale(categories) ?? ladderScale(categories) ?? null));
  }
  return scale ?? undefined;
}

/** Each category a number of one unit ("100 Mbit/s", "1 Gbit/s"): ordered by its value. */
function numericScale(categories: readonly string[]): Scale | undefined {
  if (categories.length < 2) return undefined;
  const values: { category: string; value: number; unit: string }[] = [];
  for (const c of categories) {
    const tokens = tokenize(c).filter((t) => t !== BREAK);
    const at = tokens.findIndex((t) => /^\d+(?:\.\d+)?$/u.test(t));
    if (at < 0 || tokens.slice(at + 1).some((t) => /^\d/u.test(t))) return undefined;
    const unit = tokens[at + 1] ?? '';
    const prefixed = PREFIXED.exec(unit);
    values.push({ category: c, value: Number(tokens[at]) * (prefixed ? PREFIX[prefixed[1]!]! : 1), unit: prefixed ? prefixed[2]! : unit });
  }
  if (new Set(values.map((v) => v.unit)).size !== 1 || new Set(values.map((v) => v.value)).size !== values.length) return undefined;
  const speed = /^(?:bit|bits|bps)$/u.test(values[0]!.unit);
  return { order: values.sort((a, b) => a.value - b.value).map((v) => v.category), speed };
}

/** The categories in the order of a known ladder (all of them on it). */
function ladderScale(categories: readonly string[]): Scale | undefined {
  if (categories.length < 2) return undefined;
  const names = categories.map(bareName);
  for (const ladder of LADDERS) {
    if (!names.every((n) => ladder.includes(n))) continue;
    const order = categories.map((c, i) => ({ c, rank: ladder.indexOf(names[i]!) })).sort((a, b) => a.rank - b.rank).map((x) => x.c);
    return { order, speed: ladder.includes('fast') };
  }
  return undefined;
}

const startsAt = (tokens: readonly string[], i: number, p: readonly string[]) => p.every((w, k) => tokens[i + k] === w);

/**
 * The end of the scale a superlative in `tokens` names, with where it stands, or undefined (no scale, no
 * superlative, both ends, or one moved off the end). The caller checks whose clause it is and when.
 */
export function readScaleEnd(tokens: readonly string[], categories: readonly string[]): { category: string; start: number; end: number } | undefined {
  const scale = scaleOf(categories);
  if (!scale) return undefined;
  const found: { high: boolean; start: number; end: number; word: string }[] = [];
  for (let i = 0; i < tokens.length; i++)
    for (const [list, high] of [[LOW, false], [HIGH, true]] as const) {
      const p = list.find((words) => startsAt(tokens, i, words));
      if (p) found.push({ high, start: i, end: i + p.length, word: p[0]! });
    }
  if (found.length === 0 || new Set(found.map((f) => f.high)).size > 1) return undefined;
  if (found.some((f) => SPEED_WORDS.has(f.word)) && !scale.speed) return undefined;
  const first = found[0]!;
  let s = first.start;
  while (s > 0 && tokens[s - 1] !== BREAK) s--;
  if (tokens.slice(s, first.start).some((t) => OFF_THE_END.has(t))) return undefined;
  return { category: first.high ? scale.order[scale.order.length - 1]! : scale.order[0]!, start: first.start, end: first.end };
}
