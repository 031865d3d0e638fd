import { tokenize, BREAK } from './normalize.js';

/**
 * Whether a message asserts anything at all: sarcasm ("yeah right", "as if",
 * "like I would", 🙄) and hypotheticals ("if I did", "I would if") say the
 * opposite of their words, or nothing about now. A reader abstains on such a
 * message; a model's value read from it is not grounded (evidence.ts).
 */
export type NotAsserted = 'sarcasm' | 'laughter' | 'hypothetical';

/** Sarcasm markers, normalised (normalize.ts: "I'd" is "i would"). */
const SARCASM: readonly string[] = [
  'yeah right', 'yea right', 'ya right', 'yeah sure', 'oh sure', 'sure sure', 'as if', 'like i would', 'like i will',
  'like i ever', 'like that would', 'in your dreams', 'you wish', 'dream on', 'not in a million years', 'lol no', 'lmao',
  // Imagined, not in fact ("18 again, in my heart").
  'in my heart', 'in my head', 'in my mind', 'in my dreams', 'in spirit',
  'haha right', 'totally not', 'obviously not', 'said no one', 'sure jan', 'of course not lol', 'whatever you say',
  // Ironic idioms: said to mean the opposite, or nothing sure.
  'living the dream', 'famous last words', 'what could possibly go wrong', 'said every', 'said nobody', 'and i am the queen',
  'and i am the pope', 'and i am batman', 'and pigs fly', 'when pigs fly', 'because i clearly', 'i clearly know', 'just like last year',
  'pet rock', 'i love queues', 'and i am the king', 'and i am the president', 'and i am the emperor', 'and i am santa',
  'and i am the tooth fairy', 'and i am superman', 'like a chimney not', 'in my dreams', 'keep dreaming', 'nice try',
  // Praise nobody means of what is famously slow or dear ("because couriers are famously punctual").
  'famously', 'notoriously', 'because that always works', 'what a surprise',
  // The same age claimed year after year ("29 again, for the tenth year running").
  'year running', 'years running', 'years in a row',
];
/**
 * Plans and dates to come: true of another time, except as the answer to a question about a plan ("How often
 * do you plan to train?", "When would you like to move in?": "I'm hoping to come three times a week", "next spring").
 */
const PLANS: readonly string[] = [
  'going to start', 'thinking about', 'thinking of', 'planning to', 'plan to', 'hoping to', 'want to start', 'might start',
  'may start', 'next spring', 'next summer', 'next year',
];
/** Hypotheticals: true of another world. */
const HYPOTHETICAL: readonly string[] = [
  'if i', 'if we', 'if she', 'if he', 'if they', 'if it', 'if that', 'if there', 'if you', 'if the', 'only if', 'unless', 'i would if', 'would be', 'was going to', 'were going to', 'someday', 'one day',
  // Wishes and attempts: not done, not true now ("retired, I wish", "trying to quit").
  'i wish', 'we wish', 'if only', 'trying to', 'try to', 'hoping for', 'i would love to', 'we would love to', 'would love to',
  // A figure of speech about the person: "young at heart".
  'at heart',
  // In theory, not in fact ("4 times a week in theory, once in practice").
  'in theory', 'theoretically', 'on paper',
];
/**
 * Laughter: the person is joking, and a joke says nothing sure ("no, I drive without one lol" is not
 * a No). Tokens as normalize.ts writes them (repeated letters folded: "lolll" is "lol").
 */
/** A size word that one contradicts ("my huge family of one", "a big crowd of 1"): irony, whatever the flow. */
const BIG_GROUP_OF_ONE = /\b(?:huge|big|large|massive|enormous|giant|vast)\s+(?:\p{L}+\s+)?(?:family|group|party|crowd|team|army|entourage|gang|clan)\s+of\s+(?:one|1)\b/iu;
const LAUGHTER = /^(?:l+o+l+[lo]*|(?:a?ha){2,}h?|(?:he){2,}h?|lmf?ao+|rofl|jk|jking|xd+|kidding)$/u;
/** Emoji that turn the words around (eye roll, upside-down face, smirk, wink with tongue, clown). */
const IRONIC_EMOJI = /[\u{1F644}\u{1F643}\u{1F60F}\u{1F61C}\u{1F921}]/u;
/** Laughing ones (tears of joy, rolling on the floor, squinting, zany). */
const LAUGHING_EMOJI = /[\u{1F602}\u{1F923}\u{1F606}\u{1F61D}\u{1F92A}]/u;

