import { isWellFormed } from '../workflow/untrusted-string.js';
import { decisionOf, type AgentDecision, type EditOperation } from './schemas.js';

/**
 * The document agent's offline reader: the decision of step 3b without a
 * model, for the few explicit commands whose meaning is certain from their
 * words alone: create a document called X, add this to X: <text>, delete the
 * S section from X, and which documents do I have. Anything else (an extra
 * clause, a question about content, a name it cannot read plainly, a reference
 * to several documents) gets null, and a model decides: a wrong edit is worse
 * than a question asked again.
 *
 * Names are read strictly: a quoted name is taken as written; an unquoted one
 * must be a few plain words with none of the words that start another clause
 * ("and", "with", "about", "to", …), since "Recipes with my favourites" may be
 * a name or a name and an instruction.
 */

export interface OfflineReading {
  decision: AgentDecision;
  /** The edit to make, for an add or a section removal of a known document; null otherwise. */
  edit: EditOperation | null;
}

interface DocumentRef {
  id: number;
  name: string;
}

const REASONING = 'Read offline: an explicit command.';
/** A message longer than this is not read offline. */
export const MAX_OFFLINE_MESSAGE = 100_000;
/** The command part of a message (all of it but an added text) is never longer than this. */
const MAX_COMMAND = 600;
/** The store's limit on a document's name. */
const MAX_NAME = 200;
/** An unquoted name is at most this many words. */
const MAX_NAME_WORDS = 8;

/** Control characters other than tab, line feed and carriage return (NUL included). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Words that start another clause or qualify the name: an unquoted name holding one is not read. */
const CLAUSE_WORDS = new Set(
  ('and or but nor with without about regarding containing contains including listing that which who whom whose where when ' +
    'while if then also to into onto from for in on of by at as so because please not no instead plus after before under above ' +
    'below using like than via per except now too again immediately later asap').split(' '),
);
/** Names that point at something instead of naming it. */
const POINTING = new Set(
  ('the a an it this that these those them there here something anything everything whatever one same other another document doc page ' +
    'note file section project end top bottom start beginning middle').split(' '),
);
/** Words that pick a section by position or amount rather than by name. */
const SECTION_PICKERS = new Set(
  'all every each any whole entire first last second third next previous final top bottom empty my your our their this that these those'.split(
    ' ',
  ),
);

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '`': '`', '«': '»' };

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const key = (text: string) => squash(text).normalize('NFC').toLowerCase();

