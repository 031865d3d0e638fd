import { BREAK, tokenize } from './normalize.js';
import { unasserted } from './assertion.js';
import { ANSWER_FILLERS, NEGATORS, THANKS_AND_GREETINGS } from './lexicon.js';
import { LETTING, OWNING, RENTING } from './knowledge/tenure.js';
import { askedPredicate, plainStatement, yesAndNo } from './restated.js';
import type { MatchableQuestion } from './match-category.js';

/**
 * A question whether the person owns their home ("Do you own the property?"),
 * answered by its tenure (issue 26, coverage of clear answers): "it's ours",
 * "we're the homeowners", "we have a mortgage" are its Yes; "we rent", "I'm a
 * tenant", "wir wohnen zur Miete" its No.
 *
 * Only a message that says nothing but its tenure (and fillers) is read, with
 * no question, laughter or irony. Every clause that says a tenure is a plain
 * statement of the one asked, now (restated.ts), and all agree. One that
 * denies renting ("we're not renting") agrees with owning but is not enough
 * alone ("I don't rent, but it's not exactly mine either"). Renting out or a
 * lodger reads both ways: nothing is read.
 */

/** The things a home is called in a question of owning it. */
const HOME = new Set(['home', 'house', 'property', 'flat', 'apartment', 'place', 'dwelling', 'residence', 'bungalow', 'cottage']);
const FILLERS = new Set([...ANSWER_FILLERS, ...THANKS_AND_GREETINGS]);
const NEGATOR_SET = new Set(NEGATORS);

const at = (tokens: readonly string[], phrase: readonly string[]) =>
  tokens.findIndex((_, i) => phrase.every((w, k) => tokens[i + k] === w));

/** Whether a question asks if the person owns their home. */
function asksOwning(gate: MatchableQuestion): boolean {
  if (gate.prompt === undefined || yesAndNo(gate) === undefined) return false;
  const predicate = askedPredicate(gate.prompt);
  return predicate?.[0] === 'own' && tokenize(gate.prompt).some((t) => HOME.has(t));
}

export function byTenure(text: string, gate: MatchableQuestion): string | undefined {
  if (!asksOwning(gate)) return undefined;
  const answers = yesAndNo(gate)!;
  const tokens = tokenize(text);
  // A question, laughter or irony anywhere ("me, a homeowner? in this economy? 😂") asserts no clause of it.
  if (text.includes('?') || unasserted(text, tokens, gate.prompt) !== undefined) return undefined;
  if (LETTING.some((p) => at(tokens, p) >= 0)) return undefined;
  let owns = false;
  let rents = false;
  let deniesRenting = false;
  let clause: string[] = [];
  for (const t of [...tokens, BREAK]) {
    if (t !== BREAK) {
      clause.push(t);
      continue;
    }
    const own = Math.min(...OWNING.map((p) => at(clause, p)).filter((i) => i >= 0));
    const rent = Math.min(...RENTING.map((p) => at(clause, p)).filter((i) => i >= 0));
    const first = Math.min(own, rent);
    // A clause that says no tenure says nothing else either ("..., thanks"): "we have a mortgage, but the deeds are
    // in my ex's name" may turn what the tenure said.
    if (!Number.isFinite(first) && clause.some((w) => !FILLERS.has(w))) return undefined;
    if (Number.isFinite(first)) {
      // (The clause on its own: plainStatement reads one clause, its own text.)
      if (!plainStatement(clause.join(' '), clause, first, gate.prompt!, true)) return undefined;
      const denied = clause.slice(0, first).some((w) => NEGATOR_SET.has(w));
      if (own === first) (denied ? (rents = true) : (owns = true));
      else if (denied) deniesRenting = true;
      else rents = true;
    }
    clause = [];
  }
  if (owns && !rents) return answers.yes;
  if (rents && !owns && !deniesRenting) return answers.no;
  return undefined;
}
