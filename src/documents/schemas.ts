import { z } from 'zod';
import { isWellFormed } from '../workflow/untrusted-string.js';

/**
 * The document agent's data: projects, their documents, chats and messages.
 * These schemas are the single source of the types, and of what the
 * repository accepts before anything reaches the store.
 */

/**
 * Text a column keeps verbatim: PostgreSQL refuses a NUL character in text and
 * jsonb, and rewrites a lone surrogate to U+FFFD, so both are refused here
 * rather than failing in the store or being changed silently.
 */
export const storable = (text: z.ZodString) =>
  text
    .refine((s) => !s.includes('\u0000'), { message: 'must not contain a NUL character' })
    .refine(isWellFormed, { message: 'must be well-formed text (no lone surrogate)' });

/**
 * A name: surrounding whitespace dropped, in Unicode NFC (so that "Café" typed
 * with a combining accent is the same name as "Café"), not empty. Its length
 * is the server's cap (`DocumentLimits.maxNameLength`, 200 by default), which
 * the repository checks, so that a host can set it.
 */
const NameSchema = storable(z.string().trim().normalize('NFC').min(1, 'must not be empty'));

/**
 * Ids are `bigint` identity columns: the seed's API shows integer ids
 * (`"project_id": 1`), and an identity never repeats, unlike text ids a caller
 * could choose. JavaScript numbers hold them exactly up to 2^53.
 */
export const IdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export type Id = z.infer<typeof IdSchema>;

/** The JWT subject that owns a row, or null when the server has no auth. Owners match exactly: null sees only null. */
export const OwnerSchema = z.string().nullable();
export type Owner = z.infer<typeof OwnerSchema>;

export const NewProjectSchema = z.strictObject({
  name: NameSchema,
  description: storable(z.string()).nullable().default(null),
});
export type NewProject = z.input<typeof NewProjectSchema>;

export const ProjectSchema = z.strictObject({
  id: IdSchema,
  owner: OwnerSchema,
  name: z.string(),
  description: z.string().nullable(),
  createdAt: z.date(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const NewDocumentSchema = z.strictObject({
  /** Unique in its project, ignoring case. */
  name: NameSchema,
  /** What the agent keeps doing whenever it edits this document. */
  standingInstruction: storable(z.string()).default(''),
  /** Markdown, stored verbatim. */
  content: storable(z.string()).default(''),
});
export type NewDocument = z.input<typeof NewDocumentSchema>;

export const DocumentSchema = z.strictObject({
  id: IdSchema,
  projectId: IdSchema,
  name: z.string(),
  standingInstruction: z.string(),
  content: z.string(),
  /** Starts at 1; every saved content change adds one (optimistic locking). */
  version: z.number().int().positive(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type Document = z.infer<typeof DocumentSchema>;

/** Markdown content for an update, stored verbatim. */
export const DocumentContentSchema = storable(z.string());

export const ChatSchema = z.strictObject({
  id: IdSchema,
  projectId: IdSchema,
  owner: OwnerSchema,
  /** The document agent session the chat is (null until its first message). */
  sessionId: z.string().nullable(),
  /** The document the person has open, which "add this" refers to (the API's `document_id`). */
  focusDocumentId: IdSchema.nullable(),
  createdAt: z.date(),
});
export type Chat = z.infer<typeof ChatSchema>;

export const MessageRoleSchema = z.enum(['user', 'assistant']);
export type MessageRole = z.infer<typeof MessageRoleSchema>;

/** A message's metadata: a JSON object (jsonb, which refuses a NUL character in any string). */
export const MessageMetadataSchema = z
  .record(z.string(), z.json())
  .refine((m) => !JSON.stringify(m).includes('\\u0000'), { message: 'must not contain a NUL character' });
export type MessageMetadata = z.infer<typeof MessageMetadataSchema>;

export const NewMessageSchema = z.strictObject({
  role: MessageRoleSchema,
  content: storable(z.string()),
  metadata: MessageMetadataSchema.default({}),
});

export const MessageSchema = z.strictObject({
  id: IdSchema,
  chatId: IdSchema,
  /** 1, 2, 3… in the order the chat's messages were added. */
  seq: z.number().int().positive(),
  role: MessageRoleSchema,
  content: z.string(),
  metadata: MessageMetadataSchema,
  createdAt: z.date(),
});
export type Message = z.infer<typeof MessageSchema>;

/** A window on a list of projects or documents: those with an id greater than `after`, at most `limit` (the caps' default and maximum). */
export const ListPageSchema = z.strictObject({
  after: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).optional(),
});
export type ListPage = z.input<typeof ListPageSchema>;

/** One page of a list, and the `after` of the next (null on the last). */
export interface Page<T> {
  items: T[];
  nextAfter: number | null;
}

/** A window on a chat's messages: those with seq greater than `after`, at most `limit` (100 unless asked, at most 1000). */
export const MessagePageSchema = z.strictObject({
  after: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(1000).default(100),
});
export type MessagePage = z.input<typeof MessagePageSchema>;

/** How many messages `lastMessages` returns: 10 unless asked, at most 1000. */
export const MessageLimitSchema = z.number().int().min(1).max(1000).default(10);
