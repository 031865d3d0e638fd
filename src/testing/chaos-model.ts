import { APICallError, type JSONSchema7, type LanguageModel } from 'ai';
import { seededRandom, type Random } from './random.js';
import { sampleSchema, wordsOf } from './schema-sample.js';

/**
 * A language model for the AI SDK (specification v4, as `MockLanguageModelV4`
 * of `ai/test`) that answers like any model may: each request gets, drawn from
 * a seeded generator, either a random answer valid under the request's own
 * JSON Schema (the response format's, or a tool's input schema), or one of
 * the ways real models and servers fail: valid JSON of another shape, invalid
 * JSON, output cut short, nothing, far too much, a thrown error, or no answer
 * until the call is aborted. The same seed and the same requests give the same
 * answers, so a run that breaks an invariant can be replayed.
 *
 * A hang never waits on a clock of its own: it ends when the caller's abort
 * signal fires (its deadline), so a suite decides how long that is.
 */

export const CHAOS_OUTCOMES = ['valid', 'off_schema', 'invalid_json', 'truncated', 'empty', 'huge', 'error', 'timeout'] as const;
export type ChaosOutcome = (typeof CHAOS_OUTCOMES)[number];

/** How often each outcome is drawn, relatively (0 turns one off). */
export const DEFAULT_CHAOS_WEIGHTS: Readonly<Record<ChaosOutcome, number>> = {
  valid: 60,
  off_schema: 6,
  invalid_json: 6,
  truncated: 6,
  empty: 6,
  huge: 4,
  error: 8,
  timeout: 4,
};

export interface ChaosModelOptions {
  seed: number;
  weights?: Partial<Record<ChaosOutcome, number>>;
  /** Outcomes taken in order before any is drawn (to replay or force a case). */
  script?: readonly ChaosOutcome[];
  /** Characters of a huge answer (default 200,000). */
  hugeChars?: number;
  /** Extra words a generated string may be, beside the request's own. */
  words?: readonly string[];
  modelId?: string;
}

/** One request the model answered, and how. */
export interface ChaosCall {
  index: number;
  outcome: ChaosOutcome;
  /** What was asked for: JSON under a schema, a tool call, or free text. */
  kind: 'json' | 'tool' | 'text';
  /** The response format's name, or the tool called. */
  name: string | null;
  /** The text answered (cut to 2,000 characters here); null for an error or a hang. */
  text: string | null;
}

