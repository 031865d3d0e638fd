import type { z } from 'zod';
import { issuesOf } from '../graph/model.js';
import type { SqlDatabase } from '../store/types.js';
import {
  ChatNotFoundError,
  DocumentNotFoundError,
  DocumentVersionConflictError,
  DuplicateDocumentNameError,
  InvalidDocumentInputError,
  ProjectNotFoundError,
} from './errors.js';
import { CapReachedError, checkContent, checkName, checkText, documentLimits, utf8Bytes, type DocumentLimits, type DocumentLimitsInput } from './limits.js';
import {
  DocumentContentSchema,
  ListPageSchema,
  IdSchema,
  MessageLimitSchema,
  MessagePageSchema,
  NewDocumentSchema,
  NewMessageSchema,
  NewProjectSchema,
  OwnerSchema,
  type Chat,
  type Document,
  type ListPage,
  type MessageMetadata,
  type MessagePage,
  type MessageRole,
  type Message,
  type NewDocument,
  type NewProject,
  type Owner,
  type Page,
  type Project,
} from './schemas.js';

/**
 * Projects, documents, chats and messages in the store's database (the tables
 * of schema change 3), PGlite and PostgreSQL alike. Every write is one
 * statement, so that nothing is half done. Calls that take an `owner` check
 * it: another owner's row is "not found". The others take ids the caller got
 * through such a call.
 */
export interface DocumentRepository {
  createProject(owner: Owner, project: NewProject): Promise<Project>;
  /** The owner's projects, oldest first. */
  listProjects(owner: Owner): Promise<Project[]>;
  /** A page of the owner's projects, oldest first: those after id `after`, at most `limit` (the caps' default and maximum). */
  projectPage(owner: Owner, page?: ListPage): Promise<Page<Project>>;
  /** Throws {@link ProjectNotFoundError} when unknown or another owner's. */
  getProject(owner: Owner, projectId: number): Promise<Project>;
  /**
   * Adds a document at version 1. Throws {@link DuplicateDocumentNameError}
   * (naming the existing document) when the project has one of that name,
   * ignoring case, and {@link ProjectNotFoundError} when the project is not the owner's.
   */
  createDocument(owner: Owner, projectId: number, document: NewDocument): Promise<Document>;
  /** The project's documents, oldest first. */
  listDocuments(projectId: number): Promise<Document[]>;
  /**
   * The project's documents as a prompt shows them, oldest first: a long
   * one's content as its first `head` and last `tail` characters and its
   * length, cut in the database, so that reading them never costs the
   * project's whole contents (up to 1000 documents of 1 MiB).
   */
  documentBriefs(projectId: number, cut: { head: number; tail: number }): Promise<DocumentBrief[]>;
  /** The project's documents' ids and names, oldest first. */
  documentNames(projectId: number): Promise<{ id: number; name: string }[]>;
  /**
   * A page of the project's documents, oldest first: those after id `after`,
   * at most `limit`, ending early once their contents pass `maxPageBytes`.
   */
  documentPage(projectId: number, page?: ListPage): Promise<Page<Document>>;
  /** Throws {@link DocumentNotFoundError} when unknown or in another owner's project. */
  getDocument(owner: Owner, documentId: number): Promise<Document>;
  /**
   * Replaces the content if the document is still at `expectedVersion`, in one
   * `UPDATE … WHERE version = $expected` (never a lost update), and returns the
   * new version. Throws {@link DocumentVersionConflictError} when it moved.
   */
  updateDocumentContent(documentId: number, expectedVersion: number, content: string): Promise<number>;
  /**
   * The seed's rule: the chat `chatId` when it is the owner's and in this
   * project; otherwise (none given, unknown, another project's, another
   * owner's) a new chat in the project. Throws {@link ProjectNotFoundError}
   * when the project is not the owner's.
   */
  getOrCreateChat(owner: Owner, projectId: number, chatId?: number | null): Promise<{ chat: Chat; created: boolean }>;
  /** Appends a message (numbered 1, 2, 3… in its chat). Throws {@link ChatNotFoundError}. */
  addMessage(chatId: number, role: MessageRole, content: string, metadata?: MessageMetadata): Promise<Message>;
  /** The chat's last `limit` (10) messages, oldest first. */
  lastMessages(chatId: number, limit?: number): Promise<Message[]>;
  /** The owner's chat. Throws {@link ChatNotFoundError} when unknown or another owner's. */
  findChat(owner: Owner, chatId: number): Promise<Chat>;
  /** A page of the owner's chat's messages, in order. Throws {@link ChatNotFoundError}. */
  listMessages(owner: Owner, chatId: number, page?: MessagePage): Promise<Message[]>;
  /** Makes the chat the session's (once: a chat is one session). */
  bindChatSession(chatId: number, sessionId: string): Promise<void>;
  /** The chat that is this session, created in the project when there is none (a session started without the act API). */
  chatForSession(owner: Owner, projectId: number, sessionId: string): Promise<Chat>;
  /** Sets the document the person has open (null: none). */
  focusChat(chatId: number, documentId: number | null): Promise<void>;
  /** The project's document of this name, ignoring case, or null. */
  findDocumentByName(projectId: number, name: string): Promise<Document | null>;
  /**
   * The owner's chat in the project whose session took a turn with this id,
   * or null: where a message sent again with its turn id and no chat id
   * belongs (the session's journal keeps every turn id it applied).
   */
  findChatByTurn(owner: Owner, projectId: number, turnId: string): Promise<Chat | null>;
}

