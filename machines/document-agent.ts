import { assign, fromPromise, setup } from 'xstate';
import { BUSY_TAG } from './tags.js';
import type { InputSpec } from '../src/inputs/spec.js';
import type { InputAnsweredEvent, InputTimedOutEvent } from '../src/inputs/events.js';
import { isCancelWord } from './cancel-words.js';
import type { AgentDecision, DocumentBrief, EditOperation, HistoryMessage, ProjectBrief } from '../src/document-agent/schemas.js';
import {
  WEB_SEARCH_UNAVAILABLE,
  cancelledReply,
  confirmationReply,
  conflictReply,
  createFailedReply,
  createdReply,
  documentChoices,
  droppedNote,
  duplicateReply,
  failedReply,
  actLimitWords,
  sectionNotFoundReply,
  timeLimitReply,
  timedOutReply,
  updatedReply,
  webSearchFailedNote,
} from './document-agent-replies.js';

/**
 * The document agent of seed 002 as a statechart. One session is one chat;
 * each message runs: load the context → decide → one of clarify, confirm,
 * search, create, edit, converse → format → store the reply → publish the
 * event. A confirmation and a duplicate name wait for the person (input
 * gates with buttons) after the reply that asks.
 *
 * Pure: the store, the model and the web are actors the host provides
 * (src/document-agent/actors.ts); the defaults here refuse. Nothing is
 * written while a message runs: `store_reply` and `publish` put the message's
 * writes (the person's and the agent's messages, the document created or
 * changed, the event) in `outbox`, and the workflow (src/document-agent/workflow.ts)
 * commits them in the transaction that saves the snapshot, so a crash or a
 * refused write leaves neither half done.
 */

// ── What the actors take and give ───────────────────────────────────────────

/**
 * What one act may spend. An act is one message of the person's (or their
 * answer to a confirmation or a choice) from its first actor to the reply;
 * reaching a limit ends it with an honest reply (what was done, what was
 * not), nothing of it written but the two messages and the event.
 */
export interface ActLimits {
  /** Wall time of one act, in ms: a model call or a web search under way is stopped at it. */
  maxActMs: number;
}
/** One minute: the seed's two model calls of 30 s each at most, and no more. */
export const DEFAULT_ACT_LIMITS: Readonly<ActLimits> = { maxActMs: 60_000 };

/**
 * What an actor is told of the act's time: when its clock started (null: this
 * actor is the act's first and starts it), how long the act may last, and the
 * limit in words. Absent (actors a test provides): no limit.
 */
export interface ActTime {
  startedAt: number | null;
  ms: number;
  limit: string;
}
/** What the host's actors report with their output: when the act's clock started (ms since the epoch, by the actors' clock). */
export interface ActClock {
  startedAt?: number;
}
/**
 * Where an act can be when its time runs out: the actor under way, the
 * context load included (a store read: the act stops waiting for it at the
 * limit and drops its late result; on PGlite the statement itself runs to its
 * end). The commit that ends the act is not a stage: see
 * src/document-agent/workflow.ts for why it is never cut at the limit.
 */
export type ActStage = 'load' | 'decide' | 'search' | 'create' | 'edit' | 'converse';

/** What `loadContext` reads (seed 3a, 2c): the project, its documents (large ones cut), the last 10 messages. */
export interface LoadedContext {
  chatId: number;
  project: ProjectBrief;
  documents: DocumentBrief[];
  history: HistoryMessage[];
  /** The document the person has open (the API's `document_id`), if any. */
  focusDocumentId: number | null;
}
export interface LoadContextInput {
  /** The act's time (absent: unbounded, as for actors a test provides). */
  time?: ActTime;
  owner: string | null;
  projectId: number;
  sessionId: string;
}

export interface DecideInput {
  /** The act's time (absent: unbounded, as for actors a test provides). */
  time?: ActTime;
  message: string;
  context: LoadedContext;
}
/** The decision, a change the offline reader could make without a model, and the model calls it took (0 or 1). */
export interface DecideOutput {
  decision: AgentDecision;
  edit: EditOperation | null;
  modelCalls: number;
}

export interface SearchInput {
  /** The act's time (absent: unbounded, as for actors a test provides). */
  time?: ActTime;
  query: string;
}
/** Results as Markdown; `performed` false with a note when no search could be made. */
export interface SearchOutcome {
  performed: boolean;
  results: string | null;
  note: string | null;
}

