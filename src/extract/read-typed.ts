import { clauseTime, conditionClause, seeming, unasserted } from './assertion.js';
import { saidOfAnother } from './match-category.js';
import { withoutReported } from './reported.js';
import { anotherSubject } from './subject.js';
import { countsAsUnit, withoutOtherMeasures } from './number-measure.js';
import { PART_OF_THE_WEEK, PART_OF_THE_YEAR, periodsNamed } from './knowledge/periods.js';
import { BREAK, tokenize } from './normalize.js';
import { ADDED_LATER, countAnimals, countPeople } from './knowledge/people-count.js';
import { VIEW_VERBS } from './knowledge/verbs.js';
import { conclusionOf } from './conclusion.js';
import { ANIMALS } from './knowledge/animals.js';
import { parseTypedAnswer, type TypedAnswerType, type TypedParse, type TypedParseOptions } from './parse-typed.js';
import { typedValueSchema, type TypedSpec } from './typed-value.js';

/**
 * Text read as a typed value and checked by its schema: the one path that
 * flow questions (src/flow/answer.ts) and input gates (src/inputs/coerce.ts)
 * share, so that "minus five" is -5 (and refused where the minimum is 0, with
 * that reason) at a question and at a manager's gate alike.
 */
export function readTypedValue(
  spec: Exclude<TypedSpec, { type: 'category' }>,
  text: string,
  options: Omit<TypedParseOptions, 'unit'> & {
    /** The question asked: a message said of someone else ("my sister got 30 back") answers it only if it is about them. */
    prompt?: string | undefined;
  } = {},
  today: Date = new Date(),
): TypedParse {
  const original = text;
  // What the message quotes from a sign, a page or someone else is not the person's (reported.ts).
  text = withoutReported(text);
  // "35 rather than 25", "make it 35 instead of 25", "35 not 25": the value turned down is no answer.
  if (spec.type === 'number') text = text.replace(REJECTED, ' ').replace(TYPING_SLIP, ' ');
  // "4 kids, all under ten": at a count of people, their ages describe them and are no count.
  if (spec.type === 'number' && spec.unit !== undefined && COUNTED_UNITS.test(spec.unit)) text = text.replace(THEIR_AGES, ' ');
  // Only what the person says of themselves, now: "lol", "like I'd" assert nothing (a plan, "was going to", is left out by clause below).
  if (options.prompt !== undefined && unasserted(text, undefined, options.prompt) === 'sarcasm')
    return { ok: false, message: 'That does not sound like a plain answer. Please give your answer as it is today.' };
  // "2, no wait, 3 with the van, so 3": the answer a self-correction settles on (conclusion.ts).
  const concluded = conclusionOf(tokenize(text));
  if (concluded !== undefined) {
    const settled = readTypedValue(spec, concluded.join(' '), options, today);
    if (settled.ok) return settled;
  }
  if (options.prompt !== undefined && spec.type !== 'boolean') {
    const own = ownClauses(text, options.prompt, spec.type === 'number' || spec.type === 'string', spec.type === 'number', spec.type === 'number' ? spec.unit : undefined);
    if (own.text.length === 0)
      return {
        ok: false,
        message:
          own.why === 'another'
            ? 'That sounds like it is about someone else. Please give your own answer.'
            : own.why === 'thing'
              ? 'That sounds like the value of something else than the question asks about. Please give that amount.'
            : own.why === 'time'
              ? 'That sounds like it was true then, or will be later. Please give your answer as it is today.'
              : 'That does not sound like a plain answer. Please give your answer as it is today.',
      };
    if (own.qualified) return { ok: false, message: TWO_AMOUNTS, found: true };
    text = own.text;
  }
  const unit = spec.type === 'number' ? spec.unit : undefined;
  // "$40" at a question in EUR, "40 a week" at one per month, "25 years ago" at one of age: another measure.
  const measured = spec.type === 'number' ? withoutOtherMeasures(text, unit, options.prompt) : { text };
  text = measured.text;
  // Any other period still named ("pro Woche", "3 times a week, 85"): which amount it is said of is a guess.
  // (A question may name several: "per day (or night)".)
  if (spec.type === 'number' && options.prompt !== undefined) {
    const asked = periodsNamed(options.prompt);
    const said = asked.length === 0 ? undefined : periodsNamed(text).find((p) => !asked.includes(p));
    if (said !== undefined)
      return { ok: false, message: `That sounds like an amount per ${said}; the question asks per ${asked.join(' or ')}. Please give the amount per ${asked[0]}.`, found: true };
  }
  // "I'm 30" at a question of money or any other unit but years and people: the person said their age.
  if (unit !== undefined && !/^(?:years?|people|persons?|adults?|guests?)$/iu.test(unit) && /(?:^|[\s,.])(?:i am|i'm|im)\s+\d+(?:\s*(?:years?|yrs?|y\/?o)(?:\s+old)?)?\s*[.!]*\s*$/iu.test(text))
    return { ok: false, message: `That sounds like your age, not an amount in ${unit}. Please give the amount.` };
  const read = (said: string) => {
    const p = parseTypedAnswer(spec.type as TypedAnswerType, said, { today, ...options, ...(unit !== undefined && { unit }) });
    return p.ok && spec.type === 'string' && spec.pattern !== undefined && options.format === undefined ? withinText(p, spec.pattern) : p;
  };
  // "No more than 70", "45 is my max": at a question that asks for the most, the limit is the answer.
  const asksTheMost = spec.type === 'number' && options.prompt !== undefined && ASKS_FOR_A_MAXIMUM.test(options.prompt);
  const bounded = asksTheMost && !LOWER_BOUND.test(text);
  // "2000, sorry, 2200", "3000 gross but after tax it's 2100": what follows a correction or a contrast is the answer,
  // when it holds one on its own (the whole text held two, and was refused for it).
  const turned = afterLastTurn(text, asksTheMost);
  const tail = bounded && turned !== undefined ? turned.replace(UPPER_BOUND, ' ') : turned;
  if (bounded) text = text.replace(UPPER_BOUND, ' ');
  let parsed = read(text);
  if (!parsed.ok && tail !== undefined && spec.type !== 'boolean') {
    const again = read(tail);
    if (again.ok) parsed = { ...again, confidence: Math.min(again.confidence, 0.9) };
  }
  // "my 3 kids visit on weekends": at a question counting people, a count that comes and goes is no count of who lives there.
  if (parsed.ok && spec.type === 'number' && unit !== undefined && PEOPLE_UNITS.test(unit) && ADDED_LATER.test(original))
    return { ok: false, message: 'That sounds like people who are there only some of the time. Please give the number who will live there.', found: true };
  // "2 adults and 1 kid", "me, my wife and our two kids", "dos personas": at a question counting people, the people
  // the person lists, when every part of the list is understood.
  // (The whole message is counted: a list is not split into clauses about each one, and one not understood counts nothing.)
  if (!parsed.ok && spec.type === 'number' && unit !== undefined && PEOPLE_UNITS.test(unit) && !ADDED_LATER.test(original)) {
    const n = countPeople(tokenize(original));
    if (n !== undefined) parsed = { ok: true, value: n, confidence: 0.9 };
  }
  // "3 cats + 1 dog", "a single hamster", "a dog and two cats": at a question counting pets, the animals listed (over
  // the one number a list may hold).
  if (spec.type === 'number' && unit !== undefined && /^(?:pets?|animals?)$/iu.test(unit) && !ADDED_LATER.test(original)) {
    const n = countAnimals(tokenize(original), (w) => ANIMALS.has(w));
    if (n !== undefined) parsed = { ok: true, value: n, confidence: 0.9 };
  }
  // "None", "no kids", "we don't have any pets": at a count that may be 0, the person says there are none.
  if (!parsed.ok && spec.type === 'number' && unit !== undefined && (spec.min ?? 0) <= 0 && saysNone(text, unit)) parsed = { ok: true, value: 0, confidence: 0.9 };
  if (!parsed.ok) return measured.why !== undefined ? { ok: false, message: measured.why, found: true } : parsed;
  // "My dad's 60th", "I've been driving for 30 years", "20 years ago": an ordinal or a length of time, not the amount.
  if (spec.type === 'number' && typeof parsed.value === 'number' && options.prompt !== undefined) {
    const value = parsed.value;
    const is = (m: RegExpMatchArray) => Number(m[1] ?? m[2]) === value;
    if ([...original.matchAll(ORDINAL)].some(is)) return { ok: false, message: 'That reads as an ordinal ("the 60th"), not an amount. Please give the number.', found: true };
    if (!ASKS_A_LENGTH.test(options.prompt) && [...original.matchAll(DURATION)].some(is)) return { ok: false, message: 'That reads as a length of time, not the number asked. Please give the number.', found: true };
  }
  // Rule (a): "four, but the fish don't really count": a count a contrast then qualifies is no sure count.
  if (spec.type === 'number' && (QUALIFIED_COUNT.test(original) || QUALIFIED_PART.test(original) || QUALIFIED_WHOLE.test(original))) return { ok: false, message: TWO_AMOUNTS, found: true };
  if (spec.type === 'number' && QUALIFIED_OWNER.test(original))
    return { ok: false, message: 'That sounds like it is someone else\'s. Please give the number that counts for you.', found: true };
  // Rule (a): "about 20k, but the jewellery adds another 10k": an amount and an addition to it, not summed by the
  // person, are two values; which one is the answer is a guess.
  if (spec.type === 'number' && typeof parsed.value === 'number' && ADDED.test(original) && !isTheSum(parsed.value, original))
    return { ok: false, message: TWO_AMOUNTS, found: true };
  // "Booked on KL1001, they switched us to KL1003": two values of the pattern asked, and no correction of the
  // person's own between them: which one holds is a guess (a clause someone else's, a contrast, took one away).
  if (spec.type === 'string' && spec.pattern !== undefined && options.format === undefined && patternValues(original, spec.pattern).length > 1 && original.search(CORRECTING) < 0 && !NOW_MARKED.test(original))
    return { ok: false, message: 'I read two answers there. Please give the one that holds now.', found: true };
  const checked = typedValueSchema(spec, today).safeParse(parsed.value);
  if (checked.success) return { ok: true, value: checked.data, confidence: parsed.confidence };
  const why = checked.error.issues[0]?.message ?? 'That answer is not allowed.';
  // "minus 50" where nothing below 0 is allowed: say it was read as negative, so the refusal makes sense.
  if (spec.type === 'number' && typeof parsed.value === 'number' && parsed.value < 0 && (spec.min ?? -Infinity) >= 0)
    return { ok: false, message: `That is a negative number (${parsed.value}). ${why}`, found: true };
  return { ok: false, message: why, found: true };
}

/**
 * The clauses of a message that the person says of themselves, now: "my wife is 36" (someone else), "I paid 70
 * last time" or "I'll be 30 next month" (another time, checked for numbers and text, whose past or future is
 * another value) are left out. `why` says what was left out when nothing is left.
 */
function ownClauses(text: string, prompt: string, timed: boolean, amount = false, unit?: string): { text: string; why?: 'another' | 'thing' | 'time' | 'unasserted'; qualified?: boolean } {
  // Clause breaks: punctuation before a space (not "2,400" or "45,99"), a contrast, "and" before someone named.
  // (Not the period of a title: "Dr. Patel", "Mrs. Jones".)
  const clauses = text.split(/(?<!\b(?:dr|mr|mrs|ms|mx|prof|st|jr|sr))[.,;!?]+(?=\s|$)|\s[-–—]+\s|\b(?:but|though|however|although)\b|\band\b(?=\s+(?:my|his|her|our|their|the|i|we|he|she|they)\b)/iu);
  let why: 'another' | 'thing' | 'time' | 'unasserted' | undefined;
  // Rule (a): "around 40, but 55 would be fine": a second amount, only wished or conditional, after the first.
  let qualified = false;
  let keptAmount = false;
  let conditional = false;
  let disputed = false;
  const kept = clauses.filter((clause, k) => {
    const tokens = tokenize(clause.replace(TITLE_PERIOD, '$1'));
    if (tokens.length === 0) return false;
    if (saidOfAnother(tokens, tokens.length, prompt) || anotherSubject(tokens, firstValue(tokens), prompt, { unit })) {
      // Rule (a): "1000, but my partner says 1200": someone else's view of the amount, after it, disputes the person's
      // (one before it is what the person corrects: "the report says 3, but only 2 were involved").
      disputed ||= amount && keptAmount && /\d/u.test(clause) && tokens.some((t) => VIEW_VERBS.has(t));
      return (why = 'another'), false;
    }
    if (unit !== undefined && DEPENDANT_UNITS.test(unit) && notOwnDependants(tokens)) return (why = 'another'), false;
    // "my wife, who's driving, is 44": a clause that opens with its verb has the subject of the clause before it
    // (past a relative clause between them).
    if (VERB_FIRST.has(tokens[0]!) && k > 0) {
      let s = k - 1;
      while (s > 0 && RELATIVE_FIRST.test(clauses[s]!)) s--;
      const joined = tokenize(`${clauses[s]} ${clause}`);
      if (anotherSubject(joined, firstValue(joined), prompt, { unit })) return (why = 'another'), false;
    }
    if (amount && valueOfAnotherThing(tokens, prompt)) return (why ??= 'thing'), false;
    // "If breakfast is included, 80": a condition the amount of another clause depends on.
    if (amount && conditionClause(tokens)) return (conditional = true), (why ??= 'unasserted'), false;
    const not = unasserted(clause, tokens);
    if (not !== undefined || (timed && seeming(tokens))) {
      // (How a number seems, "but I feel 30", is no second value: only a wish or a condition is.)
      qualified ||= amount && keptAmount && !seeming(tokens) && /\d/u.test(clause);
      return (why ??= 'unasserted'), false;
    }
    // "Not 18 yet, I'm 17": a number denied is not the answer, when another clause gives one.
    if (timed && clauses.length > 1 && tokens.some((t, i) => t === 'not' && /^\d/u.test(tokens[i + 1] ?? ''))) return (why ??= 'unasserted'), false;
    if (timed && clauseTime(tokens, tokens.length, tokens.length, prompt) !== undefined) return (why ??= 'time'), false;
    keptAmount ||= /\d/u.test(clause);
    return true;
  });
  if (qualified || ((conditional || disputed) && amount && kept.some((c) => /\d/u.test(c)))) return { text, qualified: true };
  // "50? you must be joking": a value asked back, then more said, is questioned, not given.
  if (timed && ECHOED.test(text)) return { text: '', why: 'unasserted' };
  if (kept.length === clauses.filter((c) => c.trim().length > 0).length) return { text };
  return kept.length > 0 ? { text: kept.join(', ').trim() } : { text: '', ...(why !== undefined && { why }) };
}

/** A whole answer that says there are none: "none", "zero", "no kids", "we don't have any pets", "not a single one". */
const NONE = /^(?:none|zero|nil|nobody|no\s?one|not\s+(?:a\s+single\s+)?one|none\s+at\s+all|(?:no|(?:i|we)\s+(?:have|got)\s+no|(?:i|we)\s+(?:do\s+not|don't|dont)\s+have\s+any|not\s+any|zero)\s+(\p{L}+))(?:\s+(?:at\s+all|really|at\s+the\s+moment|right\s+now|currently|yet|so\s+far|thankfully|then|sadly|unfortunately|thanks))?$/iu;
function saysNone(text: string, unit: string): boolean {
  const m = NONE.exec(text.trim().replace(/[\s.!]+$/u, '').replace(/^(?:(?:well|um|uh|so|just)[\s,]+|(?:nope|no|nah)\s*[,.!]\s*)+(?=\S)/iu, ''));
  return m !== null && (m[1] === undefined || countsAsUnit(m[1], unit));
}

/** The period of a title, which ends no clause ("Dr. Patel"). */
const TITLE_PERIOD = /\b(dr|mr|mrs|ms|mx|prof|st|jr|sr)\./giu;
/** Units that count the people who depend on the person ("How many children do you support?"). */
const DEPENDANT_UNITS = /^(?:dependants?|dependents?|children|child|kids?)$/iu;
/** Work with children or others that is no support of one's own ("I babysit 2 kids", "I teach 30 kids"). */
const WORK_WITH_PEOPLE = new Set(['babysit', 'babysits', 'babysitting', 'nanny', 'teach', 'teaching', 'coach', 'coaching', 'tutor', 'tutoring', 'mind', 'minding', 'supervise', 'mentor', 'foster', 'fostering']);
const THIRD_PERSON_OWNERS = new Set(['his', 'her', 'their', 'its']);
/**
 * At a question counting the person's own dependants, a count that is someone else's ("his 3 kids", "my
 * brother's two kids", the people one works with ("I babysit 2 kids").
 */
function notOwnDependants(tokens: readonly string[]): boolean {
  const at = tokens.findIndex((t) => /^\d/u.test(t) || NUMBER_WORDS_SMALL.has(t));
  if (at < 0) return false;
  const before = tokens.slice(0, at);
  return before.some((t) => WORK_WITH_PEOPLE.has(t)) || THIRD_PERSON_OWNERS.has(before.at(-1) ?? '') || (before.at(-1) === 's' && before.length >= 2 && !['i', 'we', 'it', 'that', 'there', 'he', 'she', 'what', 'who'].includes(before.at(-2)!));
}
const NUMBER_WORDS_SMALL = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']);

/** Verbs that open a clause whose subject came before it ("..., is 44"). */
const VERB_FIRST = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 'will', 'would', 'turns', 'turned', 'earns', 'makes', 'pays', 'gets', 'costs', 'charges']);
const RELATIVE_FIRST = /^\s*(?:who|which|that|whose)\b/iu;
/** Where a clause's value begins: its first number, else its end (a subject is read up to there). */
const firstValue = (tokens: readonly string[]) => {
  const i = tokens.findIndex((t) => /\d/u.test(t));
  return i < 0 ? tokens.length : i;
};

/** A value (with at most two words after it) asked back with a question mark, and more said after it. */
const ECHOED = /(?<![\p{L}\p{N}])\d[\d.,]*(?:\s*\p{L}+){0,2}\s*\?+\s*[\p{L}\p{N}]/u;

const DETERMINERS = new Set(['the', 'my', 'our', 'his', 'her', 'their', 'this', 'that', 'a', 'an', 'your']);
/** "For the house itself", "the bike alone": the value named is that thing's own. */
const ITSELF = new Set(['itself', 'alone', 'themselves', 'only']);
/** Words for the whole of what is asked, never another thing ("30k for everything in it"). */
const WHOLE = new Set(['everything', 'all', 'stuff', 'things', 'lot', 'total', 'whole', 'rest', 'it', 'them', 'that', 'this', 'one', 'each', 'both', 'me', 'us', 'month', 'week', 'day', 'night', 'year', 'hour']);
/** A question about what something is worth ("how much are your belongings worth?", "the value of..."). */
const ASKS_A_WORTH = /\b(?:worth|value|valued|valuation|insured? for)\b/iu;
const BE_WORTH = new Set(['is', 'are', 'was', 'costs', 'cost', 'comes', 'runs', 'worth']);
/** Words for the asked value itself ("my budget is 40", "the total is 30k"). */
const ANSWER_WORDS = new Set(['budget', 'limit', 'max', 'maximum', 'minimum', 'total', 'amount', 'sum', 'figure', 'number', 'value', 'worth', 'estimate', 'guess', 'answer', 'income', 'salary', 'pay', 'earnings', 'wage', 'wages', 'age']);
const SUBJECT_PRONOUNS = new Set(['i', 'we', 'it', 'that', 'this', 'there', 'he', 'she', 'they', 'you', 'which', 'what', 'mine', 'ours', 'everything', 'all']);
/** A question about money coming in. */
const ASKS_AN_INCOME = /\b(?:income|earn|earnings|salary|wages?|take home)\b/iu;
/** Money going out. */
const SPENDING = new Set(['pay', 'paying', 'spend', 'spending', 'rent', 'costs', 'bills', 'owe', 'mortgage']);
const RATE = new Set(['per', 'each', 'every', 'monthly', 'weekly', 'daily', 'nightly', 'yearly', 'hourly']);
const stem = (w: string) => w.replace(/(?:ies)$/u, 'y').replace(/(?<=[^s])s$/u, '');
const promptStems = new Map<string, Set<string>>();

/**
 * Rule (b) of issue 26: a clause that ties its amount to a thing the question
 * does not ask about is that thing's value. "350k for the house itself" asked
 * what the belongings are worth names the house's worth; "for the X" alone does
 * so only at a question about a worth, with no rate ("70 for the room per night"
 * asked what one can spend is a budget for the asked thing). The asked thing is
 * what the prompt names (its words, singular or plural).
 */
function valueOfAnotherThing(tokens: readonly string[], prompt: string): boolean {
  let asked = promptStems.get(prompt);
  if (!asked) {
    if (promptStems.size > 1000) promptStems.clear();
    promptStems.set(prompt, (asked = new Set(tokenize(prompt).map(stem))));
  }
  const worth = ASKS_A_WORTH.test(prompt);
  const rate = tokens.some((t, i) => RATE.has(t) || (t === 'a' && /^(?:month|week|day|night|year|hour)s?$/u.test(tokens[i + 1] ?? '')));
  // "Rent is 900", "the bike costs 800": a thing the question does not name, and its amount.
  const said = tokens[0] !== undefined && DETERMINERS.has(tokens[0]) ? 1 : 0;
  const thing = tokens[said];
  if (thing !== undefined && BE_WORTH.has(tokens[said + 1] ?? '') && tokens.slice(said + 2, said + 5).some((t) => /^\d/u.test(t))) {
    if (!WHOLE.has(thing) && !ANSWER_WORDS.has(thing) && !SUBJECT_PRONOUNS.has(thing) && !asked.has(stem(thing)) && !/^\d/u.test(thing)) return true;
  }
  // "I pay 900 for the flat", "we spend 300 on food" asked for an income: an expense, not what comes in.
  if (ASKS_AN_INCOME.test(prompt) && tokens.some((t) => SPENDING.has(t))) return true;
  for (let i = 0; i < tokens.length; i++) {
    if (!['for', 'of', 'on'].includes(tokens[i]!) || !DETERMINERS.has(tokens[i + 1] ?? '')) continue;
    // The noun: the last word before "itself", a break, or the clause's end, at most three words on.
    let end = i + 2;
    while (end < tokens.length && end < i + 5 && tokens[end] !== BREAK && !ITSELF.has(tokens[end]!) && !/^\d/u.test(tokens[end]!) && !RATE.has(tokens[end]!)) end++;
    const noun = tokens[end - 1];
    if (noun === undefined || end === i + 2) continue;
    const marked = ITSELF.has(tokens[end] ?? '');
    if (!marked && !(worth && !rate)) continue;
    if (WHOLE.has(noun) || asked.has(stem(noun))) continue;
    return true;
  }
  return false;
}

/** A question that asks for an upper limit ("the most you want to pay", "your maximum budget"). */
const ASKS_FOR_A_MAXIMUM = /\b(?:most|max(?:imum)?|up to|at most|limit|highest|budget)\b/iu;
/** Words that make a number an upper limit: removed where the question asks for one. */
const UPPER_BOUND =
  /\b(?:no|not)\s+(?:more|higher|greater)\s+than\b|\b(?:not|nothing)\s+(?:over|above|beyond|more\s+than)\b|\bis\s+my\s+(?:max(?:imum)?|limit)\b|\bmy\s+(?:max(?:imum)?|limit)(?:\s+is)?\b|\b(?:up\s*to|at\s+(?:the\s+)?most|max(?:imum)?|under|below|less\s+than|tops)\b/giu;
/** Words that make a number a lower limit: such an answer is not the most. */
const LOWER_BOUND = /\bat\s+least\b|\bminimum\b|(?<!\b(?:no|not|nothing)\s+)\b(?:more\s+than|over|above)\b|\+/iu;

/** A value the person turns down beside another: "rather than 25", "instead of 25", "not 25" right after a value. */
const REJECTED = /\b(?:rather\s+than|instead\s+of|(?<=\d[^\d]{0,12})(?:and\s+|but\s+)?not)\s+(?:about\s+|around\s+)?\d[\d.,]*\s*(?:k\b|eur\b|euros?\b|€|\$|dollars?\b|pounds?\b|£)?/giu;

/** Markers of a correction: what follows replaces what came before. */
const CORRECTING = /\b(?:sorry|no wait|wait no|wait|i mean|i meant|actually|correction|scratch that|oops|typo|make it|make that|or rather|rather(?!\s+than)|more like|closer to)\b|(?:[,.;:]|\s[-–—])\s*(?:no|nope|nah)\s*(?=[,.;:!]|\s[-–—])|(?<=\d[^\d\p{L}]*[,;–—-]\s*)(?:no|nope|nah)\s+(?=\d)/giu;
/** Units that count people or animals, whose ages a message may say beside the count. */
const COUNTED_UNITS = /^(?:people|persons?|adults?|guests?|travell?ers?|passengers?|occupants?|residents?|members?|children|kids?|dependants?|dependents?|pets?|animals?)$/iu;
/** The ages of those counted: "all under ten", "both over 18", "aged 3 and 5". */
const THEIR_AGES = /\b(?:(?:all|both|each)\s+(?:are\s+)?(?:under|over|below|above)|aged)\s+(?:\d{1,3}|[a-z]+)(?:\s+(?:and|to|-)\s+(?:\d{1,3}|[a-z]+))?\b/giu;
/** What a person says of their typing, not of the value: "250 - no, 2500, missed a zero". */
const TYPING_SLIP = /\b(?:missed|forgot|dropped|added|left off|left out)\s+(?:a|one|the|an extra)\s+(?:zero|0|digit|nought)\b/giu;
/** Contrasts: what follows qualifies what came before, and replaces it only where it says the answer again. */
const CONTRASTING = /\b(?:but|though|although|however)\b/giu;
/** A clause that says the asked value again ("but after tax it's 2100", "so 45 in total"). */
const RESTATED = /\b(?:it is|it's|its|that is|that's|thats|so|which is|which makes|makes it|in total|total|altogether|all in all|more like|closer to|really|net|after tax(?:es)?|this one|this time|now|currently|these days)\b[^\d]{0,20}\d/iu;
/** At a question that asks for the most: a contrast that names the limit ("around 50 but could stretch to 65", "35, but 45 max"). */
const LIMIT_NAMED = /\b(?:stretch|push it|max(?:imum)?|at most|at the most|up to|tops|my limit|absolute limit)\b/iu;

/**
 * The text after the last correction ("sorry", "no wait", "I mean"), or after the last contrast ("but", "though")
 * when that part says the value again (rule a of issue 26: "40, but 55 would be fine", "3 bedrooms, but 1 is an
 * office" are two values, not a correction); undefined when there is none with words after it.
 */
function afterLastTurn(text: string, asksTheMost = false): string | undefined {
  let end: number | undefined;
  let contrast = false;
  // (A marker the message ends on, "… more like 800 actually", leaves the one before it standing.)
  for (const m of text.matchAll(CORRECTING)) if (/[\p{L}\p{N}]/u.test(text.slice(m.index + m[0].length)) || end === undefined) end = m.index + m[0].length;
  for (const m of text.matchAll(CONTRASTING))
    if (end === undefined || m.index >= end) {
      end = m.index + m[0].length;
      contrast = true;
    }
  const tail = end === undefined ? '' : text.slice(end).replace(/^[\s,;:.!–—-]+/u, '').replace(/^(?:no|nope|nah)\b[\s,;:.!–—-]*/iu, '');
  if (contrast && !RESTATED.test(tail) && !(asksTheMost && LIMIT_NAMED.test(tail) && /\d/u.test(tail))) return undefined;
  // "about 120 in winter but more like 60 in summer": a value for part of the year or week is no correction.
  if (PART_OF_THE_YEAR.test(tail) || PART_OF_THE_WEEK.test(tail)) return undefined;
  return tail.length > 0 ? tail : undefined;
}

const ORDINAL = /(?<![\p{L}\p{N}])(\d+)\s*(?:st|nd|rd|th)\b/giu;
/** A question that asks how long something has lasted: a length of time is its answer. */
const ASKS_A_LENGTH = /\bhow long\b|\bhow many\s+(?:years|months|weeks|days|hours)\b|\bsince when\b/iu;
const DURATION = /\b(?:for|since|in)\s+(?:about\s+|over\s+|almost\s+|nearly\s+|around\s+|the\s+(?:last|past)\s+)?(\d+)\s*(?:years?|yrs?|months?|weeks?|days?|hours?)\b|(?<![\p{L}\p{N}])(\d+)\s*(?:years?|yrs?|months?|weeks?|days?)\s+ago\b/giu;
/** Units that count people. */
const PEOPLE_UNITS = /^(?:people|persons?|adults?|guests?|travell?ers?|passengers?|occupants?|residents?|members?)$/iu;
/** A contrast that takes part of a number back ("but the fish don't really count", "though one isn't included"). */
const QUALIFIED_COUNT = /\b(?:but|though|although|however)\b.*(?:\bnot\b|n['’]t\b|\bnever\b|\bno longer\b).*\b(?:count|counts|counting|counted|included?|includes|really|technically|properly)\b/iu;
/** A contrast that says something of a part of the count ("5 rooms, but one is the kitchen", "though two of them are sheds"). */
const QUALIFIED_PART = /\b(?:but|though|although|however|except)\b[^.!?]*?\b(?:(?:one|two|three|four)\s+(?:of\s+(?:them|those|these|which)\s+)?|\d+\s+of\s+(?:them|those|these|which)\s+)(?:is|are|was|were|isn['’]?t|aren['’]?t)\b|\b(?:but|though|although|however)\s+the\s+\p{L}+(?:\s+\p{L}+)?\s+(?:is|are)\s+(?:tiny|small|not|just|only|really|technically)\b/iu;
/** A contrast that gives what was counted to someone else ("one, but it's the neighbour's", "though it belongs to my son"). */
const QUALIFIED_OWNER =
  /\b(?:but|though|although|however)\s+(?:it|that|this|they|those|both|one)(?:['’]s|\s+is|['’]re|\s+are|\s+was|\s+were)\s+(?:(?:my|our|the|his|her|their|a)\s+)?(?:\p{L}+\s+)?\p{L}+['’]s\b|\b(?:but|though|although|however)\b[^.!?]*\b(?:belongs?\s+to|(?:isn['’]?t|aren['’]?t|not)\s+(?:ours|mine))\b/iu;
/** A contrast that says something of all that was counted ("three children, but they're all grown up", "though both live abroad"). */
const QUALIFIED_WHOLE = /\b(?:but|though|although|however)\s+(?:they|both(?:\s+of\s+them)?|all(?:\s+of\s+them)?|none\s+of\s+them|neither(?:\s+of\s+them)?)(?:['’]re\b|\s+(?:are|were|aren['’]?t|weren['’]?t|don['’]?t|do|does|doesn['’]?t|have|had|live|lives|moved|pay|earn|work|no|not|all|both)\b)/iu;
const TWO_AMOUNTS = 'I read two amounts there, one added to or qualifying the other. Please give the one amount that answers the question.';
/** Words that add an amount to another ("another 10k", "plus 400", "on top"). */
const ADDED = /\b(?:another|extra|additional|on top|plus|adds?|added)\b|\+\s*\d/iu;
/** Whether `value` is the sum of the amounts written in digits in `text` (a sum the person states: "2 adults plus 1 kid"). */
function isTheSum(value: number, text: string): boolean {
  let sum = 0;
  let count = 0;
  for (const m of text.matchAll(/(?<![\p{L}\p{N}.,])(\d+(?:[.,]\d+)?)\s*(k\b|thousand\b)?/giu)) {
    sum += Number(m[1]!.replace(',', '.')) * (m[2] ? 1000 : 1);
    count++;
  }
  return count < 2 || Math.abs(sum - value) < 1e-9;
}

/**
 * A string answer that must match a pattern: the whole text when it does,
 * else the one part of it that does ("my order is XY9876" → "XY9876"); two
 * different matches are refused (which one is meant is a guess).
 */
/** Words that mark which of two values holds now ("now on LH2019", "this one is QT5561"). */
const NOW_MARKED = /\b(?:now|currently|this one|this time|the new one|these days|at the moment)\b/iu;
/** The different values of `pattern` the text holds, as whole words (two at most are looked for). */
function patternValues(text: string, pattern: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])(?:${pattern})(?![\\p{L}\\p{N}])`, 'gu'))) {
    if (m[0].length > 0) found.add(m[0]);
    if (found.size > 1) break;
  }
  return [...found];
}

function withinText(parsed: Extract<TypedParse, { ok: true }>, pattern: string): TypedParse {
  const text = String(parsed.value);
  if (new RegExp(`^(?:${pattern})$`, 'u').test(text)) return parsed;
  const found = patternValues(text, pattern);
  if (found.length === 1) return { ok: true, value: found[0]!, confidence: 0.9 };
  if (found.length > 1) return { ok: false, message: `I found more than one answer (${found.join(' and ')}). Please give just one.` };
  return parsed;
}
