import { z } from 'zod';
import { GateflowError } from '../error/gateflow-error.js';
import type { JournalTurn } from '../store/types.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import { TurnSchema } from '../workflow/turn.js';
import type { Caller, Runtime } from './runtime.js';

/**
 * What one step of a recorded conversation did, without the ids of the
 * session it happened in: a person's turn, a gate answered (by its name), the
 * deadlines that passed, a cancel. Journal turns map onto it
 * ({@link replayTurnOf}); saved conversation tests are written in it.
 */
export const ReplayTurnSchema = z.union([
  TurnSchema,
  z.strictObject({
    input: z.string().min(1).max(200).describe("The name of the gate answered (the session's open input of that name)"),
    value: z.json().describe('The value it was answered with'),
    by: z.string().max(256).nullable().optional().describe('Who answered it (a JWT subject, `deadline`), when recorded'),
  }),
  z.strictObject({ timeout: z.literal(true).describe('The open deadlines passed') }),
  z.strictObject({ cancel: z.literal(true).describe('The session was cancelled') }),
]);
export type ReplayTurn = z.infer<typeof ReplayTurnSchema>;

/** A journal's turn as a replay takes it: the gate by its name (the id belonged to the recorded session). */
export function replayTurnOf(turn: JournalTurn): ReplayTurn {
  if ('text' in turn) return { text: turn.text };
  if ('button' in turn) return { button: turn.button };
  if ('input' in turn) return { input: turn.name, value: turn.value, ...(turn.by !== null && { by: turn.by }) };
  if ('timeout' in turn) return { timeout: true };
  return { cancel: true };
}

/** A replay cannot take a step: the gate it answers is not open, a deadline it passes is not set. */
export class ReplayStepError extends GateflowError {
  override readonly name = 'ReplayStepError';
  readonly code = 'replay_failed';
  readonly status = 409;
  constructor(
    readonly step: number,
    message: string,
  ) {
    super(`step ${step}: ${message}`);
  }
}

export interface ReplayOptions<TReply extends ReplyEnvelope> {
  /** The session's owner (the answers are given in their name, and as the role a gate is addressed to). */
  owner?: string | null;
  /** What the host gave at start. */
  context?: Record<string, unknown>;
  /**
   * Moves the runtime's clock to a time (a deadline step needs time to pass);
   * without it, a recorded deadline cannot be replayed.
   */
  setClock?: (at: Date) => void;
  /**
   * Called with each step's reply (step 1 is the opening reply); returning
   * false stops the replay there (a difference found, the fork point reached).
   */
  onStep?: (step: number, reply: TReply) => boolean | void;
}

/**
 * Replays a conversation through a runtime: starts a session of the
 * workflow, then applies each turn as it was taken (texts and buttons as
 * turns, answers to the open gate of the same name, deadlines by moving the
 * clock past the earliest one, a cancel). Returns the new session and the
 * reply of every step taken.
 */
export async function replayConversation<TReply extends ReplyEnvelope>(
  runtime: Runtime<TReply>,
  workflowId: string,
  turns: readonly ReplayTurn[],
  options: ReplayOptions<TReply> = {},
): Promise<{ sessionId: string; replies: TReply[] }> {
  const owner = options.owner ?? null;
  const caller: Caller = { owner };
  const started = await runtime.start(workflowId, caller, options.context ? { context: options.context } : {});
  const replies = [started.reply];
  if (options.onStep?.(1, started.reply) === false) return { sessionId: started.sessionId, replies };
  let reply = started.reply;
  for (const [i, turn] of turns.entries()) {
    const step = i + 2;
    if ('text' in turn || 'button' in turn) reply = await runtime.turn(started.sessionId, turn, caller);
    else if ('input' in turn) {
      const gate = reply.inputs?.find((g) => g.name === turn.input);
      if (!gate) throw new ReplayStepError(step, `no open input named "${turn.input}" to answer (open: ${(reply.inputs ?? []).map((g) => g.name).join(', ') || 'none'})`);
      reply = await runtime.answer(gate.gateId, turn.value, { owner, roles: gate.to === null ? [] : [gate.to] });
    } else if ('timeout' in turn) {
      const due = (reply.inputs ?? []).map((g) => g.deadline).filter((d): d is string => d !== null).sort()[0];
      if (due === undefined || !options.setClock) throw new ReplayStepError(step, due === undefined ? 'a deadline passed, but no open input has one' : 'a deadline passed, and this replay cannot move its clock');
      options.setClock(new Date(due));
      await runtime.fireDeadlines();
      reply = (await runtime.session(started.sessionId, caller, { after: 0, limit: 1 })).reply;
    } else reply = await runtime.cancel(started.sessionId, caller);
    replies.push(reply);
    if (options.onStep?.(step, reply) === false) break;
  }
  return { sessionId: started.sessionId, replies };
}
