import { z } from 'zod';
import { GateflowError } from '../error/gateflow-error.js';
import { replayTurnOf, ReplayTurnSchema } from '../runtime/replay.js';
import type { JournalTurn } from '../store/types.js';
import { SessionStatusSchema, WorkflowVersionSchema, type ReplyEnvelope } from '../workflow/reply.js';

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
 * holds the state value, the status, each answer's value by gate name, the
 * buttons' values (null: none) and `message`, the text shown: a change of
 * wording fails the test too. Messages are compared with their whitespace
 * normalised (runs of spaces and line breaks are one space; ends trimmed).
 * To not check a turn's wording, delete its `message`; `gateflow save-test
 * --no-messages` saves none (and `runConversation(..., { messages: false })`
 * checks none). Replaying one stops at the first difference: which turn,
 * which field, expected and got.
 */

export const CONVERSATION_FORMAT = 'gateflow.conversation/1';
/** The most turns a conversation test holds (a session's own bound). */
export const MAX_CONVERSATION_TURNS = 500;

export const ReplyExpectationSchema = z.strictObject({
  state: z.union([z.string(), z.record(z.string(), z.unknown())]).describe("The machine's state value"),
  status: SessionStatusSchema,
  answers: z.record(z.string(), z.json()).describe("Each answer's value by gate name ({} when none)"),
  buttons: z.array(z.string()).nullable().describe("The buttons' values, in order; null when none"),
  message: z.string().optional().describe('The text shown (compared with whitespace normalised); absent: the wording of this reply is not checked'),
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

/** A message as a conversation test compares it: runs of whitespace one space, ends trimmed (a reflowed line is not a change of wording). */
export function normalisedMessage(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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

/** A session's journal (oldest first, the opening reply first) as a conversation test; `messages: false` leaves the wording out. */
export function conversationOf(
  history: readonly { turn: JournalTurn | null; reply: ReplyEnvelope }[],
  options: { sessionId?: string; savedAt?: Date; name?: string; messages?: boolean } = {},
): ConversationTest {
  const message = options.messages ?? true;
  const opening = history[0];
  if (!opening) throw new ConversationFileError('the session has no history to save');
  return {
    format: CONVERSATION_FORMAT,
    workflowId: opening.reply.flowId,
    flowVersion: opening.reply.flowVersion,
    ...(options.name && { name: options.name }),
    ...(options.sessionId && { savedFrom: { sessionId: options.sessionId, savedAt: (options.savedAt ?? new Date()).toISOString() } }),
    start: expectationOf(opening.reply, { message }),
    turns: history.slice(1, MAX_CONVERSATION_TURNS + 1).map((e) => ({ turn: replayTurnOf(e.turn!), expect: expectationOf(e.reply, { message }) })),
  };
}
