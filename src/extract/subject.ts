import { aboutThePast } from './assertion.js';
import { BREAK, tokenize } from './normalize.js';
import { FAMILY, HOUSEHOLD, PEOPLE } from './knowledge/people.js';
import { OPINION_VERBS } from './knowledge/verbs.js';
import { namesPersonAsked } from './asked-person.js';

/**
 * Whose value a clause states (issue 26: a value is the person's answer only when its clause is about the
 * person, or about the thing the question asks about). The subject of a clause is what stands before its
 * first verb; these rules catch subjects the owner check of match-category.ts (saidOfAnother: "my landlord
 * is retired") does not reach:
 * - a relative clause that gives the value to someone named before it ("my gym buddy who is 40",
 *   "a friend, aged 33");
 * - a subject opened by a quantifier or placed by a phrase after its noun ("other companies charge 50",
 *   "the gym next door is 25", "the kennel down the road wants 35");
 * - another instance of the question's own thing ("my previous order was AB1234", "my old number was...",
 *   "my last sitter started"), or one owned by someone else ("my friend's flight is BA123");
 * - a subject that is a person other than the one asked ("the neighbours go away every month").
 */

const ME = new Set(['i', 'we', 'me', 'us', 'myself', 'ourselves']);
/** Words that open a clause before its subject ("well, ...", "and the gym..."). */
const OPENERS = new Set(['well', 'oh', 'so', 'and', 'also', 'yes', 'yeah', 'no', 'nah', 'ok', 'okay', 'um', 'uh', 'hmm', 'just', 'but', 'though', 'btw', 'anyway']);
/** Words that open a noun phrase. */
const DETERMINERS = new Set(['the', 'my', 'our', 'his', 'her', 'their', 'your', 'other', 'another', 'some', 'most', 'many', 'these', 'those', 'this', 'that', 'every', 'each', 'all']);
/** Words that make a thing another instance of what is asked ("my previous order", "the old number", "other companies"). */
const OTHER_INSTANCE = new Set(['previous', 'old', 'former', 'ex', 'other', 'another', 'earlier', 'prior']);
/** Describing words between a determiner and its noun. */
const DESCRIBING = new Set([...OTHER_INSTANCE, 'last', 'first', 'new', 'next', 'future', 'present', 'current', 'second', 'latest', 'recent', 'usual', 'local', 'little', 'big', 'best', 'older', 'younger', 'own']);
/** Things a value is printed on or in. */
const SOURCES = ['website', 'site', 'page', 'app', 'brochure', 'leaflet', 'flyer', 'poster', 'sign', 'ad', 'advert', 'listing', 'form', 'letter', 'email', 'catalogue', 'menu', 'price list', 'quote'];
/** Words after a noun that place it, still inside the subject ("the gym next door", "the kennel down the road", "the car alone"). */
const PLACES = [
  'next door', 'down the road', 'down the street', 'across the street', 'across the road', 'around the corner', 'round the corner',
  'up the road', 'in town', 'nearby', 'upstairs', 'downstairs', 'over there', 'near me', 'near us', 'alone', 'itself', 'themselves',
  // Where a value is printed: what is named there is the source's offer, not the person's choice ("the basic plan on your site").
  ...['on', 'in'].flatMap((at) => ['the', 'your'].flatMap((of) => SOURCES.map((source) => `${at} ${of} ${source}`))),
].map((p) => p.split(' '));
/** Of those, the ones that put the thing somewhere else: another one than the one asked about ("the cleaner next door"). */
const ELSEWHERE = new Set(PLACES.filter((p) => !['alone', 'itself', 'themselves'].includes(p[0]!)));
/** Verbs that close a subject: being and having, saying, paying and asking, coming and going, in their common forms. */
const VERBS = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'might', 'may', 'should', 'must',
  'do', 'does', 'did', 'cost', 'costs', 'charge', 'charges', 'charged', 'want', 'wants', 'wanted', 'ask', 'asks', 'asked', 'pay', 'pays',
  'paid', 'offer', 'offers', 'offered', 'quote', 'quotes', 'quoted', 'get', 'gets', 'got', 'earn', 'earns', 'earned', 'make', 'makes',
  'made', 'go', 'goes', 'went', 'take', 'takes', 'took', 'spend', 'spends', 'spent', 'say', 'says', 'said', 'start', 'starts', 'started',
  'run', 'runs', 'ran', 'need', 'needs', 'needed', 'use', 'uses', 'used', 'come', 'comes', 'came', 'stay', 'stays', 'stayed', 'live',
  'lives', 'lived', 'work', 'works', 'worked', 'smoke', 'smokes', 'smoked', 'drive', 'drives', 'drove', 'prefer', 'prefers', 'preferred',
  'travel', 'travels', 'travelled', 'traveled', 'leave', 'leaves', 'left', 'visit', 'visits', 'visited', 'sell', 'sells', 'sold',
  'keep', 'keeps', 'kept', 'list', 'lists', 'listed', 'show', 'shows', 'showed', 'state', 'states', 'stated', 'claim', 'claims', 'claimed',
  ...OPINION_VERBS,
  // How a thing seems: said of it, not chosen ("the basic plan looks fine").
  'look', 'looks', 'looked', 'seem', 'seems', 'seemed', 'sound', 'sounds', 'sounded',
]);
/** Words for the value asked itself, or the whole of what is asked: never another thing ("the most I can pay is 50", "the total is 30k"). */
const THE_ANSWER = new Set([
  'budget', 'limit', 'max', 'maximum', 'most', 'least', 'total', 'amount', 'sum', 'figure', 'value', 'estimate', 'guess', 'answer',
  'income', 'salary', 'pay', 'wage', 'wages', 'earnings', 'age', 'price', 'everything', 'all', 'stuff', 'things', 'lot', 'whole',
  'rest', 'one', 'ones', 'both', 'same', 'plan', 'idea', 'best', 'cheapest', 'household', 'family', 'lot',
]);
/** The person's own details and situation, after "my" or "our". */
const SELF = new Set([
  'name', 'names', 'number', 'phone', 'mobile', 'cell', 'email', 'address', 'birthday', 'job', 'work', 'situation', 'status', 'home',
  'place', 'order', 'account', 'booking', 'reference', 'flight', 'licence', 'license', 'date', 'schedule', 'symptoms', 'pain',
  'preference', 'reason', 'refund', 'details', 'contact', 'postcode', 'zip', 'own', 'self',
]);
/** Whether a word names a person other than the speaker (a relative, a neighbour, "he", "someone"). */
export const isPersonWord = (w: string): boolean => PEOPLE.has(w) || OTHER_PERSONS.has(w) || PEOPLE.has(stem(w));
const OTHER_PERSONS = new Set(['he', 'she', 'they', 'him', 'them', 'his', 'her', 'their', 'someone', 'somebody', 'anyone', 'everyone', 'wife', 'husband', 'son', 'daughter']);
/** A question about others than the person ("anyone who will live in the flat", "your household's income"). */
const ABOUT_OTHERS = /\b(?:anyone|anybody|someone|somebody|everyone|household|besides|else)\b/iu;
/** A question about a person other than "you" (the patient, a child): a family member may be the one it is about. */
const ABOUT_A_PERSON = /\b(?:patient|person|child|member|client|guest|passenger|tenant|resident|applicant|customer)\b/iu;
const RELATIVE = new Set(['who', 'whose', 'aged']);

