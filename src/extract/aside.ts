import { BREAK, tokenize } from './normalize.js';
import { isPersonWord } from './subject.js';
import { asksWho } from './who-asked.js';

/**
 * An aside after a contrast (issue 26: contrast). "No alarm, but we have cameras", "yes, though the booster
 * is due in march", "full packing, except the wine": what follows the contrast says something beside the
 * answer, not against it, and the answer before it stands. It is an aside only when it cannot be turned
 * against the answer: no negation nor a word that ends or undoes something ("expired", "lapsed", "a dummy"),
 * no condition, wish or other time, no one else's doing ("my partner has one"), and none of the question's
 * own words (a tail about the asked thing may well change the answer: "I feel fine but my doctor told me to
 * avoid exercise"). Anything else after a contrast leaves the answer unread, as before.
 */

const TURNING = new Set([
  'not', 'no', 'never', 'none', 'nothing', 'nobody', 'without', 'hardly', 'barely', 'except', 'apart', 'besides', 'unless', 'if',
  'expired', 'expires', 'expiring', 'ended', 'ends', 'ending', 'lapsed', 'lapses', 'cancelled', 'canceled', 'stopped', 'broken',
  'dummy', 'fake', 'fakes', 'sold', 'gone', 'lost', 'quit', 'left', 'moved', 'changed', 'switched', 'instead', 'actually', 'really',
  'technically', 'officially', 'sort', 'kind', 'maybe', 'might', 'would', 'could', 'should', 'may', 'probably', 'depends', 'wish',
  'want', 'wants', 'hope', 'hoping', 'plan', 'planning', 'going', 'gonna', 'will', 'now', 'anymore', 'yet', 'since', 'until', 'from',
  'starting', 'next', 'soon', 'later', 'before', 'after', 'used', 'was', 'were', 'had', 'did', 'ago', 'last', 'once', 'also', 'too',
  'plus', 'and', 'or', 'lol', 'haha', 'joke', 'kidding', 'wrong', 'mistake', 'sorry', 'wait', 'mean', 'meant',
  // A place or a part the answer holds only for ("yes, but only in the garden", "retired, but I still work").
  'only', 'just', 'mostly', 'mainly', 'partly', 'outside', 'outdoors', 'garden', 'balcony', 'terrace', 'elsewhere', 'still',
  'temporarily', 'currently', 'except',
]);
/**
 * Of those, the words that may still turn an answer among three or more named options ("weekly, but not since
 * june", "this week, unless it rains", "daily, sorry, I mean weekly"): there a tail can only move the answer by
 * naming another option, a time, a condition or a take-back, not by saying the opposite of a yes. A place or a
 * part ("within a week, but only for the weekend"), an exception ("full packing, except the wine") or someone
 * else's doing ("owner, though my wife does the bookings") leaves the option named.
 */
const TURNING_AMONG_OPTIONS = new Set([
  'not', 'no', 'never', 'none', 'nothing', 'nobody', 'without', 'unless', 'if', 'instead', 'actually', 'really', 'maybe', 'might',
  'would', 'could', 'should', 'may', 'probably', 'depends', 'wish', 'want', 'wants', 'hope', 'hoping', 'plan', 'planning', 'now', 'anymore', 'yet', 'since', 'until', 'till', 'from', 'starting', 'next', 'soon', 'later', 'before',
  'after', 'used', 'was', 'were', 'had', 'did', 'ago', 'last', 'also', 'too', 'plus', 'and', 'or', 'lol', 'haha', 'joke',
  'kidding', 'wrong', 'mistake', 'sorry', 'wait', 'mean', 'meant', 'changed', 'switched', 'moved', 'cancelled', 'canceled',
  'stopped', 'quit', 'ended', 'expired', 'lapsed', 'says', 'said', 'thinks', 'reckons', 'prefers', 'rather', 'more', 'less',
  'fewer', 'mostly', 'mainly', 'change', 'changes', 'changing', 'earlier', 'sooner', 'today', 'tomorrow', 'tonight',
  'weekend', 'christmas', 'easter', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september',
  'october', 'november', 'december', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
]);
/** Words too common to be a question's own ("is", "the", "you"). */
export const FUNCTION_WORDS = new Set([
  'is', 'are', 'was', 'be', 'do', 'does', 'did', 'have', 'has', 'a', 'an', 'the', 'you', 'your', 'i', 'we', 'our', 'my', 'it', 'its',
  'there', 'to', 'of', 'in', 'on', 'at', 'for', 'with', 'any', 'how', 'what', 'when', 'which', 'who', 'would', 'like', 'that', 'this',
  'or', 'and', 'us', 'can', 'will', 'much', 'many', 'often', 'please', 'up',
]);
/**
 * The words of a question and its categories, stemmed, without the common ones: what an answer's words are
 * checked against. Kept per question (the same few questions are asked again and again; bounded).
 */
