/**
 * Words whose negation is the question's own "yes" (issue 26, rule c): a
 * question asks whether something is continuous, valid, working, fenced, and
 * the person denies its opposite ("no, never had a gap", "not once did it
 * lapse"). The "no" there agrees with the denial; the answer is Yes. Only
 * pairs a careful reader takes as opposites whatever the flow (antonyms as
 * WordNet lists them, plus the nouns of the same break: gap, lapse), written
 * normalized (normalize.ts: lower case, no accents).
 */

/** A word of the question → the words that mean its opposite. */
const PAIRS: readonly [readonly string[], readonly string[]][] = [
  [
    ['continuous', 'continuously', 'uninterrupted', 'unbroken', 'consistent', 'consistently', 'constant', 'steady', 'without interruption'],
    ['gap', 'gaps', 'break', 'breaks', 'lapse', 'lapses', 'lapsed', 'interruption', 'interruptions', 'interrupted', 'pause', 'paused', 'inconsistency', 'inconsistencies'],
  ],
  [['valid'], ['expired', 'invalid', 'suspended', 'revoked', 'lapsed', 'void']],
  [['up to date', 'current'], ['overdue', 'expired', 'lapsed', 'outdated', 'out of date']],
  [['working', 'functional', 'operational'], ['broken', 'faulty', 'defective']],
  [['punctual', 'on time'], ['late', 'delayed', 'delay', 'delays']],
  [['complete', 'intact'], ['missing', 'incomplete', 'gaps']],
  [['insured', 'covered'], ['uninsured', 'uncovered']],
];

const BY_WORD = new Map<string, Set<string>>();
for (const [words, opposites] of PAIRS) for (const w of words) BY_WORD.set(w, new Set([...(BY_WORD.get(w) ?? []), ...opposites]));

/**
 * The opposites of what a question asks, from its prompt's tokens (normalized):
 * "continuous" gives gap, break, lapse...; a word with "un"/"in"/"dis" added is
 * the opposite of any prompt word ("fenced" / "unfenced"). Empty when the
 * prompt names a negative itself ("any gaps in coverage?"): then a denial is
 * its plain No.
 */
export function oppositesOf(promptTokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < promptTokens.length; i++) {
    const at = promptTokens.slice(i, i + 3);
    for (const key of [at.slice(0, 1), at.slice(0, 2), at].map((w) => w.join(' '))) for (const o of BY_WORD.get(key) ?? []) out.add(o);
  }
  // A question that names one of the opposites itself asks about the negative: no double negation there.
  if (promptTokens.some((t) => out.has(t))) return new Set();
  for (const t of promptTokens) if (t.length >= 5) for (const prefix of ['un', 'in', 'dis']) out.add(prefix + t);
  return out;
}

/**
 * A yes/no question about a change ("getting worse?", "getting better?") answered by a word that says it is
 * not that change ("stable", "about the same", "improving" asked whether it gets worse): its No. Only the
 * comparatives, with the words that always mean another direction or none.
 */
const CHANGES: Readonly<Record<string, readonly string[]>> = {
  worse: ['stable', 'same', 'unchanged', 'steady', 'better', 'improving', 'improved', 'no change', 'no different', 'easing'],
  better: ['stable', 'same', 'unchanged', 'steady', 'worse', 'worsening', 'no change', 'no different'],
};
export function otherChangesOf(promptTokens: readonly string[]): readonly string[] {
  return promptTokens.flatMap((t) => CHANGES[t] ?? []);
}
