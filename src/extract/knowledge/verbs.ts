/**
 * Verbs by what they make of the words around them, shared by the readers that find a clause's subject
 * (subject.ts for typed values, match-category.ts for categories).
 */

/** Verbs of opinion and estimate: what follows is the subject's view ("the other driver reckons his damage is 5,000"). */
export const OPINION_VERBS: readonly string[] = [
  'reckon', 'reckons', 'reckoned', 'think', 'thinks', 'thought', 'believe', 'believes', 'believed', 'estimate', 'estimates',
  'estimated', 'guess', 'guesses', 'guessed', 'figure', 'figures', 'figured', 'suggest', 'suggests', 'suggested', 'recommend',
  'recommends', 'recommended', 'insist', 'insists', 'insisted', 'expect', 'expects', 'expected', 'want', 'wants', 'wanted',
];

/** Verbs that give someone's view of a value: opinion, and saying ("my partner says 1200", "he reckons 5,000"). */
export const VIEW_VERBS: ReadonlySet<string> = new Set([...OPINION_VERBS, 'says', 'said', 'say']);

/** Verbs of finding out: a time said with them is when something was found, not when it happened ("I only found the damage today"). */
export const DISCOVERY_VERBS: ReadonlySet<string> = new Set([
  'found', 'find', 'noticed', 'notice', 'noticing', 'discovered', 'discover', 'spotted', 'spot', 'saw', 'seeing', 'realised',
  'realized', 'realise', 'realize', 'learned', 'learnt', 'heard',
]);
