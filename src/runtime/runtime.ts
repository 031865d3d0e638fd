import type { LanguageModel } from 'ai';
import type { AnyActorLogic } from 'xstate';
import { createExtractActor } from '../extract/actor.js';
import { parseFlowValue } from '../flow/parse.js';
import type { FlowDocument, FlowVersion } from '../flow/schema.js';
import { ConflictError, type Store } from '../store/types.js';
import { restoreConversation, startConversation, type Conversation } from './conversation.js';
import {
  FlowNotFoundError,
  InvalidPageError,
  InvalidTurnError,
  SessionNotFoundError,
  TurnIdReusedError,
  TurnLimitError,
} from './errors.js';
import { migrateSnapshot } from './migrate-snapshot.js';
import type { Reply } from './reply.js';
import { isSessionId, newSessionId } from './session-id.js';
import { parseTurn, sameTurn, type Turn } from './turn.js';

/** How many turns a session takes unless `maxTurnsPerSession` says otherwise. */
export const DEFAULT_MAX_TURNS_PER_SESSION = 500;
/** History entries per page when the caller names no limit, and the most it may name. */
export const DEFAULT_HISTORY_PAGE_SIZE = 50;
export const MAX_HISTORY_PAGE_SIZE = 200;

export interface RuntimeOptions {
  /**
   * The flows to serve. Several versions of one flow may be given: the last is
   * the current one, used for new sessions; earlier ones keep serving the
   * sessions that started on them.
   */
  flows: FlowDocument[];
  store: Store;
  /** A model for text the offline matcher cannot read (any AI SDK language model). */
  model?: LanguageModel;
  /** Or the whole `extract` actor (see `createExtractActor`); it wins over `model`. */
  extract?: AnyActorLogic;
  /** Actors the flows' action nodes name, by name (an action whose actor is missing takes its `error` edge). */
  actors?: Record<string, AnyActorLogic>;
  /** How often a turn is applied again after losing a race with another process. */
  maxConflictRetries?: number;
  /** How many sessions keep a live actor between turns (restoring is skipped while the stored version matches). */
  liveSessions?: number;
  /**
   * The most turns one session takes (default {@link DEFAULT_MAX_TURNS_PER_SESSION});
   * the next is refused with {@link TurnLimitError}. Bounds a session's journal.
   */
  maxTurnsPerSession?: number;
}

export interface FlowSummary {
  id: string;
  version: FlowVersion;
  title: string | null;
}

/** Who asks: sessions belong to an owner (a JWT subject) when the server has auth. */
export interface Caller {
  owner?: string | null;
}

/** Which part of a session's history to read: the entries after seq `after`, at most `limit`. */
export interface HistoryPage {
  after?: number;
  limit?: number;
}

export interface SessionView {
  /** The session's current reply (its last journal entry). */
  reply: Reply;
  /** One page of the journal, oldest first: the opening reply (seq 1, turn null), then each turn. */
  history: { seq: number; turn: Turn | null; reply: Reply }[];
  /** The `after` of the next page, or null when this page reaches the end. */
  nextAfter: number | null;
}

export interface Runtime {
  flows(): FlowSummary[];
  start(flowId: string, caller?: Caller): Promise<{ sessionId: string; reply: Reply }>;
  /** Load, restore, send, wait until settled, build the reply, save and journal. */
  turn(sessionId: string, turn: unknown, caller?: Caller): Promise<Reply>;
  /** The current reply and one page of the history (the first {@link DEFAULT_HISTORY_PAGE_SIZE} entries by default). */
  session(sessionId: string, caller?: Caller, page?: HistoryPage): Promise<SessionView>;
  /** Resolves when the store can serve; throws StoreUnavailableError otherwise. */
  ready(): Promise<void>;
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const { store } = options;
  const extract = options.extract ?? (options.model ? createExtractActor({ model: options.model }) : undefined);
  const maxRetries = options.maxConflictRetries ?? 100;
  const live = new LiveConversations(options.liveSessions ?? 1000);
  const maxTurns = options.maxTurnsPerSession ?? DEFAULT_MAX_TURNS_PER_SESSION;

  // id → version (as text) → checked document; the current version per id.
  const versions = new Map<string, Map<string, FlowDocument>>();
  const current = new Map<string, FlowDocument>();
  for (const flow of options.flows) {
    const checked = parseFlowValue(flow, flow.id);
    if (!versions.has(checked.id)) versions.set(checked.id, new Map());
    versions.get(checked.id)!.set(String(checked.version), checked);
    current.set(checked.id, checked);
  }

  // Turns on one session run one after another in this process.
  const queues = new Map<string, Promise<unknown>>();
  const serialized = <T>(sessionId: string, fn: () => Promise<T>): Promise<T> => {
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(fn);
    queues.set(sessionId, run);
    const cleanup = () => {
      if (queues.get(sessionId) === run) queues.delete(sessionId);
    };
    run.then(cleanup, cleanup);
    return run;
  };

  // A session with an owner is seen by that owner only; one without (made by a server without auth) by anyone.
  const visible = (owner: string | null, caller: Caller | undefined) => owner === null || owner === (caller?.owner ?? null);

  /** The flow a stored session continues on, and its snapshot (migrated if need be). */
  const resolve = (flowId: string, flowVersion: FlowVersion, snapshot: unknown) => {
    const registered = versions.get(flowId);
    const flow = current.get(flowId);
    if (!registered || !flow) throw new FlowNotFoundError(flowId);
    const same = registered.get(String(flowVersion));
    if (same) return { flow: same, snapshot };
    return { flow, snapshot: migrateSnapshot(flow, flowVersion, snapshot as never) };
  };