export interface CreateInput {
  /** The act's time (absent: unbounded, as for actors a test provides). */
  time?: ActTime;
  owner: string | null;
  projectId: number;
  message: string;
  decision: AgentDecision;
  documents: readonly { id: number; name: string }[];
  searchResults: string | null;
}
/** A document ready to be created (written with the message), or why not. */
export type CreateOutcome =
  | { ok: true; name: string; content: string; standingInstruction: string }
  | { ok: false; reason: 'duplicate'; name: string; existing: { id: number; name: string }; proposedName: string; content: string; standingInstruction: string }
  | { ok: false; reason: 'invalid'; message: string };

export interface EditInput {
  /** The act's time (absent: unbounded, as for actors a test provides). */
  time?: ActTime;
  owner: string | null;
  projectId: number;
  message: string;
  decision: AgentDecision;
  edit: EditOperation | null;
  documents: readonly { id: number; name: string }[];
  searchResults: string | null;
}
/** The new content and the version it was made from (checked when it is saved), or why there is none. */
export type EditOutcome =
  | { ok: true; documentId: number; name: string; expectedVersion: number; content: string; append?: string; modelCalls: number }
  | { ok: false; reason: 'unknown_document'; modelCalls: number }
  | { ok: false; reason: 'conflict'; name: string; modelCalls: number }
  | { ok: false; reason: 'section_not_found'; name: string; heading: string; sections: string[]; modelCalls: number };

export interface ConverseInput {
  /** The act's time (absent: unbounded, as for actors a test provides). */
  time?: ActTime;
  message: string;
  decision: AgentDecision;
  context: LoadedContext;
}
export interface ConverseOutput {
  text: string;
  modelCalls: number;
}

// ── The context ─────────────────────────────────────────────────────────────

/** How a message ended: what `format` words and the event reports. */
export type MessageOutcome =
  | { kind: 'clarify'; question: string }
  | { kind: 'confirm'; prompt: string }
  | { kind: 'created'; name: string }
  | { kind: 'duplicate'; name: string; proposedName: string }
  | { kind: 'create_failed'; reason: string }
  | { kind: 'updated'; documentId: number; name: string }
  | { kind: 'conflict'; name: string }
  | { kind: 'section_not_found'; name: string; heading: string; sections: string[] }
  | { kind: 'conversed'; text: string }
  | { kind: 'cancelled'; intent: string | null }
  | { kind: 'timed_out'; intent: string | null }
  /** The act reached its time limit (`limit`, in words) while `stage` was under way. */
  | { kind: 'time_limit'; stage: ActStage; limit: string }
  | { kind: 'failed'; stage: 'load' | 'decide' | 'create' | 'edit' | 'converse'; message: string; code: string | null };

/** A document change a message makes, committed with it. */
export type DocumentWrite =
  | { kind: 'create'; projectId: number; name: string; content: string; standingInstruction: string }
  /** `append`: the text added at the end, added again to a newer version when the document moved before the save. */
  | { kind: 'update'; documentId: number; name: string; expectedVersion: number; content: string; append?: string };

/** What the agent waits on the person for: an announced action, or the choice after a duplicate name. */
export type Pending =
  | { kind: 'confirm'; decision: AgentDecision; edit: EditOperation | null }
  | { kind: 'duplicate'; decision: AgentDecision; existing: { id: number; name: string }; proposedName: string; content: string; standingInstruction: string };

/** The seed's step 5 message metadata, step 6 event: everything one message writes. */
export interface Outbox {
  /** Which message of the chat this is (`messageNo`): the workflow writes each outbox once. */
  messageNo: number;
  chatId: number | null;
  /** The two messages, none when the message failed (a failure writes nothing but its event). */
  user: { content: string } | null;
  assistant: { content: string; metadata: Record<string, unknown> } | null;
  write: DocumentWrite | null;
  /** AgentActionCompletedEvent: filled by `publish`. */
  event: { success: boolean; documentId: number | null; metadata: Record<string, unknown> } | null;
}

export interface DocumentAgentContext {
  owner: string | null;
  projectId: number;
  sessionId: string;
  /** Messages handled in this chat; the outbox belongs to the last. */
  messageNo: number;
  /** The request being worked on (kept while a confirmation waits). */
  message: string | null;
  /** What the person said this message: the request, or the button they chose. */
  said: string | null;
  loaded: LoadedContext | null;
  decision: AgentDecision | null;
  edit: EditOperation | null;
  /** Model calls this message (the seed allows two). */
  modelCalls: number;
  confirmed: boolean;
  search: SearchOutcome | null;
  outcome: MessageOutcome | null;
  pending: Pending | null;
  /** The pending request a new one replaced, said in the reply. */
  dropped: string | null;
  write: DocumentWrite | null;
  reply: string | null;
  outbox: Outbox | null;
  /** How long a confirmation or a choice waits (ISO 8601 duration). */
  answerWithin: string;
  /** The act's limits (absent in snapshots saved before they were kept: the defaults). */
  actLimits?: ActLimits;
  /** When this act's clock started (its first actor's start), null before. */
  actStartedAt?: number | null;
}

