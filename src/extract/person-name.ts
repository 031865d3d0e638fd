/**
 * Reading a person's name out of what they typed: "hi, I'm jane doe" is the
 * name "Jane Doe". Greetings, introductions ("my name is", "I'm", "this
 * is") and sign-offs ("here", "thanks") around the name are dropped; a name
 * typed all in lower (or upper) case is capitalized, one typed with capitals
 * is kept as written ("McDonald", "van der Berg").
 *
 * It abstains (a message saying what to write) rather than store a sentence
 * as a name: digits, an "@", a question, more than a few words, or an
 * ordinary word such as "and", "need" or "about" among them.
 */

export type NameParse = { ok: true; value: string; confidence: number } | { ok: false; message: string };

const ASK = 'Please write just your name, for example Jane Doe.';

/** Words that open a message before the name. Normalized: lowercase, straight apostrophes. */
const GREETINGS = [
  'hi there', 'hello there', 'hey there', 'hi', 'hello', 'hey', 'hiya', 'heya', 'howdy', 'yo', 'greetings', 'dear',
  'good morning', 'good afternoon', 'good evening', 'good day', 'morning', 'evening', 'ok', 'okay', 'sure', 'yes', 'yeah',
];
/** Phrases that introduce the name. */
const INTRODUCTIONS = [
  'my full name is', 'my name is', "my name's", 'my names', 'the name is', "the name's", 'name is', "name's", 'name',
  'you can call me', 'please call me', 'call me', 'they call me', 'i am called', "i'm called", 'i am', "i'm", 'im',
  'this is', "it's", 'it is', 'its', 'it s', 'i m',
];
/** Words after the name. */
const SIGN_OFFS = ['here', 'speaking', 'thanks', 'thank you', 'thx', 'please', 'cheers', 'by the way', 'btw'];

/**
 * Ordinary words that are not part of a name: one of them left among the
 * name's words means the answer says more than a name, and the reader abstains.
 */
const NOT_NAME_WORDS = new Set([
  // Words that are also names somewhere ("Will", "May", "Can", "An", "Do", "So") are left out.
  'i', 'me', 'my', 'mine', 'you', 'your', 'we', 'our', 'us', 'he', 'she', 'his', 'her', 'it', 'they', 'them', 'their',
  'am', 'is', 'are', 'was', 'were', 'be', 'been', 'have', 'has', 'had', 'does', 'did', 'would',
  'could', 'should', 'shall', 'might', 'must', 'want', 'wants', 'need', 'needs', 'like', 'call', 'calling',
  'email', 'phone', 'number', 'name', 'names', 'help', 'question', 'about', 'and', 'or', 'but', 'not', 'no', 'nope',
  'yes', 'the', 'a', 'to', 'for', 'with', 'from', 'of', 'in', 'on', 'at', 'by', 'as', 'if', 'that', 'this',
  'what', 'who', 'why', 'how', 'when', 'where', 'which', 'just', 'also', 'really', 'very', 'please', 'thanks', 'hello',
  'hi', 'hey', 'sorry', 'rather', 'prefer', 'say', 'tell', 'know', 'skip', 'none', 'nothing', 'anonymous', 'unknown',
  'test', 'asdf', 'idk', 'lol', 'ok', 'okay', 'sure', 'later', 'here', 'there',
  // Answers to other questions, typed here: times, frequencies, situations ("tomorrow" is nobody's name).
  'today', 'tomorrow', 'tonight', 'yesterday', 'asap', 'now', 'soon', 'next', 'this', 'week', 'weekend', 'month', 'year',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'morning', 'afternoon', 'evening',
  'daily', 'weekly', 'monthly', 'never', 'always', 'sometimes', 'often', 'rarely', 'maybe', 'employed', 'unemployed', 'retired', 'student',
]);

/** Lowercase particles inside a name ("Jean de la Fontaine", "Ludwig van Beethoven"): kept lowercase after the first word. */
const PARTICLES = new Set(['de', 'da', 'das', 'do', 'dos', 'di', 'del', 'della', 'der', 'den', 'du', 'la', 'le', 'van', 'von', 'ten', 'ter', 'bin', 'bint', 'al', 'el', 'y']);

