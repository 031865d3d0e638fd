import { documentRepository, type DocumentBrief } from '../documents/repository.js';
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
  return marked(content.slice(0, HEAD), content.length - HEAD - TAIL, content.slice(-TAIL));
}

const marked = (head: string, notShown: number, tail: string) => `${head}\n\n[… ${notShown} characters not shown …]\n\n${tail}`;

/** A document as the prompts show it: cut in the database when long (its start, its end and its length), so that a message never reads the project's whole contents. */
function shown(d: DocumentBrief): string {
  if (d.content !== null) return truncateContent(d.content);
  const { head, tail, characters } = d.cut!;
  return marked(head.slice(0, HEAD), characters - HEAD - TAIL, tail.slice(-TAIL));
}

/** Step 3a and 2c: the project, its documents (large ones cut), the chat that is this session and its last 10 messages (long ones cut). */
export async function loadContext(database: Pick<SqlDatabase, 'query'>, input: LoadContextInput): Promise<LoadedContext> {
  const repo = documentRepository(database);
  const project = await repo.getProject(input.owner, input.projectId);
  const chat = await repo.chatForSession(input.owner, input.projectId, input.sessionId);
  const [documents, history] = await Promise.all([repo.documentBriefs(project.id, { head: HEAD, tail: TAIL }), repo.lastMessages(chat.id, HISTORY_LIMIT)]);
  return {
    chatId: chat.id,
    project: { id: project.id, name: project.name, description: project.description },
    documents: documents.map((d) => ({ id: d.id, name: d.name, standing_instruction: d.standingInstruction, content: shown(d) })),
    // A long message (an answer of up to 1 MiB) is cut as a document is: the prompts carry at most 10 cut messages.
    history: history.map((m) => ({ role: m.role, content: truncateContent(m.content) })),
    focusDocumentId: documents.some((d) => d.id === chat.focusDocumentId) ? chat.focusDocumentId : null,
  };
}