const stem = (w: string) => w.replace(/ies$/u, 'y').replace(/(?<=[^s])s$/u, '');
const promptCache = new Map<string, Set<string>>();
function promptStems(prompt: string): Set<string> {
  let stems = promptCache.get(prompt);
  if (!stems) {
    if (promptCache.size > 1000) promptCache.clear();
    promptCache.set(prompt, (stems = new Set(tokenize(prompt).filter((t) => t !== BREAK).map(stem))));
  }
  return stems;
}

/** Words after "'s" that make it "is", not a possessive: an article, a negation, an adverb, a number. */
const IS_AFTER = /^(?:a|an|the|not|never|also|still|just|only|very|so|really|always|retired|unemployed|self|about|around|roughly|nearly|almost|over|under|probably|maybe|in|at|from|on|\d.*|\p{L}+ing)$/u;
const placeAt = (tokens: readonly string[], i: number) => PLACES.find((p) => p.every((w, k) => tokens[i + k] === w));

export interface SubjectOptions {
  /** The unit of a count asked ("bedrooms", "pets"): a thing that holds them ("the house has 3 bedrooms") is not another's value. */
  unit?: string | undefined;
  /** Only people, other instances and things owned by someone else count as another subject (a category's words, not a number's). */
  peopleOnly?: boolean;
}

/**
 * Whether the clause holding tokens[at] (from its start to `at`) states its value of someone or something
 * other than what `prompt` asks about. `at` is where the answer begins (the clause's end for a typed value).
 */