/** Parses with a schema, or throws {@link InvalidDocumentInputError} listing the issues. */
function valid<S extends z.ZodType>(schema: S, value: unknown, path?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new InvalidDocumentInputError(issuesOf(result.error).map((i) => ({ ...i, path: path && i.path ? `${path}.${i.path}` : path || i.path })));
}

/** A page's size: the one asked for, else the default; over the maximum is the caller's mistake, said. */
function pageLimit(asked: number | undefined, byDefault: number, max: number): number {
  if (asked === undefined) return byDefault;
  if (asked > max) throw new InvalidDocumentInputError([{ path: 'limit', message: `must be from 1 to ${max}` }]);
  return asked;
}

/** `bigint` columns come back as strings from `pg`, as numbers from PGlite. */
const id = (value: string | number): number => Number(value);

interface ProjectRow {
  id: string | number;
  owner: string | null;
  name: string;
  description: string | null;
  created_at: Date;
}
interface DocumentRow {
  id: string | number;
  project_id: string | number;
  name: string;
  standing_instruction: string;
  content: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}
/** A document as the agent's prompts see it: whole when short, else cut (`content` null). */
export interface DocumentBrief {
  id: number;
  name: string;
  standingInstruction: string;
  /** The whole content: only when it is at most 3 × (head + tail) bytes (so no more characters than that). */
  content: string | null;
  /** A longer document: its first `head` and last `tail` characters, and how many it has (code points). */
  cut: { head: string; tail: string; characters: number } | null;
}
interface BriefRow {
  id: string | number;
  name: string;
  standing_instruction: string;
  content: string | null;
  head: string | null;
  tail: string | null;
  characters: number | null;
}
interface ChatRow {
  id: string | number;
  project_id: string | number;
  owner: string | null;
  session_id: string | null;
  focus_document_id: string | number | null;
  created_at: Date;
}
interface MessageRow {
  id: string | number;
  chat_id: string | number;
  seq: number;
  role: MessageRole;
  content: string;
  metadata: MessageMetadata;
  created_at: Date;
}