export function askedWords(prompt: string, categories: readonly string[]): ReadonlySet<string> {
  const key = `${prompt}\u0000${categories.join('\u0000')}`;
  let words = askedCache.get(key);
  if (!words) {
    if (askedCache.size >= 500) askedCache.clear();
    askedCache.set(key, (words = new Set([prompt, ...categories].flatMap((s) => tokenize(s)).filter((t) => t !== BREAK && !FUNCTION_WORDS.has(t)).map(stem))));
  }
  return words;
}
const askedCache = new Map<string, ReadonlySet<string>>();
export const stem = (w: string) => w.replace(/ies$/u, 'y').replace(/(?<=[^s])s$/u, '');

/**
 * Whether the tokens after a contrast are an aside that leaves the answer before it standing. `categories`
 * are the question's: a tail with a word of one ("realistically twice a week") may give another answer.
 * `before` is what came before the contrast: with a negation of its own ("the owner doesn't allow dogs") it
 * is no plain answer to stand.
 */
export function isAside(tail: readonly string[], before: readonly string[], prompt: string | undefined, categories: readonly string[]): boolean {
  const words = tail.filter((t) => t !== BREAK);
  if (words.length === 0 || words.length > 10 || prompt === undefined) return false;
  if (amongOptions(categories)) {
    const asked = askedWords(prompt, categories);
    // (Asked who, a person in the tail may be the answer: "me, but my husband on his days off".)
    const people = asksWho(prompt);
    return !words.some((t) => TURNING_AMONG_OPTIONS.has(t) || asked.has(stem(t)) || (people && isPersonWord(t)) || /\d/u.test(t) || COUNTS.has(t));
  }
  if (before.some((t) => t === 'not' || t === 'never')) return false;
  // (A tail that names again what came before is about the same thing: "no gap in january, but a gap in june".)
  const said = new Set(before.filter((t) => t !== BREAK && t.length >= 3 && !FUNCTION_WORDS.has(t)).map(stem));
  const asked = askedWords(prompt, categories);
  // (A tail about "it" or "that one" speaks of the answer's own thing: "yes, but it's a provisional one".)
  if (BACK_REFERENCES.has(words[0]!)) return false;
  return !words.some((t) => TURNING.has(t) || asked.has(stem(t)) || said.has(stem(t)) || isPersonWord(t) || /\d/u.test(t) || COUNTS.has(t));
}
/** Three or more options and no yes or no among them: a tail cannot turn the answer into "the other one". */
function amongOptions(categories: readonly string[]): boolean {
  return categories.length >= 3 && !categories.some((c) => /^(?:yes|no)\b/iu.test(c.trim()));
}
/** Words that refer back to what was answered. */
const BACK_REFERENCES = new Set(['it', 'its', 'that', 'this', 'these', 'those', 'they', 'them', 'which']);
/** Words that count or give a rate ("twice", "weekly"): another answer to a question of how often. */
const COUNTS = new Set(['once', 'twice', 'thrice', 'times', 'daily', 'weekly', 'monthly', 'yearly', 'day', 'week', 'month', 'year', 'every', 'each', 'per']);