/** Letters with apostrophes, hyphens and a final period inside ("O'Brien", "Mary-Jane", "J."). */
const NAME_WORD = /^\p{L}[\p{L}\p{M}]*(?:['\u2019-]\p{L}[\p{L}\p{M}]*)*\.?$/u;
const MAX_WORDS = 5;

const normalize = (s: string) => s.normalize('NFKC').replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, ' ').trim();

/** Drops one of `phrases` (whole words, ignoring case) at the start of `s`, with the punctuation after it. */
function dropLeading(s: string, phrases: readonly string[]): string | undefined {
  const lower = s.toLowerCase();
  for (const phrase of [...phrases].sort((a, b) => b.length - a.length)) {
    if (!lower.startsWith(phrase)) continue;
    const rest = s.slice(phrase.length);
    if (rest !== '' && !/^[\s,.!:;\-–—]/.test(rest)) continue;
    return rest.replace(/^[\s,.!:;\-–—]+/, '');
  }
  return undefined;
}

/** Drops one of `phrases` at the end of `s`, with the punctuation before it. */
function dropTrailing(s: string, phrases: readonly string[]): string | undefined {
  const lower = s.toLowerCase();
  for (const phrase of [...phrases].sort((a, b) => b.length - a.length)) {
    if (!lower.endsWith(phrase)) continue;
    const rest = s.slice(0, s.length - phrase.length);
    if (rest !== '' && !/[\s,.!:;\-–—]$/.test(rest)) continue;
    return rest.replace(/[\s,.!:;\-–—]+$/, '');
  }
  return undefined;
}

/** "jane" → "Jane", "o'brien" → "O'Brien", "mary-jane" → "Mary-Jane". */
const capitalize = (word: string) => word.toLowerCase().replace(/(^|['-])(\p{L})/gu, (_m, sep: string, letter: string) => sep + letter.toUpperCase());

export function parsePersonName(text: string): NameParse {
  let s = normalize(text);
  if (s.length === 0) return { ok: false, message: 'I did not get an answer. Please type your name.' };
  if (/\?\s*$/.test(s)) return { ok: false, message: `That reads like a question. ${ASK}` };
  if (/[@\d]/.test(s)) return { ok: false, message: `That does not look like a name. ${ASK}` };
  const written = s;
  // Strip around the name until nothing more comes off: "hi! my name is jane doe, thanks".
  for (let changed = true; changed; ) {
    changed = false;
    s = s.replace(/^[\s,.!:;\-–—"'*_()]+|[\s,.!:;\-–—"'*_()]+$/g, '');
    for (const strip of [() => dropLeading(s, GREETINGS), () => dropLeading(s, INTRODUCTIONS), () => dropTrailing(s, SIGN_OFFS)]) {
      const next = strip();
      if (next !== undefined && next !== s) {
        s = next;
        changed = true;
      }
    }
  }
  const words = s.split(' ').filter((w) => w !== '');
  if (words.length === 0) return { ok: false, message: ASK };
  if (words.length > MAX_WORDS) return { ok: false, message: `That is longer than a name. ${ASK}` };
  if (!words.every((w) => NAME_WORD.test(w))) return { ok: false, message: `That does not look like a name. ${ASK}` };
  if (words.some((w) => NOT_NAME_WORDS.has(w.toLowerCase().replace(/\.$/, '')))) return { ok: false, message: ASK };
  // One case throughout ("jane doe", "JANE DOE"): capitalized; written with capitals: as written.
  const oneCase = s === s.toLowerCase() || s === s.toUpperCase();
  const name = oneCase ? words.map((w, i) => (i > 0 && i < words.length - 1 && PARTICLES.has(w.toLowerCase()) ? w.toLowerCase() : capitalize(w))).join(' ') : words.join(' ');
  return { ok: true, value: name, confidence: name === written ? 1 : 0.9 };
}
