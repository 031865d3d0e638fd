import { assign, fromPromise, setup } from 'xstate';
import { BUSY_TAG } from './tags.js';
import type { InputValue } from '../src/inputs/coerce.js';
import type { OpenInput } from '../src/inputs/gate.js';
import type { RuntimeEvent } from '../src/runtime/runtime.js';
import type { JournalTurn } from '../src/store/types.js';
import type { ReplyEnvelope } from '../src/workflow/reply.js';
import type { Turn } from '../src/workflow/turn.js';

/** A reply as the widget reads it: the envelope every workflow answers with, and a flow's button context when there is one. */
export type ChatReply = ReplyEnvelope & { buttonContext?: string | null };

/**
 * The chat widget's side of a conversation: starting or resuming a session,
 * sending one turn (or one answer to an input gate) at a time, failing and
 * retrying, following what others do to the session, finishing. Pure: the
 * transport calls are actors (`startSession`, `resumeSession`, `sendTurn`,
 * `answerInput`) provided by whoever runs it (`useConversation`).
 *
 * While the session waits for inputs, someone else may move it (a manager
 * answers a gate, a deadline passes, the session is cancelled): whoever runs
 * the machine listens to the session's events and sends `refresh` with each.
 * One that tells something the current reply does not show makes the machine
 * read the session again: at once when it is idle, or right after the
 * request under way.
 */

export interface TranscriptEntry {
  /** Stable within a session: `a<seq>` for assistant replies, `u<seq>` for the person. */
  id: string;
  role: 'assistant' | 'user';
  text: string;
}

/** An answer to one of the session's open gates, and how the transcript shows it. */
export interface PendingAnswer {
  gateId: string;
  value: InputValue;
  label: string;
}

export interface ChatSessionContext {
  flowId: string;
  sessionId: string | null;
  reply: ChatReply | null;
  transcript: TranscriptEntry[];
  /** The turn being sent (kept while failed so that retry sends the very same turn). */
  pending: (Turn & { turnId: string; label: string }) | null;
  /** The gate answer being sent (kept while failed, like `pending`). */
  answering: PendingAnswer | null;
  /** The last answer the server refused (`invalid_input_value`): shown beside its gate, which stays open. */
  inputError: { gateId: string; message: string } | null;
  /** Something happened to the session while a request was under way: read it again once that is done. */
  stale: boolean;
  error: { code: string; message: string } | null;
}

export type ChatSessionEvent =
  | { type: 'send'; turn: Turn & { turnId: string }; label: string }
  | ({ type: 'answer' } & PendingAnswer)
  /** The session may have changed elsewhere: `event` says what happened (none: anything may have, e.g. the events stream reconnected). */
  | { type: 'refresh'; event?: RuntimeEvent }
  | { type: 'retry' }
  | { type: 'restart' };

export interface SessionStarted {
  sessionId: string;
  reply: ChatReply;
}
export interface SessionResumed {
  reply: ChatReply;
  /** Each step's cause (a person's turn, a gate answered, a deadline, a cancel) and the reply it gave. */
  history: { turn: JournalTurn | null; reply: ChatReply }[];
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

const errorCode = (event: unknown) => describeError((event as { error?: unknown }).error).code;

const assistant = (reply: ChatReply, seq: number): TranscriptEntry => ({ id: `a${seq}`, role: 'assistant', text: reply.message });

/**
 * The transcript a session's history stands for: the person's turns, their
 * answers to gates addressed to them, and every reply. Answers by others,
 * deadlines and cancels show as replies alone, and only when the reply says
 * something new. A gate answered (by anyone) that leaves the session waiting
 * where it was adds no reply: its message differs only in the list of what
 * is still awaited, which the widget shows apart, so it is not shown a
 * second time.
 */
export function transcriptOf(history: SessionResumed['history']): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const [seq, { turn, reply }] of history.entries()) {
    const before = history[seq - 1]?.reply;
    const said = turn === null ? null : personSaid(turn, before);
    if (said !== null) entries.push({ id: `u${seq}`, role: 'user', text: said });
    // A gate answered (by the person from its form, or by others) that leaves the session waiting where it was: the answer is the news.
    const quiet = (said === null || (turn !== null && 'input' in turn)) && stillWaiting(before, reply);
    if (!quiet && (said !== null || !repeats(entries, reply))) entries.push(assistant(reply, seq));
  }
  return entries;
}

