/**
 * The document agent (issue 14) for tests: a store (PGlite in memory, or
 * PostgreSQL), the runtime serving `documentAgentHost`, and a scripted model
 * (`MockLanguageModelV4`) answering each call by its purpose: the decision
 * (the structured call named `agent_decision`), the rewrite of a document and
 * the conversational answer (plain text calls, told apart by their
 * instructions). Every call is recorded with what the model was sent.
 */
import type { Snapshot } from 'xstate';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModel } from 'ai';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { templateStore } from './pglite-template.js';
import type { SessionEvent, Store } from '../../src/store/types.js';
import { documentAgentHost } from '../../src/document-agent/host.js';
import type { WebSearch, WebSearchResult } from '../../src/document-agent/web-search.js';
import { DOCUMENT_AGENT_ID } from '../../src/document-agent/workflow.js';
import { documentRepository, type DocumentRepository } from '../../src/documents/repository.js';
import type { Document, Message, Project } from '../../src/documents/schemas.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import type { AgentDecision } from '../../src/document-agent/schemas.js';
import type { MessageOutcome } from '../../machines/document-agent.js';
import type { CallOptions } from './mock-model.js';
import { textResult } from './mock-model.js';

/** Which of the agent's model calls: the decision (3b), a rewrite (3c) or a conversational answer (4f). */
export type Purpose = 'decide' | 'rewrite' | 'converse';

export interface ModelCall {
  purpose: Purpose;
  /** The system text. */
  instructions: string;
  /** The user text. */
  prompt: string;
  temperature: number | undefined;
}

/**
 * What the scripted model answers for one call: a decision object (sent as
 * JSON), the text of a rewrite or an answer, raw text, an error thrown, a call
 * that never answers (it fails only when its abort signal fires, as an HTTP
 * call does), or a function of the call (which may wait).
 */
export type Scripted =
  | string
  | Record<string, unknown>
  | { text: string }
  | { error: Error }
  | { hang: true }
  | ((call: ModelCall) => Scripted | Promise<Scripted>);

export type Script = Partial<Record<Purpose, Scripted[]>>;

const purposeOf = (options: CallOptions, instructions: string): Purpose => {
  const format = options.responseFormat;
  if (format?.type === 'json' && format.name === 'agent_decision') return 'decide';
  if (format?.type === 'json') throw new Error(`scripted model: unexpected structured call ${format.name ?? '(unnamed)'}`);
  return instructions.includes('Rewrite the document') ? 'rewrite' : 'converse';
};

/** Until the signal aborts: then fails with its reason, as fetch does. */
const untilAborted = (signal: AbortSignal | undefined) =>
  new Promise<never>((_, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/**
 * A model scripted per purpose: each call takes the next answer of its
 * purpose's queue. A call with nothing left fails loudly (the agent then says
 * it could not do it, and the test's assertions show it).
 */
export function scriptedModel(script: Script) {
  const queues: Record<Purpose, Scripted[]> = { decide: [...(script.decide ?? [])], rewrite: [...(script.rewrite ?? [])], converse: [...(script.converse ?? [])] };
  const calls: ModelCall[] = [];
  const answer = async (next: Scripted, call: ModelCall, signal: AbortSignal | undefined): Promise<ReturnType<typeof textResult>> => {
    if (typeof next === 'function') return answer(await next(call), call, signal);
    if (typeof next === 'string') return textResult(next);
    if ('hang' in next && next.hang === true) return untilAborted(signal);
    if ('error' in next && next.error instanceof Error) throw next.error;
    if ('text' in next && typeof next.text === 'string' && Object.keys(next).length === 1) return textResult(next.text);
    return textResult(JSON.stringify(next));
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options: CallOptions) => {
      const instructions = options.prompt
        .filter((m) => m.role === 'system')
        .map((m) => (typeof m.content === 'string' ? m.content : ''))
        .join('\n');
      const prompt = options.prompt
        .filter((m) => m.role === 'user')
        .flatMap((m) => m.content)
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n');
      const call: ModelCall = { purpose: purposeOf(options, instructions), instructions, prompt, temperature: options.temperature };
      calls.push(call);
      const next = queues[call.purpose].shift();
      if (next === undefined) throw new Error(`scripted model: no ${call.purpose} answer left (prompt: ${prompt.slice(-200)})`);
      return answer(next, call, options.abortSignal);
    },
  });
  return {
    model,
    calls,
    /** The calls of one purpose, in order. */
    callsOf: (purpose: Purpose) => calls.filter((c) => c.purpose === purpose),
    /** Answers scripted but never asked for, by purpose (empty when the script was used up). */
    left: () => Object.fromEntries(Object.entries(queues).filter(([, q]) => q.length > 0).map(([k, q]) => [k, q.length])),
  };
}
export type ScriptedModel = ReturnType<typeof scriptedModel>;

/** A web search that answers from a fixed list (or fails), recording the queries. */
export function fakeWebSearch(results: WebSearchResult[] | Error, name = 'Fake search') {
  const queries: string[] = [];
  const search: WebSearch = {
    name,
    async search(query) {
      queries.push(query);
      if (results instanceof Error) throw results;
      return results;
    },
  };
  return { search, queries };
}

/** The reply's DOCUMENT_AGENT artifact (src/document-agent/workflow.ts). */
export interface AgentArtifact {
  type: 'DOCUMENT_AGENT';
  decision: AgentDecision | null;
  outcome: MessageOutcome | null;
  webSearchPerformed: boolean;
  modelCalls: number;
  chatId: number | null;
  projectId: number;
}

