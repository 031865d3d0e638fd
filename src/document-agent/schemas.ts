import { z } from 'zod';
import { storable } from '../documents/schemas.js';

/** Text the store keeps as it is (no NUL, no lone surrogate): a decision holding other text is the model's invalid output. */
const text = () => storable(z.string());

/**
 * The document agent's decision (seed 002, step 3b): what the model returns
 * for one message, with the seed's field names, since the API hands it back
 * as `agent_decision`. Every field has a default, so a model that leaves one
 * out is read as "no" rather than refused; what it does send is checked.
 * `clarification_question` and `confirmation_prompt` are the texts the seed's
 * replies 4a and 4b show.
 */
export const AgentDecisionSchema = z.object({
  should_edit: z.boolean().default(false).describe('Change an existing document (the one in document_id)'),
  should_create: z.boolean().default(false).describe('Create a new document'),
  document_id: z.number().int().positive().nullable().default(null).describe('The id of the document to edit, from the list given'),
  // No length limit here: a name too long is the create step's refusal (4d), not a failed decision.
  document_name: text().nullable().default(null).describe('The name of the document to create'),
  document_content: text().nullable().default(null).describe('The Markdown content of a new document'),
  standing_instruction: text().nullable().default(null).describe('What to keep doing whenever the new document is edited'),
  needs_clarification: z.boolean().default(false).describe('The request is ambiguous: ask before doing anything'),
  clarification_question: text().nullable().default(null).describe('The question to ask when needs_clarification'),
  pending_confirmation: z.boolean().default(false).describe('The change is destructive: say what will happen and ask before doing it'),
  confirmation_prompt: text().nullable().default(null).describe('What will happen, ending with "Should I proceed?"'),
  needs_web_search: z.boolean().default(false).describe('Current facts from the web are needed'),
  search_query: text().nullable().default(null),
  intent_statement: text().nullable().default(null).describe('What you will do, starting "I\'ll…"'),
  reasoning: text().nullable().default(null),
  conversational_response: text().nullable().default(null).describe('The answer, when nothing is created or edited'),
  change_summary: text().nullable().default(null),
  content_summary: text().nullable().default(null).describe('3-5 sentences on what the document holds or what changed'),
});
export type AgentDecision = z.infer<typeof AgentDecisionSchema>;

/** A decision with every field at its default: nothing to do. */
export const EMPTY_DECISION: AgentDecision = AgentDecisionSchema.parse({});

/** A decision from the fields given, the rest at their defaults. */
export const decisionOf = (fields: Partial<AgentDecision>): AgentDecision => ({ ...EMPTY_DECISION, ...fields });

/**
 * A change the agent can make without a model, read by the offline reader
 * from an explicit command: text added at the end, or a section removed.
 */
export const EditOperationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('append'), text: z.string().min(1) }),
  z.object({ kind: z.literal('remove_section'), heading: z.string().min(1) }),
]);
export type EditOperation = z.infer<typeof EditOperationSchema>;

/** A document as the decision sees it: content cut to the seed's window when large. */
export interface DocumentBrief {
  id: number;
  name: string;
  standing_instruction: string;
  content: string;
}

/** A message of the chat's history, oldest first. */
export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** The project, as the prompts name it. */
export interface ProjectBrief {
  id: number;
  name: string;
  description: string | null;
}