/** A name read from a command: the text inside quotes, or plain words; null when it cannot be read plainly. */
function nameOf(raw: string, { quotedOnly = false } = {}): string | null {
  const text = squash(raw);
  const close = QUOTES[text[0] ?? ''];
  if (close && text.length > 2 && text.endsWith(close)) {
    const inner = text.slice(1, -1).trim();
    // The quote may appear inside only as an apostrophe between letters ("Mom's").
    const stray = inner.replace(/(?<=\p{L})['’](?=\p{L})/gu, '');
    if (!inner || stray.includes(text[0]!) || stray.includes(close)) return null;
    return inner.length <= MAX_NAME ? inner : null;
  }
  if (quotedOnly) return null;
  return plainName(text);
}

/** Plain unquoted words: letters and digits, a few joining marks, no clause word, no Markdown. */
function plainName(text: string): string | null {
  if (!text || text.length > MAX_NAME) return null;
  if (!/^[\p{L}\p{N}][\p{L}\p{N}\p{M} '’&+\-/()]*$/u.test(text)) return null;
  if (/[\p{L}\p{N}\p{M})]$/u.test(text) === false) return null;
  // An apostrophe only inside a word ("Mom's"), never as a quote.
  if (/(?:^|[^\p{L}])['’]|['’](?:$|[^\p{L}])/u.test(text)) return null;
  const words = text.toLowerCase().split(' ');
  if (words.length > MAX_NAME_WORDS) return null;
  if (words.some((w) => CLAUSE_WORDS.has(w))) return null;
  if (words.length === 1 && POINTING.has(words[0]!)) return null;
  return text;
}

/** The forms of a reference to a document, closest first: as written, then without "the"/"my" or " document", then without both. */
function referenceForms(raw: string): string[][] {
  const unquote = (s: string) => nameOf(s, { quotedOnly: true }) ?? s;
  const article = (s: string) => s.replace(/^(?:the|my)\s+/i, '');
  const suffix = (s: string) => s.replace(/\s+(?:document|doc)$/i, '');
  const written = squash(raw);
  return [
    [unquote(written)],
    [unquote(article(written)), unquote(suffix(written))],
    [unquote(suffix(unquote(article(written)))), unquote(article(unquote(suffix(written))))],
  ];
}

type Resolution = { kind: 'found'; document: DocumentRef } | { kind: 'missing'; name: string } | null;

/**
 * The one document a reference names, ignoring case, a leading "the" or "my",
 * a trailing " document" and quotes; the closest form that names any document
 * wins. Several documents named alike: null. None: the name as written, if it
 * is a plain name (so "the dessert section of Recipes" is not taken for one).
 */
function resolve(raw: string, documents: readonly DocumentRef[]): Resolution {
  if (squash(raw).length > MAX_NAME + 20) return null;
  const forms = referenceForms(raw);
  for (const tier of forms) {
    const keys = new Set(tier.map(key));
    const hits = documents.filter((d) => keys.has(key(d.name)));
    if (hits.length === 1) return { kind: 'found', document: hits[0]! };
    if (hits.length > 1) return null;
  }
  const name = missingName(raw);
  return name ? { kind: 'missing', name } : null;
}

/**
 * The name a reference to no document gives, without "the"/"my", " document"
 * and quotes: quoted, as written; unquoted, only when it is a plain name.
 */
function missingName(raw: string): string | null {
  let text = squash(raw);
  const quoted = () => nameOf(text, { quotedOnly: true });
  for (const strip of [(s: string) => s, (s: string) => s.replace(/^(?:the|my)\s+/i, ''), (s: string) => s.replace(/\s+(?:document|doc)$/i, '')]) {
    text = strip(text);
    const inner = quoted();
    if (inner !== null) return inner;
  }
  return plainName(text);
}

/** A section's name as a command gives it: quoted, or plain words that do not pick it by position. */
function sectionName(raw: string): string | null {
  const text = squash(raw).replace(/^the\s+/i, '');
  const quoted = nameOf(text, { quotedOnly: true });
  if (quoted !== null) return quoted;
  const name = plainName(text);
  if (!name || name.toLowerCase().split(' ').some((w) => SECTION_PICKERS.has(w) || POINTING.has(w))) return null;
  return name;
}

interface Command {
  /** The command's words, without politeness around them. */
  core: string;
  /** Asked as a question ("can you …"), so a final "?" is expected. */
  asked: boolean;
}

const POLITE_PREFIXES: { pattern: RegExp; asked: boolean }[] = [
  { pattern: /^(?:please|kindly),?\s+/i, asked: false },
  { pattern: /^(?:can|could|would|will)\s+you(?:\s+please)?,?\s+/i, asked: true },
  { pattern: /^let['’]?s\s+|^let\s+us\s+/i, asked: false },
  { pattern: /^i(?:\s+(?:want|need|would\s+like)|['’]d\s+like)\s+you\s+to\s+/i, asked: false },
];

/** Drops "please", "can you", "let's" and the like from the start, and returns what is left. */
function unwrapStart(text: string): Command {
  let core = text.trim();
  let asked = false;
  for (let changed = true; changed; ) {
    changed = false;
    for (const prefix of POLITE_PREFIXES) {
      const match = prefix.pattern.exec(core);
      if (match) {
        core = core.slice(match[0].length).trim();
        asked ||= prefix.asked;
        changed = true;
      }
    }
  }
  return { core, asked };
}

/** Drops final punctuation and a final "please"; a "?" only when `questionOk`, else null. */
function unwrapEnd(text: string, questionOk: boolean): string | null {
  let core = text;
  for (let changed = true; changed; ) {
    const next = core.replace(/\s*[.!]+$/, '').replace(/,?\s+please$/i, '').replace(/,?\s+(?:thanks|thank\s+you)$/i, '');
    changed = next !== core;
    core = next;
    if (/\?$/.test(core)) {
      if (!questionOk) return null;
      core = core.replace(/\s*\?+$/, '');
      changed = true;
    }
  }
  return core.trim();
}

const NOUN = String.raw`(?:document|doc|page|note)`;
const CREATE_VERB = String.raw`(?:create|make|add|start)(?:\s+me)?`;
const ARTICLE = String.raw`(?:(?:a|an|one)\s+)?`;
const FRESH = String.raw`(?:new\s+)?(?:(?:blank|empty)\s+)?`;
const NAMING = String.raw`(?:called|named|titled|entitled):?`;

/** "create a new document called X", "new doc named X", "I'd like a page titled X". */
const CREATE_CALLED = new RegExp(
  String.raw`^(?:${CREATE_VERB}\s+${ARTICLE}${FRESH}|new\s+(?:(?:blank|empty)\s+)?|i(?:\s+(?:want|need|would\s+like)|['’]d\s+like)\s+(?:a|an)\s+${FRESH})${NOUN}\s+${NAMING}\s+(.+)$`,
  'i',
);
/** "create a document 'X'" and "create a new 'X' document": the name only when quoted. */
const CREATE_QUOTED = [
  new RegExp(String.raw`^${CREATE_VERB}\s+${ARTICLE}${FRESH}${NOUN}\s+(.+)$`, 'i'),
  new RegExp(String.raw`^${CREATE_VERB}\s+${ARTICLE}${FRESH}(.+?)\s+${NOUN}$`, 'i'),
];

const DELETE_VERB = String.raw`(?:delete|remove|drop|erase|get\s+rid\s+of)`;
/** "delete the Budget section from the Budget document", "remove the section called Budget from Budget", "delete section 'Day 2' from X". */
const DELETE_SECTION = [
  new RegExp(String.raw`^${DELETE_VERB}\s+(?:the\s+)?section\s+(?:${NAMING}\s+)?(.+?)\s+(?:from|in|of)\s+(.+)$`, 'i'),
  new RegExp(String.raw`^${DELETE_VERB}\s+(.+?)\s+section\s+(?:from|in|of)\s+(.+)$`, 'i'),
];

const ADDED = String.raw`(?:this(?:\s+(?:text|note|line))?|these\s+(?:notes|lines)|the\s+following(?:\s+(?:text|notes?|lines?))?)`;
const INTO = String.raw`(?:(?:to|onto|into|in)(?:\s+the\s+end\s+of)?|at\s+the\s+end\s+of)`;
/**
 * "add this to X", "append the following to the end of X", "add to X", "put this in X"
 * (then a colon and the text). "put", "paste" and "save" need their object: "put in X" says too little.
 */
const ADD_HEAD = new RegExp(String.raw`^(?:(?:add|append)(?:\s+${ADDED})?|(?:put|paste|save)\s+${ADDED})\s+${INTO}\s+(.+)$`, 'i');

const DOCS = String.raw`(?:documents|docs)`;
const WE = String.raw`(?:i|we)`;
const PLACE = String.raw`(?:\s+(?:in\s+(?:this|the|my|our)\s+project|here|so\s+far))?`;
/** "which documents do I have", "list my documents", "show me all documents", "what documents are in this project". */
const LIST = [
  new RegExp(
    String.raw`^(?:which|what)\s+${DOCS}\s+(?:do\s+${WE}\s+have|have\s+${WE}\s+got|are\s+there|exist|are\s+in\s+(?:this|the|my|our)\s+project|does\s+(?:this|the|my|our)\s+project\s+have)${PLACE}$`,
    'i',
  ),
  new RegExp(String.raw`^(?:list|show)(?:\s+me)?(?:\s+all)?(?:\s+of)?(?:\s+(?:my|the|our))?\s+${DOCS}${PLACE}$`, 'i'),
  new RegExp(String.raw`^what\s+are\s+(?:all\s+)?(?:my|the|our)\s+${DOCS}${PLACE}$`, 'i'),
  new RegExp(String.raw`^(?:do\s+${WE}\s+have|are\s+there)\s+any\s+${DOCS}${PLACE}$`, 'i'),
  new RegExp(String.raw`^how\s+many\s+${DOCS}\s+(?:do\s+${WE}\s+have|are\s+there|are\s+in\s+(?:this|the|my|our)\s+project)${PLACE}$`, 'i'),
];

const nameList = (documents: readonly DocumentRef[]) =>
  documents.length ? `You have: ${documents.map((d) => d.name).join(', ')}` : 'There are no documents in this project yet.';

function clarify(name: string, action: string, documents: readonly DocumentRef[]): OfflineReading {
  return {
    decision: decisionOf({
      needs_clarification: true,
      clarification_question: `I can't find a document called '${name}'. Which document should I ${action}? ${nameList(documents)}`,
      reasoning: REASONING,
    }),
    edit: null,
  };
}

function readCreate(core: string): OfflineReading | null {
  let name: string | null = null;
  const called = CREATE_CALLED.exec(core);
  if (called) name = nameOf(called[1]!);
  for (const pattern of CREATE_QUOTED) {
    if (name) break;
    const match = pattern.exec(core);
    if (match) name = nameOf(match[1]!, { quotedOnly: true });
  }
  if (!name) return null;
  return {
    decision: decisionOf({
      should_create: true,
      document_name: name,
      document_content: '',
      intent_statement: `I'll create a new document called '${name}'`,
      content_summary: 'The document is empty for now: tell me what to put in it.',
      reasoning: REASONING,
    }),
    edit: null,
  };
}

function readDeleteSection(core: string, documents: readonly DocumentRef[]): OfflineReading | null {
  for (const pattern of DELETE_SECTION) {
    const match = pattern.exec(core);
    if (!match) continue;
    const section = sectionName(match[1]!);
    const target = section && resolve(match[2]!, documents);
    if (!section || !target) return null;
    if (target.kind === 'missing') return clarify(target.name, `remove the ${section} section from`, documents);
    const name = target.document.name;
    const intent = `I'll remove the ${section} section from the ${name} document.`;
    return {
      decision: decisionOf({
        should_edit: true,
        document_id: target.document.id,
        pending_confirmation: true,
        confirmation_prompt: `${intent} This will delete all ${section.toLowerCase()} information. Should I proceed?`,
        intent_statement: intent,
        content_summary: `Removed the ${section} section from '${name}'.`,
        reasoning: REASONING,
      }),
      edit: { kind: 'remove_section', heading: section },
    };
  }
  return null;
}

function readList(core: string, documents: readonly DocumentRef[]): OfflineReading | null {
  if (!LIST.some((pattern) => pattern.test(core))) return null;
  const names = documents.map((d) => d.name).join(', ');
  const response =
    documents.length === 0
      ? 'There are no documents in this project yet. Ask me to create one, for example: Create a document called Recipes.'
      : `You have ${documents.length} document${documents.length === 1 ? '' : 's'} in this project: ${names}.`;
  return { decision: decisionOf({ conversational_response: response, reasoning: REASONING }), edit: null };
}

/**
 * "add this to X: <text>": the command is what stands before a colon, the
 * text all that follows it, verbatim. The first colon whose command reads
 * wins, so a quoted name holding a colon ("'Notes: 2024'") is still read.
 */
function readAppend(message: string, documents: readonly DocumentRef[]): OfflineReading | null {
  const readings: { target: NonNullable<Resolution>; text: string }[] = [];
  for (let colon = message.indexOf(':'); colon !== -1 && colon <= MAX_COMMAND; colon = message.indexOf(':', colon + 1)) {
    const head = message.slice(0, colon);
    if (/[\r\n]/.test(head)) break;
    const match = ADD_HEAD.exec(unwrapStart(head).core.trim());
    const target = match && resolve(match[1]!, documents);
    if (target) readings.push({ target, text: message.slice(colon + 1).trim() });
  }
  // Two colons that each end a known document's name ("Notes" and "Notes: 2024"): which one is meant is not sure.
  const found = readings.filter((r) => r.target.kind === 'found');
  if (found.length > 1) return null;
  const reading = found[0] ?? readings[0];
  if (!reading || !reading.text) return null;
  const { target, text } = reading;
  if (target.kind === 'missing') return clarify(target.name, 'add this to', documents);
  const name = target.document.name;
  const summary = `Added your text at the end of '${name}'.`;
  return {
    decision: decisionOf({
      should_edit: true,
      document_id: target.document.id,
      intent_statement: `I'll add this to the ${name} document.`,
      change_summary: summary,
      content_summary: summary,
      reasoning: REASONING,
    }),
    edit: { kind: 'append', text },
  };
}

function read(message: string, documents: readonly DocumentRef[]): OfflineReading | null {
  if (message.length > MAX_OFFLINE_MESSAGE || CONTROL.test(message) || !isWellFormed(message)) return null;
  const text = message.trim();
  if (!text) return null;

  const appended = readAppend(text, documents);
  if (appended) return appended;
  // Every other command is one short line: more lines hold more than the command.
  if (text.length > MAX_COMMAND || /[\r\n]/.test(text)) return null;
  const { core: started, asked } = unwrapStart(squash(text));

  const listed = unwrapEnd(started, true);
  const list = listed !== null ? readList(listed, documents) : null;
  if (list) return list;

  const core = unwrapEnd(started, asked);
  if (!core) return null;
  return readCreate(core) ?? readDeleteSection(core, documents);
}

/**
 * The decision for `message` when it is one of the explicit commands above,
 * read against the project's `documents`; null when it is anything else or
 * the reader has any doubt. Never throws.
 */
export function readOffline(message: string, documents: { id: number; name: string }[]): OfflineReading | null {
  try {
    if (typeof message !== 'string' || !Array.isArray(documents)) return null;
    // A malformed entry could hide a second document of the same name: read nothing.
    if (!documents.every((d) => typeof d?.name === 'string' && Number.isSafeInteger(d.id) && d.id > 0)) return null;
    return read(message, documents);
  } catch {
    return null;
  }
}
