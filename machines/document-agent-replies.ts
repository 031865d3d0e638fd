import type { AgentDecision } from '../src/document-agent/schemas.js';

/**
 * What the document agent says (seed 002, step 4), one function per case of
 * 4a–4f, word for word where the seed gives the text. Pure, so the machine
 * and its tests share them.
 */

/** 4a is the clarification question itself. The documents a clarification lists: "You have: Recipes, Travel Guide, Budget". */
export function documentChoices(names: readonly string[]): string {
  return names.length === 0 ? 'There are no documents in this project yet.' : `You have: ${names.join(', ')}`;
}

/** 4b: the confirmation prompt, ending in the question the buttons answer. */
export function confirmationReply(decision: AgentDecision): string {
  const prompt = decision.confirmation_prompt ?? decision.intent_statement ?? 'I am about to change a document.';
  return /should i proceed\?\s*$/i.test(prompt) ? prompt : `${prompt.replace(/\s+$/, '')} Should I proceed?`;
}

/** 4c: a document created. */
export function createdReply(name: string, contentSummary: string | null, webSearchPerformed: boolean): string {
  const parts = [`I've created the document '${name}' in this project.`];
  if (contentSummary) parts.push(`\n\n**Document Content Summary:**\n${contentSummary}`);
  if (webSearchPerformed) parts.push('\n\n_I performed a web search to gather initial content._');
  return parts.join('');
}

/** 4d: the name is taken; the two choices are also the waiting state's buttons. */
export function duplicateReply(name: string): string {
  return (
    `A document named '${name}' already exists in this project.\n` +
    `I can add this content to the existing document instead. \n` +
    `Would you like me to update '${name}' with the new content?\n\n` +
    'Would you like me to:\n' +
    '1. Add this content to the existing document\n' +
    '2. Create a new document with a different name'
  );
}

/** 4d: creation failed for another reason. */
export function createFailedReply(reason: string): string {
  const why = /[.!?]$/.test(reason.trim()) ? reason.trim() : `${reason.trim()}.`;
  return `I tried to create the document, but encountered an issue.\n${why} Please try again with a clearer request, \nlike 'Create a document called Recipes'.`;
}

/** 4e: a document updated. */
export function updatedReply(name: string, decision: AgentDecision | null, webSearchPerformed: boolean): string {
  const intent = decision?.intent_statement?.trim() || `I've updated the document '${name}'.`;
  const summary = decision?.content_summary ?? decision?.change_summary ?? null;
  const parts = [intent];
  if (summary) parts.push(`\n\n**Content Summary:**\n${summary}`);
  if (webSearchPerformed) parts.push('\n\n_I performed a web search to ensure accuracy._');
  return parts.join('');
}

/** 4f is the conversational answer itself. These are the agent's own cases beside the seed's. */
export function cancelledReply(intent: string | null): string {
  return intent ? `Cancelled: nothing was changed (${stripPeriod(lowerFirst(intent))}).` : 'Cancelled: nothing was changed.';
}

export function droppedNote(intent: string): string {
  return `_I dropped the request I was waiting on you to confirm (${stripPeriod(lowerFirst(intent))})._`;
}

export function timedOutReply(intent: string | null): string {
  return `I didn't hear back, so I dropped the request${intent ? ` (${stripPeriod(lowerFirst(intent))})` : ''}. Nothing was changed.`;
}

/** The act's limit in words: "the time limit of 60 s per message" (as the task agent says its own, machines/task-agent.ts's formatMs). */
export function actLimitWords(ms: number): string {
  return `the time limit of ${ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.max(0, Math.round(ms))} ms`} per message`;
}

/**
 * An act that reached its time limit: what was done, what was not, and that
 * nothing was changed (an act writes its document change only when it ends
 * in time). `stage` is the step under way when the time ran out.
 */
export function timeLimitReply(o: {
  limit: string;
  stage: 'load' | 'decide' | 'search' | 'create' | 'edit' | 'converse';
  decision: AgentDecision | null;
  /** The query of a search made, null when none was. */
  searched: string | null;
  documents: readonly { id: number; name: string }[];
}): string {
  const d = o.stage === 'load' || o.stage === 'decide' ? null : o.decision;
  const quoted = (s: string) => `"${s.length > 100 ? `${s.slice(0, 100)}…` : s}"`;
  const action = !d
    ? null
    : d.should_create
      ? `creating ${d.document_name ? `'${d.document_name}'` : 'the document'}`
      : d.should_edit
        ? `changing ${nameOf(o.documents, d.document_id)}`
        : 'writing the answer';
  const done: string[] = [];
  if (d) done.push(d.intent_statement?.trim() ? `worked out what to do (${stripPeriod(lowerFirst(d.intent_statement))})` : 'worked out what to do');
  if (o.searched !== null) done.push(`searched the web for ${quoted(o.searched)}`);
  const notDone: string[] = [];
  if (o.stage === 'load') notDone.push('reading the project and its documents');
  if (o.stage === 'decide') notDone.push('working out what to do');
  if (o.stage === 'search' && d?.search_query) notDone.push(`the web search for ${quoted(d.search_query.trim())}`);
  if (action) notDone.push(action);
  return (
    `I stopped before finishing: this message reached ${o.limit}.\n` +
    `Done: ${done.length ? done.join('; ') : 'nothing yet'}.\n` +
    `Not done: ${notDone.join('; ')}.\n` +
    'Nothing was changed in your documents; send the message again to try once more.'
  );
}

const nameOf = (documents: readonly { id: number; name: string }[], id: number | null) => {
  const doc = documents.find((d) => d.id === id);
  return doc ? `'${doc.name}'` : 'the document';
};

export function conflictReply(name: string): string {
  return `'${name}' was changed by someone else while I was editing it, so I saved nothing. Ask me again and I'll work from the new version.`;
}

export function sectionNotFoundReply(name: string, heading: string, sections: readonly string[]): string {
  return `There is no '${heading}' section in '${name}', so nothing was changed. ${sections.length ? `Its sections are: ${sections.join(', ')}.` : 'It has no sections.'}`;
}

export function failedReply(message: string): string {
  return `I couldn't do that: ${stripPeriod(message)}. Nothing was changed; please send your message again.`;
}

export const WEB_SEARCH_UNAVAILABLE = '_Web search is not available here, so I went on without it._';

export function webSearchFailedNote(reason: string): string {
  return `_The web search failed (${stripPeriod(reason)}), so I went on without it._`;
}

const stripPeriod = (s: string) => s.trim().replace(/[.\s]+$/, '');
const lowerFirst = (s: string) => (/^I[' ]/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));
