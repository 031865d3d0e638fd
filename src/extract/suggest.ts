import { editDistance } from './normalize.js';

/**
 * "Did you mean" for authors: the name a misspelt id, category, answer key
 * or field most likely meant. Only a clear guess is offered (a wrong one
 * sends the author the wrong way): the same name in other case, else the one
 * nearest within a typo or two, and nothing when two are equally near or
 * when names differ only in their digits (`q1` is not a typo of `q2`).
 */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  // Names that differ only in their digits (`q1`, `q2`; `step_2`, `step_3`) are other names, not typos.
  const digitsOnly = (c: string) => c.toLowerCase() !== w && c.replace(/\d/g, '#').toLowerCase() === w.replace(/\d/g, '#');
  const names = [...new Set(candidates)].filter((c) => c !== word && !digitsOnly(c));
  const sameButCase = names.filter((c) => c.toLowerCase() === w);
  if (sameButCase.length > 0) return sameButCase.length === 1 ? sameButCase[0] : undefined;
  // One typo in a short word, two in a longer one, three in a long one.
  const max = w.length <= 4 ? 1 : w.length <= 9 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = max + 1;
  let tie = false;
  for (const candidate of names) {
    const distance = editDistance(w, candidate.toLowerCase(), max);
    if (distance < bestDistance) [best, bestDistance, tie] = [candidate, distance, false];
    else if (distance === bestDistance && distance <= max) tie = true;
  }
  if (best !== undefined && !tie) return best;
  // A word that is the start or the end of exactly one name (`visit` for `visit_type`).
  const partOf = w.length >= 3 ? names.filter((c) => c.toLowerCase().startsWith(w) || c.toLowerCase().endsWith(w)) : [];
  return partOf.length === 1 ? partOf[0] : undefined;
}

/** ` (did you mean "x"?)`, or nothing: appended to a message. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const guess = closestName(word, candidates);
  return guess === undefined ? '' : ` (did you mean "${guess}"?)`;
}
