import { tokenize, BREAK } from './normalize.js';

/**
 * Whether a message asserts anything at all: sarcasm ("yeah right", "as if",
 * "like I would", 🙄) and hypotheticals ("if I did", "I would if") say the
 * opposite of their words, or nothing about now. A reader abstains on such a
 * message; a model's value read from it is not grounded (evidence.ts).
 */
export type NotAsserted = 'sarcasm' | 'hypothetical';

/** Sarcasm markers, normalised (normalize.ts: "I'd" is "i would"). */
const SARCASM: readonly string[] = [
  'yeah right', 'yea right', 'ya right', 'yeah sure', 'oh sure', 'sure sure', 'as if', 'like i would', 'like i will',
  'like i ever', 'like that would', 'in your dreams', 'you wish', 'dream on', 'not in a million years', 'lol no', 'lmao',
  'haha right', 'totally not', 'obviously not', 'said no one', 'sure jan', 'of course not lol', 'whatever you say',
];
/** Hypotheticals and plans: true of another world or another time. */
const HYPOTHETICAL: readonly string[] = [
  'if i', 'if we', 'if she', 'if he', 'if they', 'i would if', 'would be', 'was going to', 'were going to', 'going to start',
  'thinking about', 'thinking of', 'planning to', 'plan to', 'hoping to', 'want to start', 'might start', 'may start',
  'next spring', 'next summer', 'next year', 'someday', 'one day',
];
/** Emoji that turn the words around (eye roll, upside-down face, smirk, wink with tongue, clown). */
const IRONIC_EMOJI = /[\u{1F644}\u{1F643}\u{1F60F}\u{1F61C}\u{1F921}]/u;

const phrases = (list: readonly string[]) => list.map((p) => tokenize(p).filter((t) => t !== BREAK));
const SARCASM_TOKENS = phrases(SARCASM);
const HYPOTHETICAL_TOKENS = phrases(HYPOTHETICAL);

export function unasserted(text: string, tokens: readonly string[] = tokenize(text)): NotAsserted | undefined {
  if (IRONIC_EMOJI.test(text)) return 'sarcasm';
  const words = tokens.filter((t) => t !== BREAK);
  const has = (p: readonly string[]) => {
    for (let i = 0; i + p.length <= words.length; i++) if (p.every((t, k) => words[i + k] === t)) return true;
    return false;
  };
  if (SARCASM_TOKENS.some(has)) return 'sarcasm';
  if (HYPOTHETICAL_TOKENS.some(has)) return 'hypothetical';
  return undefined;
}
