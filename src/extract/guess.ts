/**
 * What an unread answer most likely meant, to offer back ("Did you mean …?").
 *
 * The reader abstains on an answer hedged with a word of likelihood ("probably
 * three times a week", "I think so"): the person did not say it surely, so
 * nothing is committed (issue 26). A question asked again is cheap, and
 * cheaper still when it names what the person seemed to mean: the text
 * without those words is read again, and a reading of it is only ever offered,
 * for the person to press; it is never committed from here. Only hedges of
 * likelihood are taken out, from the text as it was typed: every other reason
 * to abstain (someone else's value, sarcasm, another time, a condition, a
 * contrast) stays in it and keeps the reader from offering anything.
 */

/** Words of likelihood, in English and the major European languages. */
const LIKELIHOOD: readonly string[] = [
  'probably', 'maybe', 'perhaps', 'possibly', 'most likely', 'likely', 'i think', 'i guess', 'i suppose', 'i believe', 'i reckon',
  "i'd say", 'i would say', "i'd guess", 'i would guess', 'kind of', 'sort of', 'kinda', 'sorta',
  'vielleicht', 'wahrscheinlich', 'peut-être', 'peut être', 'probablement', 'quizás', 'quizá', 'tal vez', 'probablemente', 'forse',
  'probabilmente', 'misschien', 'waarschijnlijk', 'talvez', 'provavelmente',
];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first, so that "most likely" goes before "likely"; spaces, hyphens and either apostrophe match each other.
const HEDGE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...LIKELIHOOD]
    .sort((a, b) => b.length - a.length)
    .map((p) => escape(p).replace(/[\s-]+/g, '[\\s-]+').replace(/'/g, "['’]"))
    .join('|')})(?![\\p{L}\\p{N}])[,;]?`,
  'giu',
);

/**
 * The text without its hedges of likelihood, to be read again; undefined when it has none (there is nothing to
 * guess) or nothing is left but punctuation.
 */
export function withoutLikelihoodHedges(text: string): string | undefined {
  const rest = text.replace(HEDGE, ' ').replace(/\s{2,}/g, ' ').trim();
  return rest !== text.trim() && /[\p{L}\p{N}]/u.test(rest) ? rest : undefined;
}

/** Whether the text holds a hedge of likelihood ("probably", "I think"): what it says is not said surely. */
export function hedgedByLikelihood(text: string): boolean {
  HEDGE.lastIndex = 0;
  const found = HEDGE.test(text);
  HEDGE.lastIndex = 0;
  return found;
}