/**
 * Beings and places that are not of this world ("we're all aliens from Mars", "my son is a wizard at Hogwarts"): a
 * claim about them is a joke, whatever it seems to answer.
 */
const NOT_OF_THIS_WORLD = new Set([
  'alien', 'aliens', 'martian', 'martians', 'extraterrestrial', 'extraterrestrials', 'unicorn', 'unicorns', 'dragon', 'dragons',
  'vampire', 'vampires', 'zombie', 'zombies', 'werewolf', 'werewolves', 'wizard', 'wizards', 'hogwarts', 'narnia', 'mordor',
  'atlantis', 'leprechaun', 'leprechauns', 'hobbit', 'hobbits', 'superhero', 'superheroes', 'immortal',
]);
const SEEMING = new Set(['feel', 'feels', 'look', 'looks', 'seem', 'seems', 'act', 'acts']);
/** A clause of how things seem ("but I feel 30", "I look younger"): for a value, not what is. */
export const seeming = (tokens: readonly string[]) => tokens.some((t) => SEEMING.has(t));
const phrases = (list: readonly string[]) => list.map((p) => tokenize(p).filter((t) => t !== BREAK));
const SARCASM_INDEX = indexByFirstWord([...phrases(SARCASM), ['from', 'mars'], ['outer', 'space']]);
const HYPOTHETICAL_INDEX = indexByFirstWord(phrases(HYPOTHETICAL));
/** Words after "if" that make no condition of it ("few, if any", "rarely if ever", "if so", "if not more"). */
const IF_NO_CONDITION = new Set(['any', 'ever', 'so', 'not', 'anything', 'at']);
const PLAN_INDEX = indexByFirstWord(phrases(PLANS));
/** A question about what the person plans or would like ("When would you like to...?", "How often do you plan to...?"). */
const ASKS_A_PLAN = /\b(?:plan|plans|planning|would you like|do you want|will you|intend|when should|when do you want)\b/iu;
export const asksAPlan = (prompt: string | undefined) => prompt !== undefined && ASKS_A_PLAN.test(prompt);

const SURE_OPENS = new Set(['sure', 'surely', 'totally', 'absolutely', 'obviously']);
const INTERJECTIONS = new Set(['oh', 'ohh', 'ah', 'yeah', 'yea', 'well', 'why', 'oh yes']);
/** A question that asks for a wish, a request or a permission: "sure" is a plain yes to it. */
const ASKS_A_REQUEST = /\b(?:would you like|do you want|do you need|would you|could you|can you|can we|shall|may we|may i|should we|want us|like us|ok|okay|fine|right|permission|consent|do you agree|do you allow|allowed to)\b/iu;

/**
 * An "if" that conditions the asking or the saying, not the answer: politeness ("if possible", "if that's ok")
 * and conditionals about the conversation itself ("if I'm honest", "if that matters", "if you must know",
 * "if you ask me"). What they qualify is said all the same.
 */
