import { trace, SpanStatusCode, type Span } from '@opentelemetry/api';
import { generateText, type LanguageModel } from 'ai';
import { fromPromise, type AnyActorLogic } from 'xstate';
import { documentRepository } from '../documents/repository.js';
import { checkContent, documentLimits, DocumentTooLargeError, TextTooLongError, utf8Bytes, type DocumentLimits, type DocumentLimitsInput } from '../documents/limits.js';
import { publicModelFailure } from '../extract/public-failure.js';
import { DocumentNotFoundError, InvalidDocumentInputError } from '../documents/errors.js';
import { NewDocumentSchema } from '../documents/schemas.js';
import { isWellFormed } from '../workflow/untrusted-string.js';
import { deadlineSignal } from '../extract/deadline.js';
import { GoalTimeUp, goalTimer } from '../workflow/goal-time.js';
import { generateObjectSafely } from '../extract/object-call.js';
import { issuesOf } from '../graph/model.js';
import type { SqlDatabase } from '../store/types.js';
import { sectionNotFoundReply } from '../../machines/document-agent-replies.js';
import type {
  ActClock,
  ActTime,
  ConverseInput,
  ConverseOutput,
  CreateInput,
  CreateOutcome,
  DecideInput,
  DecideOutput,
  EditInput,
  EditOutcome,
  LoadContextInput,
  LoadedContext,
  SearchInput,
  SearchOutcome,
} from '../../machines/document-agent.js';
import { documentNameFor, proposeName } from './document-name.js';
import { ActTimeUp, DocumentAgentModelError, publicStepError, type DocumentAgentStep } from './errors.js';
import { loadContext } from './load-context.js';
import { appendText, removeSection, sectionsOf } from './markdown.js';
import { readOffline } from './offline-reader.js';
import { conversePrompt, decisionPrompt, rewritePrompt } from './prompts.js';
import { AgentDecisionSchema, decisionOf, type AgentDecision, type EditOperation } from './schemas.js';
import { formatSearchResults, type WebSearch } from './web-search.js';

export interface DocumentAgentActorOptions {
  /** The store's database (`store.sql`), where the documents and chats live beside the sessions. */
  database: SqlDatabase;
  /** Without one, the agent follows explicit commands (the offline reader) and says what it needs for the rest. */
  model?: LanguageModel;
  /** Without one, a search the decision asks for is skipped, and the reply says so. */
  webSearch?: WebSearch | null;
  /** Each model call's limit, retries included (default 30 s); the act's time left stops it sooner (see `DocumentAgentWorkflowOptions.actLimits`). */
  modelTimeoutMs?: number;
  /** The clock the act's time limit reads, in ms since the epoch (default Date.now). */
  now?: () => number;
  /** The seed's temperature for the decision (0.5). */
  temperature?: number;
  /** The caps on what is written (a document's size, a name's length), the model's output included; `DocumentLimits`' defaults when absent. */
  limits?: DocumentLimitsInput;
  /**
   * Told of every failure of a step with its own text (a provider's, a
   * driver's), which the person never sees: the server's log. Traces record it too.
   */
  onError?: (error: unknown, step: DocumentAgentStep) => void;
}

/** What the agent says it needs when a message is not an explicit command and there is no model. */
export const NEEDS_MODEL =
  'Without a language model I follow explicit commands only, for example: "Create a document called Recipes", "Add this to Recipes: …", "Delete the Budget section from Budget" or "Which documents do I have?".';

const tracer = trace.getTracer('gateflow.document-agent');

/** Text PostgreSQL keeps as it is: no NUL, no lone surrogate. */
const isStorable = (s: string) => !s.includes('\u0000') && isWellFormed(s);

