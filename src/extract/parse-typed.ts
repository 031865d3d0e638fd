/**
 * Offline reading of a free-text answer to a typed question (a number, a
 * date, an email address...). No model, no I/O: it runs in a browser too.
 *
 * It is deliberately conservative: when an answer could be read two ways
 * ("01/12/2026", "12,5", "between 10 and 20", "yes... actually no") it refuses
 * with a sentence the person can act on, because asking again costs one turn
 * and a wrong value can cost much more.
 */
import { COMMON_SYNONYMS, META_PHRASES, NEGATORS, NEUTRAL_PHRASES, QUESTION_OPENERS, UNCERTAIN_PHRASES } from './lexicon.js';
import { BREAK, tokenize } from './normalize.js';
import { numberWordsAt, SMALL_NUMBERS, TENS } from './knowledge/number-words.js';
import { currencyOf } from './number-measure.js';
import { parsePersonName } from './person-name.js';
import { checkPhoneNumber } from './phone-countries.js';

export type TypedAnswerType = 'string' | 'number' | 'boolean' | 'date' | 'email' | 'phone';
export type TypedValue = string | number | boolean;
/** A value the person may have meant, with how to show it ("Friday 27 November"). */
export interface TypedCandidate {
  value: TypedValue;
  label: string;
}
export type TypedParse =
  | { ok: true; value: TypedValue; confidence: number }
  /**
   * Refused; `candidates` when the answer reads two ways and the person can pick one ("next friday");
   * `found` when the answer holds this kind of value that cannot be used as it is (a phone number
   * missing digits), rather than none at all: its message then says more than another reader's "I
   * could not find ...".
   */
  | { ok: false; message: string; candidates?: TypedCandidate[]; found?: true };

export interface TypedParseOptions {
  /** "today" for relative dates; defaults to new Date(). Dates are calendar dates (use UTC parts of this Date). */
  today?: Date;
  /** A number question's unit ("m²", "W"): written after the number ("650 m2", "40 watts"), it is part of the answer. */
  unit?: string;
  /** A number question that needs the exact number: an approximate one ("about 60", "60 or so") is refused. */
  exact?: boolean;
  /** Labels a boolean question shows on its buttons, matched case-insensitively as yes/no. Default 'Yes'/'No'. */
  trueLabel?: string;
  falseLabel?: string;
  /** A string answer that is a person's name: the name alone is kept ("hi, I'm jane doe" → "Jane Doe"), see person-name.ts. */
  format?: 'person_name';
  /** The country (ISO 3166 code) of a phone number written without "+": its length is checked and the calling code added. */
  country?: string;
}

/** Longer answers are refused before any parsing. */
const MAX_LENGTH = 2000;

const EMPTY = 'I did not get an answer. Please type your answer.';

export function parseTypedAnswer(type: TypedAnswerType, text: string, options?: TypedParseOptions): TypedParse {
  try {
    // Callers in plain JavaScript may pass anything.
    if (typeof text !== 'string') return fail(EMPTY);
    if (text.length > MAX_LENGTH) return fail(`Your answer is too long. Please keep it under ${MAX_LENGTH} characters.`);
    const opts = options ?? {};
    switch (type) {
      case 'string':
        return opts.format === 'person_name' ? parsePersonName(text) : parseString(text);
      case 'number':
        return parseNumber(text, opts);
      case 'boolean':
        return parseBoolean(text, opts.trueLabel ?? 'Yes', opts.falseLabel ?? 'No');
      case 'date':
        return parseDate(text, opts.today ?? new Date());
      case 'email':
        return parseEmail(text);
      case 'phone':
        return parsePhone(text, opts.country);
      default:
        return fail('I cannot read answers to this kind of question.');
    }
  } catch {
    // Not expected; the contract is never to throw.
    return fail('Sorry, I could not read your answer. Please try again.');
  }
}

function ok(value: TypedValue, confidence: number): TypedParse {
  return { ok: true, value, confidence: Math.round(confidence * 100) / 100 };
}

function fail(message: string): TypedParse {
  return { ok: false, message };
}

// ---------------------------------------------------------------------------
// Shared helpers

const words = (phrase: string) => tokenize(phrase).filter((t) => t !== BREAK);
const HEDGES = UNCERTAIN_PHRASES.map(words);
const NEGATOR_SET = new Set(NEGATORS);

function startsAt(tokens: readonly string[], at: number, phrase: readonly string[]): boolean {
  return phrase.length > 0 && phrase.every((t, k) => tokens[at + k] === t);
}

function contains(tokens: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (startsAt(tokens, i, phrase)) return true;
  return false;
}

/** "maybe", "not sure", "or", "not 40": the person is unsure or is saying what the answer is not. */
function isHedged(tokens: readonly string[]): boolean {
  return HEDGES.some((h) => contains(tokens, h)) || tokens.some((t) => NEGATOR_SET.has(t));
}

const endsWithQuestion = (text: string) => /\?\s*$/.test(text);

const LETTER = /\p{L}/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

// ---------------------------------------------------------------------------
// string

function parseString(text: string): TypedParse {
  // Control characters other than whitespace have no business in an answer shown back to people.
  const value = text.replace(/[^\P{Cc}\s]/gu, '').replace(/\s+/g, ' ').trim();
  return value.length === 0 ? fail(EMPTY) : ok(value, 1);
}

// ---------------------------------------------------------------------------
// number

