export { createExtractActor, type ExtractActorOptions } from './actor.js';
export { classifyConfirmation } from './match-confirmation.js';
export {
  MAX_MATCH_TEXT_LENGTH,
  matchCategory,
  readCategory,
  type AbstainReason,
  type CategoryReading,
  type MatchableQuestion,
  type MatchOptions,
  type MatchResult,
  type MentionAt,
} from './match-category.js';
export { UNKNOWN, extractWithModel, extractionPrompt, extractionSchema, type ModelExtractionOptions } from './model.js';
export { DEFAULT_MODEL_ID, modelFromEnv, type ModelConfig } from './model-from-env.js';
export { normalize } from './normalize.js';
export { extractOffline } from './offline.js';
export * from './types.js';
export { parseTypedAnswer, type TypedAnswerType, type TypedCandidate, type TypedParse, type TypedParseOptions, type TypedValue } from './parse-typed.js';