/** One span: `document_agent.<name>`, ended with its outcome (the seed's telemetry); a failure's own text stays in the span. */
async function span<T>(name: string, attributes: Record<string, string | number | boolean>, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(`document_agent.${name}`, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      if (error instanceof DocumentAgentModelError) span.setAttribute('gateflow.error.internal', error.internal);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The decision's texts, each within the caps: a model that answers with a
 * document of megabytes, or a "name" of pages, is refused here, before the
 * decision is kept in the session (its snapshot and journal) or echoed.
 */
function checkDecision(decision: AgentDecision, limits: DocumentLimits): void {
  if (decision.document_content !== null) checkContent(limits, decision.document_content, "the new document's content");
  // A name over the cap but of a name's size gets the seed's answer (4d) at the create step; one of a text's size is refused now.
  if (decision.document_name !== null && decision.document_name.length > limits.maxTextLength)
    throw new TextTooLongError('document name', [...decision.document_name].length, limits.maxNameLength, 'maxNameLength');
  for (const [field, value] of Object.entries(decision)) {
    if (field === 'document_content' || typeof value !== 'string') continue;
    if (value.length * 3 > limits.maxContentBytes && utf8Bytes(value) > limits.maxContentBytes)
      throw new DocumentTooLargeError(`the decision's ${field.replace(/_/g, ' ')}`, utf8Bytes(value), limits.maxContentBytes);
  }
}

/** An actor's share of its act: the signal that stops it at the act's limit, and the model calls it began. */
interface Act {
  signal: AbortSignal;
  modelCalls: number;
}

/**
 * The actors the document agent's machine names (machines/document-agent.ts):
 * the store reads, the model calls and the web search. Each is a span; each
 * model call is a span of its own. None of them writes: the machine's outbox
 * is committed with the message (src/document-agent/workflow.ts).
 */
export function documentAgentActors(options: DocumentAgentActorOptions): Record<string, AnyActorLogic> {
  const { database, model, webSearch = null } = options;
  const timeoutMs = options.modelTimeoutMs ?? 30_000;
  const now = options.now ?? Date.now;
  const limits = documentLimits(options.limits);
  const repo = documentRepository(database, limits);

  /** A step as a span; a failure whose text is not for people becomes the step's plain sentence (the original: the span and `onError`). */
  const step = <T>(name: DocumentAgentStep, attributes: Record<string, string | number | boolean>, fn: (span: Span) => Promise<T>): Promise<T> =>
    span(name, attributes, fn).catch((error: unknown) => {
      // The act's time ran out: the machine says so, as it is.
      if (error instanceof GoalTimeUp) throw error;
      const said = publicStepError(name, error);
      if (said !== error || error instanceof DocumentAgentModelError) options.onError?.(error, name);
      throw said;
    });

  /**
   * An actor's work within the act's time (`time`): its model call or search
   * is given the time left as a signal, and the actor ends at the limit even
   * if what it waits on ignores the signal. Work that ends past the limit is
   * dropped: nothing is applied after it. The output reports when the act's
   * clock started (this actor starts it when it is the act's first).
   */
  const timed = async <T extends object>(time: ActTime | undefined, outer: AbortSignal, work: (act: Act) => Promise<T>): Promise<T & ActClock> => {
    const startedAt = time?.startedAt ?? now();
    const timer = goalTimer(time && { ms: startedAt + time.ms - now(), limit: time.limit }, outer);
    const act: Act = { signal: timer.signal, modelCalls: 0 };
    const up = () => timer.timeUp() ?? (time && now() - startedAt >= time.ms ? time.limit : null);
    try {
      if (up()) throw new ActTimeUp(up()!, 0);
      const expired = new Promise<never>((_, reject) =>
        timer.signal.addEventListener('abort', () => {
          if (timer.timeUp()) reject(new ActTimeUp(timer.timeUp()!, act.modelCalls));
        }, { once: true }),
      );
      const out = await Promise.race([work(act), expired]);
      if (up()) throw new ActTimeUp(up()!, act.modelCalls);
      return { ...out, ...(time && { startedAt }) };
    } catch (error) {
      if (up() && !(error instanceof ActTimeUp)) throw new ActTimeUp(up()!, act.modelCalls);
      throw error;
    } finally {
      timer.clear();
    }
  };

  /**
   * A model call as a span, within the deadline even if the provider ignores
   * the abort; every failure (HTTP error, timeout, invalid output) becomes a
   * DocumentAgentModelError that says which. The act's time left stops it
   * sooner (an ActTimeUp).
   */
  const modelCall = async <T>(purpose: 'decide' | 'rewrite' | 'converse', act: Act, call: (signal: AbortSignal) => Promise<T>): Promise<T> =>
    span('model_call', { 'gateflow.model.purpose': purpose }, async () => {
      act.modelCalls++;
      const deadline = deadlineSignal(timeoutMs, act.signal);
      const actTimeUp = () => (act.signal.reason instanceof GoalTimeUp ? new ActTimeUp(act.signal.reason.limit, act.modelCalls) : null);
      const timedOut = () => actTimeUp() ?? new DocumentAgentModelError(purpose, 'model_error', `no answer within ${timeoutMs} ms`);
      const expired = new Promise<never>((_, reject) => deadline.signal.addEventListener('abort', () => reject(timedOut()), { once: true }));
      try {
        if (deadline.signal.aborted) throw timedOut();
        return await Promise.race([call(deadline.signal), expired]);
      } catch (error) {
        // An abort surfaces as whatever the SDK was doing ("Delay was aborted"): the deadline (or the act's limit) is the cause.
        if (deadline.signal.aborted) throw timedOut();
        if (error instanceof DocumentAgentModelError) throw error;
        // The provider's text (AI_RetryError, ECONNREFUSED and its host, a stack) is for the log: the person gets the kind of failure.
        throw new DocumentAgentModelError(purpose, 'model_error', publicModelFailure(error, 'model_error'), {
          internal: error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 2000) : String(error).slice(0, 2000),
        });
      } finally {
        deadline.clear();
      }
    });

  const decide = async ({ message, context }: DecideInput, act: Act): Promise<DecideOutput> => {
    // Refused before any work: the store cannot keep it, so no model call is spent on it.
    if (!isStorable(message)) throw new InvalidDocumentInputError([{ path: 'message', message: 'must not contain a NUL character or a lone surrogate' }]);
    const offline = readOffline(message, context.documents);
    if (offline) return { ...(await withoutMissingSection(offline, context)), modelCalls: 0 };
    if (!model) return { decision: decisionOf({ needs_clarification: true, clarification_question: NEEDS_MODEL, reasoning: 'No model, and not an explicit command.' }), edit: null, modelCalls: 0 };
    const request = decisionPrompt(message, context);
    const decision = await modelCall('decide', act, async (abortSignal) => {
      const result = await generateObjectSafely(
        { ...request, schema: AgentDecisionSchema, name: 'agent_decision' },
        { model, timeoutMs, abortSignal, temperature: options.temperature ?? 0.5, providerOptions: { openai: { strictJsonSchema: false } } },
      );
      if (!result.ok) throw new DocumentAgentModelError('decide', result.failure.reason, result.failure.message, { internal: result.failure.detail });
      return result.output;
    });
    checkDecision(decision, limits);
    return { decision, edit: null, modelCalls: 1 };
  };

  /**
   * A section to remove that the document does not have: said at once, before
   * the person is asked to confirm a deletion that could not happen.
   */
  const withoutMissingSection = async (reading: { decision: AgentDecision; edit: EditOperation | null }, context: DecideInput['context']) => {
    const { edit, decision } = reading;
    if (edit?.kind !== 'remove_section' || decision.document_id === null) return reading;
    // The one document, read whole (its sections): never the project's every document.
    const named = context.documents.find((d) => d.id === decision.document_id);
    const found = named ? await repo.findDocumentByName(context.project.id, named.name) : null;
    const doc = found?.id === decision.document_id ? found : null;
    if (!doc || removeSection(doc.content, edit.heading).removed) return reading;
    const sections = sectionsOf(doc.content).map((s) => s.heading);
    return {
      decision: decisionOf({ conversational_response: sectionNotFoundReply(doc.name, edit.heading, sections), reasoning: `There is no '${edit.heading}' section in '${doc.name}'.` }),
      edit: null,
    };
  };

  /** A text answer (the rewrite's Markdown, a conversational reply). */
  const text = async (purpose: 'rewrite' | 'converse', act: Act, request: { instructions: string; prompt: string }): Promise<string> => {
    const out = await modelCall(purpose, act, async (abortSignal) => {
      const result = await generateText({ model: model!, instructions: request.instructions, prompt: request.prompt, maxRetries: 1, abortSignal });
      const out = result.text.trim();
      if (!out) throw new DocumentAgentModelError(purpose, 'invalid_output', 'the model answered with no text');
      if (!isStorable(out)) throw new DocumentAgentModelError(purpose, 'invalid_output', 'the model answered with a NUL character or a lone surrogate');
      return out;
    });
    // Over the cap, the output is dropped here: the refusal says its size, never its text.
    checkContent(limits, out, purpose === 'rewrite' ? 'the rewritten document' : 'the answer');
    return out;
  };

  const create = async (input: CreateInput): Promise<CreateOutcome> => {
    const { decision } = input;
    const name = documentNameFor(decision, input.message, input.documents.length);
    const content = [decision.document_content ?? '', input.searchResults ?? ''].filter((s) => s.trim()).join('\n\n');
    const checked = NewDocumentSchema.safeParse({ name, content, standingInstruction: decision.standing_instruction ?? '' });
    if (!checked.success) return { ok: false, reason: 'invalid', message: `The document ${issuesOf(checked.error).map((i) => `${i.path ?? 'value'} ${i.message}`).join('; ')}` };
    // The seed's 4d answer for a name the store would refuse; content over the cap is refused as a failure (413), writing nothing.
    const nameLength = [...checked.data.name].length;
    if (nameLength > limits.maxNameLength) return { ok: false, reason: 'invalid', message: `The document name must be at most ${limits.maxNameLength} characters` };
    const instructionLength = [...checked.data.standingInstruction].length;
    if (instructionLength > limits.maxTextLength)
      return { ok: false, reason: 'invalid', message: `The standing instruction must be at most ${limits.maxTextLength} characters` };
    checkContent(limits, checked.data.content, "the new document's content");
    const existing = await repo.findDocumentByName(input.projectId, checked.data.name);
    const doc = { content: checked.data.content, standingInstruction: checked.data.standingInstruction };
    if (existing) {
      const taken = (await repo.documentNames(input.projectId)).map((d) => d.name);
      return { ok: false, reason: 'duplicate', name: checked.data.name, existing: { id: existing.id, name: existing.name }, proposedName: proposeName(existing.name, taken), ...doc };
    }
    return { ok: true, name: checked.data.name, ...doc };
  };

  const edit = async (input: EditInput, act: Act): Promise<EditOutcome> => {
    const target = input.decision.document_id;
    // The decision's id must be one of the project's documents (the seed: an invalid id leads to clarification).
    if (target === null || !input.documents.some((d) => d.id === target)) return { ok: false, reason: 'unknown_document', modelCalls: 0 };
    let doc;
    try {
      doc = await repo.getDocument(input.owner, target);
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return { ok: false, reason: 'unknown_document', modelCalls: 0 };
      throw error;
    }
    let content: string;
    let modelCalls = 0;
    if (input.edit?.kind === 'append') {
      content = appendText(doc.content, input.edit.text);
      checkContent(limits, content, 'the document with this addition');
    }
    else if (input.edit?.kind === 'remove_section') {
      const removed = removeSection(doc.content, input.edit.heading);
      if (!removed.removed) return { ok: false, reason: 'section_not_found', name: doc.name, heading: input.edit.heading, sections: sectionsOf(doc.content).map((s) => s.heading), modelCalls: 0 };
      content = removed.content;
    } else {
      if (!model) throw new DocumentAgentModelError('rewrite', 'model_error', 'editing a document this way needs a language model', { called: false });
      content = await text('rewrite', act, rewritePrompt({ message: input.message, standingInstruction: doc.standingInstruction, content: doc.content, searchResults: input.searchResults, decision: input.decision }));
      modelCalls = 1;
    }
    // An append is made again on whatever version is there when it is saved (the commit re-applies it too).
    if (input.edit?.kind === 'append') return { ok: true, documentId: doc.id, name: doc.name, expectedVersion: doc.version, content, append: input.edit.text, modelCalls };
    // Someone saved the document while it was rewritten: nothing is saved (the commit checks the version again).
    const now = await repo.getDocument(input.owner, target);
    if (now.version !== doc.version) return { ok: false, reason: 'conflict', name: doc.name, modelCalls };
    return { ok: true, documentId: doc.id, name: doc.name, expectedVersion: doc.version, content, modelCalls };
  };

  const converse = async ({ message, decision, context }: ConverseInput, act: Act): Promise<ConverseOutput> => {
    if (decision.conversational_response?.trim()) return { text: decision.conversational_response.trim(), modelCalls: 0 };
    if (!model) return { text: NEEDS_MODEL, modelCalls: 0 };
    return { text: await text('converse', act, conversePrompt(message, context)), modelCalls: 1 };
  };

  const search = async ({ query }: SearchInput, act: Act): Promise<SearchOutcome> => {
    if (!webSearch) return { performed: false, results: null, note: null };
    const results = await webSearch.search(query, { signal: act.signal });
    return { performed: true, results: formatSearchResults(query, results), note: null };
  };

  // Each actor within the act's time (`input.time`), stopped also when XState stops it (`signal`).
  return {
    // The act's first actor (it starts the act's clock): a store read, not waited for past the limit.
    // On PGlite the statement runs to its end all the same (nothing can stop it); its result is dropped.
    loadContext: fromPromise<LoadedContext & ActClock, LoadContextInput>(({ input, signal }) =>
      step('load_context', { 'gateflow.project.id': input.projectId }, () => timed(input.time, signal, () => loadContext(database, input))),
    ),
    decide: fromPromise<DecideOutput & ActClock, DecideInput>(({ input, signal }) =>
      step('decide', {}, async (span) => {
        const out = await timed(input.time, signal, (act) => decide(input, act));
        span.setAttributes({ 'gateflow.model.calls': out.modelCalls, 'gateflow.decision.offline': out.modelCalls === 0 });
        return out;
      }),
    ),
    searchWeb: fromPromise<SearchOutcome & ActClock, SearchInput>(({ input, signal }) =>
      step('search', { 'gateflow.search.provider': webSearch?.name ?? 'none' }, () => timed(input.time, signal, (act) => search(input, act))),
    ),
    createDocument: fromPromise<CreateOutcome & ActClock, CreateInput>(({ input, signal }) =>
      step('create', { 'gateflow.project.id': input.projectId }, () => timed(input.time, signal, () => create(input))),
    ),
    editDocument: fromPromise<EditOutcome & ActClock, EditInput>(({ input, signal }) =>
      step('edit', { 'gateflow.project.id': input.projectId }, () => timed(input.time, signal, (act) => edit(input, act))),
    ),
    converse: fromPromise<ConverseOutput & ActClock, ConverseInput>(({ input, signal }) =>
      step('converse', {}, () => timed(input.time, signal, (act) => converse(input, act))),
    ),
  };
}