const POLITE_IF = [
  ['if', 'that', 'is', 'possible'], ['if', 'it', 'is', 'possible'], ['if', 'possible'], ['if', 'that', 'is', 'ok'], ['if', 'that', 'is', 'okay'],
  ['if', 'that', 'is', 'alright'], ['if', 'that', 'is', 'fine'], ['if', 'you', 'can'], ['if', 'you', 'could'],
  ...['i am honest', 'i am being honest', 'i am truthful', 'i am being truthful', 'i am being real', 'i am totally honest', 'i am completely honest',
    'that matters', 'it matters', 'that helps', 'it helps', 'that is relevant', 'it is relevant', 'that makes sense', 'you must know',
    'you need to know', 'you want to know', 'you have to know', 'you ask me', 'you are asking', 'you are wondering', 'anyone asks']
    .map((p) => ['if', ...p.split(' ')]),
];
/** A clause that opens with a condition ("if breakfast is included", "unless it is a suite"), not a polite "if possible". */
export function conditionClause(tokens: readonly string[]): boolean {
  const words = tokens.filter((t) => t !== BREAK);
  const opens = CONDITIONS.has(words[0] ?? '') || (words[0] === 'only' && words[1] === 'if');
  return opens && !words.every((_, i) => politeIfAt(words, i));
}
const CONDITIONS = new Set(['if', 'unless', 'provided', 'assuming']);

/** Whether the word at `i` is part of a polite "if that's possible". */
function politeIfAt(words: readonly string[], i: number): boolean {
  return POLITE_IF.some((p) => p.some((_, k) => i - k >= 0 && p.every((w, j) => words[i - k + j] === w)));
}
/** Words of approval after "would be": "tomorrow would be perfect" chooses tomorrow; it imagines nothing. */
const APPROVAL = new Set(['perfect', 'great', 'ideal', 'best', 'good', 'fine', 'lovely', 'brilliant', 'handy', 'easiest', 'easier', 'better', 'ok', 'okay', 'amazing', 'fab', 'grand', 'super']);
const CONTRASTED = /\b(?:but|though|however|although|except|unfortunately|sadly)\b/iu;

/**
 * The words without "would be" and the approval after it ("Thursday would be great"): a choice said politely, no
 * hypothetical. Only where no contrast follows ("a van would be great but we can't afford one" stays a wish).
 */
function withoutPoliteChoice(words: readonly string[], text: string): readonly string[] {
  const at = words.findIndex((w, i) => w === 'would' && words[i + 1] === 'be' && APPROVAL.has(words[i + 2] ?? ''));
  if (at < 0 || CONTRASTED.test(text)) return words;
  return [...words.slice(0, at), ...words.slice(at + 3)];
}

/** The words without those of a polite "if" (every one of POLITE_IF opens with "if"). */
function withoutPoliteIfs(words: readonly string[]): readonly string[] {
  if (!words.includes('if')) return words;
  const polite = new Set<number>();
  for (let i = 0; i < words.length; i++)
    if (words[i] === 'if') for (const p of POLITE_IF) if (p.every((w, j) => words[i + j] === w)) for (let j = 0; j < p.length; j++) polite.add(i + j);
  return polite.size === 0 ? words : words.filter((_, i) => !polite.has(i));
}

/** Phrases by their first word: whether one occurs in `words` is then one pass over them. */
type PhraseIndex = ReadonlyMap<string, readonly (readonly string[])[]>;
function indexByFirstWord(list: readonly (readonly string[])[]): PhraseIndex {
  const index = new Map<string, (readonly string[])[]>();
  for (const p of list) {
    const same = index.get(p[0]!);
    if (same) same.push(p);
    else index.set(p[0]!, [p]);
  }
  return index;
}
function occursIn(words: readonly string[], index: PhraseIndex): boolean {
  for (let i = 0; i < words.length; i++) for (const p of index.get(words[i]!) ?? []) if (p.every((t, k) => words[i + k] === t)) return true;
  return false;
}

