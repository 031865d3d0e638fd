import type { LanguageModel } from 'ai';
import { importOptional } from '../error/optional-dependency.js';

export const DEFAULT_MODEL_ID = 'gpt-4o-mini';

export interface ModelConfig {
  model: LanguageModel;
  modelId: string;
  baseURL: string | undefined;
}

/**
 * The model named by the environment: `OPENAI_API_KEY`, `OPENAI_BASE_URL` (any
 * OpenAI-compatible server) and `GATEFLOW_MODEL`. Undefined when neither a key
 * nor a base URL is set: the offline matcher then works alone.
 * Chat completions (`.chat`) so that compatible servers work.
 */
export async function modelFromEnv(env: Record<string, string | undefined>): Promise<ModelConfig | undefined> {
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
  if (!apiKey && !baseURL) return undefined;
  const modelId = env.GATEFLOW_MODEL?.trim() || DEFAULT_MODEL_ID;
  // @ai-sdk/openai builds a default provider when loaded, from process.env, and
  // throws on an empty OPENAI_BASE_URL: treat empty as unset, and load the
  // provider only when a model is configured.
  if (typeof process !== 'undefined' && process.env.OPENAI_BASE_URL?.trim() === '') delete process.env.OPENAI_BASE_URL;
  const { createOpenAI } = await importOptional('@ai-sdk/openai', 'a model from OPENAI_API_KEY / OPENAI_BASE_URL', () => import('@ai-sdk/openai'));
  // A local server often needs no key; the SDK insists on one, so pass a placeholder.
  const provider = createOpenAI({ apiKey: apiKey ?? 'not-needed', ...(baseURL && { baseURL }) });
  return { model: provider.chat(modelId), modelId, baseURL };
}