export type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: 'v4' }>;
type CallOptions = Parameters<LanguageModelV4['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<LanguageModelV4['doGenerate']>>;
type StreamResult = Awaited<ReturnType<LanguageModelV4['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

export interface ChaosModel extends LanguageModelV4 {
  readonly seed: number;
  /** Every request so far, in order. */
  readonly calls: readonly ChaosCall[];
  /** How many answers of each outcome were given. */
  counts(): Record<ChaosOutcome, number>;
}

/** Thrown for the `error` outcome when the SDK should not retry, and for a hang no signal can end. */
export class ChaosModelError extends Error {
  override readonly name = 'ChaosModelError';
}

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

export function chaosModel(options: ChaosModelOptions): ChaosModel {
  const random = seededRandom(options.seed);
  const weights = { ...DEFAULT_CHAOS_WEIGHTS, ...options.weights };
  const total = CHAOS_OUTCOMES.reduce((sum, o) => sum + Math.max(0, weights[o]), 0);
  if (!(total > 0)) throw new ChaosModelError('chaosModel: at least one outcome needs a weight above 0');
  const script = [...(options.script ?? [])];
  const hugeChars = options.hugeChars ?? 200_000;
  const calls: ChaosCall[] = [];

  const draw = (): ChaosOutcome => {
    const next = script.shift();
    if (next) return next;
    let r = random() * total;
    for (const outcome of CHAOS_OUTCOMES) {
      r -= Math.max(0, weights[outcome]);
      if (r < 0) return outcome;
    }
    return 'valid';
  };

  const answer = async (call: CallOptions): Promise<GenerateResult> => {
    const index = calls.length;
    const outcome = draw();
    const words = [...wordsOf(promptText(call)), ...(options.words ?? [])];
    const format = call.responseFormat;
    const tools = (call.tools ?? []).filter((t): t is Extract<typeof t, { type: 'function' }> => t.type === 'function');
    const forced = call.toolChoice?.type === 'tool' ? call.toolChoice.toolName : null;
    const wantsTool = format?.type !== 'json' && tools.length > 0 && call.toolChoice?.type !== 'none' && (forced !== null || call.toolChoice?.type === 'required' || random() < 0.7);
    const kind: ChaosCall['kind'] = format?.type === 'json' ? 'json' : wantsTool ? 'tool' : 'text';
    const tool = wantsTool ? (tools.find((t) => t.name === forced) ?? tools[Math.floor(random() * tools.length)]!) : null;
    const name = kind === 'json' ? (format?.type === 'json' ? (format.name ?? null) : null) : (tool?.name ?? null);
    const record = (text: string | null) => calls.push({ index, outcome, kind, name, text: text === null ? null : text.slice(0, 2000) });

    if (outcome === 'error') {
      record(null);
      const retryable = random() < 0.5;
      throw new APICallError({
        message: `chaos model: simulated ${retryable ? 'overload (HTTP 503)' : 'bad request (HTTP 400)'} on call ${index}`,
        url: 'chaos://model',
        requestBodyValues: {},
        statusCode: retryable ? 503 : 400,
        isRetryable: retryable,
      });
    }
    if (outcome === 'timeout') {
      record(null);
      return hang(call.abortSignal, index);
    }

    const schema: JSONSchema7 | undefined = kind === 'json' ? (format?.type === 'json' ? format.schema : undefined) : tool ? tool.inputSchema : undefined;
    const valid = () => (schema ? JSON.stringify(sampleSchema(schema, { random, words })) : sentence(random, words));
    let text: string;
    switch (outcome) {
      case 'valid':
        text = valid();
        break;
      case 'off_schema':
        // Well-formed JSON of some other shape (or, for free text, JSON where words were expected).
        text = JSON.stringify(sampleSchema({}, { random, words, maxDepth: 3 }));
        break;
      case 'invalid_json':
        text = pickOf(random, ['{"', 'not json at all', '{answer: yes}', "{'a': 1}", '[1, 2,, 3]', '{"a": NaN}', '```json\n{"a":\n```', 'null null']);
        break;
      case 'truncated': {
        const whole = valid();
        text = whole.slice(0, Math.floor(random() * whole.length));
        break;
      }
      case 'empty':
        text = pickOf(random, ['', ' ', '\n']);
        break;
      case 'huge': {
        // The right shape where a string can carry the bulk; free text is just long.
        const filler = words.length ? words.join(' ') + ' ' : 'lorem ipsum ';
        const bulk = filler.repeat(Math.ceil(hugeChars / filler.length)).slice(0, hugeChars);
        text = schema ? JSON.stringify(swellStrings(sampleSchema(schema, { random, words }), bulk)) : bulk;
        break;
      }
    }
    record(text);
    const finish = outcome === 'truncated' ? 'length' : wantsTool && tool ? 'tool-calls' : 'stop';
    const content: GenerateResult['content'] =
      outcome === 'empty' && random() < 0.5
        ? []
        : tool
          ? [{ type: 'tool-call', toolCallId: `chaos-${index}`, toolName: outcome === 'off_schema' && random() < 0.5 ? 'invented_tool' : tool.name, input: text }]
          : [{ type: 'text', text }];
    return { content, finishReason: { unified: finish, raw: finish }, usage: USAGE, warnings: [] };
  };

  const model: ChaosModel = {
    specificationVersion: 'v4',
    provider: 'gateflow-chaos',
    modelId: options.modelId ?? `chaos-${options.seed}`,
    supportedUrls: {},
    seed: options.seed,
    calls,
    counts: () => {
      const out = Object.fromEntries(CHAOS_OUTCOMES.map((o) => [o, 0])) as Record<ChaosOutcome, number>;
      for (const call of calls) out[call.outcome]++;
      return out;
    },
    doGenerate: answer,
    doStream: async (call) => {
      const result = await answer(call);
      return { stream: streamOf(result) };
    },
  };
  return model;
}

/** No answer: settles only when the caller aborts (its deadline), with the abort's reason. */
function hang(signal: AbortSignal | undefined, index: number): Promise<never> {
  if (!signal) return Promise.reject(new ChaosModelError(`chaos model: call ${index} hangs and was given no abort signal, so nothing could ever end it`));
  return new Promise((_, reject) => {
    const stop = () => reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

/** The text of every message, for the words a generated answer may echo. */
function promptText(call: CallOptions): string {
  return call.prompt
    .map((message) =>
      typeof message.content === 'string' ? message.content : message.content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join(' '),
    )
    .join('\n');
}

const pickOf = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function sentence(random: Random, words: readonly string[]): string {
  const pool = words.length ? words : ['ok'];
  return Array.from({ length: 1 + Math.floor(random() * 30) }, () => pickOf(random, pool)).join(' ');
}

/** Every string in a value made `bulk` long. */
function swellStrings(value: unknown, bulk: string): unknown {
  if (typeof value === 'string') return bulk;
  if (Array.isArray(value)) return value.length ? value.map((v) => swellStrings(v, bulk)) : [bulk];
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swellStrings(v, bulk)]));
  return value;
}

function streamOf(result: GenerateResult): ReadableStream<StreamPart> {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  result.content.forEach((part, i) => {
    if (part.type === 'text') {
      const id = `t${i}`;
      parts.push({ type: 'text-start', id });
      // In a few pieces, as a server streams.
      for (let at = 0; at < part.text.length; at += 4096) parts.push({ type: 'text-delta', id, delta: part.text.slice(at, at + 4096) });
      parts.push({ type: 'text-end', id });
    } else if (part.type === 'tool-call') parts.push(part);
  });
  parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
