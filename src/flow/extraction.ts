import type { AnyEventObject } from 'xstate';
import { ExtractionOutputSchema, type ExtractionInput } from '../extract/types.js';
import type { Answer, FlowContext } from './context.js';
import { findCategory, type FlowGraph } from './graph.js';
import { laterPlaces, placesOf, type Place } from './places.js';
import { answerKey, type QuestionNode } from './schema.js';

/**
 * Extraction at a question: what the extractor is offered (that question and
 * the unanswered category questions after it, since one message may answer
 * several) and which of its values the flow accepts.
 */

/** The place of a question given by its place id or, failing that, its node id. */
function placeOfQuestion(graph: FlowGraph, place: string): Place {
  const places = placesOf(graph);
  const p = places.get(place);
  if (p) return p;
  for (const candidate of places.values()) if (candidate.node.kind === 'question' && candidate.node.id === place) return candidate;
  throw new Error(`flow "${graph.doc.id}" has no question "${place}"`);
}

/**
 * What the extractor is asked: the current question and, where a model may be
 * called, every later unanswered one, since a message may answer several.
 */
export function extractionInput(graph: FlowGraph, place: string, context: FlowContext): ExtractionInput {
  const places = placesOf(graph);
  const p = placeOfQuestion(graph, place);
  const allowModel = !(p.path.length === 0 && p.node.id === graph.start.id);
  const later = laterPlaces(p, places);
  const candidates = allowModel ? later : later.slice(0, 1);
  const q = p.node as QuestionNode;
  return {
    text: context.pendingText ?? '',
    key: answerKey(q),
    allowModel,
    questions: candidates
      .map((c) => c.node as QuestionNode)
      .filter((c) => c === q || context.answers[answerKey(c)] === undefined)
      .flatMap((c) =>
        c.answer.type === 'category'
          ? [{ key: answerKey(c), prompt: c.prompt, categories: c.answer.categories, ...(c.answer.synonyms !== undefined && { synonyms: c.answer.synonyms }) }]
          : [],
      ),
  };
}

/**
 * The values of an extraction result that the flow allows: for questions the
 * extractor was offered, unanswered, with a value that is one of their
 * categories (spelled as the flow spells it). Anything else is dropped: an
 * extractor, even a custom one, can never commit a value the flow forbids.
 */
export function acceptedValues(
  graph: FlowGraph,
  place: string,
  context: FlowContext,
  event: AnyEventObject,
): Record<string, Omit<Answer, 'raw'>> {
  const parsed = ExtractionOutputSchema.safeParse((event as { output?: unknown }).output);
  if (!parsed.success) return {};
  const offered = new Set(extractionInput(graph, place, context).questions.map((g) => g.key));
  const values: Record<string, Omit<Answer, 'raw'>> = {};
  for (const [key, found] of Object.entries(parsed.data.values)) {
    const q = graph.question(key);
    if (!q || !offered.has(key)) continue;
    const value = findCategory(q, found.value);
    if (value !== undefined) values[key] = { value, confidence: found.confidence, source: found.source };
  }
  return values;
}
