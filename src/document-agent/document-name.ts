import type { AgentDecision } from './schemas.js';

/**
 * The name of a document to create, by the seed's four priorities (3c):
 * 1. the name the decision gives; 2. a name the intent statement announces
 * ("called X", "named X", "for X", "create X"); 3. the one to three words
 * after an action word of the person's message ("add", "create", "make",
 * "new"); 4. "Document {count + 1}".
 */
export function documentNameFor(decision: AgentDecision, message: string, documentCount: number): string {
  return (
    clean(decision.document_name) ??
    fromIntent(decision.intent_statement) ??
    fromMessage(message) ??
    `Document ${documentCount + 1}`
  );
}

/** A free name beside a taken one: "Recipes 2", then "Recipes 3"… (ignoring case, as names are unique). */
export function proposeName(name: string, taken: readonly string[]): string {
  const used = new Set(taken.map((t) => t.toLowerCase()));
  const base = name.replace(/\s+\d+$/, '').slice(0, 190);
  for (let n = 2; ; n++) {
    const candidate = `${base} ${n}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

const QUOTED = `['"‘’“”]`;
const STOP_WORDS = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'some', 'new', 'document', 'doc', 'page', 'file', 'this', 'that', 'these', 'those', 'to', 'about', 'of', 'with', 'me', 'please']);

function clean(name: string | null | undefined): string | null {
  const trimmed = name?.replace(new RegExp(`^${QUOTED}+|${QUOTED}+$`, 'g'), '').replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed : null;
}

function fromIntent(intent: string | null): string | null {
  if (!intent) return null;
  const quoted = new RegExp(`(?:called|named|titled|for)\\s+${QUOTED}([^'"‘’“”]{1,200})${QUOTED}`, 'i').exec(intent);
  if (quoted) return clean(quoted[1]);
  const bare = /(?:called|named|titled)\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})/.exec(intent) ?? /\bcreate\s+(?:a\s+)?(?:new\s+)?(?:document\s+)?(?:called\s+)?([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})/.exec(intent);
  return bare ? clean(bare[1]) : null;
}

function fromMessage(message: string): string | null {
  const words = message.replace(/[^\p{L}\p{N}\s'-]/gu, ' ').split(/\s+/).filter(Boolean);
  const at = words.findIndex((w) => /^(add|create|make|new|start|write)$/i.test(w));
  if (at < 0) return null;
  const next = words.slice(at + 1).filter((w) => !STOP_WORDS.has(w.toLowerCase())).slice(0, 3);
  if (next.length === 0) return null;
  return next.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}
