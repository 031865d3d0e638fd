import type { AnyActorLogic } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { replayConversation, type ReplayTurn } from '../runtime/replay.js';
import { createRuntime } from '../runtime/runtime.js';
import { createMemoryStore } from '../store/memory.js';
import type { Workflow } from '../workflow/types.js';
import { expectationOf, normalisedMessage, type ConversationTest, type ReplyExpectation } from './conversation-format.js';

/** Replaying saved conversations (the format is in conversation-format.ts, which the viewer uses without the runtime). */

/** Where a replay first differs from what was expected: the turn (0: the opening reply), the field, both values. */
export interface ConversationDifference {
  turn: number;
  said: ReplayTurn | null;
  field: keyof ReplyExpectation | 'error';
  expected: unknown;
  got: unknown;
}

export type ConversationResult = { ok: true; turns: number } | { ok: false; turns: number; difference: ConversationDifference };

const FIELDS = ['state', 'status', 'answers', 'buttons', 'message'] as const;
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
const canonical = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(canonical) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, canonical(x)])) : v;

/**
 * The first field where `got` differs from `expected`, or null. The message
 * only when `expected` names one (and `messages` is not false), compared with
 * whitespace normalised; the difference shows both texts as they are.
 */
export function firstDifference(
  expected: ReplyExpectation,
  got: ReplyExpectation,
  options: { messages?: boolean } = {},
): { field: (typeof FIELDS)[number]; expected: unknown; got: unknown } | null {
  for (const field of FIELDS) {
    if (field === 'message') {
      if (expected.message === undefined || options.messages === false) continue;
      if (got.message === undefined || normalisedMessage(expected.message) !== normalisedMessage(got.message)) return { field, expected: expected.message, got: got.message ?? null };
      continue;
    }
    if (!same(expected[field], got[field])) return { field, expected: expected[field], got: got[field] };
  }
  return null;
}

/**
 * Replays a conversation against a workflow (on a memory store, with the
 * given actors) and stops at the first difference (wording included where
 * the test saved it, unless `messages` is false). A turn the workflow
 * refuses (a button it no longer offers, a gate it no longer opens) is a
 * difference too, with the refusal as what came.
 */
export async function runConversation(
  workflow: Workflow,
  conversation: ConversationTest,
  options: { actors?: Record<string, AnyActorLogic>; /** false: no reply's wording is checked, even where the test saved it. */ messages?: boolean } = {},
): Promise<ConversationResult> {
  const store = createMemoryStore();
  let offset = 0;
  const runtime = createRuntime({ workflows: [workflow], store, ...(options.actors && { actors: options.actors }), clock: () => new Date(Date.now() + offset), liveSessions: 0 });
  let difference: ConversationDifference | null = null;
  // The turn last checked (0: the opening reply; -1: not even that).
  let reached = -1;
  const expectations = [conversation.start, ...conversation.turns.map((t) => t.expect)];
  try {
    await replayConversation(runtime, workflow.id, conversation.turns.map((t) => t.turn), {
      ...(conversation.context && { context: conversation.context }),
      setClock: (at) => (offset = Math.max(offset, at.getTime() - Date.now())),
      onStep: (step, reply) => {
        reached = step - 1;
        const expected = expectations[step - 1]!;
        const found = firstDifference(expected, expectationOf(reply, { message: true }), { ...(options.messages !== undefined && { messages: options.messages }) });
        if (!found) return true;
        difference = { turn: step - 1, said: step === 1 ? null : conversation.turns[step - 2]!.turn, ...found };
        return false;
      },
    });
  } catch (error) {
    const turn = reached + 1;
    difference = { turn, said: conversation.turns[turn - 1]?.turn ?? null, field: 'error', expected: 'the turn to be taken', got: error instanceof GateflowError ? error.publicMessage : (error as Error).message };
  } finally {
    runtime.close();
    await store.close();
  }
  const found = difference as ConversationDifference | null;
  return found ? { ok: false, turns: Math.max(reached, 0), difference: found } : { ok: true, turns: conversation.turns.length };
}

/** A difference in words: `turn 3 ({"button":"wrong_item"}): answers: expected {...}, got {...}`. */
export function describeDifference(d: ConversationDifference): string {
  const said = d.said === null ? 'the opening reply' : `turn ${d.turn} (${JSON.stringify(d.said)})`;
  return `${said}: ${d.field}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.got)}`;
}
