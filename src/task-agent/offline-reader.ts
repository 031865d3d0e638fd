import { GRAPH_TOOLS } from '../graph/tools/graph-tools.js';
import { sentencesOf } from './offline-reader/clauses.js';
import { readClause } from './offline-reader/grammar.js';
import { Interpreter } from './offline-reader/interpret.js';
import { CONDITIONS, HEDGES, NEGATIONS } from './offline-reader/lexicon.js';
import { goalSpec } from './offline-reader/spec.js';
import { spell, tokenize, type Token } from './offline-reader/tokens.js';
import { Unsure, unsure } from './offline-reader/unsure.js';
import { GoalSpecSchema, type GoalSpec, type ToolSignature } from './schemas.js';

/**
 * The task agent's offline reader: parse_goal without a model. It reads
 * explicit commands on the graph (create, update, delete, find nodes and
 * edges; a tool asked for by name) sentence by sentence and clause by clause,
 * and acts only when it has read all of the text: any clause it cannot
 * account for, a reference to no node or to several, a negation, a condition,
 * a hedge, a question that does not ask to find something, makes it abstain,
 * and the agent asks the model or the person. A wrong call is worse than a
 * question asked again.
 *
 * The parts are in ./offline-reader/: tokens, lexicon, clauses (sentences and
 * politeness), phrases (nodes, values, properties), grammar (one command per
 * clause), interpret (references, contradictions, calls) and spec (GoalSpec).
 */

export type OfflineReading =
  | { kind: 'sure'; spec: GoalSpec; calls: ToolSignature[] }
  | { kind: 'abstain'; reason: string };

/** Longer text is not read offline. */
export const MAX_OFFLINE_TEXT = 4000;
/** More calls than this are not made from one reading. */
export const MAX_OFFLINE_CALLS = 20;

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const TOOLS = new Map(GRAPH_TOOLS.map((tool) => [tool.name, tool]));

/** A word that makes the reading unsafe wherever it stands (quoted text is never such a word). */
function doubtIn(tokens: readonly Token[]): string | null {
  for (const t of tokens) {
    if (t.kind !== 'word') continue;
    if (NEGATIONS.has(t.lower) || /n['’]t$/.test(t.lower)) return `a negation ("${t.text}")`;
    if (CONDITIONS.has(t.lower)) return `a condition ("${t.text}")`;
    if (HEDGES.has(t.lower)) return `a choice or a hedge ("${t.text}")`;
  }
  return null;
}

function read(text: string): { spec: GoalSpec; calls: ToolSignature[] } {
  if (text.length > MAX_OFFLINE_TEXT) unsure(`the text is longer than ${MAX_OFFLINE_TEXT} characters`);
  if (CONTROL.test(text)) unsure('the text holds control characters');
  const tokens = tokenize(text);
  const doubt = doubtIn(tokens);
  if (doubt) unsure(`the text holds ${doubt}`);

  const interpreter = new Interpreter();
  for (const sentence of sentencesOf(tokens)) {
    const commands = sentence.clauses.map((clause) => {
      const command = readClause(clause.tokens);
      if (!command) unsure(`could not read "${spell(clause.tokens)}"`);
      return command;
    });
    const finds = commands.every((c) => c.kind === 'findNodes' || c.kind === 'findNode');
    if (sentence.question && !finds && !sentence.clauses[0]?.asked) unsure(`a question that asks to find nothing: "${spell(sentence.clauses.flatMap((c) => c.tokens))}?"`);
    for (const command of commands) {
      interpreter.read(command);
      if (interpreter.calls.length > MAX_OFFLINE_CALLS) unsure(`more than ${MAX_OFFLINE_CALLS} calls`);
    }
  }
  const { calls, contradictions, missingTools } = interpreter;
  if (!calls.length) unsure('the text asks for nothing the tools do');

  for (const call of calls) {
    const checked = TOOLS.get(call.tool)?.inputSchema.safeParse(call.args);
    if (checked && !checked.success) unsure(`${call.tool} would refuse what was read: ${checked.error.issues[0]?.message ?? 'invalid arguments'}`);
  }
  const spec = GoalSpecSchema.safeParse(goalSpec(calls, contradictions, missingTools));
  if (!spec.success) unsure(`the reading does not fit a GoalSpec: ${spec.error.issues[0]?.message ?? ''}`);
  return { spec: spec.data, calls };
}

/** The goal read without a model, or why it was not. */
export function readGoalOffline(text: string): OfflineReading {
  try {
    return { kind: 'sure', ...read(text) };
  } catch (error) {
    if (error instanceof Unsure) return { kind: 'abstain', reason: error.message };
    throw error;
  }
}
