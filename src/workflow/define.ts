import type { AnyMachineSnapshot, AnyStateMachine, EventObject, Snapshot } from 'xstate';
import type { ButtonSchema, ReplyEnvelope, SessionStatus, WorkflowVersion } from './reply.js';
import type { Turn } from './turn.js';
import type { TurnEffects } from '../store/types.js';
import type { SessionIdentity, Workflow, WorkflowStep } from './types.js';
import type { z } from 'zod';

/** What a hand-written machine says about a state: the rest of the reply is filled in. */
export interface StateReply {
  message: string;
  buttons?: z.infer<typeof ButtonSchema>[] | null;
  artifacts?: ReplyEnvelope['artifacts'];
  /** Why the session is where it is; `awaiting_input` while active, `completed` when done, unless said. */
  reason?: string;
  readyForHandoff?: boolean;
  /** Overrides the status derived from the snapshot (e.g. `waiting`, `cancelled`). */
  status?: SessionStatus;
}

export interface DefineWorkflowOptions<TMachine extends AnyStateMachine> {
  id: string;
  version: WorkflowVersion;
  title?: string;
  /** The machine, pure: its I/O in actors named in `setup({ actors })`, which the host may replace. */
  machine: TMachine;
  /** How a turn becomes an event: `{ type: 'user.text', text }` and `{ type: 'user.button', value }` unless said. */
  toEvent?: (turn: Turn) => EventObject;
  /** What the person is shown in a state. */
  reply: (snapshot: ReturnType<TMachine['resolveState']>) => StateReply;
  input?: (context: Record<string, unknown> | undefined, session: SessionIdentity) => unknown;
  /** Writes that commit with each step (see `Workflow.effects`). */
  effects?: (step: WorkflowStep) => TurnEffects | null;
  isSettled?: (snapshot: AnyMachineSnapshot) => boolean;
  migrate?: (fromVersion: WorkflowVersion, snapshot: Snapshot<unknown>) => Snapshot<unknown>;
}

export type TurnEvent = { type: 'user.text'; text: string } | { type: 'user.button'; value: string };

/** The events a turn becomes unless a workflow says otherwise (a flow's too). */
export function defaultTurnEvent(turn: Turn): TurnEvent {
  return 'button' in turn ? { type: 'user.button', value: turn.button } : { type: 'user.text', text: turn.text };
}

/** The status a snapshot stands for: `done`, `failed` or `active`. */
export function statusOf(snapshot: AnyMachineSnapshot): SessionStatus {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.status === 'error') return 'failed';
  return 'active';
}

/**
 * A hand-written machine as a workflow: the host's actors replace the
 * machine's own (`machine.provide`), a turn becomes `user.text` or
 * `user.button`, and the reply envelope is built around what `reply` says.
 */
export function defineWorkflow<TMachine extends AnyStateMachine>(options: DefineWorkflowOptions<TMachine>): Workflow {
  const toEvent = options.toEvent ?? defaultTurnEvent;
  return {
    id: options.id,
    version: options.version,
    title: options.title ?? null,
    // Only the actors the machine names are provided: a host serves many workflows with one set of actors.
    machine: ({ actors }) => {
      const own = (options.machine.implementations as { actors: Record<string, unknown> }).actors;
      const mine = Object.fromEntries(Object.entries(actors).filter(([name]) => name in own));
      return Object.keys(mine).length ? options.machine.provide({ actors: mine }) : options.machine;
    },
    toEvent,
    ...(options.input && { input: options.input }),
    ...(options.isSettled && { isSettled: options.isSettled }),
    ...(options.migrate && { migrate: options.migrate }),
    ...(options.effects && { effects: options.effects }),
    reply: (snapshot, sessionId) => {
      const said = options.reply(snapshot as ReturnType<TMachine['resolveState']>);
      const status = said.status ?? statusOf(snapshot);
      const done = status === 'done' || status === 'cancelled' || status === 'failed';
      return {
        sessionId,
        flowId: options.id,
        flowVersion: options.version,
        state: snapshot.value as ReplyEnvelope['state'],
        status,
        message: said.message,
        buttons: said.buttons ?? null,
        artifacts: said.artifacts ?? [],
        completion: { isComplete: done, reason: said.reason ?? (done ? 'completed' : 'awaiting_input'), readyForHandoff: said.readyForHandoff ?? false },
      };
    },
  };
}
