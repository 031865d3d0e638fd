import type { AnyEventObject } from 'xstate';
import { extractOffline } from '../extract/offline.js';
import { ExtractionOutputSchema, type ExtractionInput, type ExtractionQuestion } from '../extract/types.js';
import type { Answer, FlowContext } from './context.js';
import { findCategory, type FlowGraph } from './graph.js';
import { laterPlaces, placesOf, type Place } from './places.js';
import { matcherSynonyms } from './fields.js';
import { answerKey, type QuestionNode } from './schema.js';

/** The synonyms field of an extraction question (a category's label is one more way of saying it): absent when there are none. */
const withSynonyms = (synonyms: Record<string, string[]> | undefined) => (synonyms === undefined ? {} : { synonyms });

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
 * The questions a message at `place` is read for: the current one and, where
 * a model may be called, the category questions after it (unanswered ones
 * only when `answers` is given), since a message may answer several.
 */
export function offeredQuestions(graph: FlowGraph, place: string, answers?: FlowContext['answers']): ExtractionQuestion[] {
  // The full list is built once per flow place: the offline reader indexes its phrases by the list (offline.ts).
  let byPlace = offeredCache.get(graph);
  if (!byPlace) offeredCache.set(graph, (byPlace = new Map()));
  let all = byPlace.get(place);
  if (!all) byPlace.set(place, (all = buildOffered(graph, place)));
  if (answers === undefined) return all;
  const current = answerKey(placeOfQuestion(graph, place).node as QuestionNode);
  return all.filter((q) => q.key === current || answers[q.key] === undefined);
}

const offeredCache = new WeakMap<FlowGraph, Map<string, ExtractionQuestion[]>>();

/**
 * The flow's questions a message at `place` is not read for (asked before it, or past a
 * branch): the offline reader only checks that the message does not answer one of them instead of
 * this one. Built once per flow place (the reader indexes by the list).
 */
export function elsewhereQuestions(graph: FlowGraph, place: string): NonNullable<ExtractionInput['elsewhere']> {
  let byPlace = elsewhereCache.get(graph);
  if (!byPlace) elsewhereCache.set(graph, (byPlace = new Map()));
  let list = byPlace.get(place);
  if (!list) {
    const offered = new Set(offeredQuestions(graph, place).map((q) => q.key));
    const seen = new Set<string>();
    list = graph.questions.flatMap((c) => {
      const key = answerKey(c);
      if (offered.has(key) || seen.has(key)) return [];
      seen.add(key);
      // A typed question (a number, a name) is there for its wording: "no, 30 euros max" is about the budget.
      if (c.answer.type !== 'category') return [{ key, prompt: c.prompt, categories: [] }];
      return [{ key, prompt: c.prompt, categories: c.answer.categories, ...withSynonyms(matcherSynonyms(c.answer)) }];
    });
    byPlace.set(place, list);
  }
  return list;
}

const elsewhereCache = new WeakMap<FlowGraph, Map<string, NonNullable<ExtractionInput['elsewhere']>>>();

function buildOffered(graph: FlowGraph, place: string): ExtractionQuestion[] {
  const places = placesOf(graph);
  const p = placeOfQuestion(graph, place);
  const later = laterPlaces(p, places);
  const candidates = allowsModel(graph, p) ? later : later.slice(0, 1);
  return candidates
    .map((c) => c.node as QuestionNode)
    .flatMap((c) =>
      c.answer.type === 'category'
        ? [{ key: answerKey(c), prompt: c.prompt, categories: c.answer.categories, ...withSynonyms(matcherSynonyms(c.answer)) }]
        : [],
    );
}

/** The first question never calls a model (the seed's rule), nor reads later questions. */
const allowsModel = (graph: FlowGraph, p: Place) => !(p.path.length === 0 && p.node.id === graph.start.id);

/**
 * What the extractor is asked: the current question and, where a model may be
 * called, every later unanswered one, since a message may answer several.
 */
export function extractionInput(graph: FlowGraph, place: string, context: FlowContext): ExtractionInput {
  const p = placeOfQuestion(graph, place);
  return {
    text: context.pendingText ?? '',
    key: answerKey(p.node as QuestionNode),
    allowModel: allowsModel(graph, p),
    questions: offeredQuestions(graph, place, context.answers),
  };
}

/**
 * The values of an extraction result that the flow allows: for questions the
 * extractor was offered, unanswered, with a value that is one of their
 * categories (spelled as the flow spells it). Anything else is dropped: an
 * extractor, even a custom one, can never commit a value the flow forbids.
 * Later questions the extractor gave nothing for take what the offline
 * matcher is sure of in the same text (extractOffline), so that a message
 * answering a later question is kept with no model too.
 */
export function acceptedValues(
  graph: FlowGraph,
  place: string,
  context: FlowContext,
  event: AnyEventObject,
): Record<string, Omit<Answer, 'raw'>> {
  const parsed = ExtractionOutputSchema.safeParse((event as { output?: unknown }).output);
  if (!parsed.success) return {};
  const input = extractionInput(graph, place, context);
  const offered = new Set(input.questions.map((g) => g.key));
  // Read against the flow place's whole list (indexed once per flow); answered questions are dropped below.
  const offline = Object.entries(extractOffline({ ...input, questions: offeredQuestions(graph, place) }).values).filter(([key]) => key !== input.key);
  const values: Record<string, Omit<Answer, 'raw'>> = {};
  for (const [key, found] of [...offline, ...Object.entries(parsed.data.values)]) {
    const q = graph.question(key);
    if (!q || !offered.has(key)) continue;
    const value = findCategory(q, found.value);
    if (value !== undefined) values[key] = { value, confidence: found.confidence, source: found.source };
  }
  return values;
}