/** Words after a number that scale it ("5k", "2 million"), or fractions: the digits alone would be wrong. */
const SCALE_WORDS = new Set([
  'k', 'm', 'bn', 'mn', 'mil', 'thousand', 'thousands', 'million', 'millions', 'billion', 'billions', 'hundred', 'hundreds',
  'dozen', 'dozens', 'grand', 'lakh', 'lakhs', 'crore', 'crores', 'half', 'halves', 'quarter', 'quarters',
]);
/** Scale words read after digits: always the same factor ("m" is left out: metres, minutes). */
// (A Map: a plain object would answer for "constructor".)
const SCALES: ReadonlyMap<string, number> = new Map(Object.entries({
  k: 1000, thousand: 1000, thousands: 1000, grand: 1000, tausend: 1000, mil: 1000, mille: 1000,
  million: 1e6, millions: 1e6, mio: 1e6, bn: 1e9, billion: 1e9, hundred: 100,
}));
/** A currency sign or word right before or after a number. */
const CURRENCY_BEFORE = /(?:[€$£]|\b(?:eur|euro|euros|usd|gbp))\s*$/iu;
const CURRENCY_AFTER = /^\s*(?:[€$£]|(?:eur|euro|euros|eu|usd|dollars?|bucks|pounds?)\b)/iu;
/** Words that turn a number into a limit rather than a value. */
const BOUND_PHRASES = [
  'more than', 'less than', 'fewer than', 'greater than', 'over', 'under', 'above', 'below', 'at least', 'at most',
  'up to', 'upto', 'max', 'minimum', 'maximum', 'or more', 'or less', 'plus', 'beyond', 'exceeding',
].map(words);
/** Shortly after these, "one" is a pronoun ("no one", "the blue one", "a big one"), not a number. */
const NOT_A_NUMBER_BEFORE_ONE = new Set(['a', 'an', 'no', 'any', 'every', 'some', 'which', 'this', 'that', 'the', 'each', 'another', 'other']);

/** Words after "one" that make it a pronoun of a thing described ("the one with the garden"). */
const DESCRIBING = new Set(['with', 'that', 'who', 'which', 'in', 'on', 'at', 'from', 'of', 'for', 'by', 'near', 'you', 'we', 'i']);
/** "Just the one", "only the one (cat)": a count of one, said the British way, not a pronoun. */
const justTheOne = (tokens: readonly string[], i: number) =>
  (tokens[i - 2] === 'just' || tokens[i - 2] === 'only') && tokens[i - 1] === 'the' && !DESCRIBING.has(tokens[i + 1] ?? '');

interface FoundNumber {
  value: number;
  /** The span in the text, or undefined for a number written in words. */
  span?: [number, number];
  /** Followed by a unit below the main one ("50 cents"). */
  subunit?: true;
}

/** Ways of writing a unit after a number, by the unit a question names (NFKC, lowercase: "m²" is "m2"). */
const UNIT_SPELLINGS: ReadonlyMap<string, readonly string[]> = new Map([
  ['m2', ['m2', 'm^2', 'sqm', 'sq m', 'sq. m', 'sq.m', 'sq meters', 'sq metres', 'square meters', 'square metres', 'square meter', 'square metre', 'meters squared', 'metres squared']],
  ['w', ['w', 'watt', 'watts']],
  ['kw', ['kw', 'kilowatt', 'kilowatts']],
  ['m', ['m', 'meter', 'meters', 'metre', 'metres']],
  ['km', ['km', 'kilometer', 'kilometers', 'kilometre', 'kilometres']],
  ['kg', ['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms']],
  ['years', ['years', 'year', 'yrs', 'yr', 'years old', 'year old', 'yo', 'y/o']],
]);

