/**
 * The answer a self-correcting message settles on: "every day, I mean weekdays, so 5", "yes eggs. actually the
 * test came back negative last week so no", "no - oh wait, she's allergic to penicillin, does that count? then
 * yes". After a take-back ("sorry", "wait", "actually", "I mean", "scratch that") or a question to itself, a closing
 * "so X" or "then X" of a few words is what the person arrives at; what came before is the way there. Without a
 * take-back a closing "so yes" may conclude from someone else's facts ("my wife smokes, so yes"), and is not taken.
 */
import { BREAK } from './normalize.js';

/** Words that take back what came before: what follows them is the answer (longest first). */
export const TAKE_BACK: readonly (readonly string[])[] = [
  // (A "no" with the take-back is part of it: "next week, sorry no, mid-january".)
  ['sorry', 'no'], ['no', 'sorry'], ['wait', 'no'], ['no', 'wait'], ['actually', 'no'], ['hmm', 'no'], ['let', 'me', 'correct'],
  ['scratch', 'that'], ['i', 'mean'], ['i', 'meant'], ['sorry'], ['wait'], ['oops'], ['correction'],
  ['no', 'actually'], ['well', 'no'], ['more', 'like'], ['or', 'rather'],
];
/** Those and the words that question what came before ("hmm", "does that count?"): a conclusion may follow them. */
const RECONSIDERED: readonly (readonly string[])[] = [...TAKE_BACK, ['actually'], ['hmm'], ['misread'], ['does', 'that', 'count'], ['you', 'mean']];
/** Words that open a conclusion. */
const CONCLUDING = new Set(['so', 'then', 'thus']);
/** At most this many words in the conclusion: an answer, not another story. */
const MAX_WORDS = 3;

/** The tokens of the answer a self-correcting message settles on, or undefined when it settles on none. */
export function conclusionOf(tokens: readonly string[]): string[] | undefined {
  let at = -1;
  for (let i = tokens.length - 1; i >= Math.max(1, tokens.length - MAX_WORDS - 1); i--) {
    if (tokens[i] === BREAK) return undefined;
    if (CONCLUDING.has(tokens[i]!)) {
      at = i;
      break;
    }
  }
  if (at < 1) return undefined;
  const answer = tokens.slice(at + 1);
  if (answer.length === 0) return undefined;
  const before = tokens.slice(0, at);
  const takenBack = before.some((_, i) => RECONSIDERED.some((p) => p.every((w, k) => before[i + k] === w)));
  return takenBack ? answer : undefined;
}

/**
 * The words after the last take-back of a message ("within three months - scratch that, we pushed it to june":
 * "we pushed it to june"), or undefined when it has none or nothing follows it.
 */
export function afterTakeBack(tokens: readonly string[]): string[] | undefined {
  for (let i = tokens.length - 1; i >= 0; i--) {
    // ("Today, no, sunday night": a bare "no" clause after an answer takes it back too.)
    const bareNo = i > 1 && tokens[i - 1] === BREAK && (tokens[i] === 'no' || tokens[i] === 'nope') && (tokens[i + 1] === BREAK || tokens[i + 1] === undefined);
    const marker = bareNo ? [tokens[i]!] : TAKE_BACK.find((p) => p.every((w, k) => tokens[i + k] === w));
    if (!marker) continue;
    const tail = tokens.slice(i + marker.length).filter((t) => t !== BREAK);
    // (What opens the rest is part of the take-back: "no, actually it started sunday".)
    while (tail.length > 0 && (tail[0] === 'actually' || tail[0] === 'well' || tail[0] === 'sorry')) tail.shift();
    return tail.length > 0 ? tail : undefined;
  }
  return undefined;
}