export function anotherSubject(tokens: readonly string[], at: number, prompt: string, options: SubjectOptions = {}): boolean {
  let start = Math.min(at, tokens.length);
  while (start > 0 && tokens[start - 1] !== BREAK) start--;
  const asked = promptStems(prompt);
  const household = ABOUT_OTHERS.test(prompt);
  const aboutAPerson = ABOUT_A_PERSON.test(prompt) && !/\byou(?:r|rself)?\b/iu.test(prompt);
  // (On a question about the patient or a child, a relative may be the one asked about; a doctor, a vet or a neighbour never is.)
  const counted = (head: string) => (household && HOUSEHOLD.has(head)) || (aboutAPerson && FAMILY.has(head)) || namesPersonAsked(head, prompt);
  // "my gym buddy who is 40", "a friend, aged 33": the value after a relative word is the one named before it.
  for (let k = start + 1; k < at; k++) {
    const before = tokens[k - 1]!;
    if (RELATIVE.has(tokens[k]!) && before !== BREAK && !ME.has(before) && !THE_ANSWER.has(before) && !counted(before) && !asked.has(stem(before)) && /\p{L}{3,}/u.test(before)) return true;
  }
  let i = start;
  while (i < at && OPENERS.has(tokens[i]!)) i++;
  // "dad's retired", "mum is 62": a person named bare, with what is said of them.
  if (PEOPLE.has(tokens[i] ?? '') && !counted(tokens[i]!) && (tokens[i + 1] === 's' || VERBS.has(tokens[i + 1] ?? '')) && i + 1 < at) return true;
  // "it's my card that expired": the thing a cleft puts first is the subject.
  let cleft = false;
  if (tokens[i] === 'it' && (tokens[i + 1] === 'is' || tokens[i + 1] === 's' || tokens[i + 1] === 'was') && DETERMINERS.has(tokens[i + 2] ?? '')) {
    i += 2;
    cleft = true;
  }
  // ("A colleague got one for 30": an indefinite article opens a subject only of a person.)
  const indefinite = (tokens[i] === 'a' || tokens[i] === 'an') && PEOPLE.has(tokens[i + 1] ?? '');
  if (!DETERMINERS.has(tokens[i] ?? '') && !indefinite) return false;
  // (Of a person, "last" is another one too: "my last sitter"; "my last order" may be the one asked about.)
  const owner = tokens[i]!;
  let other = OTHER_INSTANCE.has(owner);
  let j = i + 1;
  // ("Last" is another one of a person, "my last sitter", or at a question about now, "our last move cost 950";
  // asked about what went wrong, "my last order" may well be the one.)
  for (; j < at && DESCRIBING.has(tokens[j]!); j++)
    other ||= OTHER_INSTANCE.has(tokens[j]!) || (tokens[j] === 'last' && (PEOPLE.has(tokens[j + 1] ?? '') || !aboutThePast(prompt)));
  // The noun phrase, to its verb: at most three nouns, a possessive ("my friend's flight") and a place after them.
  let head: string | undefined;
  const modifiers: string[] = [];
  const described = tokens.slice(i + 1, j);
  let owned = false;
  let placed = false;
  let verb = false;
  for (let nouns = 0; j < at && nouns <= 3; ) {
    const t = tokens[j]!;
    if (t === BREAK) break;
    // (Right after its determiner a word is the noun, even one that can be a verb: "our last stay", "my work".)
    if ((VERBS.has(t) && head !== undefined) || (cleft && (t === 'that' || t === 'who'))) {
      verb = true;
      break;
    }
    const place = placeAt(tokens, j);
    if (place && head !== undefined) {
      placed = true;
      other ||= ELSEWHERE.has(place);
      j += place.length;
      continue;
    }
    // "my flatmate's a student", "her dad's not working": "'s" before an article, a negation or a number is "is".
    if (t === 's' && head !== undefined && IS_AFTER.test(tokens[j + 1] ?? '')) {
      verb = true;
      break;
    }
    if (t === 's' && head !== undefined) {
      // "my friend s flight": the thing after is owned by the one before.
      owned ||= !ME.has(head);
      j++;
      continue;
    }
    if (/\d/u.test(t) || ME.has(t)) return false;
    // "the electricity alone is 110": a word that only sets the thing apart is no noun of it.
    if (head !== undefined && SETTING_APART.has(t)) {
      j++;
      continue;
    }
    // "my brother lends me 500": after a person, a word in -s is their verb.
    if (head !== undefined && PEOPLE.has(head) && t.length > 3 && t.endsWith('s') && !t.endsWith('ss')) {
      verb = true;
      break;
    }
    if (head !== undefined) modifiers.push(head);
    head = t;
    nouns++;
    j++;
  }
  if (!verb || head === undefined) return false;
  // "the electricity part": a part of a thing is of the thing the word before it names.
  if (PART_OF.has(head) && modifiers.length > 0) head = modifiers.pop()!;
  // ("The family next door": a word for the person's own, placed elsewhere, is someone else's.)
  if (THE_ANSWER.has(head) || counted(head)) return other && placed;
  // "my name is...", "our budget...": the person's own details, unless another one of them ("my old number").
  if ((owner === 'my' || owner === 'our') && SELF.has(head)) return other || owned;
  if (options.peopleOnly && !PEOPLE.has(head) && !owned && !other && !cleft) return false;
  // "the tracking number" asked for the order number, "the new place" asked about your current home: the asked
  // thing's name with another kind or time than the question gives it.
  if ((asked.has(stem(head)) && otherKind(modifiers, head, prompt)) || otherTime(described, prompt)) return true;
  if (asked.has(stem(head))) return other || owned;
  // "the house has 3 bedrooms" asked how many bedrooms: the thing that holds what is counted.
  if (options.unit !== undefined && !PEOPLE.has(head) && !owned && !other && !placed && countsUnit(tokens, j, options.unit)) return false;
  return true;
}