/** The text with the question's unit after a number blanked out ("650 m2" → "650"). */
function withoutUnit(s: string, unit: string | undefined): string {
  if (unit === undefined) return s;
  const key = unit.normalize('NFKC').toLowerCase().trim();
  if (key.length === 0) return s;
  const spellings = [...new Set([key, `${key}s`, ...(UNIT_SPELLINGS.get(key) ?? [])])].sort((a, b) => b.length - a.length);
  const escaped = spellings.map((u) => u.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '\\s*'));
  return s.replace(new RegExp(`(\\d)\\s*(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'giu'), (_, digit: string) => `${digit} `);
}

/** Words that make a number approximate ("about 60", "60 or so"): fine unless the question needs the exact number. */
const APPROXIMATORS = [
  'about', 'around', 'roughly', 'approximately', 'approx', 'circa', 'abt', 'or so', 'or thereabouts', 'thereabouts',
  'give or take', 'more or less', 'something like', 'round about', 'ish', 'just about',
].map(words);

function parseNumber(text: string, options: TypedParseOptions = {}): TypedParse {
  const s = withoutUnit(text.normalize('NFKC'), options.unit);
  if (s.trim().length === 0) return fail(EMPTY);
  // "about 60 or so", "60ish", "~60": the number, said to be approximate.
  const said = tokenize(s);
  const tokens: string[] = [];
  let approximate = /~|\d\s*-?\s*ish\b/i.test(s);
  for (let i = 0; i < said.length; ) {
    const a = APPROXIMATORS.find((p) => startsAt(said, i, p));
    if (a) {
      approximate = true;
      i += a.length;
    } else tokens.push(said[i++]!);
  }
  const digits = readDigitNumbers(s, options.unit !== undefined && currencyOf(options.unit) !== undefined);
  if (typeof digits === 'string') return fail(digits);
  const spelled = readNumberWords(tokens);
  if (typeof spelled === 'string') return fail(spelled);
  const found = [...digits, ...spelled];
  const values = [...new Set(found.map((f) => f.value))];

  if (values.length === 0) return fail('I could not find a number in your answer.');
  // "5+5", "10-10": the same digits twice, but joined into a sum or a range.
  if (/\d\s*[-\u2013\u2014\u2212+*×÷/=^~]\s*[-\u2212+]?\d/.test(s))
    return fail('Please give just one number, not a range, a sum or a fraction.');
  if (values.length > 1) {
    if (/(^|[^\d.,])\d{1,3}( \d{3})+(?![\d.,])/.test(s))
      return fail('Please write the number without spaces, for example 1200.');
    return fail(`I found more than one number (${values.slice(0, 2).join(' and ')}). Please give just one number.`);
  }
  if (endsWithQuestion(s)) return fail('That reads like a question. Please reply with just the number.');
  if (/[<>≤≥]/.test(s) || BOUND_PHRASES.some((b) => contains(tokens, b)))
    return fail('Please give one number rather than a limit such as "more than 40".');
  if (isHedged(tokens)) return fail('It sounds like you are not sure. Please reply with just the number, for example 40.');
  if (approximate && options.exact === true) return fail('I need the exact number here. Please reply with just the number, for example 40.');
  // "3 bedrooms and a box room" asked for bedrooms: the number is labelled with the question's own unit.
  const unitKind = options.unit === undefined ? undefined : countedKind(options.unit.toLowerCase());
  // (The unit itself was taken out after digits: it is looked for in the text as typed.)
  const said2 = tokenize(text.normalize('NFKC'));
  const labelled = unitKind !== undefined && unitKind !== 'people' && said2.some((t, i) => i > 0 && /^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)$/u.test(said2[i - 1]!) && countedKind(t) === unitKind);
  // "Me, my wife and our two kids": the number counts only part of what is listed.
  if (!labelled && tokens.some((t, i) => LISTING.has(t) && !(t === 'with' && AT_EASE.has(tokens[i - 1] ?? '')) && !(t === 'and' && NUMBER_GLUE.has(tokens[i - 1] ?? '')) && !(t === 'and' && (SMALL_NUMBERS.has(tokens[i - 1] ?? '') || TENS.has(tokens[i - 1] ?? '')) && (SMALL_NUMBERS.has(tokens[i + 1] ?? '') || tokens[i + 1] === 'a'))))
    return fail('Please give the total as one number.');
  // "There are 3 of us" at a question in EUR: a count of something else, not the amount asked.
  // "25 years old" at a question in EUR: a number of another unit of measure than the question's.
  const otherUnit = /\d\s*(years?|yrs?|y\/o|yo|months?|weeks?|days?|hours?|hrs?|minutes?|mins?|km|kg|miles?|metres?|meters?|kilos?)\b/iu.exec(text);
  if (otherUnit && options.unit !== undefined && !sameUnit(otherUnit[1]!, options.unit))
    return fail(`That reads as ${otherUnit[1]!.toLowerCase()}, not an amount in ${options.unit}. Please reply with just the number.`);
  // "We are 4 people" at a question in bedrooms: a count of other things than the question's own.
  const own = options.unit === undefined ? undefined : countedKind(options.unit.toLowerCase());
  if (options.unit !== undefined && tokens.some((t, i) => (COUNTED.has(t) && !fitsUnit(t, own)) || (own !== 'people' && t === 'of' && (tokens[i + 1] === 'us' || tokens[i + 1] === 'them'))))
    return fail(`That reads as a count of people or things, not an amount in ${options.unit}. Please reply with just the number.`);
  if (found.some((f) => f.subunit)) {
    // "50 cents" is 0.50, never 50: said back, for the person to write in the question's unit.
    const main = Math.round(values[0]!) / 100;
    const unit = options.unit ? ` ${options.unit}` : '';
    // (Offered as a choice too: pressing it answers, where the question allows it.)
    return {
      ok: false,
      message: `That reads as cents (${main.toFixed(2)}${unit}). Please give the amount${unit ? ` in${unit}` : ''} as a number, for example ${main.toFixed(2)}.`,
      candidates: [{ value: main, label: `${main.toFixed(2)}${unit}` }],
    };
  }

  // Bare: nothing but the number (and punctuation or a currency sign).
  let rest = s;
  for (const f of digits) if (f.span) rest = rest.slice(0, f.span[0]) + ' '.repeat(f.span[1] - f.span[0]) + rest.slice(f.span[1]);
  const bare =
    spelled.length === 0
      ? !WORD_CHAR.test(rest)
      : digits.length === 0 && tokens.every((t) => t === BREAK || NUMBER_GLUE.has(t) || SMALL_NUMBERS.has(t) || TENS.has(t));
  const value = values[0]!;
  return ok(Object.is(value, -0) ? 0 : value, bare && !approximate ? 1 : 0.9);
}

/** Numbers written with digits, or a message saying why one of them cannot be read. */
function readDigitNumbers(s: string, money = false): FoundNumber[] | string {
  const found: FoundNumber[] = [];
  let codes = 0;
  const UNREADABLE = 'I could not read a number in your answer. Please reply with just the number, for example 40.';
  // The regex is linear: the repeated class cannot overlap what follows it.
  for (const m of s.matchAll(/[.,]?\d(?:[\d.,]*\d)?/g)) {
    let start = m.index;
    let body = m[0];
    const before = s[start - 1] ?? '';
    // "A4", "CO2", "1e5": digits glued to letters are a code, not an amount.
    // (Left out, where another number is the answer: "ref BB7741, budget 55"; not "1e5", digits on both sides.)
    if (LETTER.test(before)) {
      if (/\d\p{L}*$/u.test(s.slice(0, start))) return UNREADABLE;
      codes++;
      continue;
    }
    let sign = 1;
    if (before === '-' || before === '\u2212' || before === '+') {
      const beforeSign = s[start - 2] ?? '';
      if (LETTER.test(beforeSign)) return UNREADABLE; // "COVID-19"
      // After a digit the dash is a range ("10-20"): the other number is found on its own.
      if (!/\d/.test(beforeSign)) {
        if (before !== '+') sign = -1;
        start--;
      }
    } else if (/^\s*[-\u2212]\s+$/.test(s.slice(0, start))) {
      return 'Did you mean a negative number? Please write it without a space, like -3.';
    } else if (/(?:^|[^\p{L}])(?:minus|negative)\s*$/iu.test(s.slice(0, start))) {
      // "minus 50": negative, whatever the question allows (its minimum says so if it refuses).
      sign = -1;
    }
    if (body.startsWith(',')) return 'If you meant a decimal, please write it with a point, like 0.5.';
    if (body.startsWith('.')) body = `0${body}`;
    const after = s.slice(m.index + m[0].length);
    // A sum of money has two decimals: beside a currency, "2.400 €" is 2400 and "€45,99" is 45.99 (European separators).
    if (CURRENCY_BEFORE.test(s.slice(0, start)) || CURRENCY_AFTER.test(after)) {
      if (/^[1-9]\d{0,2}(?:\.\d{3})+(?:,\d{2})?$/.test(body)) body = body.replace(/\./g, '').replace(',', '.');
      else if (/^\d+,\d{2}$/.test(body)) body = body.replace(',', '.');
    } else if (money && /^\d+,\d{2}$/.test(body)) body = body.replace(',', '.'); // "39,99" asked in euros: cents
    const unitMatch = /^\s*(\p{L}+)/u.exec(after);
    const unit = unitMatch?.[1]?.toLowerCase();
    // "1,2k", "2,5 thousand": a comma before one or two digits and a scale is a decimal comma (a thousands one has three).
    if (unit !== undefined && SCALES.has(unit) && /^\d+,\d{1,2}$/.test(body)) body = body.replace(',', '.');
    let value = readDigits(body);
    if (typeof value === 'string') return value;

    let end = m.index + m[0].length;
    // "5k", "2.5k", "40 thousand", "30 grand": the scale is part of the number.
    const scale = unit === undefined ? undefined : SCALES.get(unit);
    if (scale !== undefined) {
      value = Math.round(value * scale * 100) / 100;
      end += unitMatch![0].length;
    }
    else if (unit !== undefined && SCALE_WORDS.has(unit)) return 'Please write the whole number in digits, for example 1500.';
    if (/^\s*\+(?!\s*\d)/.test(after)) return 'Please give one number rather than a limit such as "40+".';
    found.push({ value: sign * value, span: [start, end], ...(unit !== undefined && SUBUNIT_WORDS.has(unit) && { subunit: true }) });
  }
  return found.length === 0 && codes > 0 ? UNREADABLE : found;
}

/** One run of digits with "." and ","; the number, or why it is ambiguous. */
function readDigits(body: string): number | string {
  let plain: string;
  if (/^\d+(\.\d+)?$/.test(body)) {
    // "1.500" is 1.5 in English and 1500 in much of Europe.
    if (/^[1-9]\d{0,2}\.\d{3}$/.test(body)) {
      const [decimal, whole] = [Number(body), body.replace('.', '')];
      return `Did you mean ${decimal} or ${whole}? Please write it without a thousands separator, like ${whole}, or as ${decimal}.`;
    }
    plain = body;
  } else if (/^[1-9]\d{0,2}(,\d{3})+(\.\d+)?$/.test(body)) {
    plain = body.replace(/,/g, '');
  } else if (/^\d+,\d+$/.test(body)) {
    return `If you meant a decimal, please write it with a point, like ${body.replace(',', '.')}.`;
  } else {
    return `I could not read "${body}" as a number. Please write it like 1200 or 12.5.`;
  }
  if (plain.replace(/\D/g, '').replace(/^0+(?=\d)/, '').length > 15)
    return 'That number is too long for me to read exactly. Please check it.';
  return Number(plain);
}

/** Words that list several things, of which a number counts only one ("my wife and our two kids"). */
const LISTING = new Set(['and', 'plus', 'with', 'including', 'besides']);
/** Before "with", words of being at ease with something ("fine with up to 50"): no list. */
const AT_EASE = new Set(['fine', 'happy', 'ok', 'okay', 'good', 'comfortable', 'alright', 'content', 'cool', 'easy']);
/** Things a number may count that are not a question's unit. */
const COUNTED = new Set(['people', 'persons', 'person', 'kids', 'children', 'adults', 'adult', 'kid', 'child', 'pets', 'cats', 'dogs', 'rooms', 'bedrooms']);
/** A unit written after a number is the question's own ("years" for "years", "yrs" for "years"). */
const sameUnit = (written: string, unit: string) => {
  const root = (u: string) => u.toLowerCase().replace(/^(yrs?|y\/o|yo)$/u, 'year').replace(/^(hrs?)$/u, 'hour').replace(/^mins?$/u, 'minute').replace(/s$/u, '');
  return root(written) === root(unit) || unit.toLowerCase().includes(root(written));
};
const PEOPLE = new Set(['people', 'persons', 'person', 'kids', 'children', 'adults', 'adult', 'kid', 'child', 'guests', 'guest', 'travellers', 'travelers', 'passengers']);
/** Units that count those who depend on the person, and the words that count them: children, not people at large ("5 people in my team"). */
const DEPENDANT_UNIT = /^(?:dependants?|dependents?)$/u;
const DEPENDANTS = new Set(['kids', 'children', 'kid', 'child', 'dependants', 'dependents', 'dependant', 'dependent']);
/** What a counted word counts: people, pets, rooms (a unit of the question may be any of them), or itself. */
const countedKind = (w: string) => (PEOPLE.has(w) ? 'people' : /^(?:bed)?rooms?$/u.test(w) ? 'rooms' : /^(?:pets?|cats?|dogs?)$/u.test(w) ? 'pets' : w);
/** Whether a counted word counts what a unit of that kind does (kids are dependants; people at large are not). */
const fitsUnit = (w: string, own: string | undefined) => (own !== undefined && DEPENDANT_UNIT.test(own) ? DEPENDANTS.has(w) : countedKind(w) === own);
/** Words a number written in words is made of, beside the numbers themselves. */
const NUMBER_GLUE = new Set(['a', 'and', 'hundred', 'thousand', 'minus', 'negative']);
/** Words that make the number after them negative ("minus 50", "negative forty"). */
const SIGN_WORDS = new Set(['minus', 'negative']);
/** Units below the main one ("50 cents"): the digits alone would be a hundred times too much. */
const SUBUNIT_WORDS = new Set(['cent', 'cents', 'ct', 'cts', 'pence', 'penny', 'pennies', 'centime', 'centimes', 'eurocent', 'eurocents']);

/** Numbers written in words ("twelve", "forty two", "two hundred and fifty"), or a message. */
function readNumberWords(tokens: readonly string[]): FoundNumber[] | string {
  const found: FoundNumber[] = [];
  const IN_DIGITS = 'Please write the whole number in digits, for example 1500.';
  for (let i = 0; i < tokens.length; ) {
    const t = tokens[i]!;
    const read = numberWordsAt(tokens, i);
    // "a" alone, or "one" as a pronoun ("no one", "the blue one"), is no number.
    if (!read || (t === 'a' && read.end === i + 1)) {
      // (After digits, a scale was read with them: "40 thousand".)
      if (SCALE_WORDS.has(t) && t !== 'k' && t !== 'm' && !(SCALES.has(t) && /^\d+$/.test(tokens[i - 1] ?? ''))) return IN_DIGITS;
      i++;
      continue;
    }
    if (t === 'one' && read.end === i + 1 && !justTheOne(tokens, i) && tokens.slice(Math.max(0, i - 3), i).some((w) => NOT_A_NUMBER_BEFORE_ONE.has(w))) {
      i++;
      continue;
    }
    const after = tokens[read.end];
    if (after !== undefined && SCALE_WORDS.has(after)) return IN_DIGITS;
    const sign = SIGN_WORDS.has(tokens[i - 1] ?? '') ? -1 : 1;
    found.push({ value: sign * read.value, ...(after !== undefined && SUBUNIT_WORDS.has(after) && { subunit: true }) });
    i = read.end;
  }
  return found;
}

// ---------------------------------------------------------------------------
// boolean

interface BooleanPhrase {
  tokens: string[];
  /** true or false, or 'neutral' for set phrases that answer nothing ("no problem"). */
  means: boolean | 'neutral';
}

// "positive"/"negative" would read a test result as an answer; one-letter words
// ("n/a") are taken only as a whole answer.
const RISKY_BOOLEAN_WORDS = new Set(['positive', 'negative', 'y', 'n']);
const builtin = (list: readonly string[] | undefined, means: boolean): BooleanPhrase[] =>
  (list ?? []).filter((p) => !RISKY_BOOLEAN_WORDS.has(p)).map((p) => ({ tokens: words(p), means }));
const BOOLEAN_PHRASES: BooleanPhrase[] = [
  ...builtin(COMMON_SYNONYMS.yes, true),
  ...builtin(COMMON_SYNONYMS.no, false),
  ...NEUTRAL_PHRASES.map((p): BooleanPhrase => ({ tokens: words(p), means: 'neutral' })),
];
const META = META_PHRASES.map(words);
const OPENERS = QUESTION_OPENERS.map(words);
/** Words that do not lower the confidence of a plain "no thanks". */
const POLITE = new Set(['thanks', 'thank', 'you', 'please', 'thx', 'ty', 'ok', 'okay']);

function parseBoolean(text: string, trueLabel: string, falseLabel: string): TypedParse {
  const plain = (x: string) => x.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  const answer = plain(text).replace(/[.!]+$/, '');
  if (answer.length === 0) return fail(EMPTY);
  const t = plain(trueLabel);
  const f = plain(falseLabel);
  const sameLabels = t === f;
  if (!sameLabels && answer === t) return ok(true, 1);
  if (!sameLabels && answer === f) return ok(false, 1);
  if (answer === 'y') return ok(true, 0.95);
  if (answer === 'n') return ok(false, 0.95);

  const ask = `Please answer "${trueLabel}" or "${falseLabel}".`;
  if (endsWithQuestion(text)) return fail(`That reads like a question. ${ask}`);
  const tokens = tokenize(text);
  if (META.some((p) => contains(tokens, p)) || OPENERS.some((p) => startsAt(tokens, 0, p)))
    return fail(`That reads like a question. ${ask}`);
  if (HEDGES.some((h) => contains(tokens, h))) return fail(`It sounds like you are not sure. ${ask}`);

  // The question's own labels first: on a tie in length they win over built-in words.
  const labels: BooleanPhrase[] = sameLabels
    ? []
    : [{ tokens: words(trueLabel), means: true }, { tokens: words(falseLabel), means: false }];
  const phrases = [...labels, ...BOOLEAN_PHRASES]
    .filter((p) => p.tokens.length > 0)
    .sort((a, b) => b.tokens.length - a.tokens.length);
  const meant = new Set<boolean>();
  const consumed = new Set<number>();
  for (let i = 0; i < tokens.length; ) {
    const phrase = phrases.find((p) => startsAt(tokens, i, p.tokens));
    if (!phrase) {
      i++;
      continue;
    }
    if (phrase.means !== 'neutral') meant.add(phrase.means);
    for (let k = i; k < i + phrase.tokens.length; k++) consumed.add(k);
    i += phrase.tokens.length;
  }
  // A negation outside any known phrase ("not yes", "yes, but not now"): unsure.
  const cannotTell = `I could not tell whether you meant yes or no. ${ask}`;
  if (tokens.some((tok, i) => NEGATOR_SET.has(tok) && !consumed.has(i))) return fail(cannotTell);
  if (meant.size > 1) return fail(`Your answer seems to say both yes and no. ${ask}`);
  const [value] = [...meant];
  if (value === undefined) return fail(cannotTell);
  const onlyAnswer = tokens.every((tok, i) => consumed.has(i) || tok === BREAK || POLITE.has(tok));
  return ok(value, onlyAnswer ? 0.95 : 0.85);
}

// ---------------------------------------------------------------------------
// date

interface Ymd {
  y: number;
  m: number;
  d: number;
}

/** A date expression found in the answer, or why it cannot be used. */
type DateMention = { date: Ymd; confidence: number } | { error: string } | { choices: [Ymd, Ymd] };

const MONTHS: ReadonlyMap<string, number> = new Map(Object.entries({
  january: 1, february: 2, march: 3, april: 4, may: 5, june: 6, july: 7, august: 8, september: 9, october: 10,
  november: 11, december: 12, jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sept: 9, sep: 9, oct: 10,
  nov: 11, dec: 12,
}));
const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December',
];
// "sat" and "sun" are left out: they are everyday words.
const WEEKDAYS: ReadonlyMap<string, number> = new Map(Object.entries({
  sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6,
  mon: 1, tues: 2, tue: 2, wed: 3, thurs: 4, thur: 4, thu: 4, fri: 5,
}));
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const COUNTS: ReadonlyMap<string, number> = new Map([...SMALL_NUMBERS, ['a', 1], ['an', 1]]);

const MONTH = `(${[...MONTHS.keys()].join('|')})`;
const WEEKDAY = `(${[...WEEKDAYS.keys()].join('|')})`;
const COUNT = `(\\d{1,3}|${[...COUNTS.keys()].join('|')})`;
/** An optional weekday before a full date ("Tuesday, 1 December 2026"); it is checked against the date. */
const WEEKDAY_BEFORE = `(?:${WEEKDAY}\\.?,? (?:the )?)?`;

/** Leftover words that make the date vague or a range ("next week", "before friday"). */
const VAGUE_DATE_WORDS = new Set([
  'week', 'weeks', 'weekend', 'month', 'months', 'year', 'years', 'fortnight', 'next', 'last', 'this', 'before',
  'after', 'until', 'till', 'between', 'early', 'late', 'mid', 'end', 'beginning', 'start', 'soon', 'sometime',
  'asap', 'from', 'ago', 'later', 'day', 'days', 'around', 'about', 'approximately', 'roughly', 'circa', 'ish',
]);

const EXAMPLE_DATE = 'like 2026-12-01';

function parseDate(text: string, today: Date): TypedParse {
  const valid = today instanceof Date && !Number.isNaN(today.getTime()) && today.getUTCFullYear() >= 1000 && today.getUTCFullYear() <= 9990;
  if (!valid) return fail("I could not work out today's date, so I cannot read dates right now.");
  const now: Ymd = { y: today.getUTCFullYear(), m: today.getUTCMonth() + 1, d: today.getUTCDate() };
  const s = text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  if (s.length === 0) return fail(EMPTY);

  const mentions: DateMention[] = [];
  let rest = s;
  // Each pattern blanks what it read, so later ones never read it twice.
  const take = (pattern: string, read: (m: RegExpExecArray) => DateMention | undefined) => {
    for (const m of rest.matchAll(new RegExp(pattern, 'g'))) {
      const mention = read(m);
      if (mention === undefined) continue;
      mentions.push(mention);
      rest = rest.slice(0, m.index) + ' '.repeat(m[0].length) + rest.slice(m.index + m[0].length);
    }
  };

  const TIME_SUFFIX = '(?:t\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:z|[+-]\\d{2}:?\\d{2})?)?';
  // 2026-12-01, 2026/12/01: year first is never ambiguous.
  take(`\\b${WEEKDAY_BEFORE}(\\d{4})([-/.])(\\d{1,2})\\3(\\d{1,2})${TIME_SUFFIX}\\b`, (m) =>
    explicit(m[1], Number(m[2]), Number(m[4]), Number(m[5]), 1),
  );
  // 25/12/2026 or 12/25/2026: only when one reading is impossible.
  take(`\\b${WEEKDAY_BEFORE}(\\d{1,2})([-/.])(\\d{1,2})\\3(\\d{4})\\b`, (m) => {
    const a = Number(m[2]);
    const b = Number(m[4]);
    const y = Number(m[5]);
    if (a <= 12 && b <= 12 && a !== b) {
      const dayFirst = isoOf({ y, m: b, d: a });
      const monthFirst = isoOf({ y, m: a, d: b });
      const written = m[0].trim();
      return { error: `"${written}" could mean ${dayFirst} or ${monthFirst}. Please write the date with the year first, ${EXAMPLE_DATE}.` };
    }
    return a > 12 ? explicit(m[1], y, b, a, 1) : explicit(m[1], y, a, b, 1);
  });
  // 1 December 2026, the 1st of Dec, 1-dec-2026
  take(`\\b${WEEKDAY_BEFORE}(?:the )?(\\d{1,2})(?:st|nd|rd|th)?(?: of)?[ ,./-]*${MONTH}\\b\\.?(?:[ ,./-]*(\\d{4}))?(?!\\d)`, (m) =>
    withOptionalYear(m[1], m[4], MONTHS.get(m[3]!)!, Number(m[2])),
  );
  // December 1, 2026; Dec 1st
  take(`\\b${WEEKDAY_BEFORE}${MONTH}\\b\\.?[ ,/-]*(?:the )?(\\d{1,2})(?:st|nd|rd|th)?\\b(?:[ ,./-]*(\\d{4}))?(?!\\d)`, (m) =>
    withOptionalYear(m[1], m[4], MONTHS.get(m[2]!)!, Number(m[3])),
  );
  take(`\\b${MONTH}\\b\\.?,? (\\d{4})\\b`, (m) => ({
    error: `Which day in ${MONTH_NAMES[MONTHS.get(m[1]!)! - 1]} ${m[2]}? Please write the full date, ${EXAMPLE_DATE}.`,
  }));
  take('\\b(?:the )?day after tomorrow\\b', () => ({ date: addDays(now, 2), confidence: 1 }));
  take('\\b(?:the )?day before yesterday\\b', () => ({ date: addDays(now, -2), confidence: 1 }));
  take('\\b(today|tonight|tomorrow|tmrw|tomorow|tommorow|tommorrow|yesterday)\\b', (m) => {
    const offset = m[1] === 'today' || m[1] === 'tonight' ? 0 : m[1] === 'yesterday' ? -1 : 1;
    return { date: addDays(now, offset), confidence: 1 };
  });
  const days = (count: string, unit: string) => (COUNTS.get(count) ?? Number(count)) * (unit.startsWith('week') ? 7 : 1);
  take(`\\bin ${COUNT} (days?|weeks?)\\b`, (m) => ({ date: addDays(now, days(m[1]!, m[2]!)), confidence: 0.95 }));
  take(`\\b${COUNT} (days?|weeks?) (from now|from today|later|ago)\\b`, (m) => {
    const n = days(m[1]!, m[2]!);
    return { date: addDays(now, m[3] === 'ago' ? -n : n), confidence: 0.95 };
  });
  take(`\\b(?:(next|this|last) )?(?:coming )?${WEEKDAY}\\b\\.?`, (m) => {
    const target = WEEKDAYS.get(m[2]!)!;
    const todayWeekday = weekdayOf(now);
    if (m[1] === 'this' && target === todayWeekday)
      return { error: `Did you mean today or ${WEEKDAY_NAMES[target]} next week? Please write the date, ${EXAMPLE_DATE}.` };
    // Always strictly after today ("friday" on a Friday is next week's), or strictly before for "last".
    const ahead = (target - todayWeekday + 7) % 7 || 7;
    const behind = (todayWeekday - target + 7) % 7 || 7;
    // "Next friday" said on a Tuesday: this week's Friday, or the one a week later? Both are offered.
    // (Said on a Saturday, the coming Friday is already in the next week: that one.)
    const toSunday = (7 - todayWeekday) % 7;
    if (m[1] === 'next' && ahead <= toSunday) return { choices: [addDays(now, ahead), addDays(now, ahead + 7)] };
    return { date: addDays(now, m[1] === 'last' ? -behind : ahead), confidence: m[1] === undefined ? 0.9 : 0.85 };
  });
  // Times of day do not change a calendar date ("tomorrow at 3pm").
  rest = rest
    .replace(/\b(?:at )?\d{1,2}(?::\d{2})? ?(?:am|pm|a\.m\.|p\.m\.)(?![a-z])/g, ' ')
    .replace(/\b(?:at )?\d{1,2}:\d{2}(?::\d{2})?\b/g, ' ');

  const error = mentions.find((m): m is { error: string } => 'error' in m);
  if (error) return fail(error.error);
  const found = mentions.filter((m): m is { date: Ymd; confidence: number } => 'date' in m);
  const choices = mentions.filter((m): m is { choices: [Ymd, Ymd] } => 'choices' in m);
  // Read as the first of its two dates for the checks below; offered as both once they pass.
  for (const c of choices) found.push({ date: c.choices[0], confidence: 1 });
  const distinct = [...new Set(found.map((m) => isoOf(m.date)))];
  if (distinct.length > 1) return fail(`I found more than one date (${distinct.slice(0, 2).join(' and ')}). Please give just one date.`);
  if (/\d/.test(rest) || distinct.length === 0)
    return fail(`I could not read a date in your answer. Please write it ${EXAMPLE_DATE}, or say "tomorrow" or "next Friday".`);
  if (endsWithQuestion(s)) return fail(`That reads like a question. Please write the date, ${EXAMPLE_DATE}.`);
  const leftover = tokenize(rest);
  if (isHedged(tokenize(s)) || leftover.some((t) => VAGUE_DATE_WORDS.has(t)))
    return fail(`I need one exact date. Please write it ${EXAMPLE_DATE}.`);

  const value = distinct[0]!;
  // "in 999 weeks" near the end of year 9999 would leave four-digit years.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return fail(`That date is too far away. Please write it ${EXAMPLE_DATE}.`);
  const [pair] = choices;
  if (pair) {
    const [first, second] = pair.choices.map((d) => ({ value: isoOf(d), label: dayLabel(d, now) }));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(second!.value)) return fail(`That date is too far away. Please write it ${EXAMPLE_DATE}.`);
    return {
      ok: false,
      message: `Did you mean ${first!.label} or ${second!.label}? Please choose one, or write the date ${EXAMPLE_DATE}.`,
      candidates: [first!, second!],
    };
  }
  const confidence = Math.min(...found.map((m) => m.confidence)) * (leftover.some((t) => t !== BREAK) ? 0.9 : 1);
  return ok(value, confidence);

  function explicit(weekday: string | undefined, y: number, m: number, d: number, confidence: number): DateMention {
    const date = { y, m, d };
    if (!isValidDate(date)) return { error: `There is no such date as ${describe(date)}. Please check the date.` };
    const named = weekday === undefined ? undefined : WEEKDAYS.get(weekday);
    if (named !== undefined && named !== weekdayOf(date))
      return { error: `${describe(date)} is a ${WEEKDAY_NAMES[weekdayOf(date)]}, not a ${WEEKDAY_NAMES[named]}. Please check the date.` };
    return { date, confidence };
  }

  /** "1 December" without a year: the next 1 December on or after today. */
  function withOptionalYear(weekday: string | undefined, year: string | undefined, m: number, d: number): DateMention {
    if (year !== undefined) return explicit(weekday, Number(year), m, d, 1);
    for (let y = now.y; y <= now.y + 8; y++) {
      const date = { y, m, d };
      if (isValidDate(date) && compare(date, now) >= 0) return explicit(weekday, y, m, d, 0.9);
    }
    return { error: `There is no such date as ${d} ${MONTH_NAMES[m - 1]}. Please check the date.` };
  }
}

/** "Friday 27 November", with the year when it is not this year's. */
function dayLabel(date: Ymd, now: Ymd): string {
  return `${WEEKDAY_NAMES[weekdayOf(date)]} ${date.d} ${MONTH_NAMES[date.m - 1]}${date.y === now.y ? '' : ` ${date.y}`}`;
}

function isValidDate({ y, m, d }: Ymd): boolean {
  // Four-digit years only: Date.UTC reads years 0..99 as 1900..1999.
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function addDays({ y, m, d }: Ymd, days: number): Ymd {
  const date = new Date(Date.UTC(y, m - 1, d + days));
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}

function weekdayOf({ y, m, d }: Ymd): number {
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

function compare(a: Ymd, b: Ymd): number {
  return a.y - b.y || a.m - b.m || a.d - b.d;
}

function isoOf({ y, m, d }: Ymd): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** "30 February 2026", or the ISO form when the month itself is wrong. */
function describe(date: Ymd): string {
  const month = MONTH_NAMES[date.m - 1];
  return month === undefined ? isoOf(date) : `${date.d} ${month} ${date.y}`;
}

// ---------------------------------------------------------------------------
// email

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function parseEmail(text: string): TypedParse {
  const s = text.normalize('NFKC');
  if (s.trim().length === 0) return fail(EMPTY);
  const EXAMPLE = 'like name@example.com';
  const valid: string[] = [];
  let written = '';
  for (const m of s.matchAll(/[^\s<>()[\]{},;:"]+@[^\s<>()[\]{},;:"]+/g)) {
    const candidate = trimEmail(m[0]);
    const end = m.index + m[0].length;
    // "jane,doe@x.com": a comma glued to the address may be a typo inside it, not a break before it.
    const glued = /[\p{L}\p{N}][,;]$/u.test(s.slice(0, m.index)) || /^[,;][\p{L}\p{N}]/u.test(s.slice(end, end + 2));
    const email = glued ? undefined : checkEmail(candidate);
    if (email === undefined) {
      const written = glued ? /\S*$/.exec(s.slice(0, m.index))![0] + m[0] + /^\S*/.exec(s.slice(end))![0] : candidate;
      return fail(`"${written.slice(0, 80)}" does not look like a complete email address. Please write it ${EXAMPLE}.`);
    }
    valid.push(email);
    written = candidate;
  }
  const distinct = [...new Set(valid.map((e) => e.toLowerCase()))];
  if (distinct.length === 0)
    return fail(
      s.includes('@')
        ? `I could not read an email address in your answer. Please write it ${EXAMPLE}, without spaces.`
        : `I could not find an email address in your answer. Please write it ${EXAMPLE}.`,
    );
  if (distinct.length > 1) return fail(`I found more than one email address (${valid.slice(0, 2).join(' and ')}). Please give just one.`);
  const value = valid[0]!;
  return ok(value, valid.length === 1 && trimEmail(s.trim()) === written ? 1 : 0.9);
}

/** Sentence punctuation after an address, and quotes or stars around it ("'a@b.com'", "*a@b.com*"). */
function trimEmail(raw: string): string {
  let c = raw.replace(/[.!?]+$/, '');
  const open = /^['`*_]+/.exec(c)?.[0];
  if (open !== undefined && c.length > 2 * open.length && c.endsWith([...open].reverse().join('')))
    c = c.slice(open.length, c.length - open.length);
  return c.replace(/[.!?]+$/, '');
}

