import type { Snapshot } from 'xstate';
import { z } from 'zod';
import { documentRepository } from '../documents/repository.js';
import { documentLimits, type DocumentLimits, type DocumentLimitsInput } from '../documents/limits.js';
import { InvalidDocumentInputError } from '../documents/errors.js';
import { IdSchema } from '../documents/schemas.js';
import { issuesOf } from '../graph/model.js';
import type { NewSessionEvent, TurnEffects } from '../store/types.js';
import { defineWorkflow, type StateReply } from '../workflow/define.js';
import type { SessionIdentity, Workflow } from '../workflow/types.js';
import { documentAgentMachine, type ActLimits, type DocumentAgentContext, type Outbox } from '../../machines/document-agent.js';
import { actLimitsOf } from './act-limits.js';
import { appendText } from './markdown.js';

export const DOCUMENT_AGENT_ID = 'document-agent';

/** The first reply: what the agent does, by example. */
export const DOCUMENT_AGENT_GREETING =
  "I keep this project's documents: I create them, add to them, change them and tell you what is in them. For example: Create a document called Recipes.";

const WORKING: Record<string, string> = {
  load_context: 'Reading the project…',
  decide: 'Working out what to do…',
  search: 'Searching the web…',
  create: 'Creating the document…',
  edit: 'Editing the document…',
  converse: 'Writing the answer…',
};

/** What a session starts from: the project its chat belongs to. */
export const DocumentAgentStartSchema = z.object({ projectId: IdSchema.describe('The project the chat belongs to') });

export interface DocumentAgentWorkflowOptions {
  /** How long a confirmation or a duplicate-name choice waits (ISO 8601 duration, default PT1H). */
  answerWithin?: string;
  /** The caps the commit checks again (an addition re-applied to a newer version may pass them): `DocumentLimits`' defaults when absent. */
  limits?: DocumentLimitsInput;
  /**
   * What one act (a message, or an answer to a confirmation) may spend: its
   * wall time (`DEFAULT_ACT_LIMITS`: 60 s). Reaching it ends the act with an
   * honest reply, HTTP 200, and nothing of it written but its messages.
   */
  actLimits?: Partial<ActLimits>;
}

/**
 * The reply's `DOCUMENT_AGENT` artifact: the decision, how the message ended
 * and what it did, for the API's `agent_decision` and the demo page.
 */
const agentArtifact = (c: DocumentAgentContext) => ({
  type: 'DOCUMENT_AGENT',
  decision: c.decision,
  outcome: c.outcome,
  webSearchPerformed: c.search?.performed === true,
  modelCalls: c.modelCalls,
  chatId: c.loaded?.chatId ?? null,
  projectId: c.projectId,
});

/**
 * The document agent (seed 002) as a workflow: one session per chat, one
 * text turn per message. What a message writes (its two chat messages, the
 * document it created or changed, the AgentActionCompletedEvent) is
 * committed with the snapshot that ends it (`effects`).
 *
 * The commit and the act's time limit: the limit (`actLimits.maxActMs`)
 * bounds everything before the commit (the context load, the decision, the
 * search, the reads and model calls of the change); the commit itself is
 * never cut at it. The commit is one transaction holding the change, the
 * reply, the session's snapshot and the turn id, so the reply stored is
 * always what was kept. Stopping it at the limit would leave an answer
 * ("stopped, nothing changed") that a commit landing afterwards makes false.
 * So a commit runs to its end within the store's own bounds (PostgreSQL's
 * statement and query timeouts; PGlite's commits finish); the answer is read
 * from what it committed, past the limit or not. If the store fails without
 * confirming (a lost link, a timeout on COMMIT) the act answers 503: the
 * message may or may not have been saved, and the same turn_id sent again
 * returns its answer if it was, or applies it now, never twice.
 */