/** Whether a reply leaves the session waiting in the state it waited in before. */
const stillWaiting = (before: ChatReply | undefined, reply: ChatReply) =>
  before?.status === 'waiting' && reply.status === 'waiting' && JSON.stringify(before.state) === JSON.stringify(reply.state);

/** What the person said or chose in a step, as the transcript shows it; null for steps that were not theirs. */
function personSaid(turn: JournalTurn, before: ChatReply | undefined): string | null {
  if ('text' in turn) return turn.text;
  if ('button' in turn) return labelOf(turn.button, before);
  if ('input' in turn) {
    const gate = before?.inputs?.find((g) => g.gateId === turn.input);
    return gate && gate.to === null ? answerLabel(gate, turn.value) : null;
  }
  return null;
}

/** Whether a reply would only repeat the last message shown. */
const repeats = (entries: TranscriptEntry[], reply: ChatReply) => entries.at(-1)?.role === 'assistant' && entries.at(-1)?.text === reply.message;

/** The label of a pressed button, from the reply that offered it. */
function labelOf(value: string, offeredBy: ChatReply | undefined): string {
  return offeredBy?.buttons?.find((b) => b.value === value)?.label ?? value;
}

/** A gate's value as the person would say it: an option's label (Yes, No, an enum's label), else the value as text. */
export function answerLabel(gate: Pick<OpenInput, 'options'>, value: InputValue): string {
  const option = gate.options?.find((o) => o.value === value);
  if (option) return option.label;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Whether an event of the session tells something its current reply does not
 * show: a gate opened that it does not list, one it lists answered, timed out
 * or closed, the session ended while the reply says it goes on.
 */
export function isNews(reply: ChatReply | null, event: RuntimeEvent | undefined): boolean {
  if (!event || !reply) return true;
  const listed = (reply.inputs ?? []).some((g) => g.gateId === event.gateId);
  switch (event.type) {
    case 'input.opened':
      return !listed;
    case 'input.answered':
    case 'input.timed_out':
    case 'input.closed':
      return listed;
    case 'session.finished':
      return !reply.completion.isComplete;
    case 'session.cancelled':
      return reply.status !== 'cancelled';
    default:
      return true;
  }
}

/**
 * The transcript read again after someone else moved the session: the
 * entries already shown keep their ids (nothing on screen is replaced, so
 * nothing is announced twice) and the new ones are added after them.
 */
export function mergeTranscript(shown: TranscriptEntry[], fresh: TranscriptEntry[]): TranscriptEntry[] {
  const same = shown.length <= fresh.length && shown.every((e, i) => e.role === fresh[i]!.role && e.text === fresh[i]!.text);
  return same ? [...shown, ...fresh.slice(shown.length)] : fresh;
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
    answerInput: notProvided('answerInput') as unknown as ReturnType<typeof fromPromise<ChatReply, { gateId: string; value: InputValue }>>,
  },
  guards: {
    hasSession: ({ context }) => context.sessionId !== null,
    hasPending: ({ context }) => context.pending !== null,
    hasAnswer: ({ context }) => context.answering !== null,
    isComplete: ({ context }) => context.reply?.completion.isComplete === true,
    isStale: ({ context }) => context.stale,
    /** A `refresh` that tells something the reply does not show. */
    news: ({ context, event }) => event.type === 'refresh' && isNews(context.reply, event.event),
    /** The stored session is gone (or not ours): start a new one rather than fail. */
    sessionGone: ({ event }) => errorCode(event) === 'session_not_found',
    /** The session ended elsewhere (cancelled, say) before this turn: read it to show how. */
    sessionEnded: ({ event }) => errorCode(event) === 'session_finished',
    /** The server refused the value; the gate is still open. */
    valueRefused: ({ event }) => errorCode(event) === 'invalid_input_value',
    /** The gate was answered, timed out or closed meanwhile (by someone else): read the session again. */
    gateGone: ({ event }) => ['input_closed', 'input_not_found'].includes(errorCode(event)),
  },
  actions: {
    fail: assign({ error: ({ event }) => describeError((event as { error?: unknown }).error) }),
    markStale: assign({ stale: true }),
    queueTurn: assign(({ context, event }) => {
      if (event.type !== 'send') return {};
      return {
        pending: { ...event.turn, label: event.label },
        transcript: [...context.transcript, { id: `u${event.turn.turnId}`, role: 'user' as const, text: event.label }],
        error: null,
      };
    }),
    queueAnswer: assign(({ event }) => (event.type === 'answer' ? { answering: { gateId: event.gateId, value: event.value, label: event.label }, error: null } : {})),
  },
}).createMachine({
  id: 'chatSession',
  context: ({ input }) => ({
    flowId: input.flowId,
    sessionId: input.sessionId ?? null,
    reply: null,
    transcript: [],
    pending: null,
    answering: null,
    inputError: null,
    stale: false,
    error: null,
  }),
  initial: 'opening',
  on: {
    restart: {
      target: '.creating',
      actions: assign({ sessionId: null, reply: null, transcript: [], pending: null, answering: null, inputError: null, stale: false, error: null }),
    },
    // While a request is under way (or after a failure): remembered, and the session read after it.
    refresh: { guard: 'news', actions: 'markStale' },
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
      entry: assign({ stale: false }),
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
      always: [{ guard: 'isStale', target: 'refreshing' }, { guard: 'isComplete', target: 'finished' }, { target: 'ready' }],
    },
    ready: {
      on: {
        send: { target: 'sending', actions: 'queueTurn' },
        answer: { target: 'answering', actions: 'queueAnswer' },
        refresh: { guard: 'news', target: 'refreshing' },
      },
    },
    /**
     * Reading the session again after someone else moved it. Not busy: the
     * person may go on meanwhile; a turn or an answer sent now goes first
     * (this read is dropped, and done again after it).
     */
    refreshing: {
      entry: assign({ stale: false }),
      invoke: {
        src: 'resumeSession',
        input: ({ context }) => ({ sessionId: context.sessionId! }),
        onDone: {
          target: 'settled',
          actions: assign(({ context, event }) => ({
            reply: event.output.reply,
            transcript: mergeTranscript(context.transcript, transcriptOf(event.output.history)),
            // A refused value stays shown while its gate is still open.
            inputError: event.output.reply.inputs?.some((g) => g.gateId === context.inputError?.gateId) ? context.inputError : null,
            error: null,
          })),
        },
        onError: { target: 'failed', actions: 'fail' },
      },
      on: {
        send: { target: 'sending', actions: ['queueTurn', 'markStale'] },
        answer: { target: 'answering', actions: ['queueAnswer', 'markStale'] },
        // Read anyway once this read is done.
        refresh: { guard: 'news', actions: 'markStale' },
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
        onError: [
          // Not taken: the turn leaves the transcript, and the session is read to show how it ended.
          {
            guard: 'sessionEnded',
            target: 'refreshing',
            actions: assign(({ context }) => ({ transcript: context.transcript.filter((e) => e.id !== `u${context.pending!.turnId}`), pending: null })),
          },
          { target: 'failed', actions: 'fail' },
        ],
      },
    },
    answering: {
      tags: [BUSY_TAG],
      invoke: {
        src: 'answerInput',
        input: ({ context }) => ({ gateId: context.answering!.gateId, value: context.answering!.value }),
        onDone: {
          target: 'settled',
          actions: assign(({ context, event }) => {
            const { gateId, label } = context.answering!;
            return {
              reply: event.output,
              // As transcriptOf shows it: the answer, and the reply only when the session moved on.
              transcript: [
                ...context.transcript,
                { id: `ui${gateId}`, role: 'user' as const, text: label },
                ...(stillWaiting(context.reply ?? undefined, event.output) ? [] : [{ ...assistant(event.output, 0), id: `ai${gateId}` }]),
              ],
              answering: null,
              inputError: null,
              error: null,
            };
          }),
        },
        onError: [
          {
            guard: 'valueRefused',
            target: 'settled',
            actions: assign(({ context, event }) => ({
              inputError: { gateId: context.answering!.gateId, message: describeError(event.error).message },
              answering: null,
            })),
          },
          { guard: 'gateGone', target: 'refreshing', actions: assign({ answering: null, inputError: null }) },
          { target: 'failed', actions: 'fail' },
        ],
      },
    },
    failed: {
      on: {
        // The same turn (same turnId) again: the server applies it at most once. An answer sent
        // again that was taken the first time is refused as closed, and the session read again.
        retry: [
          { guard: 'hasPending', target: 'sending' },
          { guard: 'hasAnswer', target: 'answering' },
          { guard: 'hasSession', target: 'resuming' },
          { target: 'creating' },
        ],
      },
    },
    finished: {},
  },
});

export type ChatSessionMachine = typeof chatSessionMachine;
