import type { StateValue } from 'xstate';
import { activeNode } from './active-node.js';
import type { FlowContext } from './context.js';
import type { FlowGraph } from './graph.js';
import { answerFiller, withAnswersFilled } from './interpolate.js';
import { kindOf } from './nodes/index.js';
import type { NodeReply } from './nodes/kind.js';
import { categoryLabel } from './fields.js';
import { changeableAt, isAtOrInside } from './places.js';
import type { FlowNode } from './schema.js';
import * as messages from './messages.js';
import type { Reply } from './reply.js';

/** The node a state value is in: its top-level key. */
export function nodeIdOf(value: StateValue): string {
  return typeof value === 'string' ? value : Object.keys(value)[0]!;
}

/**
 * Builds the Reply from the machine's state and the flow alone: the message,
 * buttons and artifacts are derived, never stored, so a restored snapshot
 * gives the same reply.
 */
export function buildReply(
  graph: FlowGraph,
  snapshot: { value: StateValue; context: FlowContext },
  sessionId: string,
): Omit<Reply, 'status'> {
  const { context } = snapshot;
  const active = activeNode(graph, snapshot.value);
  if (!active) throw new Error(`state ${JSON.stringify(snapshot.value)} is not a node of flow "${graph.doc.id}"`);
  const reply = replyFor(graph, active.node, active.place, context, phaseOf(snapshot.value, [...active.stack, active.node.id]));
  const { buttons, buttonContext, artifacts, completion } = reply;
  // (An end says its own message: what was noted no longer matters.)
  const said = completion.isComplete ? '' : notedText(graph, context);
  const message = said === '' ? reply.message : `${said}\n\n${reply.message}`;
  return {
    sessionId,
    flowId: graph.doc.id,
    flowVersion: graph.doc.version,
    state: snapshot.value as Reply['state'],
    message,
    buttons,
    buttonContext,
    answers: context.answers,
    artifacts,
    completion,
  };
}

/** "Noted: Age group: Minor." for answers the last message gave to questions not asked yet; empty when none. */
function notedText(graph: FlowGraph, context: FlowContext): string {
  const items = (context.noted ?? []).flatMap((key) => {
    const answer = context.answers[key];
    const q = graph.question(key);
    if (!answer || !q) return [];
    const value = q.answer.type === 'category' ? categoryLabel(q.answer, String(answer.value)) : String(answer.value);
    const name = (q.label ?? key).replace(/:\s*$/, '');
    return [`${name}: ${value}`];
  });
  return items.length === 0 ? '' : `Noted: ${items.join('; ')}.`;
}

/** The child state the node at a place (its node ids from the root: ids may hold dots) is in (`asking`, `buttonsOnly`, ...), if it has one. */
function phaseOf(value: StateValue, ids: string[]): string | undefined {
  let v: StateValue | undefined = value;
  for (const part of ids) v = typeof v === 'object' && v !== null ? (v[part] as StateValue | undefined) : undefined;
  return typeof v === 'string' ? v : v !== undefined ? Object.keys(v)[0] : undefined;
}

/**
 * What the node's kind says there (nodes/<kind>.ts `reply`), in the wording
 * of messages.ts, the node's own texts with the answers they name filled in
 * (`{answers.<key>}`, interpolate.ts).
 */
function replyFor(graph: FlowGraph, node: FlowNode, place: string, context: FlowContext, phase: string | undefined): NodeReply {
  const notUnderstood = context.notice === 'not_understood';
  // A refused answer (or an unmet constraint sending the flow back here) says why first.
  const to = context.invalid?.node;
  const fill = answerFiller(graph, context.answers);
  // (A validator's or constraint's message may name answers too.)
  const because = to !== undefined && isAtOrInside(place, to) ? `${fill(context.invalid!.message)}\n\n` : '';
  return kindOf(node).reply(withAnswersFilled(node, fill), {
    graph,
    context,
    place,
    phase,
    notUnderstood,
    because,
    messages,
    fill,
    changeableAt: (at) => changeableAt(graph, at),
  });
}
