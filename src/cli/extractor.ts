import { createExtractActor, modelFromEnv } from '../extract/index.js';
import { modelFailureLog } from './model-failure-log.js';

/**
 * The extractor the environment asks for, and one line saying which it is
 * (printed once at start, on stderr so that JSON output stays clean).
 */
export async function extractorFromEnv(env: Record<string, string | undefined>) {
  const config = await modelFromEnv(env);
  const timeoutMs = Number(env.GATEFLOW_MODEL_TIMEOUT_MS) || undefined;
  const extract = createExtractActor({ model: config?.model, ...(timeoutMs && { timeoutMs }), onModelFailure: modelFailureLog((line) => console.error(line)) });
  const note = config
    ? `gateflow: extraction uses the offline matcher, then model "${config.modelId}"${config.baseURL ? ` at ${config.baseURL}` : ''}`
    : 'gateflow: no model configured (set OPENAI_API_KEY or OPENAI_BASE_URL): the offline matcher alone reads free text';
  return { extract, note };
}