export function documentAgentWorkflow(options: DocumentAgentWorkflowOptions = {}): Workflow {
  const limits = documentLimits(options.limits);
  actLimitsOf(options.actLimits, 'documentAgentWorkflow');
  return defineWorkflow({
    id: DOCUMENT_AGENT_ID,
    version: 1,
    title: 'Document agent',
    machine: documentAgentMachine,
    input: (context, session) => {
      const start = DocumentAgentStartSchema.safeParse(context ?? {});
      if (!start.success) throw new InvalidDocumentInputError(issuesOf(start.error).map((i) => ({ ...i, path: `context.${i.path ?? ''}`.replace(/\.$/, '') })));
      return {
        owner: session.owner,
        sessionId: session.sessionId,
        projectId: start.data.projectId,
        ...(options.answerWithin && { answerWithin: options.answerWithin }),
        ...(options.actLimits && { actLimits: options.actLimits }),
      };
    },
    reply: (snapshot): StateReply => {
      const c = snapshot.context as DocumentAgentContext;
      const state = String(snapshot.value);
      if (state in WORKING) return { message: WORKING[state]!, reason: 'working', artifacts: [agentArtifact(c)] };
      if (c.messageNo === 0) return { message: DOCUMENT_AGENT_GREETING, reason: 'awaiting_message', artifacts: [] };
      const reason = state === 'awaiting_confirmation' ? 'awaiting_confirmation' : state === 'awaiting_choice' ? 'awaiting_choice' : 'awaiting_message';
      return { message: c.reply ?? '', reason, artifacts: [agentArtifact(c)] };
    },
    effects: ({ before, after, session }) => {
      const box = (after.context as DocumentAgentContext).outbox;
      const saved = (before as Snapshot<unknown> & { context?: DocumentAgentContext }).context?.outbox;
      // Each message's outbox is written once, with the step that made it.
      if (!box || box.messageNo === saved?.messageNo) return null;
      return commitOutbox(box, session, (after.context as DocumentAgentContext).projectId, limits);
    },
  });
}

/** The seed's steps 3c (the document), 5 (the messages) and 6 (the event), in the turn's transaction. */
function commitOutbox(box: Outbox, session: SessionIdentity, projectId: number, limits: DocumentLimits): TurnEffects {
  return async (tx) => {
    const repo = documentRepository(tx, limits);
    let documentId = box.event?.documentId ?? null;
    const write = box.write;
    if (write?.kind === 'create')
      documentId = (await repo.createDocument(session.owner, write.projectId, { name: write.name, content: write.content, standingInstruction: write.standingInstruction })).id;
    // The version the edit was made from: moved since, the whole message is refused (never a lost update),
    // except an append, which is added again to the version there is now.
    else if (write?.kind === 'update') {
      let { expectedVersion, content } = write;
      if (write.append !== undefined) {
        const now = await repo.getDocument(session.owner, write.documentId);
        if (now.version !== expectedVersion) ({ version: expectedVersion, content } = { version: now.version, content: appendText(now.content, write.append) });
      }
      await repo.updateDocumentContent(write.documentId, expectedVersion, content);
    }
    // A message whose context load met the time limit has no chat read: it is the session's (made here if it is the first).
    const chatId = box.chatId ?? (box.user || box.assistant ? (await repo.chatForSession(session.owner, projectId, session.sessionId)).id : null);
    if (chatId !== null && box.user?.content) await repo.addMessage(chatId, 'user', box.user.content, {});
    if (chatId !== null && box.assistant) await repo.addMessage(chatId, 'assistant', box.assistant.content, { ...box.assistant.metadata, document_id: documentId });
    if (!box.event) return;
    const event: NewSessionEvent = {
      type: 'agent.action_completed',
      sessionId: session.sessionId,
      workflowId: DOCUMENT_AGENT_ID,
      owner: session.owner,
      to: null,
      gateId: null,
      data: {
        user_id: session.owner,
        chat_id: chatId,
        project_id: projectId,
        document_id: documentId,
        action_type: 'agent_action',
        success: box.event.success,
        metadata: box.event.metadata,
      },
    };
    return { events: [event] };
  };
}