export interface DocumentAgentInput {
  owner?: string | null;
  projectId: number;
  sessionId: string;
  answerWithin?: string;
  actLimits?: Partial<ActLimits>;
}

export type DocumentAgentEvent = { type: 'user.text'; text: string } | { type: 'user.button'; value: string } | InputAnsweredEvent | InputTimedOutEvent;

export const DEFAULT_ANSWER_WITHIN = 'PT1H';
export const PROCEED = 'proceed';
export const CANCEL = 'cancel';
export const ADD_TO_EXISTING = 'add_to_existing';
export const CREATE_NEW = 'create_new';

// ── Pure parts ──────────────────────────────────────────────────────────────

/** The time the next actor of this act has: the act's limit, from its clock's start (see `ActTime`). */
export function actTime(context: Pick<DocumentAgentContext, 'actLimits' | 'actStartedAt'>): ActTime {
  const { maxActMs } = { ...DEFAULT_ACT_LIMITS, ...context.actLimits };
  return { startedAt: context.actStartedAt ?? null, ms: maxActMs, limit: actLimitWords(maxActMs) };
}

/** An actor's failure that is the act's time running out (src/document-agent/errors.ts's ActTimeUp, a GoalTimeUp), told by its shape: machines import no values of src/. */
const timeUpOf = (error: unknown): string | null => {
  const e = error as { name?: unknown; limit?: unknown } | null;
  return e?.name === 'GoalTimeUp' && typeof e.limit === 'string' ? e.limit : null;
};

/** The intent a pending action announced, for "cancelled" and "dropped". */
export const pendingIntent = (p: Pending | null): string | null =>
  !p ? null : p.kind === 'duplicate' ? `create '${p.decision.document_name ?? p.existing.name}'` : (p.decision.intent_statement ?? p.decision.confirmation_prompt);

/** The gate a waiting state opens: Proceed / Cancel, or the two choices of 4d. New words are passed on (a new request). */
export function pendingInputs(context: DocumentAgentContext): InputSpec[] {
  const p = context.pending;
  if (!p) return [];
  const description = (context.reply ?? '').slice(0, 500) || undefined;
  if (p.kind === 'confirm')
    return [
      {
        name: 'confirmation',
        type: 'enum',
        options: [
          { label: 'Proceed', value: PROCEED },
          { label: 'Cancel', value: CANCEL },
        ],
        passOtherText: true,
        deadline: context.answerWithin,
        ...(description && { description }),
      },
    ];
  return [
    {
      name: 'duplicate_choice',
      type: 'enum',
      options: [
        { label: `Add this content to '${p.existing.name}'`.slice(0, 200), value: ADD_TO_EXISTING },
        { label: `Create '${p.proposedName}' instead`.slice(0, 200), value: CREATE_NEW },
      ],
      passOtherText: true,
      deadline: context.answerWithin,
      ...(description && { description }),
    },
  ];
}

/** Step 4: the reply for how the message ended (4a–4f), with the notes on search and a dropped request. */
export function formatReply(context: DocumentAgentContext): string {
  const o = context.outcome;
  const searched = context.search?.performed === true;
  let text: string;
  switch (o?.kind) {
    case 'clarify':
      text = o.question;
      break;
    case 'confirm':
      text = o.prompt;
      break;
    case 'created':
      text = createdReply(o.name, context.decision?.content_summary ?? null, searched);
      break;
    case 'duplicate':
      text = duplicateReply(o.name);
      break;
    case 'create_failed':
      text = createFailedReply(o.reason);
      break;
    case 'updated':
      text = updatedReply(o.name, context.decision, searched);
      break;
    case 'conflict':
      text = conflictReply(o.name);
      break;
    case 'section_not_found':
      text = sectionNotFoundReply(o.name, o.heading, o.sections);
      break;
    case 'conversed':
      text = o.text;
      break;
    case 'cancelled':
      text = cancelledReply(o.intent);
      break;
    case 'timed_out':
      text = timedOutReply(o.intent);
      break;
    case 'time_limit':
      text = timeLimitReply({ limit: o.limit, stage: o.stage, decision: context.decision, searched: context.search?.performed ? (context.decision?.search_query?.trim() ?? null) : null, documents: namesOf(context) });
      break;
    case 'failed':
      text = failedReply(o.message);
      break;
    default:
      text = failedReply('the request ended without an outcome');
  }
  // A dropped request is said first; a search that could not be made, last.
  const before = context.dropped ? `${droppedNote(context.dropped)}\n\n` : '';
  const after = context.search && !context.search.performed ? `\n\n${context.search.note ?? WEB_SEARCH_UNAVAILABLE}` : '';
  return before + text + after;
}

