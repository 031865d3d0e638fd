import { ANSWER_FILLERS } from './lexicon.js';
import { readCategory, type MatchableQuestion, type MentionAt } from './match-category.js';
import { BREAK, tokenize, wordStem as stem } from './normalize.js';
import { timesPerWeek, weeklyRangeOf } from './knowledge/per-week.js';

/**
 * Whether a message that the asked question reads only through built-in
 * words (a bare yes or no, "never", "nobody", "none") is about another
 * question of the same flow instead (issue 26: a value is committed only from
 * words about this question). Three signs, each about another question and
 * not this one:
 * - the message is that question's category, nothing more ("never" at the pets
 *   question of a flow that asks how often one smokes; "none" asked whether
 *   anyone else will drive, where the insurance question has "None");
 * - it holds that question's own words ("no, it's about my bill");
 * - it names that question's topic, a word of its wording that is not in this
 *   one's ("I don't need a personal trainer" asked about a doctor's advice,
 *   "no, my doctor is fine with it" asked about a trainer).
 */
export function answersAnotherQuestion(
  text: string,
  gate: MatchableQuestion,
  others: readonly MatchableQuestion[],
  from = 0,
  /** Whether a question's own words occur in the text at all (an index lookup): only those are read. */
  mayHold: (q: MatchableQuestion) => boolean = () => true,
): boolean {
  if (others.length === 0) return false;
  const all = tokenize(text);
  // "My wife has a licence but she hates driving so no": what the contrast keeps is read, not what it left.
  // (normalize.ts makes a contrast word a clause break: the tail is found in the text.)
  let start = 0;
  for (const m of text.matchAll(/\b(?:but|though|although|however)\b/giu)) {
    const at = all.length - tokenize(text.slice(m.index + m[0].length)).length;
    if (at <= from) start = at;
  }
  const words = all.slice(start).filter((t) => t !== BREAK);
  const content = words.filter((t) => !FILLERS.has(t));
  const own = ownStems(gate);
  // (A word used as a verb names no topic: after a modal or "to", or before its object, "sign her up", "hand it in".)
  const asVerb = (k: number) => VERB_BEFORE.has(words[k - 1] ?? '') || OBJECTS.has(words[k + 1] ?? '');
  const said = new Set(content.filter((t) => t.length >= 4 && !TOPIC_STOP.has(t) && !words.every((w, k) => w !== t || asVerb(k))).map(stem));
  const namesOwnTopic = [...said].some((w) => own.has(w));
  // A category of this question, typed as it is written, is its answer ("Never", asked how often the pressure needs topping up).
  const whole = content.join(' ');
  if (whole !== '' && gate.categories.some((c) => phrase(c) === whole)) return false;
  for (const q of others) {
    // ("Never" asked when the boiler was last serviced, beside "Never serviced": this question's own word too.)
    if (whole !== '' && q.categories.some((c) => phrase(c) === whole && !YES_NO.has(whole)) && !gate.categories.some((c) => phrase(c).split(' ').includes(whole)))
      return true;
    if (mayHold(q)) {
      const reading = readCategory(text, q, { ownWordsOnly: true });
      // (Not a typo: "the late reply" is no "Later".)
      const sure = reading.result.status === 'match' && reading.result.confidence >= 0.85;
      // (A word after a modal or "to" is a verb, not the answer's noun: "no, we will phone about it".)
      if (sure && reading.mentions.some((m) => m.start >= start && !allOwn(reading.tokens, m, own) && !VERB_BEFORE.has(reading.tokens[m.start - 1] ?? ''))) return true;
    }
    // (Unless the message names this question's own topic too: "no gas smell, just water" asked about gas.)
    if (!namesOwnTopic) for (const w of topicStems(q)) if (said.has(w) && !own.has(w)) return true;
    // "No, just me" asked whether you hold a licence: the person alone answers a question about anyone else.
    if (aboutOthers(q) && !aboutOthers(gate) && ALONE.some((p) => has(words, p))) return true;
    // "Yes, three times a week" asked about a doctor's advice: a count per week answers the question that counts them.
    if (countsPerWeek(q) && timesPerWeek(words) !== undefined && !countsPerWeek(gate)) return true;
  }
  return false;
}

