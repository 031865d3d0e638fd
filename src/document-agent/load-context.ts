import { documentRepository } from '../documents/repository.js';
import type { SqlDatabase } from '../store/types.js';
import type { LoadContextInput, LoadedContext } from '../../machines/document-agent.js';

/** The seed's smart truncation: a document longer than this is shown as its start and its end. */
export const TRUNCATE_ABOVE = 2000;
const HEAD = 1500;
const TAIL = 500;
/** How many of the chat's messages the prompts see (the seed's 10). */
export const HISTORY_LIMIT = 10;

/** First 1500 and last 500 characters of a large document, with a marker between (the seed's notes). */
export function truncateContent(content: string): string {
  if (content.length <= TRUNCATE_ABOVE) return content;
  const cut = content.length - HEAD - TAIL;
  return `${content.slice(0, HEAD)}\n\n[… ${cut} characters not shown …]\n\n${content.slice(-TAIL)}`;
}

/** Step 3a and 2c: the project, its documents (large ones cut), the chat that is this session and its last 10 messages. */
export async function loadContext(database: Pick<SqlDatabase, 'query'>, input: LoadContextInput): Promise<LoadedContext> {
  const repo = documentRepository(database);
  const project = await repo.getProject(input.owner, input.projectId);
  const chat = await repo.chatForSession(input.owner, input.projectId, input.sessionId);
  const [documents, history] = await Promise.all([repo.listDocuments(project.id), repo.lastMessages(chat.id, HISTORY_LIMIT)]);
  return {
    chatId: chat.id,
    project: { id: project.id, name: project.name, description: project.description },
    documents: documents.map((d) => ({ id: d.id, name: d.name, standing_instruction: d.standingInstruction, content: truncateContent(d.content) })),
    history: history.map((m) => ({ role: m.role, content: m.content })),
    focusDocumentId: documents.some((d) => d.id === chat.focusDocumentId) ? chat.focusDocumentId : null,
  };
}