/** Step 5's metadata (the seed's fields). */
export function messageMetadata(context: DocumentAgentContext): Record<string, unknown> {
  const o = context.outcome;
  return {
    decision: context.decision,
    web_search_performed: context.search?.performed === true,
    document_updated: o?.kind === 'updated',
    needs_clarification: o?.kind === 'clarify',
    pending_confirmation: o?.kind === 'confirm' || o?.kind === 'duplicate',
    should_create: context.decision?.should_create === true,
    outcome: o?.kind ?? null,
    model_calls: context.modelCalls,
  };
}

/** Whether the message wrote nothing at all (a model or store failure): the seed's "write nothing". */
export const writesNothing = (context: DocumentAgentContext): boolean => context.outcome?.kind === 'failed';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** The failure's stable code (a GateflowError's, e.g. \`document_too_large\`), for the API's status; null when it has none. */
const codeOf = (error: unknown): string | null => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : null;
};
/** An actor's output without the act's clock (kept in `actStartedAt`, not in what the output is stored as). */
function withoutClock<T extends object>(output: T & ActClock): T {
  const { startedAt: _, ...rest } = output;
  return rest as T;
}
const namesOf = (context: DocumentAgentContext) => (context.loaded?.documents ?? []).map((d) => ({ id: d.id, name: d.name }));
const refuse = (name: string) =>
  fromPromise<never, unknown>(async () => {
    throw new Error(`the document agent's ${name} actor was not provided: use documentAgentHost()`);
  });

/** A new message begins: what the last one did is cleared (its outbox was written with it). */
const beginMessage = (said: string) => ({ context }: { context: DocumentAgentContext }) => ({
  messageNo: context.messageNo + 1,
  said,
  modelCalls: 0,
  confirmed: false,
  search: null,
  outcome: null,
  write: null,
  reply: null,
  outbox: null,
  dropped: null,
  actStartedAt: null,
});