  const applyTurn = async (sessionId: string, turn: Turn, caller: Caller | undefined): Promise<Reply> => {
    const turnId = turn.turnId ?? null;
    for (let attempt = 0; ; attempt++) {
      const loaded = await store.load(sessionId, turnId ?? undefined);
      if (!loaded || !visible(loaded.session.owner, caller)) throw new SessionNotFoundError(sessionId);
      if (loaded.replayed) {
        // The same turn again is a replay; another turn under a used id would silently be lost.
        if (loaded.replayed.turn && !sameTurn(loaded.replayed.turn, turn)) throw new TurnIdReusedError(turnId!);
        return loaded.replayed.reply;
      }
      const { session } = loaded;
      // Version 1 is the opening reply: a session at version n has taken n - 1 turns.
      if (session.version - 1 >= maxTurns) throw new TurnLimitError(sessionId, maxTurns);
      // The actor kept from this session's last turn, if the store still holds that
      // version; otherwise restore from the stored snapshot.
      const conversation =
        live.take(sessionId, session.version) ??
        (() => {
          const { flow, snapshot } = resolve(session.flowId, session.flowVersion, session.snapshot);
          return restoreConversation(
            flow,
            { sessionId, flowId: flow.id, flowVersion: flow.version, snapshot: snapshot as never },
            { ...(extract && { extract }), ...(options.actors && { actors: options.actors }) },
          );
        })();
      try {
        // The store keeps turn ids; the conversation only needs the turn.
        const reply = await conversation.send('button' in turn ? { button: turn.button } : { text: turn.text });
        const version = await store.commitTurn(sessionId, session.version, {
          snapshot: conversation.persist().snapshot,
          flowVersion: conversation.flow.version,
          turn,
          turnId,
          reply,
        });
        if (conversation.done) conversation.stop();
        else live.keep(sessionId, version, conversation);
        return reply;
      } catch (error) {
        conversation.stop();
        // Another process saved a turn first: load its result and apply this turn again.
        if (!(error instanceof ConflictError) || attempt >= maxRetries) throw error;
      }
    }
  };

  return {
    flows: () => [...current.values()].map((f) => ({ id: f.id, version: f.version, title: f.title ?? null })),

    async start(flowId, caller) {
      const flow = current.get(flowId);
      if (!flow) throw new FlowNotFoundError(flowId);
      const sessionId = newSessionId();
      const conversation = startConversation(flow, { sessionId, ...(extract && { extract }), ...(options.actors && { actors: options.actors }) });
      const reply = conversation.reply();
      try {
        await store.create({
          sessionId,
          flowId: flow.id,
          flowVersion: flow.version,
          snapshot: conversation.persist().snapshot,
          owner: caller?.owner ?? null,
          reply,
        });
      } catch (error) {
        conversation.stop();
        throw error;
      }
      live.keep(sessionId, 1, conversation);
      return { sessionId, reply };
    },

    turn(sessionId, input, caller) {
      const parsed = parseTurn(input);
      if (!parsed.success) return Promise.reject(new InvalidTurnError(parsed.message));
      if (!isSessionId(sessionId)) return Promise.reject(new SessionNotFoundError(sessionId));
      return serialized(sessionId, () => applyTurn(sessionId, parsed.data, caller));
    },

    async session(sessionId, caller, page = {}) {
      const after = page.after ?? 0;
      const limit = page.limit ?? DEFAULT_HISTORY_PAGE_SIZE;
      if (!Number.isSafeInteger(after) || after < 0) throw new InvalidPageError(`after must be an integer of 0 or more, not ${after}`);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_HISTORY_PAGE_SIZE)
        throw new InvalidPageError(`limit must be an integer from 1 to ${MAX_HISTORY_PAGE_SIZE}, not ${limit}`);
      if (!isSessionId(sessionId)) throw new SessionNotFoundError(sessionId);
      const loaded = await store.load(sessionId);
      if (!loaded || !visible(loaded.session.owner, caller)) throw new SessionNotFoundError(sessionId);
      const { version } = loaded.session;
      // The page, and the current reply (the entry of the session's version) when the page does not hold it.
      const entries = await store.history(sessionId, { after, limit });
      const current =
        entries.find((e) => e.seq === version) ?? (await store.history(sessionId, { after: version - 1, limit: 1 }))[0];
      if (!current) throw new SessionNotFoundError(sessionId);
      const last = entries.at(-1);
      return {
        reply: current.reply,
        history: entries.map((e) => ({ seq: e.seq, turn: e.turn, reply: e.reply })),
        nextAfter: last && last.seq < version ? last.seq : null,
      };
    },

    ready: () => store.ping(),
  };
}


/**
 * Live conversations by session, each valid for one stored version: a turn
 * takes it out (so no two turns share it) and puts it back after its commit.
 * The least recently used are stopped beyond `capacity`.
 */
class LiveConversations {
  private readonly entries = new Map<string, { version: number; conversation: Conversation }>();
  constructor(private readonly capacity: number) {}

  take(sessionId: string, version: number): Conversation | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    this.entries.delete(sessionId);
    if (entry.version === version) return entry.conversation;
    entry.conversation.stop();
    return undefined;
  }

  keep(sessionId: string, version: number, conversation: Conversation): void {
    if (this.capacity <= 0) return conversation.stop();
    this.entries.set(sessionId, { version, conversation });
    if (this.entries.size > this.capacity) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      entry.conversation.stop();
    }
  }
}
