/**
 * The document agent (seed 002): per message, load the project and the chat,
 * decide (offline for explicit commands, else one model call), then clarify,
 * confirm, search, create, edit or converse, and reply; each message's
 * writes commit with its step. The machine is machines/document-agent.ts;
 * this folder holds its actors, schemas, prompts, offline reader, Markdown
 * edits, web search and the workflow.
 */
export { ActLimitsSchema } from './act-limits.js';
export { DEFAULT_ACT_LIMITS, type ActLimits } from '../../machines/document-agent.js';
export { documentAgentActors, NEEDS_MODEL, type DocumentAgentActorOptions } from './actors.js';
export { documentNameFor, proposeName } from './document-name.js';
export { ActTimeUp, DocumentAgentModelError, WebSearchError } from './errors.js';
export { documentAgentHost, type DocumentAgentHostOptions } from './host.js';
export { HISTORY_LIMIT, TRUNCATE_ABOVE, loadContext, truncateContent } from './load-context.js';
export { appendText, removeSection, sectionsOf } from './markdown.js';
export { readOffline, type OfflineReading } from './offline-reader.js';
export {
  AgentDecisionSchema,
  EditOperationSchema,
  decisionOf,
  type AgentDecision,
  type DocumentBrief,
  type EditOperation,
  type HistoryMessage,
  type ProjectBrief,
} from './schemas.js';
export { formatSearchResults, searxngSearch, webSearchFromEnv, type WebSearch, type WebSearchResult } from './web-search.js';
export { DOCUMENT_AGENT_GREETING, DOCUMENT_AGENT_ID, DocumentAgentStartSchema, documentAgentWorkflow, type DocumentAgentWorkflowOptions } from './workflow.js';
export * from '../documents/index.js';
