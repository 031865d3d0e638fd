import { z } from 'zod';
import { GateflowError } from '../error/gateflow-error.js';

/**
 * How large the document agent's data may grow, whoever writes it (an HTTP
 * caller, the agent's model, a library call): the repository checks every
 * write against these, and the agent checks its model's output before it
 * keeps it, so that a refused output is neither stored nor echoed.
 */
export const DocumentLimitsSchema = z.strictObject({
  /** A document's content, in UTF-8 bytes (default 1 MiB). */
  maxContentBytes: z.number().int().min(1).max(256 * 1024 * 1024).default(1024 * 1024),
  /** A project's or a document's name, in characters (default 200). */
  maxNameLength: z.number().int().min(1).max(10_000).default(200),
  /** A project's description and a document's standing instruction, in characters (default 4000). */
  maxTextLength: z.number().int().min(1).max(1_000_000).default(4000),
  /** How many documents a list page holds unless asked (default 20); and at most (default 100). */
  defaultDocumentPage: z.number().int().min(1).max(1000).default(20),
  maxDocumentPage: z.number().int().min(1).max(1000).default(100),
  /** How many projects a list page holds unless asked (default 50); and at most (default 500). */
  defaultProjectPage: z.number().int().min(1).max(10_000).default(50),
  maxProjectPage: z.number().int().min(1).max(10_000).default(500),
  /** A documents page ends early once its contents pass this many bytes (default 4 MiB; one document always fits). */
  maxPageBytes: z.number().int().min(1).max(1024 * 1024 * 1024).default(4 * 1024 * 1024),
  /** How many projects one owner may have (default 1000; the anonymous owner of a server without auth is one owner). */
  maxProjectsPerOwner: z.number().int().min(1).max(100_000_000).default(1000),
  /** How many documents one project may hold (default 1000). */
  maxDocumentsPerProject: z.number().int().min(1).max(100_000_000).default(1000),
  /** How many chats one project may hold (default 10,000: each act call without a chat_id starts one). */
  maxChatsPerProject: z.number().int().min(1).max(100_000_000).default(10_000),
  /** How many messages one chat may hold (default 10,000: a person's and the agent's, two or more per act call). */
  maxMessagesPerChat: z.number().int().min(1).max(100_000_000).default(10_000),
});
export type DocumentLimits = z.output<typeof DocumentLimitsSchema>;
/** The caps to set, each optional (the rest keep their defaults). */
export type DocumentLimitsInput = z.input<typeof DocumentLimitsSchema>;

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = DocumentLimitsSchema.parse({});

/** The caps, from what a host set; a cap that is not a sensible number is said at start. */
export function documentLimits(input: DocumentLimitsInput | undefined): DocumentLimits {
  const parsed = DocumentLimitsSchema.safeParse(input ?? {});
  if (!parsed.success) throw new TypeError(`document limits: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const limits = parsed.data;
  if (limits.defaultDocumentPage > limits.maxDocumentPage) throw new TypeError('document limits: defaultDocumentPage is larger than maxDocumentPage');
  if (limits.defaultProjectPage > limits.maxProjectPage) throw new TypeError('document limits: defaultProjectPage is larger than maxProjectPage');
  return limits;
}

const encoder = new TextEncoder();
/** A text's size in UTF-8 bytes, as the store and the wire count it. */
export const utf8Bytes = (text: string): number => encoder.encode(text).length;

/** "1.5 MB (1,572,864 bytes)": a size a person reads, with the exact figure. */
export function formatBytes(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  if (bytes < 1024) return exact;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${Number(value.toFixed(1))} ${unit} (${exact})`;
}

/** A document's content over the cap (413): nothing was written. The message says the size and the cap, never the text. */
export class DocumentTooLargeError extends GateflowError {
  override readonly name = 'DocumentTooLargeError';
  readonly code = 'document_too_large';
  readonly status = 413;
  constructor(
    /** What was too large, e.g. "the document's content", "the rewritten document". */
    readonly what: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`${what} would be ${formatBytes(bytes)}, over this server's cap of ${formatBytes(maxBytes)} (maxContentBytes)`);
  }
}

/** A name or a text field over its cap (422): nothing was written. */
export class TextTooLongError extends GateflowError {
  override readonly name = 'TextTooLongError';
  readonly code = 'text_too_long';
  readonly status = 422;
  constructor(
    /** The field, e.g. "name", "description", "standing_instruction". */
    readonly field: string,
    readonly length: number,
    readonly maxLength: number,
    /** The option that sets the cap. */
    readonly cap: 'maxNameLength' | 'maxTextLength',
  ) {
    super(`the ${field} is ${length.toLocaleString('en-US')} characters long, over this server's cap of ${maxLength.toLocaleString('en-US')} (${cap})`);
  }
}

/** The caps on how many of a thing there may be. */
export type CountCap = 'maxProjectsPerOwner' | 'maxDocumentsPerProject' | 'maxChatsPerProject' | 'maxMessagesPerChat';

/** A create refused because the container holds as many as the cap allows (409): nothing was written. */
export class CapReachedError extends GateflowError {
  override readonly name = 'CapReachedError';
  readonly code = 'cap_reached';
  readonly status = 409;
  constructor(
    /** The option that sets the cap. */
    readonly cap: CountCap,
    readonly max: number,
  ) {
    super(`${CAP_WORDS[cap](max.toLocaleString('en-US'))}, this server's cap (${cap}); nothing was created`);
  }
}

const CAP_WORDS: Record<CountCap, (max: string) => string> = {
  maxProjectsPerOwner: (max) => `you have ${max} projects already`,
  maxDocumentsPerProject: (max) => `this project has ${max} documents already`,
  maxChatsPerProject: (max) => `this project has ${max} chats already`,
  maxMessagesPerChat: (max) => `this chat has ${max} messages already: start a new chat`,
};

/** Throws when a document's content is over the cap. */
export function checkContent(limits: DocumentLimits, content: string, what = "the document's content"): void {
  // Bytes are at most 3 per UTF-16 unit (4 per surrogate pair of 2 units): most texts need no encoding to decide.
  if (content.length * 3 <= limits.maxContentBytes) return;
  const bytes = utf8Bytes(content);
  if (bytes > limits.maxContentBytes) throw new DocumentTooLargeError(what, bytes, limits.maxContentBytes);
}

/** Throws when a name is over the cap (counted as the store keeps it: trimmed, NFC). */
export function checkName(limits: DocumentLimits, name: string, field = 'name'): void {
  const length = [...name.trim().normalize('NFC')].length;
  if (length > limits.maxNameLength) throw new TextTooLongError(field, length, limits.maxNameLength, 'maxNameLength');
}

/** Throws when a description or standing instruction is over the cap. */
export function checkText(limits: DocumentLimits, text: string | null | undefined, field: string): void {
  const length = text ? [...text].length : 0;
  if (length > limits.maxTextLength) throw new TextTooLongError(field, length, limits.maxTextLength, 'maxTextLength');
}