/** The address with its domain lowercased, or undefined when it is not a plausible address. */
function checkEmail(candidate: string): string | undefined {
  const parts = candidate.split('@');
  if (parts.length !== 2 || candidate.length > 254) return undefined;
  const [local, domain] = parts as [string, string];
  if (local.length === 0 || local.length > 64 || !LOCAL_PART.test(local)) return undefined;
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => DOMAIN_LABEL.test(l))) return undefined;
  if (!/^[A-Za-z]{2,63}$/.test(labels[labels.length - 1]!)) return undefined;
  return `${local}@${domain.toLowerCase()}`;
}

// ---------------------------------------------------------------------------
// phone

/**
 * A phone number as written: an optional "+", then groups of digits joined by
 * one separator each (space, dash, slash, a dot with no space, parentheses).
 * ". " is not a separator, so "I'm 40. 555 0102" stays two numbers.
 */
const PHONE_RUN = /(\+ ?)?\(?\d+(?:(?: ?[-/] ?|\.| |\) ?\(?| ?\()\d+)*\)?/g;

/** Refused, though the answer holds a number of this kind (see `found` on {@link TypedParse}). */
const refusedFound = (message: string): TypedParse => ({ ok: false, message, found: true });

function parsePhone(text: string, country?: string): TypedParse {
  const s = text.normalize('NFKC').replace(/\s+/g, ' ');
  if (s.trim().length === 0) return fail(EMPTY);
  const numbers: string[] = [];
  let written = '';
  for (const m of s.matchAll(PHONE_RUN)) {
    const start = m.index;
    const end = start + m[0].length;
    // "555-CALL-NOW", "555 01O 2233": letters in or against the number.
    const touchesLetter = (at: number, step: number) =>
      LETTER.test(s[at] ?? '') || (s[at] === '-' && LETTER.test(s[at + step] ?? ''));
    if (touchesLetter(start - 1, -1) || touchesLetter(end, 1))
      return refusedFound('There seem to be letters mixed into the number. Please write the phone number with digits only.');
    // "030/1234567" is one number; "24/7 555 010 2233" is not.
    if (m[0].includes('/') && !/^\+?\d+\/\d+$/.test(m[0]))
      return fail('I could not read that as one phone number. Please write just the number, like +1 555 010 2233.');
    const digits = m[0].replace(/\D/g, '');
    numbers.push(`${m[0].startsWith('+') ? '+' : ''}${digits}`);
    written = m[0];
  }
  const distinct = [...new Set(numbers)];
  if (distinct.length === 0) return fail('I could not find a phone number in your answer.');
  if (distinct.length > 1) return refusedFound('I found more than one number in your answer. Please give just one phone number.');
  // Its length for its country (from "+" and the calling code, or the question's country), else the general bounds.
  const checked = checkPhoneNumber(distinct[0]!, country);
  if (!checked.ok) return refusedFound(checked.message);
  return ok(checked.value, numbers.length === 1 && s.trim().replace(/[.!]$/, '') === written ? 1 : 0.9);
}
