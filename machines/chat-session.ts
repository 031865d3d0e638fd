import { assign, fromPromise, setup } from 'xstate';
import { BUSY_TAG } from './tags.js';
import type { ReplyEnvelope } from '../src/workflow/reply.js';
import type { Turn } from '../src/workflow/turn.js';

/** A reply as the widget reads it: the envelope every workflow answers with, and a flow's button context when there is one. */
export type ChatReply = ReplyEnvelope & { buttonContext?: string | null };

/**
 * The chat widget's side of a conversation: starting or resuming a session,
 * sending one turn at a time, failing and retrying, finishing. Pure: the
 * transport calls are actors (`startSession`, `resumeSession`, `sendTurn`)
 * provided by whoever runs it (`useConversation`).
 */

export interface TranscriptEntry {
  /** Stable within a session: `a<seq>` for assistant replies, `u<seq>` for the person. */
  id: string;
  role: 'assistant' | 'user';
  text: string;
}

export interface ChatSessionContext {
  flowId: string;
  sessionId: string | null;
  reply: ChatReply | null;
  transcript: TranscriptEntry[];
  /** The turn being sent (kept while failed so that retry sends the very same turn). */
  pending: (Turn & { turnId: string; label: string }) | null;
  error: { code: string; message: string } | null;
}

export type ChatSessionEvent =
  | { type: 'send'; turn: Turn & { turnId: string }; label: string }
  | { type: 'retry' }
  | { type: 'restart' };

export interface SessionStarted {
  sessionId: string;
  reply: ChatReply;
}
export interface SessionResumed {
  reply: ChatReply;
  history: { turn: Turn | null; reply: ChatReply }[];
}

const notProvided = (name: string) =>
  fromPromise<never, unknown>(async () => {
    throw new Error(`chat session: provide the "${name}" actor`);
  });

/** An error a transport raised, as the widget shows it. */
export function describeError(error: unknown): { code: string; message: string } {
  const e = error as { code?: unknown; message?: unknown } | null;
  return {
    code: typeof e?.code === 'string' ? e.code : 'network',
    message: typeof e?.message === 'string' ? e.message : String(error),
  };
}

const assistant = (reply: ChatReply, seq: number): TranscriptEntry => ({ id: `a${seq}`, role: 'assistant', text: reply.message });

/** The transcript a session's history stands for: the person's turns and every reply. */
export function transcriptOf(history: SessionResumed['history']): TranscriptEntry[] {
  return history.flatMap(({ turn, reply }, seq) => [
    ...(turn ? [{ id: `u${seq}`, role: 'user' as const, text: 'text' in turn ? turn.text : labelOf(reply, turn.button, history[seq - 1]?.reply) }] : []),
    assistant(reply, seq),
  ]);
}

/** The label of a pressed button, from the reply that offered it. */
function labelOf(_reply: ChatReply, value: string, offeredBy: ChatReply | undefined): string {
  return offeredBy?.buttons?.find((b) => b.value === value)?.label ?? value;
}

export const chatSessionMachine = setup({
  types: {
    context: {} as ChatSessionContext,
    events: {} as ChatSessionEvent,
    input: {} as { flowId: string; sessionId?: string | null },
  },
  actors: {
    startSession: notProvided('startSession') as unknown as ReturnType<typeof fromPromise<SessionStarted, { flowId: string }>>,
    resumeSession: notProvided('resumeSession') as unknown as ReturnType<typeof fromPromise<SessionResumed, { sessionId: string }>>,
    sendTurn: notProvided('sendTurn') as unknown as ReturnType<typeof fromPromise<ChatReply, { sessionId: string; turn: Turn }>>,
  },
  guards: {
    hasSession: ({ context }) => context.sessionId !== null,
    hasPending: ({ context }) => context.pending !== null,
    isComplete: ({ context }) => context.reply?.completion.isComplete === true,
    /** The stored session is gone (or not ours): start a new one rather than fail. */
    sessionGone: ({ event }) => describeError((event as { error?: unknown }).error).code === 'session_not_found',
  },
  actions: {
    fail: assign({ error: ({ event }) => describeError((event as { error?: unknown }).error) }),
  },
}).createMachine({
  id: 'chatSession',
  context: ({ input }) => ({
    flowId: input.flowId,
    sessionId: input.sessionId ?? null,
    reply: null,
    transcript: [],
    pending: null,
    error: null,
  }),
  initial: 'opening',
  on: {
    restart: {
      target: '.creating',
      actions: assign({ sessionId: null, reply: null, transcript: [], pending: null, error: null }),
    },
  },
  states: {
    opening: {
      always: [{ guard: 'hasSession', target: 'resuming' }, { target: 'creating' }],
    },
    creating: {
      tags: [BUSY_TAG],
      invoke: {
        src: 'startSession',
        input: ({ context }) => ({ flowId: context.flowId }),
        onDone: {
          target: 'settled',
          actions: assign(({ event }) => ({
            sessionId: event.output.sessionId,
            reply: event.output.reply,
            transcript: [assistant(event.output.reply, 0)],
            error: null,
          })),
        },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    resuming: {
      tags: [BUSY_TAG],
      invoke: {
        src: 'resumeSession',
        input: ({ context }) => ({ sessionId: context.sessionId! }),
        onDone: {
          target: 'settled',
          actions: assign(({ event }) => ({
            reply: event.output.reply,
            transcript: transcriptOf(event.output.history),
            error: null,
          })),
        },
        onError: [
          { guard: 'sessionGone', target: 'creating', actions: assign({ sessionId: null }) },
          { target: 'failed', actions: 'fail' },
        ],
      },
    },
    settled: {
      always: [{ guard: 'isComplete', target: 'finished' }, { target: 'ready' }],
    },
    ready: {
      on: {
        send: {
          target: 'sending',
          actions: assign(({ context, event }) => ({
            pending: { ...event.turn, label: event.label },
            transcript: [...context.transcript, { id: `u${event.turn.turnId}`, role: 'user' as const, text: event.label }],
            error: null,
          })),
        },
      },
    },
    sending: {
      tags: [BUSY_TAG],
      invoke: {
        src: 'sendTurn',
        input: ({ context }) => {
          const { label: _label, ...turn } = context.pending!;
          return { sessionId: context.sessionId!, turn };
        },
        onDone: {
          target: 'settled',
          actions: assign(({ context, event }) => ({
            reply: event.output,
            transcript: [...context.transcript, { ...assistant(event.output, 0), id: `a${context.pending!.turnId}` }],
            pending: null,
            error: null,
          })),
        },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    failed: {
      on: {
        // The same turn (same turnId) again: the server applies it at most once.
        retry: [
          { guard: 'hasPending', target: 'sending' },
          { guard: 'hasSession', target: 'resuming' },
          { target: 'creating' },
        ],
      },
    },
    finished: {},
  },
});

export type ChatSessionMachine = typeof chatSessionMachine;
