/**
 * The document agent in the page, for its stories: the real machine
 * (machines/document-agent.ts), workflow and runtime, with the offline reader
 * of explicit commands, on the in-memory store; the project's documents live
 * in memory instead of SQL. The actors do on that memory what
 * src/document-agent/actors.ts does on the store (the same pure parts: the
 * offline reader, the name priorities, appending and removing sections), and
 * the workflow's outbox is applied to it as `commitOutbox` applies it in a
 * transaction. So the replies, the gates and their buttons, the failures
 * and the documents the page shows are what the agent gives.
 */
import { fromPromise, type AnyActorLogic } from 'xstate';
import type {
  ConverseInput,
  ConverseOutput,
  CreateInput,
  CreateOutcome,
  DecideInput,
  DecideOutput,
  DocumentAgentContext,
  EditInput,
  EditOutcome,
  LoadContextInput,
  LoadedContext,
  SearchOutcome,
} from '../machines/document-agent.js';
import { NEEDS_MODEL } from '../src/document-agent/actors.js';
import { documentNameFor, proposeName } from '../src/document-agent/document-name.js';
import { DocumentAgentModelError } from '../src/document-agent/errors.js';
import { appendText, removeSection, sectionsOf } from '../src/document-agent/markdown.js';
import { readOffline } from '../src/document-agent/offline-reader.js';
import { decisionOf } from '../src/document-agent/schemas.js';
import { DOCUMENT_AGENT_ID, documentAgentWorkflow } from '../src/document-agent/workflow.js';
import { createLocalTransport } from '../src/react/local-transport.js';
import { TransportError, type Transport } from '../src/react/transport.js';
import { createRuntime, type Runtime } from '../src/runtime/runtime.js';
import { createMemoryStore } from '../src/store/memory.js';
import type { Workflow } from '../src/workflow/types.js';
import type { DocumentView, DocumentsSource, ProjectView } from '../demo/document-agent-panel.js';

export const STORY_PROJECT: ProjectView = { id: 1, name: 'My Project' };

/** What a story's agent is given: the documents there are, and whether its model fails (anything not an explicit command needs it). */
export interface StageOptions {
  documents?: { name: string; content: string }[];
  /** The model answers HTTP 500: a message the offline reader cannot read fails, and nothing is written. */
  modelFails?: boolean;
}

export interface Stage {
  runtime: Runtime;
  /** A transport for a widget: it starts sessions on the story's project. */
  transport(): Transport;
  /** The project and its documents, as the page reads them. */
  source: DocumentsSource;
  /** A session already started, and the replies to these messages given (a story opens on where they lead). */
  play(messages: string[]): Promise<string>;
}

interface StoredDocument {
  id: number;
  name: string;
  content: string;
  standingInstruction: string;
  version: number;
  updatedAt: string;
}

