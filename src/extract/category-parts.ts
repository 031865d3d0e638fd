/**
 * An answer that names part of a category ("savings" for "Savings account",
 * "a joint one", "just walks" for "Dog walking"): people drop the words the
 * categories share. Read only from a short answer made of nothing but that
 * category's words (in any inflection) and politeness, where one word names
 * this category and no other, and only a part that names it on its own: the
 * describing word when the categories share their head noun ("Savings
 * account" beside "Current account"), the head when they share the describing
 * word, or a head that names an activity ("walking"). "Patient" of "New
 * patient", "dog" of "Dog walking" or "home" of "Home visits" are not read:
 * alone they are about something else. Inside a longer sentence no part is read.
 */
import { BREAK, tokenize } from './normalize.js';

/** Words around a short answer that say nothing ("a savings one please", "I'd like the joint one"). */
const FILLERS = new Set([
  'a', 'an', 'the', 'one', 'ones', 'please', 'pls', 'plz', 'just', 'only', 'i', 'we', 'would', 'like', 'want', 'need', 'd', 'id',
  'for', 'me', 'us', 'thanks', 'thank', 'you', 'thx', 'ok', 'okay', 'that', 'this', 'kind', 'type', 'option', 'will', 'take',
  'prefer', 'go', 'with', 'be', 'is', 'it', 'do', 'some', 'sort', 'of', 'ideally', 'hi', 'hello', 'hey', 'stuff', 'things',
]);
/** Words that count or place in time: never the distinguishing part of a name ("week" of "Within a week"). */
const NOT_DISTINCTIVE = new Set([
  'day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'night', 'nights', 'hour', 'hours', 'time', 'times', 'more',
  'less', 'fewer', 'once', 'twice', 'within', 'than', 'over', 'under', 'least', 'most', 'and', 'or', 'not', 'no', 'yes', 'other',
  'others', 'else', 'any', 'all', 'none', 'new', 'old', 'first', 'last', 'next', 'this', 'per', 'a', 'an', 'the', 'of', 'to', 'in',
  'on', 'at', 'by', 'for', 'with', 'my', 'your', 'up',
  // ("Today" beside "Later today" and "Right away" may be either: a time word is read as a time, timing-windows.ts.)
  'today', 'tomorrow', 'tonight', 'now', 'later', 'earlier', 'soon', 'ago', 'weekend', 'morning', 'evening', 'afternoon',
]);

/** Endings of English adjectives ("fragile", "flexible", "urgent", "fixed", "careful", "digital"). */
const ADJECTIVE = /(?:ile|ible|able|ful|ous|ive|ent|ant|ic|ical|less|ed)$/u;

/** A word's stem, roughly: "walking", "walks", "walk" share "walk"; "visits", "visit" share "visit". */
const stem = (w: string) => {
  const s = w.replace(/(?:ings?|ers?|ed|es|s)$/u, '');
  return s.length >= 4 ? s : w.replace(/s$/u, '');
};

interface Parts {
  /** Every word of each category, by stem: a word of two categories belongs to both. */
  owners: Map<string, Set<string>>;
  /** The stems that name their category on their own (see above). */
  naming: Set<string>;
}
const cache = new WeakMap<readonly string[], Map<string | undefined, Parts>>();

function partsOf(categories: readonly string[], prompt: string | undefined): Parts {
  let byPrompt = cache.get(categories);
  if (!byPrompt) cache.set(categories, (byPrompt = new Map()));
  let parts = byPrompt.get(prompt);
  if (!parts) {
    const owners = new Map<string, Set<string>>();
    for (const category of categories)
      for (const w of tokenize(category)) {
        if (w === BREAK || /\d/u.test(w)) continue;
        const set = owners.get(stem(w)) ?? new Set<string>();
        set.add(category);
        owners.set(stem(w), set);
      }
    // A word the question says ("What kind of home...?" beside "Mobile home") distinguishes nothing.
    for (const w of prompt === undefined ? [] : tokenize(prompt)) owners.get(stem(w))?.add('\u0000prompt');
    const naming = new Set<string>();
    const named = categories.map((c) => tokenize(c).filter((w) => w !== BREAK && !/\d/u.test(w) && !NOT_DISTINCTIVE.has(w)));
    const shared = (w: string) => (owners.get(stem(w))?.size ?? 0) > 1;
    for (const words of named) {
      if (words.length < 2) continue;
      const head = words[words.length - 1]!;
      const describing = words.slice(0, -1);
      // (A describing word that is plainly an adjective names the kind whatever the head: "fragile" of "Fragile items
      // only", "fixed" of "Fixed date"; a noun in that place, "dog" of "Dog walking", does not.)
      for (const w of describing) if (shared(head) || ADJECTIVE.test(w)) naming.add(stem(w));
      if (describing.some(shared) || /ing$/u.test(head)) naming.add(stem(head));
    }
    byPrompt.set(prompt, (parts = { owners, naming }));
  }
  return parts;
}

/**
 * The one category whose name the answer is a part of, or undefined. `tokens` are the answer's
 * normalized tokens; only categories of two words or more are read this way (one word is the whole name).
 */
export function categoryByPart(tokens: readonly string[], categories: readonly string[], prompt: string | undefined): string | undefined {
  const words = tokens.filter((t) => t !== BREAK);
  if (words.length === 0 || words.length > 6) return undefined;
  const { owners, naming } = partsOf(categories, prompt);
  // Every word of the answer must be a word of the one category meant; one of them a word of no other.
  let candidates: readonly string[] = categories;
  let distinctive = false;
  for (const w of words) {
    const of = owners.get(stem(w));
    if (of === undefined) {
      if (FILLERS.has(w)) continue;
      return undefined;
    }
    candidates = candidates.filter((c) => of.has(c));
    if (of.size === 1 && naming.has(stem(w))) distinctive = true;
  }
  const [meant] = candidates;
  if (!distinctive || meant === undefined || candidates.length !== 1) return undefined;
  // Only a part: the whole name is read by the matcher itself, and a one-word name has no parts.
  const name = tokenize(meant).filter((t) => t !== BREAK);
  return name.length >= 2 ? meant : undefined;
}
