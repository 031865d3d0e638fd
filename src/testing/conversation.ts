import type { AnyActorLogic } from 'xstate';
import { z } from 'zod';
import { GateflowError } from '../error/gateflow-error.js';
import { replayConversation, replayTurnOf, ReplayTurnSchema, type ReplayTurn } from '../runtime/replay.js';
import { createRuntime } from '../runtime/runtime.js';
import { createMemoryStore } from '../store/memory.js';
import type { JournalTurn } from '../store/types.js';
import { SessionStatusSchema, WorkflowVersionSchema, type ReplyEnvelope } from '../workflow/reply.js';
import type { Workflow } from '../workflow/types.js';

/**
 * Conversations kept as tests (issue 29 §2): a recorded session's turns and
 * what each reply must show, in a small JSON format (`gateflow.conversation/1`):
 *
 * ```json
 * { "format": "gateflow.conversation/1", "workflowId": "refund-approval", "flowVersion": 1,
 *   "savedFrom": { "sessionId": "…", "savedAt": "2026-11-27T10:00:00.000Z" },
 *   "start": { "state": "…", "status": "active", "answers": {}, "buttons": null },
 *   "turns": [ { "turn": { "text": "CD5678" }, "expect": { "state": "…", "status": "active", "answers": { "order_id": "CD5678" }, "buttons": null } } ] }
 * ```
 *
 * A turn is `{text}`, `{button}`, `{input: name, value}` (a gate answered),
 * `{timeout: true}` (its deadlines passed) or `{cancel: true}`. An expectation
 * holds the state value, the status, each answer's value by gate name, and the
 * buttons' values (null: none); with `message`, the text too. Replaying one
 * stops at the first difference: which turn, which field, expected and got.
 */

export const CONVERSATION_FORMAT = 'gateflow.conversation/1';
/** The most turns a conversation test holds (a session's own bound). */
export const MAX_CONVERSATION_TURNS = 500;

export const ReplyExpectationSchema = z.strictObject({
  state: z.union([z.string(), z.record(z.string(), z.unknown())]).describe("The machine's state value"),
  status: SessionStatusSchema,
  answers: z.record(z.string(), z.json()).describe("Each answer's value by gate name ({} when none)"),
  buttons: z.array(z.string()).nullable().describe("The buttons' values, in order; null when none"),
  message: z.string().optional().describe('The text shown, when it must stay the same too'),
});
export type ReplyExpectation = z.infer<typeof ReplyExpectationSchema>;

export const ConversationTestSchema = z.strictObject({
  format: z.literal(CONVERSATION_FORMAT),
  workflowId: z.string().min(1).max(200),
  flowVersion: WorkflowVersionSchema.describe('The version it was recorded on (a replay runs whatever version it is given)'),
  name: z.string().max(200).optional(),
  savedFrom: z.strictObject({ sessionId: z.string(), savedAt: z.string() }).optional(),
  context: z.record(z.string(), z.json()).optional().describe('What the host gave the session at start'),
  start: ReplyExpectationSchema.describe('The opening reply'),
  turns: z.array(z.strictObject({ turn: ReplayTurnSchema, expect: ReplyExpectationSchema })).max(MAX_CONVERSATION_TURNS),
});
export type ConversationTest = z.infer<typeof ConversationTestSchema>;

/** A conversation file that is not JSON or does not fit the format: says where. */
export class ConversationFileError extends GateflowError {
  override readonly name = 'ConversationFileError';
  readonly code = 'invalid_conversation';
  readonly status = 400;
}

export function parseConversationTest(text: string, source: string): ConversationTest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConversationFileError(`${source}: not JSON: ${(error as Error).message}`);
  }
  const parsed = ConversationTestSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConversationFileError(
      `${source}: not a ${CONVERSATION_FORMAT} conversation:\n${parsed.error.issues.map((i) => `  ${i.path.join('.') || '(top)'}: ${i.message}`).join('\n')}`,
    );
  return parsed.data;
}

/** What a reply shows, as a conversation test checks it. */
export function expectationOf(reply: ReplyEnvelope, options: { message?: boolean } = {}): ReplyExpectation {
  const answers = (reply as { answers?: Record<string, { value: unknown }> }).answers ?? {};
  return {
    state: reply.state,
    status: reply.status,
    answers: Object.fromEntries(Object.entries(answers).map(([name, a]) => [name, a.value as z.infer<ReturnType<typeof z.json>>])),
    buttons: reply.buttons === null ? null : reply.buttons.map((b) => b.value),
    ...(options.message && { message: reply.message }),
  };
}

/** A session's journal (oldest first, the opening reply first) as a conversation test. */
export function conversationOf(
  history: readonly { turn: JournalTurn | null; reply: ReplyEnvelope }[],
  options: { sessionId?: string; savedAt?: Date; name?: string } = {},
): ConversationTest {
  const opening = history[0];
  if (!opening) throw new ConversationFileError('the session has no history to save');
  return {
    format: CONVERSATION_FORMAT,
    workflowId: opening.reply.flowId,
    flowVersion: opening.reply.flowVersion,
    ...(options.name && { name: options.name }),
    ...(options.sessionId && { savedFrom: { sessionId: options.sessionId, savedAt: (options.savedAt ?? new Date()).toISOString() } }),
    start: expectationOf(opening.reply),
    turns: history.slice(1, MAX_CONVERSATION_TURNS + 1).map((e) => ({ turn: replayTurnOf(e.turn!), expect: expectationOf(e.reply) })),
  };
}

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

/** The first field where `got` differs from `expected` (message only when expected names one), or null. */
export function firstDifference(expected: ReplyExpectation, got: ReplyExpectation): { field: (typeof FIELDS)[number]; expected: unknown; got: unknown } | null {
  for (const field of FIELDS) {
    if (field === 'message' && expected.message === undefined) continue;
    if (!same(expected[field], got[field])) return { field, expected: expected[field], got: got[field] };
  }
  return null;
}

/**
 * Replays a conversation against a workflow (on a memory store, with the
 * given actors) and stops at the first difference. A turn the workflow
 * refuses (a button it no longer offers, a gate it no longer opens) is a
 * difference too, with the refusal as what came.
 */
export async function runConversation(
  workflow: Workflow,
  conversation: ConversationTest,
  options: { actors?: Record<string, AnyActorLogic>; message?: boolean } = {},
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
        const found = firstDifference(expected, expectationOf(reply, { message: options.message ?? expected.message !== undefined }));
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