export function documentAgentStage(options: StageOptions = {}): Stage {
  const documents: StoredDocument[] = [];
  const chats = new Map<string, number>();
  const now = () => new Date().toISOString();
  const add = (name: string, content: string, standingInstruction = '') => {
    const id = documents.length + 1;
    documents.push({ id, name, content, standingInstruction, version: 1, updatedAt: now() });
    return id;
  };
  for (const d of options.documents ?? []) add(d.name, d.content);
  const byName = (name: string) => documents.find((d) => d.name.toLowerCase() === name.toLowerCase());

  const actors: Record<string, AnyActorLogic> = {
    loadContext: fromPromise<LoadedContext, LoadContextInput>(async ({ input }) => {
      if (!chats.has(input.sessionId)) chats.set(input.sessionId, chats.size + 1);
      return {
        chatId: chats.get(input.sessionId)!,
        project: { id: STORY_PROJECT.id, name: STORY_PROJECT.name, description: null },
        documents: documents.map((d) => ({ id: d.id, name: d.name, standing_instruction: d.standingInstruction, content: d.content })),
        history: [],
        focusDocumentId: null,
      };
    }),
    decide: fromPromise<DecideOutput, DecideInput>(async ({ input }) => {
      const offline = readOffline(input.message, input.context.documents);
      if (offline) return { ...offline, modelCalls: 0 };
      if (options.modelFails) throw new DocumentAgentModelError('decide', 'model_error', 'APICallError: Internal Server Error (HTTP 500)');
      return { decision: decisionOf({ needs_clarification: true, clarification_question: NEEDS_MODEL, reasoning: 'No model, and not an explicit command.' }), edit: null, modelCalls: 0 };
    }),
    searchWeb: fromPromise<SearchOutcome>(async () => ({ performed: false, results: null, note: null })),
    createDocument: fromPromise<CreateOutcome, CreateInput>(async ({ input }) => {
      const name = documentNameFor(input.decision, input.message, input.documents.length);
      const doc = { content: input.decision.document_content ?? '', standingInstruction: input.decision.standing_instruction ?? '' };
      const existing = byName(name);
      if (!existing) return { ok: true, name, ...doc };
      return { ok: false, reason: 'duplicate', name, existing: { id: existing.id, name: existing.name }, proposedName: proposeName(existing.name, documents.map((d) => d.name)), ...doc };
    }),
    editDocument: fromPromise<EditOutcome, EditInput>(async ({ input }) => {
      const doc = documents.find((d) => d.id === input.decision.document_id);
      if (!doc) return { ok: false, reason: 'unknown_document', modelCalls: 0 };
      let content: string;
      if (input.edit?.kind === 'append') content = appendText(doc.content, input.edit.text);
      else if (input.edit?.kind === 'remove_section') {
        const removed = removeSection(doc.content, input.edit.heading);
        if (!removed.removed) return { ok: false, reason: 'section_not_found', name: doc.name, heading: input.edit.heading, sections: sectionsOf(doc.content).map((s) => s.heading), modelCalls: 0 };
        content = removed.content;
      } else throw new DocumentAgentModelError('rewrite', 'model_error', 'no model in this story');
      return { ok: true, documentId: doc.id, name: doc.name, expectedVersion: doc.version, content, modelCalls: 0 };
    }),
    converse: fromPromise<ConverseOutput, ConverseInput>(async ({ input }) => ({ text: input.decision.conversational_response ?? 'I can only follow explicit commands here.', modelCalls: 0 })),
  };

  // The outbox's document write, applied to memory with the step that made it (SQL does it in the step's transaction).
  const agent = documentAgentWorkflow();
  const workflow: Workflow = {
    ...agent,
    effects: ({ before, after }) => {
      const box = (after.context as DocumentAgentContext).outbox;
      const saved = (before as { context?: DocumentAgentContext }).context?.outbox;
      if (!box || box.messageNo === saved?.messageNo) return null;
      const write = box.write;
      if (write?.kind === 'create') add(write.name, write.content, write.standingInstruction);
      if (write?.kind === 'update') {
        const doc = documents.find((d) => d.id === write.documentId);
        if (doc && doc.version === write.expectedVersion) Object.assign(doc, { content: write.content, version: doc.version + 1, updatedAt: now() });
      }
      return null;
    },
  };
  const runtime = createRuntime({ workflows: [workflow], store: createMemoryStore(), actors });
  const start = () => runtime.start(DOCUMENT_AGENT_ID, undefined, { context: { projectId: STORY_PROJECT.id } });

  const view = (d: StoredDocument): DocumentView => ({ id: d.id, name: d.name, content: d.content, version: d.version, updatedAt: d.updatedAt });
  return {
    runtime,
    transport: () => {
      const local = createLocalTransport({ runtime });
      // As the page's HTTP transport does with `startContext`: each session starts on the project.
      return {
        ...local,
        start: async (flowId) => {
          if (flowId !== DOCUMENT_AGENT_ID) return local.start(flowId);
          try {
            return await start();
          } catch (error) {
            throw new TransportError('internal', (error as Error).message);
          }
        },
      };
    },
    source: {
      project: async () => STORY_PROJECT,
      documents: async () => documents.map(view),
    },
    play: async (messages) => {
      const { sessionId } = await start();
      for (const text of messages) await runtime.turn(sessionId, { text });
      return sessionId;
    },
  };
}
