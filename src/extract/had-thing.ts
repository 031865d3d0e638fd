import { FUNCTION_WORDS, askedWords, stem } from './aside.js';
import { BREAK, clauseStart } from './normalize.js';

/**
 * A bare "have" said of another thing (issue 26: "about this question"). "We do have a dog", asked whether
 * a burglar alarm is fitted, is a yes of the dog's: the words after the "have" name a thing neither the
 * question nor its categories name, so it answers nothing. "We don't have any animals" denies, and is read
 * as it is.
 */

/** Words after "have" that are no thing of their own ("we have one", "yes we have it"). */
const NO_THING = new Set(['one', 'ones', 'it', 'them', 'that', 'this', 'those', 'these', 'some', 'any', 'all', 'both', 'too', 'also', 'indeed', 'already', 'still', 'now', 'yes', 'yeah', 'please', 'thanks']);
/**
 * Whether a bare "have" ("we do have", "got") is said of another thing than the question asks about: the words
 * after it, in its clause, name a thing neither the question nor its categories name ("we do have a dog"
 * asked whether an alarm is fitted).
 */
export function hadIsAnotherThing(tokens: readonly string[], mention: { start: number; end: number }, prompt: string | undefined, categories: readonly string[]): boolean {
  // ("We do have a dog": the yes is "we do", its verb comes right after.)
  const had = tokens.slice(mention.start, mention.end + 1).findIndex((t) => t === 'have' || t === 'has');
  if (prompt === undefined || had < 0) return false;
  // (Only a "have" said yes to: "we don't have any animals" denies, and is read as it is.)
  if (tokens.slice(clauseStart(tokens, mention.start), mention.start + had).some((t) => t === 'not' || t === 'no' || t === 'never')) return false;
  const asked = askedWords(prompt, categories);
  for (let k = mention.start + had + 1; k < tokens.length && tokens[k] !== BREAK; k++) {
    const t = tokens[k]!;
    if (t.length >= 3 && !FUNCTION_WORDS.has(t) && !NO_THING.has(t) && !asked.has(stem(t))) return true;
  }
  return false;
}