/**
 * Whether the answer's words at [from, to) are a person who is the subject of a statement ("my neighbour has a
 * spare key" asked whether you book as a friend or neighbour): someone the message tells of, not what the
 * person is ("I'm her neighbour", "a neighbour", "for my neighbour").
 */
export function personAsSubject(tokens: readonly string[], from: number, to: number): boolean {
  if (to <= from || !PEOPLE.has(tokens[to - 1]!)) return false;
  let i = from;
  while (i > 0 && tokens[i - 1] !== BREAK) i--;
  while (i < from && OPENERS.has(tokens[i]!)) i++;
  if (i < from && !DETERMINERS.has(tokens[i]!)) return false;
  if (from - i > 1) return false;
  const next = tokens[to] ?? '';
  return VERBS.has(next) || (next === 's' && IS_AFTER.test(tokens[to + 1] ?? ''));
}

const SOURCE_PLACES = PLACES.filter((p) => p.length === 3 && (p[0] === 'on' || p[0] === 'in') && (p[1] === 'the' || p[1] === 'your') && SOURCES.includes(p[2]!));
/**
 * Whether the answer's words at [from, to) name a thing printed somewhere that the clause then speaks of ("the
 * basic plan on your site looks fine", "the weekly option in the brochure is cheaper"): the source's offer,
 * talked about, not chosen (a choice has the person before it: "I'd like the basic plan on your site").
 */
export function citedSubject(tokens: readonly string[], from: number, to: number): boolean {
  let i = from;
  while (i > 0 && tokens[i - 1] !== BREAK) i--;
  while (i < from && OPENERS.has(tokens[i]!)) i++;
  if (!DETERMINERS.has(tokens[i] ?? '') || from - i > 3) return false;
  for (let k = i + 1; k < from; k++) if (!DESCRIBING.has(tokens[k]!) && !/^\p{L}+$/u.test(tokens[k]!)) return false;
  for (let j = to; j < tokens.length && j <= to + 2 && tokens[j] !== BREAK; j++) {
    const place = SOURCE_PLACES.find((p) => p.every((w, k) => tokens[j + k] === w));
    if (place) return VERBS.has(tokens[j + place.length] ?? '');
  }
  return false;
}

/** The clause after `from` names the unit counted ("3 bedrooms", "two cats" asked in pets is not: only the unit's own word). */
function countsUnit(tokens: readonly string[], from: number, unit: string): boolean {
  const u = stem(unit.toLowerCase());
  for (let k = from; k < tokens.length && tokens[k] !== BREAK; k++) if (stem(tokens[k]!) === u) return true;
  return false;
}

/** The question names `head` with a word before it, and the message names it with another ("tracking number" for "order number"). */
function otherKind(modifiers: readonly string[], head: string, prompt: string): boolean {
  const mod = modifiers.at(-1);
  if (mod === undefined || DESCRIBING.has(mod)) return false;
  const words = tokenize(prompt);
  const asked = words.flatMap((w, k) => (words[k + 1] === head && k >= 0 && w !== BREAK ? [w] : []));
  return asked.length > 0 && !asked.includes(mod) && !promptStems(prompt).has(stem(mod));
}
/** Words after a noun that set it apart from the rest ("the electricity alone", "the flat itself"). */
const SETTING_APART = new Set(['alone', 'itself', 'themselves', 'only']);
/** Nouns for a part of the thing named before them ("the electricity part", "the gas portion"). */
const PART_OF = new Set(['part', 'portion', 'share', 'bit', 'side', 'element', 'component', 'half']);
const TIMES_OF_A_THING = new Set(['new', 'old', 'current', 'previous', 'former', 'next', 'present', 'future']);
/** The message and the question place the thing at different times ("the new place" asked about "your current home"). */
function otherTime(described: readonly string[], prompt: string): boolean {
  const said = described.filter((w) => TIMES_OF_A_THING.has(w));
  if (said.length === 0) return false;
  const asked = tokenize(prompt).filter((w) => TIMES_OF_A_THING.has(w));
  return asked.length > 0 && said.some((w) => !asked.includes(w));
}