export function unasserted(text: string, tokens: readonly string[] = tokenize(text), prompt?: string): NotAsserted | undefined {
  if (IRONIC_EMOJI.test(text) || BIG_GROUP_OF_ONE.test(text)) return 'sarcasm';
  // "If that's possible", "if possible": politeness, no condition on the answer.
  // (A choice is said to a question: a clause judged alone, without one, keeps its "would be".)
  const polite = withoutPoliteIfs(tokens.filter((t) => t !== BREAK));
  const words = prompt === undefined ? polite : withoutPoliteChoice(polite, text);
  if (occursIn(words, SARCASM_INDEX) || words.some((w) => NOT_OF_THIS_WORLD.has(w))) return 'sarcasm';
  // "Sure, a golden elevator with a butler": an eager "sure" grants a request, not a fact; said to a question of
  // fact and followed by a claim, it is irony as often as not.
  if (prompt !== undefined && !ASKS_A_REQUEST.test(prompt)) {
    // (Past an interjection: "oh totally, ...", "yeah sure, ...".)
    let k = 0;
    while (k < tokens.length - 1 && INTERJECTIONS.has(tokens[k]!)) k++;
    if (SURE_OPENS.has(tokens[k] ?? '') && tokens[k + 1] === BREAK && tokens.length > k + 3) return 'sarcasm';
  }
  if (LAUGHING_EMOJI.test(text) || words.some((w) => LAUGHTER.test(w))) return 'laughter';
  if (occursIn(words, HYPOTHETICAL_INDEX) || (!asksAPlan(prompt) && occursIn(words, PLAN_INDEX))) return 'hypothetical';
  // Any other "if" conditions the answer too ("daily, if doom-scrolling counts as work"), but "few, if any" and "if ever".
  if (words.some((w, i) => w === 'if' && i + 1 < words.length && !IF_NO_CONDITION.has(words[i + 1]!))) return 'hypothetical';
  return undefined;
}

/** Past verbs that set a clause in the past ("I paid 70", "my dad smoked daily", "I was 30 when..."). */
const PAST_WORDS = new Set([
  'was', 'were', 'had', 'did', 'used', 'took', 'paid', 'went', 'came', 'drove', 'made', 'gave', 'bought', 'left', 'spent',
  'sold', 'told', 'said', 'thought', 'knew', 'saw', 'wanted', 'grew', 'previously', 'formerly',
  // Irregular pasts (no -ed to find): "I ran my first marathon at 35", "we met when I was 20".
  'ran', 'won', 'began', 'wrote', 'met', 'fell', 'broke', 'sat', 'stood', 'found', 'held', 'heard', 'sent', 'taught', 'caught',
  'brought', 'flew', 'threw', 'drew', 'chose', 'spoke', 'woke', 'rode', 'swam', 'sang', 'drank', 'ate', 'forgot', 'hid', 'wore',
  'tore', 'slept', 'built', 'lent', 'fed', 'fought', 'sought', 'beat', 'dealt',
]);
/** Changes whose result holds now ("I turned 40 yesterday", "we moved it up to today", "became a student"). */
const CHANGED = new Set(['turned', 'became', 'switched', 'changed', 'moved', 'pushed', 'postponed', 'rescheduled', 'delayed', 'renewed', 'upgraded', 'joined', 'started', 'stopped', 'finished', 'graduated', 'retired', 'quit']);
/** Times that are past on their own ("last time, basic"); a date alone ("surgery last month") needs a past verb. */
const PAST_PHRASES = [
  'last time', 'back then', 'in the past', 'as a kid', 'as a child', 'as a teenager', 'growing up', 'in my youth',
].map((p) => p.split(' '));
/** Words that say the clause is about now after all ("was X, now Y", "have had it since 2005"). */
const NOW_WORDS = new Set(['now', 'currently', 'nowadays', 'today', 'still', 'anymore', 'since', 'presently', 'atm']);
const NOW_PHRASES = [['at', 'the', 'moment'], ['these', 'days'], ['right', 'now'], ['at', 'present'], ['any', 'more']];
/** An -ed word after these describes a state, not a past event ("I am self-employed", "she is based in"). */
const STATE_BEFORE = new Set(['the', 'a', 'an', 'my', 'your', 'his', 'her', 'our', 'their', 'this', 'that', 'am', 'is', 'are', 'be', 'being', 'been', 'get', 'getting', 'feel', 'stay', 'remain', 'not', 'never', 'fully', 'very']);
/** Words ending in -ed that are no past verb. */
const NOT_PAST = new Set(['need', 'needed', 'hundred', 'indeed', 'speed', 'breed', 'bed', 'red', 'seed', 'feed', 'weed', 'shed', 'ted', 'ned', 'fred']);
/** A future that names when ("I'll be 30 next month", "I turn 22 in january", "will be retired next year"). */
const FUTURE_WORDS = new Set(['will', 'shall', 'gonna', 'going', 'turn', 'turning', 'turns']);
const WHEN_WORDS = new Set([
  'next', 'soon', 'tomorrow', 'later', 'someday', 'eventually', 'birthday', 'january', 'february', 'march', 'april', 'may',
  'june', 'july', 'august', 'september', 'october', 'november', 'december', 'spring', 'summer', 'autumn', 'fall', 'winter',
]);
/** Questions about a history or about events, which the past answers ("any gaps in coverage?", "ever had a claim?"). */
const ABOUT_THE_PAST = /\b(?:history|ever|past|previous(?:ly)?|before|been|had|did|last|gaps?|lapses?|claims?|accidents?|incidents?)\b/iu;
const HAVE = new Set(['have', 'has', 'never', 'ever', 'always', 'not']);