export const artifactOf = (reply: ReplyEnvelope): AgentArtifact => {
  const found = reply.artifacts.find((a) => a.type === 'DOCUMENT_AGENT');
  if (!found) throw new Error(`no DOCUMENT_AGENT artifact in the reply (state ${JSON.stringify(reply.state)})`);
  return found as unknown as AgentArtifact;
};

export interface AgentHarnessOptions {
  script?: Script;
  /** A model of one's own instead of a script (none at all when both are absent). */
  model?: LanguageModel;
  webSearch?: WebSearch | null;
  modelTimeoutMs?: number;
  answerWithin?: string;
}

/** One chat: a session of the document agent on a project. */
export interface ChatHandle {
  sessionId: string;
  projectId: number;
  /** The opening reply. */
  greeting: ReplyEnvelope;
  /** Sends a message (a text turn) and returns the reply. */
  send(text: string): Promise<ReplyEnvelope>;
  /** Answers the one open gate of the chat by its id (a button). */
  choose(value: string): Promise<ReplyEnvelope>;
  /** The chat's stored messages, oldest first (none before the first message is handled). */
  messages(): Promise<Message[]>;
  /** The chat's agent.action_completed events, oldest first. */
  events(): Promise<SessionEvent[]>;
}

export interface DocumentAgentHarness {
  store: Store;
  runtime: Runtime;
  repo: DocumentRepository;
  /** The scripted model, when the harness was given a script. */
  model: ScriptedModel | null;
  project(name?: string, description?: string | null): Promise<Project>;
  /** A document written straight to the store (committed), as a test's starting point. */
  document(projectId: number, name: string, content?: string, standingInstruction?: string): Promise<Document>;
  documents(projectId: number): Promise<Document[]>;
  chat(projectId: number): Promise<ChatHandle>;
  close(): void;
}

/** A PGlite store in memory, migrated (the documents' tables included). */
export const openDocumentStore = (): Promise<Store> => templateStore();

/** An agent whose model is scripted (the harness's model is then always there). */
export type ScriptedAgent = DocumentAgentHarness & { model: NonNullable<DocumentAgentHarness['model']> };

/**
 * A test file's PGlite store, opened once, and `agent(script)`: the document
 * agent on it (or on `on`), closed after each test.
 */
export function useDocumentAgentStore() {
  let store: Store | undefined;
  const open: DocumentAgentHarness[] = [];
  beforeAll(async () => {
    store = await openDocumentStore();
  });
  afterEach(() => {
    for (const h of open.splice(0)) h.close();
  });
  afterAll(async () => {
    await store?.close();
  });
  return {
    store: (): Store => store!,
    agent(script: Script, options: Omit<AgentHarnessOptions, 'script'> = {}, on?: Store): ScriptedAgent {
      const h = documentAgentRuntime(on ?? store!, { script, ...options });
      open.push(h);
      return h as ScriptedAgent;
    },
  };
}

/** The runtime serving the document agent on `store`, with the scripted model (or the given one, or none). */
export function documentAgentRuntime(store: Store, options: AgentHarnessOptions = {}): DocumentAgentHarness {
  const scripted = options.script ? scriptedModel(options.script) : null;
  const model = options.model ?? scripted?.model;
  const host = documentAgentHost({
    database: store.sql!,
    ...(model && { model }),
    ...(options.webSearch !== undefined && { webSearch: options.webSearch }),
    ...(options.modelTimeoutMs !== undefined && { modelTimeoutMs: options.modelTimeoutMs }),
    ...(options.answerWithin && { answerWithin: options.answerWithin }),
  });
  const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
  const repo = documentRepository(store.sql!);

  const chat = async (projectId: number): Promise<ChatHandle> => {
    const { sessionId, reply } = await runtime.start(DOCUMENT_AGENT_ID, undefined, { context: { projectId } });
    return {
      sessionId,
      projectId,
      greeting: reply,
      send: (text) => runtime.turn(sessionId, { text }),
      async choose(value) {
        const gates = (await runtime.inputs(undefined, { sessionId })).filter((g) => g.to === null);
        if (gates.length !== 1) throw new Error(`expected one open gate, found ${gates.length}`);
        return runtime.answer(gates[0]!.gateId, value);
      },
      async messages() {
        const { rows } = await store.sql!.query<{ id: string | number }>('SELECT id FROM gateflow_chats WHERE session_id = $1', [sessionId]);
        if (!rows[0]) return [];
        return repo.listMessages(null, Number(rows[0].id), { limit: 1000 });
      },
      events: async () => (await store.readEvents(0, 10_000)).filter((e) => e.sessionId === sessionId && e.type === 'agent.action_completed'),
    };
  };

  return {
    store,
    runtime,
    repo,
    model: scripted,
    project: (name = 'My Project', description = null) => repo.createProject(null, { name, description }),
    document: (projectId, name, content = '', standingInstruction = '') => repo.createDocument(null, projectId, { name, content, standingInstruction }),
    documents: (projectId) => repo.listDocuments(projectId),
    chat,
    close: () => runtime.close(),
  };
}

/** A snapshot shaped as the workflow's `effects` reads it (only its context matters there). */
export const snapshotWith = (context: Record<string, unknown>): Snapshot<unknown> => ({ status: 'active', output: undefined, error: undefined, context }) as unknown as Snapshot<unknown>;

/** A promise and the function that settles it (a model call held until the test lets it go). */
export function latch<T = void>() {
  let release!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (release = resolve));
  return { promise, release };
}