const FILLERS = new Set(ANSWER_FILLERS);
const YES_NO = new Set(['yes', 'no']);
const OBJECTS = new Set(['her', 'him', 'them', 'me', 'us', 'it']);
const VERB_BEFORE = new Set(['will', 'would', 'can', 'could', 'should', 'shall', 'may', 'might', 'must', 'to', 'gonna', 'lets']);
/** Words of a question's wording that name no topic: question words, pronouns, common verbs and quantities. */
const TOPIC_STOP = new Set([
  'what', 'when', 'where', 'which', 'whom', 'whose', 'would', 'could', 'should', 'will', 'shall', 'have', 'does', 'with',
  'that', 'this', 'these', 'those', 'your', 'yours', 'like', 'want', 'need', 'from', 'into', 'about', 'there', 'their', 'them',
  'they', 'please', 'much', 'many', 'often', 'long', 'more', 'most', 'other', 'some', 'anyone', 'anybody', 'someone',
  'besides', 'also', 'just', 'only', 'than', 'then', 'here', 'make', 'take', 'give', 'plan', 'time', 'times', 'well', 'sure',
  'know', 'think', 'tell', 'thanks', 'hello', 'welcome', 'still', 'ever', 'never', 'been', 'being', 'were', 'wish', 'nobody',
  'none', 'nothing', 'really', 'right', 'okay', 'good', 'fine', 'great', 'moment', 'currently', 'current', 'today', 'included',
  'example', 'such', 'start', 'starts', 'after', 'before', 'even', 'very', 'every', 'each', 'anything', 'something',
  // Pronouns and words of a whole ("for everyone together", "the whole trip"): who or how much, not what about.
  'everyone', 'everybody', 'everything', 'together', 'whole', 'total', 'altogether', 'including',
  // Units of time measure how long or how often ("14 months left", "per month"): they name no question's topic.
  'hour', 'hours', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'minute', 'minutes',
]);

const phrase = (s: string) => tokenize(s).filter((t) => t !== BREAK).join(' ');

const ownCache = new WeakMap<MatchableQuestion['categories'], Map<string | undefined, Set<string>>>();
/** The stems of the asked question's wording and of its categories and synonyms. */
function ownStems(gate: MatchableQuestion): Set<string> {
  let byPrompt = ownCache.get(gate.categories);
  if (!byPrompt) ownCache.set(gate.categories, (byPrompt = new Map()));
  let stems = byPrompt.get(gate.prompt);
  if (!stems) {
    const texts = [gate.prompt ?? '', ...gate.categories, ...Object.values(gate.synonyms ?? {}).flat()];
    stems = new Set(texts.flatMap((t) => tokenize(t).filter((w) => w !== BREAK).map(stem)));
    byPrompt.set(gate.prompt, stems);
  }
  return stems;
}

const topicCache = new Map<string, string[]>();
/** The stems of the words of a question's wording that name its topic ("doctor", "exercise", "trainer", "insurance"). */
function topicStems(q: MatchableQuestion): string[] {
  const prompt = q.prompt ?? '';
  let stems = topicCache.get(prompt);
  if (!stems) {
    if (topicCache.size > 1000) topicCache.clear();
    stems = [...new Set(tokenize(prompt).filter((w) => w !== BREAK && w.length >= 4 && !TOPIC_STOP.has(w) && !/\d/u.test(w)).map(stem))];
    topicCache.set(prompt, stems);
  }
  return stems;
}

/** The mention's words are all words of the asked question too ("full" asked about a full licence is not the insurance's Full). */
function allOwn(tokens: readonly string[], m: MentionAt, own: Set<string>): boolean {
  return tokens.slice(m.start, m.end).every((t) => t === BREAK || own.has(stem(t)));
}

/** The question's categories count times a week ("2-3 times a week"). */
const countsPerWeek = (q: MatchableQuestion) => q.categories.filter((c) => weeklyRangeOf(tokenize(c).filter((t) => t !== BREAK)) !== undefined).length >= 2;

const ABOUT_OTHERS = new Set(['anyone', 'anybody', 'someone', 'somebody', 'else', 'besides', 'household']);
const aboutOthers = (q: MatchableQuestion) => tokenize(q.prompt ?? '').some((t) => ABOUT_OTHERS.has(t));
/** The person alone ("just me", "only me"). */
const ALONE = ['just me', 'only me', 'me only', 'just myself', 'only myself', 'me alone', 'solo'].map((p) => p.split(' '));
const has = (words: readonly string[], p: readonly string[]) => words.some((_, i) => p.every((t, k) => words[i + k] === t));