/**
 * Whether the clause around the words at [from, to) is set at another time
 * than now: in the past (a past tense or a past time, with no "now" to bring
 * it back) or in a future that names when. The words at [from, to) are the
 * answer itself and do not count: "quit", "retired", "next spring" are what
 * the person says of now.
 */
export function clauseTime(tokens: readonly string[], from: number, to: number, prompt?: string): 'past' | 'future' | undefined {
  let start = from;
  while (start > 0 && tokens[start - 1] !== BREAK) start--;
  let end = to;
  while (end < tokens.length && tokens[end] !== BREAK) end++;
  const outside = (i: number) => i < from || i >= to;
  const at = (i: number, p: readonly string[]) => p.every((t, k) => tokens[i + k] === t && outside(i + k) && i + k < end);
  let past = false;
  let future = false;
  let when = false;
  for (let i = start; i < end; i++) {
    if (!outside(i)) continue;
    const t = tokens[i]!;
    if (NOW_WORDS.has(t) || NOW_PHRASES.some((p) => at(i, p))) return undefined;
    const before = tokens[i - 1];
    if (PAST_PHRASES.some((p) => at(i, p))) past = true;
    else if (t === 'had' || t === 'did') past ||= before === undefined || !HAVE.has(before);
    else if (PAST_WORDS.has(t)) past = true;
    // An -ed word after a subject ("I smoked", "my dad smoked"); one opening the clause names a kind ("preferred contact").
    else if (t.length >= 5 && t.endsWith('ed') && !NOT_PAST.has(t) && !CHANGED.has(t) && i > start && before !== undefined && !STATE_BEFORE.has(before)) past = true;
    if (FUTURE_WORDS.has(t)) future = true;
    if (WHEN_WORDS.has(t)) when = true;
  }
  // A question about a history ("any history of gaps?", "have you ever...") is answered by the past.
  if (past) return prompt !== undefined && aboutThePast(prompt) ? undefined : 'past';
  return future && when ? 'future' : undefined;
}

const pastPrompts = new Map<string, boolean>();
/** A question asked in the past tense ("What went wrong?") or about a history or events ("Any gaps in coverage?"). */
export function aboutThePast(prompt: string): boolean {
  let about = pastPrompts.get(prompt);
  if (about === undefined) {
    if (pastPrompts.size > 1000) pastPrompts.clear();
    about = ABOUT_THE_PAST.test(prompt) || tokenize(prompt).some((t) => PAST_WORDS.has(t) || /^(?:happen|occurr|arriv)ed$/u.test(t));
    pastPrompts.set(prompt, about);
  }
  return about;
}

/** A word at `at` denied in its clause before it ("not today", "no, not the basic one", "never on a monday"). */
export function deniedInClause(tokens: readonly string[], at: number): boolean {
  for (let i = at - 1; i >= 0 && tokens[i] !== BREAK; i--) if (tokens[i] === 'not' || tokens[i] === 'no' || tokens[i] === 'never') return true;
  return false;
}