const toProject = (r: ProjectRow): Project => ({ id: id(r.id), owner: r.owner, name: r.name, description: r.description, createdAt: r.created_at });
const toDocument = (r: DocumentRow): Document => ({
  id: id(r.id),
  projectId: id(r.project_id),
  name: r.name,
  standingInstruction: r.standing_instruction,
  content: r.content,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const toChat = (r: ChatRow): Chat => ({
  id: id(r.id),
  projectId: id(r.project_id),
  owner: r.owner,
  sessionId: r.session_id,
  focusDocumentId: r.focus_document_id === null ? null : id(r.focus_document_id),
  createdAt: r.created_at,
});
const toMessage = (r: MessageRow): Message => ({
  id: id(r.id),
  chatId: id(r.chat_id),
  seq: r.seq,
  role: r.role,
  content: r.content,
  metadata: r.metadata,
  createdAt: r.created_at,
});

const PROJECT_COLUMNS = 'id, owner, name, description, created_at';
const DOCUMENT_COLUMNS = 'id, project_id, name, standing_instruction, content, version, created_at, updated_at';
const CHAT_COLUMNS = 'id, project_id, owner, session_id, focus_document_id, created_at';
const MESSAGE_COLUMNS = 'id, chat_id, seq, role, content, metadata, created_at';

/**
 * The document agent's data on a SQL store's database (`store.sql`), or in a
 * transaction already open (a turn's), within the caps (`DocumentLimits`;
 * defaults when absent).
 */
export function documentRepository(
  sql: Pick<SqlDatabase, 'query'> & Partial<Pick<SqlDatabase, 'transaction'>>,
  limitsInput?: DocumentLimitsInput | DocumentLimits,
): DocumentRepository {
  const limits = documentLimits(limitsInput);
  /**
   * A create under a count cap. On PostgreSQL, creates that race each count
   * the rows before any other has committed, and together pass the cap by
   * their number: the cap's key is locked for the transaction first, and the
   * create's own statement, run after the lock, counts what those before it
   * committed.
   */
  const underCap = <T>(key: string, create: (q: Pick<SqlDatabase, 'query'>) => Promise<T>): Promise<T> => {
    const locked = async (q: Pick<SqlDatabase, 'query'>) => {
      await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`gateflow cap ${key}`]);
      return create(q);
    };
    // Without `transaction`, `sql` is a transaction already (the lock is held until it ends).
    return sql.transaction ? sql.transaction(locked) : locked(sql);
  };
  const ownerOf = (owner: Owner) => valid(OwnerSchema, owner, 'owner');
  const idOf = (value: number, path: string) => valid(IdSchema, value, path);

  /** The owner's project, or null. */
  const findProject = async (owner: Owner, projectId: number) => {
    const { rows } = await sql.query<ProjectRow>(
      `SELECT ${PROJECT_COLUMNS} FROM gateflow_projects WHERE id = $1 AND owner IS NOT DISTINCT FROM $2`,
      [projectId, owner],
    );
    return rows[0] ? toProject(rows[0]) : null;
  };

  const findChat = async (owner: Owner, chatId: number): Promise<Chat> => {
    const { rows } = await sql.query<ChatRow>(`SELECT ${CHAT_COLUMNS} FROM gateflow_chats WHERE id = $1 AND owner IS NOT DISTINCT FROM $2`, [
      idOf(chatId, 'chatId'),
      ownerOf(owner),
    ]);
    if (!rows[0]) throw new ChatNotFoundError(chatId);
    return toChat(rows[0]);
  };

  return {
    async createProject(owner, project) {
      const p = valid(NewProjectSchema, project);
      checkName(limits, p.name);
      checkText(limits, p.description, 'description');
      // Counted in the insert itself (at most the cap's rows are read), under the cap's lock.
      const who = ownerOf(owner);
      const { rows } = await underCap(`projects of ${JSON.stringify(who)}`, (q) =>
        q.query<ProjectRow>(
          `INSERT INTO gateflow_projects (owner, name, description)
             SELECT $1, $2, $3
              WHERE (SELECT count(*) FROM (SELECT 1 FROM gateflow_projects WHERE owner IS NOT DISTINCT FROM $1 LIMIT $4) n) < $4
           RETURNING ${PROJECT_COLUMNS}`,
          [who, p.name, p.description, limits.maxProjectsPerOwner],
        ),
      );
      if (!rows[0]) throw new CapReachedError('maxProjectsPerOwner', limits.maxProjectsPerOwner);
      return toProject(rows[0]);
    },

    async listProjects(owner) {
      const { rows } = await sql.query<ProjectRow>(
        `SELECT ${PROJECT_COLUMNS} FROM gateflow_projects WHERE owner IS NOT DISTINCT FROM $1 ORDER BY id`,
        [ownerOf(owner)],
      );
      return rows.map(toProject);
    },

    async projectPage(owner, page = {}) {
      const p = valid(ListPageSchema, page, 'page');
      const limit = pageLimit(p.limit, limits.defaultProjectPage, limits.maxProjectPage);
      // One more than asked says whether there is a next page.
      const { rows } = await sql.query<ProjectRow>(
        `SELECT ${PROJECT_COLUMNS} FROM gateflow_projects WHERE owner IS NOT DISTINCT FROM $1 AND id > $2 ORDER BY id LIMIT $3`,
        [ownerOf(owner), p.after, limit + 1],
      );
      const items = rows.slice(0, limit).map(toProject);
      return { items, nextAfter: rows.length > limit ? items.at(-1)!.id : null };
    },

    async getProject(owner, projectId) {
      const found = await findProject(ownerOf(owner), idOf(projectId, 'projectId'));
      if (!found) throw new ProjectNotFoundError(projectId);
      return found;
    },

    async createDocument(owner, projectId, document) {
      const who = ownerOf(owner);
      const project = idOf(projectId, 'projectId');
      const d = valid(NewDocumentSchema, document);
      checkName(limits, d.name);
      checkText(limits, d.standingInstruction, 'standing_instruction');
      checkContent(limits, d.content);
      // The project's owner is checked in the same statement; a taken name inserts nothing.
      const { rows } = await underCap(`documents of project ${project}`, (q) =>
        q.query<DocumentRow>(
          `INSERT INTO gateflow_documents (project_id, name, standing_instruction, content)
             SELECT p.id, $3, $4, $5 FROM gateflow_projects p WHERE p.id = $1 AND p.owner IS NOT DISTINCT FROM $2
                AND (SELECT count(*) FROM (SELECT 1 FROM gateflow_documents WHERE project_id = $1 LIMIT $6) n) < $6
           ON CONFLICT (project_id, lower(name)) DO NOTHING
           RETURNING ${DOCUMENT_COLUMNS}`,
          [project, who, d.name, d.standingInstruction, d.content, limits.maxDocumentsPerProject],
        ),
      );
      if (rows[0]) return toDocument(rows[0]);
      if (!(await findProject(who, project))) throw new ProjectNotFoundError(project);
      const { rows: existing } = await sql.query<{ id: string | number; name: string }>(
        'SELECT id, name FROM gateflow_documents WHERE project_id = $1 AND lower(name) = lower($2)',
        [project, d.name],
      );
      // Documents are never deleted, so a row that refused the insert is still there; none: the project is full.
      const taken = existing[0];
      if (!taken) throw new CapReachedError('maxDocumentsPerProject', limits.maxDocumentsPerProject);
      throw new DuplicateDocumentNameError(project, id(taken.id), taken.name);
    },

    async listDocuments(projectId) {
      const { rows } = await sql.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM gateflow_documents WHERE project_id = $1 ORDER BY id`, [
        idOf(projectId, 'projectId'),
      ]);
      return rows.map(toDocument);
    },

    async documentBriefs(projectId, cut) {
      // A text of at most n bytes has at most n characters; one of more than 3 × (head + tail) bytes has more than head + tail.
      const whole = 3 * (cut.head + cut.tail);
      const { rows } = await sql.query<BriefRow>(
        `SELECT id, name, standing_instruction,
                CASE WHEN octet_length(content) <= $2 THEN content END AS content,
                CASE WHEN octet_length(content) > $2 THEN left(content, $3) END AS head,
                CASE WHEN octet_length(content) > $2 THEN right(content, $4) END AS tail,
                CASE WHEN octet_length(content) > $2 THEN char_length(content) END AS characters
           FROM gateflow_documents WHERE project_id = $1 ORDER BY id`,
        [idOf(projectId, 'projectId'), whole, cut.head, cut.tail],
      );
      return rows.map((r) => ({
        id: id(r.id),
        name: r.name,
        standingInstruction: r.standing_instruction,
        content: r.content,
        cut: r.content === null ? { head: r.head ?? '', tail: r.tail ?? '', characters: Number(r.characters ?? 0) } : null,
      }));
    },

    async documentNames(projectId) {
      const { rows } = await sql.query<{ id: string | number; name: string }>('SELECT id, name FROM gateflow_documents WHERE project_id = $1 ORDER BY id', [idOf(projectId, 'projectId')]);
      return rows.map((r) => ({ id: id(r.id), name: r.name }));
    },

    async documentPage(projectId, page = {}) {
      const p = valid(ListPageSchema, page, 'page');
      const limit = pageLimit(p.limit, limits.defaultDocumentPage, limits.maxDocumentPage);
      const { rows } = await sql.query<DocumentRow>(
        `SELECT ${DOCUMENT_COLUMNS} FROM gateflow_documents WHERE project_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
        [idOf(projectId, 'projectId'), p.after, limit + 1],
      );
      // The page ends at `limit` documents, or earlier once their contents pass the page's bytes (one always fits).
      const items: Document[] = [];
      let bytes = 0;
      for (const row of rows.slice(0, limit)) {
        bytes += utf8Bytes(row.content);
        if (items.length > 0 && bytes > limits.maxPageBytes) break;
        items.push(toDocument(row));
      }
      return { items, nextAfter: rows.length > items.length ? items.at(-1)!.id : null };
    },

    async getDocument(owner, documentId) {
      const { rows } = await sql.query<DocumentRow>(
        `SELECT ${DOCUMENT_COLUMNS.split(', ').map((c) => `d.${c}`).join(', ')}
           FROM gateflow_documents d JOIN gateflow_projects p ON p.id = d.project_id
          WHERE d.id = $1 AND p.owner IS NOT DISTINCT FROM $2`,
        [idOf(documentId, 'documentId'), ownerOf(owner)],
      );
      if (!rows[0]) throw new DocumentNotFoundError(documentId);
      return toDocument(rows[0]);
    },

    async updateDocumentContent(documentId, expectedVersion, content) {
      const doc = idOf(documentId, 'documentId');
      const expected = valid(IdSchema, expectedVersion, 'expectedVersion');
      const text = valid(DocumentContentSchema, content, 'content');
      checkContent(limits, text);
      const { rows } = await sql.query<{ version: number }>(
        `UPDATE gateflow_documents SET content = $3, version = version + 1, updated_at = now()
          WHERE id = $1 AND version = $2 RETURNING version`,
        [doc, expected, text],
      );
      if (rows[0]) return rows[0].version;
      const { rows: now } = await sql.query<{ version: number }>('SELECT version FROM gateflow_documents WHERE id = $1', [doc]);
      if (!now[0]) throw new DocumentNotFoundError(doc);
      throw new DocumentVersionConflictError(doc, expected, now[0].version);
    },

    async getOrCreateChat(owner, projectId, chatId) {
      const who = ownerOf(owner);
      const project = idOf(projectId, 'projectId');
      const wanted = chatId === undefined || chatId === null ? null : idOf(chatId, 'chatId');
      // The project (the owner's) and, when asked, the chat if it is the owner's and in that project.
      const { rows } = await sql.query<{ project: string | number } & { [K in keyof ChatRow]: ChatRow[K] | null }>(
        `SELECT p.id AS project, ${CHAT_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ')}
           FROM gateflow_projects p
           LEFT JOIN gateflow_chats c ON c.id = $3 AND c.project_id = p.id AND c.owner IS NOT DISTINCT FROM $2
          WHERE p.id = $1 AND p.owner IS NOT DISTINCT FROM $2`,
        [project, who, wanted],
      );
      const row = rows[0];
      if (!row) throw new ProjectNotFoundError(project);
      if (row.id !== null) return { chat: toChat(row as ChatRow), created: false };
      const { rows: made } = await underCap(`chats of project ${project}`, (q) =>
        q.query<ChatRow>(
          `INSERT INTO gateflow_chats (project_id, owner)
             SELECT $1, $2 WHERE (SELECT count(*) FROM (SELECT 1 FROM gateflow_chats WHERE project_id = $1 LIMIT $3) n) < $3
           RETURNING ${CHAT_COLUMNS}`,
          [project, who, limits.maxChatsPerProject],
        ),
      );
      if (!made[0]) throw new CapReachedError('maxChatsPerProject', limits.maxChatsPerProject);
      return { chat: toChat(made[0]), created: true };
    },

    async addMessage(chatId, role, content, metadata) {
      const chat = idOf(chatId, 'chatId');
      const m = valid(NewMessageSchema, { role, content, metadata });
      // Taking the next number locks the chat's row, so that messages added together are numbered in turn.
      // The chat's count of messages is its last number: the cap is checked under the same row lock.
      const { rows } = await sql.query<MessageRow>(
        `WITH c AS (UPDATE gateflow_chats SET last_seq = last_seq + 1 WHERE id = $1 AND last_seq < $5 RETURNING id, last_seq)
         INSERT INTO gateflow_messages (chat_id, seq, role, content, metadata)
           SELECT c.id, c.last_seq, $2, $3, $4::jsonb FROM c
         RETURNING ${MESSAGE_COLUMNS}`,
        [chat, m.role, m.content, JSON.stringify(m.metadata), limits.maxMessagesPerChat],
      );
      if (!rows[0]) {
        const { rows: found } = await sql.query('SELECT 1 FROM gateflow_chats WHERE id = $1', [chat]);
        if (found.length > 0) throw new CapReachedError('maxMessagesPerChat', limits.maxMessagesPerChat);
        throw new ChatNotFoundError(chat);
      }
      return toMessage(rows[0]);
    },

    async lastMessages(chatId, limit) {
      const { rows } = await sql.query<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM (
           SELECT ${MESSAGE_COLUMNS} FROM gateflow_messages WHERE chat_id = $1 ORDER BY seq DESC LIMIT $2
         ) last ORDER BY seq`,
        [idOf(chatId, 'chatId'), valid(MessageLimitSchema, limit, 'limit')],
      );
      return rows.map(toMessage);
    },

    findChat,

    async listMessages(owner, chatId, page = {}) {
      const chat = await findChat(owner, chatId);
      const p = valid(MessagePageSchema, page, 'page');
      const { rows } = await sql.query<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM gateflow_messages WHERE chat_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [chat.id, p.after, p.limit],
      );
      return rows.map(toMessage);
    },

    async bindChatSession(chatId, sessionId) {
      const { rows } = await sql.query<{ id: string | number }>(
        'UPDATE gateflow_chats SET session_id = $2 WHERE id = $1 AND (session_id IS NULL OR session_id = $2) RETURNING id',
        [idOf(chatId, 'chatId'), sessionId],
      );
      if (!rows[0]) throw new ChatNotFoundError(chatId);
    },

    async chatForSession(owner, projectId, sessionId) {
      const who = ownerOf(owner);
      const project = idOf(projectId, 'projectId');
      // Created at most once per session (the unique index), whoever gets there first.
      await underCap(`chats of project ${project}`, (q) =>
        q.query(
          `INSERT INTO gateflow_chats (project_id, owner, session_id)
             SELECT p.id, p.owner, $3 FROM gateflow_projects p WHERE p.id = $1 AND p.owner IS NOT DISTINCT FROM $2
                AND (SELECT count(*) FROM (SELECT 1 FROM gateflow_chats WHERE project_id = $1 LIMIT $4) n) < $4
           ON CONFLICT (session_id) DO NOTHING`,
          [project, who, sessionId, limits.maxChatsPerProject],
        ),
      );
      const { rows } = await sql.query<ChatRow>(`SELECT ${CHAT_COLUMNS} FROM gateflow_chats WHERE session_id = $1 AND project_id = $2`, [sessionId, project]);
      if (!rows[0]) {
        if (await findProject(who, project)) throw new CapReachedError('maxChatsPerProject', limits.maxChatsPerProject);
        throw new ProjectNotFoundError(project);
      }
      return toChat(rows[0]);
    },

    async focusChat(chatId, documentId) {
      await sql.query('UPDATE gateflow_chats SET focus_document_id = $2 WHERE id = $1', [
        idOf(chatId, 'chatId'),
        documentId === null ? null : idOf(documentId, 'documentId'),
      ]);
    },

    async findChatByTurn(owner, projectId, turnId) {
      const { rows } = await sql.query<ChatRow>(
        `SELECT ${CHAT_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ')}
           FROM gateflow_chats c
          WHERE c.project_id = $1 AND c.owner IS NOT DISTINCT FROM $2
            AND EXISTS (SELECT 1 FROM gateflow_journal j WHERE j.session_id = c.session_id AND j.turn_id = $3)
          ORDER BY c.id LIMIT 1`,
        [idOf(projectId, 'projectId'), ownerOf(owner), turnId],
      );
      return rows[0] ? toChat(rows[0]) : null;
    },

    async findDocumentByName(projectId, name) {
      const { rows } = await sql.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM gateflow_documents WHERE project_id = $1 AND lower(name) = lower($2)`, [
        idOf(projectId, 'projectId'),
        // Names are kept in NFC (NameSchema): one typed in another form is the same name.
        name.trim().normalize('NFC'),
      ]);
      return rows[0] ? toDocument(rows[0]) : null;
    },
  };
}