export const documentAgentMachine = setup({
  types: {
    context: {} as DocumentAgentContext,
    input: {} as DocumentAgentInput,
    events: {} as DocumentAgentEvent,
  },
  actors: {
    loadContext: refuse('loadContext') as unknown as ReturnType<typeof fromPromise<LoadedContext, LoadContextInput>>,
    decide: refuse('decide') as unknown as ReturnType<typeof fromPromise<DecideOutput, DecideInput>>,
    searchWeb: refuse('searchWeb') as unknown as ReturnType<typeof fromPromise<SearchOutcome, SearchInput>>,
    createDocument: refuse('createDocument') as unknown as ReturnType<typeof fromPromise<CreateOutcome, CreateInput>>,
    editDocument: refuse('editDocument') as unknown as ReturnType<typeof fromPromise<EditOutcome, EditInput>>,
    converse: refuse('converse') as unknown as ReturnType<typeof fromPromise<ConverseOutput, ConverseInput>>,
  },
  guards: {
    /** Typed words that end what waits ("stop", "never mind"): a cancel, not a new request. */
    cancelWord: ({ event }) => event.type === 'user.text' && isCancelWord(event.text),
    needsClarification: ({ context }) => context.decision?.needs_clarification === true,
    needsConfirmation: ({ context }) => context.decision?.pending_confirmation === true && !context.confirmed,
    needsSearch: ({ context }) => context.decision?.needs_web_search === true && !!context.decision.search_query?.trim() && context.search === null,
    shouldEdit: ({ context }) => context.decision?.should_edit === true,
    shouldCreate: ({ context }) => context.decision?.should_create === true,
    created: ({ event }) => (event as unknown as { output: CreateOutcome }).output.ok,
    duplicateName: ({ event }) => {
      const o = (event as unknown as { output: CreateOutcome }).output;
      return !o.ok && o.reason === 'duplicate';
    },
    edited: ({ event }) => (event as unknown as { output: EditOutcome }).output.ok,
    unknownDocument: ({ event }) => {
      const o = (event as unknown as { output: EditOutcome }).output;
      return !o.ok && o.reason === 'unknown_document';
    },
    editConflict: ({ event }) => {
      const o = (event as unknown as { output: EditOutcome }).output;
      return !o.ok && o.reason === 'conflict';
    },
    /** The answer was this value (`params.value`). */
    answered: ({ event }, params: { value: string }) => event.type === 'input.answered' && event.value === params.value,
    /** Add to the existing document was chosen, but the request had no content. */
    addsNothing: ({ context, event }, params: { value: string }) =>
      event.type === 'input.answered' && event.value === params.value && context.pending?.kind === 'duplicate' && !context.pending.content.trim(),
    /** The actor stopped because the act's time ran out. */
    timeUp: ({ event }) => timeUpOf((event as { error?: unknown }).error) !== null,
    awaitsConfirmation: ({ context }) => context.pending?.kind === 'confirm',
    awaitsChoice: ({ context }) => context.pending?.kind === 'duplicate',
  },
  actions: {
    countModelCalls: assign({ modelCalls: ({ context, event }) => context.modelCalls + ((event as unknown as { output: { modelCalls?: number } }).output.modelCalls ?? 0) }),
    /** A model call that failed was made all the same (the error says how many: DocumentAgentModelError). */
    countFailedCalls: assign({ modelCalls: ({ context, event }) => context.modelCalls + ((event as unknown as { error: { modelCalls?: unknown } }).error?.modelCalls === 1 ? 1 : 0) }),
    /** A new request while one waited: the waiting one is dropped, and said so. */
    /** The pending action cancelled by the person's words. */
    cancelPending: assign(({ context, event }) => ({
      ...beginMessage(event.type === 'user.text' ? event.text : 'Cancel')({ context }),
      outcome: { kind: 'cancelled' as const, intent: pendingIntent(context.pending) },
      pending: null,
    })),
    dropPending: assign(({ context }) => ({ dropped: pendingIntent(context.pending), pending: null })),
    /** The act's clock starts with its first actor (the host's actors report when; a test's report nothing, and no clock runs). */
    clock: assign({
      actStartedAt: ({ context, event }) => {
        const at = (event as { output?: ActClock }).output?.startedAt;
        return context.actStartedAt ?? (typeof at === 'number' ? at : null);
      },
    }),
    /** The act's time ran out during the stage's actor: said, and nothing of the act is written but its messages. */
    stopAtTimeLimit: assign({
      outcome: ({ event }, params: { stage: ActStage }) => ({ kind: 'time_limit' as const, stage: params.stage, limit: timeUpOf((event as { error?: unknown }).error) ?? 'the time limit' }),
    }),
  },
}).createMachine({
  id: 'documentAgent',
  context: ({ input }) => ({
    owner: input.owner ?? null,
    projectId: input.projectId,
    sessionId: input.sessionId,
    messageNo: 0,
    message: null,
    said: null,
    loaded: null,
    decision: null,
    edit: null,
    modelCalls: 0,
    confirmed: false,
    search: null,
    outcome: null,
    pending: null,
    dropped: null,
    write: null,
    reply: null,
    outbox: null,
    answerWithin: input.answerWithin ?? DEFAULT_ANSWER_WITHIN,
    actLimits: { ...DEFAULT_ACT_LIMITS, ...input.actLimits },
    actStartedAt: null,
  }),
  initial: 'idle',
  states: {
    /** Waiting for the person's next message. */
    idle: {
      on: {
        'user.text': { target: 'load_context', actions: assign(({ context, event }) => ({ ...beginMessage(event.text)({ context }), message: event.text })) },
        'user.button': { target: 'load_context', actions: assign(({ context, event }) => ({ ...beginMessage(event.value)({ context }), message: event.value })) },
      },
    },
    /** 3a and 2c: the project, its documents, the chat's last 10 messages. */
    load_context: {
      tags: [BUSY_TAG],
      exit: 'clock',
      invoke: {
        id: 'loadContext',
        src: 'loadContext',
        input: ({ context }) => ({ owner: context.owner, projectId: context.projectId, sessionId: context.sessionId, time: actTime(context) }),
        onDone: { target: 'decide', actions: assign({ loaded: ({ event }) => withoutClock(event.output), decision: null, edit: null }) },
        onError: [
          // The last message's decision is not this one's; the chat is found by the session when the reply is committed.
          { guard: 'timeUp', target: 'format', actions: [assign({ loaded: null, decision: null, edit: null }), { type: 'stopAtTimeLimit', params: { stage: 'load' as const } }] },
          { target: 'failed', actions: assign({ loaded: null, outcome: ({ event }) => ({ kind: 'failed' as const, stage: 'load' as const, message: messageOf(event.error), code: codeOf(event.error) }) }) },
        ],
      },
    },
    /** 3b: the decision, read offline from an explicit command or by one model call. */
    decide: {
      tags: [BUSY_TAG],
      exit: 'clock',
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context }) => ({ message: context.message ?? '', context: context.loaded!, time: actTime(context) }),
        onDone: { target: 'act', actions: ['countModelCalls', assign({ decision: ({ event }) => event.output.decision, edit: ({ event }) => event.output.edit })] },
        onError: [
          { guard: 'timeUp', target: 'format', actions: ['countFailedCalls', { type: 'stopAtTimeLimit', params: { stage: 'decide' as const } }] },
          { target: 'failed', actions: ['countFailedCalls', assign({ outcome: ({ event }) => ({ kind: 'failed' as const, stage: 'decide' as const, message: messageOf(event.error), code: codeOf(event.error) }) })] },
        ],
      },
    },
    /** 3c: which action the decision asks for (a confirmation and a search first). */
    act: {
      always: [
        { guard: 'needsClarification', target: 'clarify' },
        { guard: 'needsConfirmation', target: 'confirm' },
        { guard: 'needsSearch', target: 'search' },
        { guard: 'shouldEdit', target: 'edit' },
        { guard: 'shouldCreate', target: 'create' },
        { target: 'converse' },
      ],
    },
    /** 4a: ask, and do nothing. */
    clarify: {
      entry: assign(({ context }) => ({
        outcome: {
          kind: 'clarify' as const,
          question:
            context.decision?.clarification_question?.trim() ||
            `I'm not sure what you would like me to do. Could you say which document, and what to change? ${documentChoices(namesOf(context).map((d) => d.name))}`,
        },
      })),
      always: 'format',
    },
    /** 4b: say exactly what will happen; the waiting comes after the reply is stored. */
    confirm: {
      entry: assign(({ context }) => ({
        outcome: { kind: 'confirm' as const, prompt: confirmationReply(context.decision!) },
        pending: { kind: 'confirm' as const, decision: context.decision!, edit: context.edit },
      })),
      always: 'format',
    },
    /** Proceed or Cancel (or new words: a new request, and this one dropped). */
    awaiting_confirmation: {
      meta: { inputs: (context: DocumentAgentContext) => pendingInputs(context) },
      on: {
        'input.answered': [
          {
            guard: { type: 'answered', params: { value: PROCEED } },
            target: 'act',
            actions: assign(({ context }) => {
              const p = context.pending as Extract<Pending, { kind: 'confirm' }>;
              return { ...beginMessage('Proceed')({ context }), confirmed: true, decision: p.decision, edit: p.edit, pending: null };
            }),
          },
          { target: 'format', actions: assign(({ context }) => ({ ...beginMessage('Cancel')({ context }), outcome: { kind: 'cancelled' as const, intent: pendingIntent(context.pending) }, pending: null })) },
        ],
        'user.text': [
          { guard: 'cancelWord', target: 'format', actions: 'cancelPending' },
          { target: 'load_context', actions: [assign(({ context, event }) => ({ ...beginMessage(event.text)({ context }), message: event.text })), 'dropPending'] },
        ],
        'user.button': { target: 'load_context', actions: [assign(({ context, event }) => ({ ...beginMessage(event.value)({ context }), message: event.value })), 'dropPending'] },
        'input.timedOut': { target: 'format', actions: assign(({ context }) => ({ ...beginMessage('')({ context }), outcome: { kind: 'timed_out' as const, intent: pendingIntent(context.pending) }, pending: null })) },
      },
    },
    /** The search of 3c, before the content is made. */
    search: {
      tags: [BUSY_TAG],
      exit: 'clock',
      invoke: {
        id: 'searchWeb',
        src: 'searchWeb',
        // A search engine takes a short query: a longer one is cut, not refused.
        input: ({ context }) => ({ query: context.decision!.search_query!.trim().slice(0, 500), time: actTime(context) }),
        onDone: { target: 'act', actions: assign({ search: ({ event }) => withoutClock(event.output) }) },
        onError: [
          { guard: 'timeUp', target: 'format', actions: [{ type: 'stopAtTimeLimit', params: { stage: 'search' as const } }] },
          { target: 'act', actions: assign({ search: ({ event }) => ({ performed: false, results: null, note: webSearchFailedNote(messageOf(event.error)) }) }) },
        ],
      },
    },
    /** 3c: a document made ready under the name the seed's four priorities give. */
    create: {
      tags: [BUSY_TAG],
      exit: 'clock',
      invoke: {
        id: 'createDocument',
        src: 'createDocument',
        input: ({ context }) => ({
          time: actTime(context),
          owner: context.owner,
          projectId: context.projectId,
          message: context.message ?? '',
          decision: context.decision!,
          documents: namesOf(context),
          searchResults: context.search?.results ?? null,
        }),
        onDone: [
          {
            guard: 'created',
            target: 'format',
            actions: assign(({ context, event }) => {
              const o = event.output as Extract<CreateOutcome, { ok: true }>;
              return {
                outcome: { kind: 'created' as const, name: o.name },
                write: { kind: 'create' as const, projectId: context.projectId, name: o.name, content: o.content, standingInstruction: o.standingInstruction },
              };
            }),
          },
          {
            guard: 'duplicateName',
            target: 'format',
            actions: assign(({ context, event }) => {
              const o = event.output as Extract<CreateOutcome, { reason: 'duplicate' }>;
              return {
                outcome: { kind: 'duplicate' as const, name: o.existing.name, proposedName: o.proposedName },
                pending: { kind: 'duplicate' as const, decision: context.decision!, existing: o.existing, proposedName: o.proposedName, content: o.content, standingInstruction: o.standingInstruction },
              };
            }),
          },
          { target: 'format', actions: assign({ outcome: ({ event }) => ({ kind: 'create_failed' as const, reason: (event.output as Extract<CreateOutcome, { reason: 'invalid' }>).message }) }) },
        ],
        onError: [
          { guard: 'timeUp', target: 'format', actions: [{ type: 'stopAtTimeLimit', params: { stage: 'create' as const } }] },
          { target: 'failed', actions: assign({ outcome: ({ event }) => ({ kind: 'failed' as const, stage: 'create' as const, message: messageOf(event.error), code: codeOf(event.error) }) }) },
        ],
      },
    },
    /** 4d's two choices: add to the existing document, or create under the proposed name. */
    awaiting_choice: {
      meta: { inputs: (context: DocumentAgentContext) => pendingInputs(context) },
      on: {
        'input.answered': [
          {
            // A request with nothing in it (an offline "create a document called X"): there is nothing to add.
            guard: { type: 'addsNothing', params: { value: ADD_TO_EXISTING } },
            target: 'format',
            actions: assign(({ context }) => {
              const p = context.pending as Extract<Pending, { kind: 'duplicate' }>;
              return {
                ...beginMessage(`Add this content to '${p.existing.name}'`)({ context }),
                outcome: { kind: 'conversed' as const, text: `There was no content to add, so '${p.existing.name}' stays as it is.` },
                pending: null,
              };
            }),
          },
          {
            guard: { type: 'answered', params: { value: ADD_TO_EXISTING } },
            target: 'edit',
            actions: assign(({ context }) => {
              const p = context.pending as Extract<Pending, { kind: 'duplicate' }>;
              return {
                ...beginMessage(`Add this content to '${p.existing.name}'`)({ context }),
                confirmed: true,
                decision: {
                  ...p.decision,
                  should_create: false,
                  should_edit: true,
                  document_id: p.existing.id,
                  intent_statement: `I've added the content to the ${p.existing.name} document.`,
                  content_summary: `Added the new content at the end of '${p.existing.name}'.`,
                  change_summary: null,
                },
                edit: { kind: 'append' as const, text: p.content },
                pending: null,
              };
            }),
          },
          {
            target: 'create',
            actions: assign(({ context }) => {
              const p = context.pending as Extract<Pending, { kind: 'duplicate' }>;
              return {
                ...beginMessage(`Create '${p.proposedName}' instead`)({ context }),
                confirmed: true,
                decision: { ...p.decision, document_name: p.proposedName, document_content: p.content, standing_instruction: p.standingInstruction },
                pending: null,
              };
            }),
          },
        ],
        'user.text': [
          { guard: 'cancelWord', target: 'format', actions: 'cancelPending' },
          { target: 'load_context', actions: [assign(({ context, event }) => ({ ...beginMessage(event.text)({ context }), message: event.text })), 'dropPending'] },
        ],
        'user.button': { target: 'load_context', actions: [assign(({ context, event }) => ({ ...beginMessage(event.value)({ context }), message: event.value })), 'dropPending'] },
        'input.timedOut': { target: 'format', actions: assign(({ context }) => ({ ...beginMessage('')({ context }), outcome: { kind: 'timed_out' as const, intent: pendingIntent(context.pending) }, pending: null })) },
      },
    },
    /** 3c: the rewrite (or the offline change), made from the document's present version. */
    edit: {
      tags: [BUSY_TAG],
      exit: 'clock',
      invoke: {
        id: 'editDocument',
        src: 'editDocument',
        input: ({ context }) => ({
          time: actTime(context),
          owner: context.owner,
          projectId: context.projectId,
          message: context.message ?? '',
          decision: context.decision!,
          edit: context.edit,
          documents: namesOf(context),
          searchResults: context.search?.results ?? null,
        }),
        onDone: [
          {
            guard: 'edited',
            target: 'format',
            actions: [
              'countModelCalls',
              assign(({ event }) => {
                const o = event.output as Extract<EditOutcome, { ok: true }>;
                return {
                  outcome: { kind: 'updated' as const, documentId: o.documentId, name: o.name },
                  write: {
                    kind: 'update' as const,
                    documentId: o.documentId,
                    name: o.name,
                    expectedVersion: o.expectedVersion,
                    content: o.content,
                    ...(o.append !== undefined && { append: o.append }),
                  },
                };
              }),
            ],
          },
          {
            // A wrong or missing id: ask which document, listing them (the seed's error handling).
            guard: 'unknownDocument',
            target: 'clarify',
            actions: [
              'countModelCalls',
              assign(({ context }) => ({
                decision: {
                  ...context.decision!,
                  needs_clarification: true,
                  clarification_question: `Which document should I change? ${documentChoices(namesOf(context).map((d) => d.name))}`,
                },
              })),
            ],
          },
          {
            guard: 'editConflict',
            target: 'format',
            actions: ['countModelCalls', assign({ outcome: ({ event }) => ({ kind: 'conflict' as const, name: (event.output as Extract<EditOutcome, { reason: 'conflict' }>).name }) })],
          },
          {
            target: 'format',
            actions: [
              'countModelCalls',
              assign({
                outcome: ({ event }) => {
                  const o = event.output as Extract<EditOutcome, { reason: 'section_not_found' }>;
                  return { kind: 'section_not_found' as const, name: o.name, heading: o.heading, sections: o.sections };
                },
              }),
            ],
          },
        ],
        onError: [
          { guard: 'timeUp', target: 'format', actions: ['countFailedCalls', { type: 'stopAtTimeLimit', params: { stage: 'edit' as const } }] },
          { target: 'failed', actions: ['countFailedCalls', assign({ outcome: ({ event }) => ({ kind: 'failed' as const, stage: 'edit' as const, message: messageOf(event.error), code: codeOf(event.error) }) })] },
        ],
      },
    },
    /** 4f: the decision's own answer, or a second model call for one. */
    converse: {
      tags: [BUSY_TAG],
      exit: 'clock',
      invoke: {
        id: 'converse',
        src: 'converse',
        input: ({ context }) => ({ message: context.message ?? '', decision: context.decision!, context: context.loaded!, time: actTime(context) }),
        onDone: { target: 'format', actions: ['countModelCalls', assign({ outcome: ({ event }) => ({ kind: 'conversed' as const, text: event.output.text }) })] },
        onError: [
          { guard: 'timeUp', target: 'format', actions: ['countFailedCalls', { type: 'stopAtTimeLimit', params: { stage: 'converse' as const } }] },
          { target: 'failed', actions: ['countFailedCalls', assign({ outcome: ({ event }) => ({ kind: 'failed' as const, stage: 'converse' as const, message: messageOf(event.error), code: codeOf(event.error) }) })] },
        ],
      },
    },
    /** A model, store or search failure: said plainly; nothing is written. */
    failed: {
      always: 'format',
    },
    /** Step 4: the reply. */
    format: {
      entry: assign(({ context }) => ({ reply: formatReply(context) })),
      always: 'store_reply',
    },
    /** Step 5: the person's message and the reply (with the seed's metadata), and the document change, to commit with the message. */
    store_reply: {
      entry: assign(({ context }) => {
        const stored = !writesNothing(context);
        return {
          outbox: {
            messageNo: context.messageNo,
            chatId: context.loaded?.chatId ?? null,
            user: stored ? { content: context.said ?? '' } : null,
            assistant: stored ? { content: context.reply ?? '', metadata: messageMetadata(context) } : null,
            write: stored ? context.write : null,
            event: null,
          },
        };
      }),
      always: 'publish',
    },
    /** Step 6: AgentActionCompletedEvent, written with the message (the event stream announces it once committed). */
    publish: {
      entry: assign(({ context }) => ({
        outbox: context.outbox && {
          ...context.outbox,
          event: {
            success: context.write !== null,
            documentId: context.write?.kind === 'update' ? context.write.documentId : null,
            metadata: { outcome: context.outcome?.kind ?? null, web_search_performed: context.search?.performed === true, model_calls: context.modelCalls },
          },
        },
      })),
      always: [
        { guard: 'awaitsConfirmation', target: 'awaiting_confirmation' },
        { guard: 'awaitsChoice', target: 'awaiting_choice' },
        { target: 'idle' },
      ],
    },
  },
});
