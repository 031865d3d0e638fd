/**
 * Model-based tests of the document agent (seed 002, machines/document-agent.ts)
 * with src/testing/machine-paths.ts: paths generated with `xstate/graph` from
 * the machine, whose events are each invoked actor's possible outcomes (the
 * decisions of 3b, the outcomes of search, create, edit and converse, each
 * failure) and the person's messages, buttons, answers and silence; each path
 * is replayed on a live actor (`machine.provide` with `fromPromise` actors the
 * path settles with its chosen outputs), to 100% of the state nodes and
 * transitions the live actor really took. Every time a replayed path comes to
 * rest, the reply, the writes and the event it reached are checked against
 * what its events call for (the seed's 4a–4f texts word for word where the
 * seed gives them).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import {
  documentAgentMachine,
  type ConverseOutput,
  type CreateInput,
  type CreateOutcome,
  type DecideOutput,
  type DocumentAgentContext,
  type EditInput,
  type EditOutcome,
  type LoadedContext,
  type SearchOutcome,
} from '../../machines/document-agent.js';
import { ActTimeUp } from '../../src/document-agent/errors.js';
import { decisionOf, type AgentDecision } from '../../src/document-agent/schemas.js';
import type { InputAnsweredEvent } from '../../src/inputs/events.js';
import {
  describeEvent,
  doneEvent,
  errorEvent,
  generateMachinePaths,
  inputTestEvents,
  replayMachinePaths,
  type MachineCoverage,
  type MachinePath,
  type ReplayedStep,
} from '../../src/testing/index.js';

const INPUT = { owner: 'alice', projectId: 1, sessionId: 'chat-session-1' };
const REQUEST = 'Add my favorite recipes';
const NEW_REQUEST = 'Actually, which documents do I have?';

// ---------------------------------------------------------------- the actors' outcomes

const LOADED: LoadedContext = {
  chatId: 7,
  project: { id: 1, name: 'My Project', description: null },
  documents: [
    { id: 1, name: 'Recipes', standing_instruction: 'Keep each recipe short.', content: '# Recipes\n\n## Budget\nCheap meals.' },
    { id: 2, name: 'Travel Guide', standing_instruction: '', content: '# Travel Guide' },
  ],
  history: [],
  focusDocumentId: null,
};

const DECISIONS: Record<string, DecideOutput> = {
  clarify: {
    decision: decisionOf({ needs_clarification: true, clarification_question: 'Which document should I add the dessert section to? \nYou have: Recipes, Travel Guide' }),
    edit: null,
    modelCalls: 1,
  },
  'clarify without a question': { decision: decisionOf({ needs_clarification: true }), edit: null, modelCalls: 1 },
  confirm: {
    decision: decisionOf({
      should_edit: true,
      document_id: 1,
      pending_confirmation: true,
      confirmation_prompt: "I'll remove the Budget section from the Recipes document. \nThis will delete all budget information. Should I proceed?",
      intent_statement: "I'll remove the Budget section from the Recipes document.",
      content_summary: "Removed the Budget section from 'Recipes'.",
    }),
    edit: { kind: 'remove_section', heading: 'Budget' },
    modelCalls: 0,
  },
  'search then create': {
    decision: decisionOf({
      should_create: true,
      document_name: 'Paris Museums',
      needs_web_search: true,
      search_query: 'Paris museums opening hours',
      intent_statement: "I'll create a new document called 'Paris Museums'",
      content_summary: 'Opening hours of the main museums in Paris.',
    }),
    edit: null,
    modelCalls: 1,
  },
  edit: {
    decision: decisionOf({
      should_edit: true,
      document_id: 1,
      intent_statement: "I'll add your favorite recipes to the Recipes document.",
      content_summary: 'Added pancakes and lentil soup.',
    }),
    edit: null,
    modelCalls: 1,
  },
  create: {
    decision: decisionOf({
      should_create: true,
      document_name: 'Recipes',
      document_content: '## Breakfast\nPancakes.',
      standing_instruction: 'Keep each recipe short.',
      intent_statement: "I'll create a new document called 'Recipes'",
      content_summary: 'Created a Recipes document with sections for breakfast, lunch, dinner...',
    }),
    edit: null,
    modelCalls: 1,
  },
  converse: { decision: decisionOf({ reasoning: 'A question about the documents.' }), edit: null, modelCalls: 1 },
};

const SEARCHES: Record<string, SearchOutcome> = {
  performed: { performed: true, results: '## Web search results\n- Louvre: 9:00–18:00', note: null },
  unavailable: { performed: false, results: null, note: null },
};

const LOAD_ERROR = 'project 1 was not found';
const DECIDE_ERROR = 'the language model could not be reached while working out what to do (HTTP 500)';
const SEARCH_ERROR = 'web search failed: SearXNG answered HTTP 502';
const CREATE_ERROR = 'the store refused the document';
const EDIT_ERROR = 'the language model answered in a form I could not use while rewriting the document (no text)';
const CONVERSE_ERROR = 'the language model could not be reached while writing the answer (timeout)';
/** The message's time ran out during the actor (issue 27): what the host's actors throw then. */
const TIME_LIMIT = 'the time limit of 60 s per message';
const timeUp = () => new ActTimeUp(TIME_LIMIT, 0);
/** The time each actor is given: the default limit, its clock not started (the actors here report no start). */
const NO_CLOCK = { startedAt: null, ms: 60_000, limit: TIME_LIMIT };

const createOutcomes = (c: DocumentAgentContext): Record<string, CreateOutcome> => {
  const name = c.decision!.document_name!;
  return {
    ok: { ok: true, name, content: `# ${name}\n`, standingInstruction: c.decision!.standing_instruction ?? '' },
    duplicate: {
      ok: false,
      reason: 'duplicate',
      name,
      existing: { id: 1, name: 'Recipes' },
      proposedName: 'Recipes 2',
      content: '## Favourites\nPancakes, lentil soup.',
      standingInstruction: 'Keep each recipe short.',
    },
    // An offline "create a document called recipes": a duplicate with nothing to add.
    'duplicate, empty': {
      ok: false,
      reason: 'duplicate',
      name,
      existing: { id: 1, name: 'Recipes' },
      proposedName: 'Recipes 2',
      content: '',
      standingInstruction: '',
    },
    invalid: { ok: false, reason: 'invalid', message: "The document name wasn't specified" },
  };
};

const EDITED = { ok: true, documentId: 1, name: 'Recipes', expectedVersion: 3, content: '# Recipes\n\n## Breakfast\nPancakes.', modelCalls: 1 } as const;
const EDITS: Record<string, EditOutcome> = {
  ok: EDITED,
  unknown_document: { ok: false, reason: 'unknown_document', modelCalls: 0 },
  conflict: { ok: false, reason: 'conflict', name: 'Recipes', modelCalls: 1 },
  section_not_found: { ok: false, reason: 'section_not_found', name: 'Recipes', heading: 'Budget', sections: ['Breakfast', 'Dinner'], modelCalls: 0 },
};

const CONVERSED: ConverseOutput = { text: 'You have two documents: Recipes and Travel Guide.', modelCalls: 1 };

// ---------------------------------------------------------------- events and the search's key

/** Each event's label in the paths. */
const labels = new WeakMap<object, string>();
const labelled = <E extends AnyEventObject>(label: string, event: E): E => (labels.set(event, label), event);
const labelOf = (event: AnyEventObject) => labels.get(event) ?? describeEvent(event);
const ctx = (s: AnyMachineSnapshot) => s.context as DocumentAgentContext;

/** The events worth trying in a snapshot: the person's in the waiting states, each outcome of the actor a state invokes. */
function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  if (snapshot.status !== 'active') return [];
  const c = ctx(snapshot);
  const person = [labelled('message', { type: 'user.text', text: REQUEST }), labelled('button', { type: 'user.button', value: 'Proceed' })];
  switch (snapshot.value) {
    case 'idle':
      return person;
    case 'load_context':
      return [labelled('loaded', doneEvent('loadContext', LOADED)), labelled('load failed', errorEvent('loadContext', new Error(LOAD_ERROR))), labelled('time up', errorEvent('loadContext', timeUp()))];
    case 'decide':
      return [
        ...Object.entries(DECISIONS).map(([name, output]) => labelled(`decided ${name}`, doneEvent('decide', output))),
        labelled('decide failed', errorEvent('decide', new Error(DECIDE_ERROR))),
        labelled('time up', errorEvent('decide', timeUp())),
      ];
    case 'search':
      return [
        ...Object.entries(SEARCHES).map(([name, output]) => labelled(`searched: ${name}`, doneEvent('searchWeb', output))),
        labelled('search failed', errorEvent('searchWeb', new Error(SEARCH_ERROR))),
        labelled('time up', errorEvent('searchWeb', timeUp())),
      ];
    case 'create':
      return [
        ...Object.entries(createOutcomes(c)).map(([name, output]) => labelled(`created: ${name}`, doneEvent('createDocument', output))),
        labelled('create failed', errorEvent('createDocument', new Error(CREATE_ERROR))),
        labelled('time up', errorEvent('createDocument', timeUp())),
      ];
    case 'edit':
      return [
        ...Object.entries(EDITS).map(([name, output]) => labelled(`edited: ${name}`, doneEvent('editDocument', output))),
        labelled('edit failed', errorEvent('editDocument', new Error(EDIT_ERROR))),
        labelled('time up', errorEvent('editDocument', timeUp())),
      ];
    case 'converse':
      return [labelled('conversed', doneEvent('converse', CONVERSED)), labelled('converse failed', errorEvent('converse', new Error(CONVERSE_ERROR))), labelled('time up', errorEvent('converse', timeUp()))];
    case 'awaiting_confirmation':
    case 'awaiting_choice':
      return [
        ...inputTestEvents(snapshot).map((e) => labelled(e.type === 'input.answered' ? `answered ${e.value}` : 'timed out', e)),
        labelled('new request', { type: 'user.text', text: NEW_REQUEST }),
        // A cancel word typed: the pending change is cancelled, not a new request (issue 27).
        labelled('typed stop', { type: 'user.text', text: 'stop' }),
        labelled('button instead', { type: 'user.button', value: 'Create a document called Notes' }),
      ];
    default:
      return [];
  }
}

const searchState = (c: DocumentAgentContext) => (c.search === null ? null : c.search.performed ? 'performed' : c.search.note ? 'failed' : 'unavailable');

/**
 * What the search tells apart: the state, and where the next step depends on
 * it (the routes of `act` after a search; what create and edit were asked to
 * do and with which search), the decision's flags, whether the person
 * confirmed, and the search's outcome; and, while a message runs, whether it
 * dropped a pending request (so that such a message is followed to its end
 * too). At rest only whether the last message searched (so that the next
 * message is followed too, and a search carried over shows); a new message
 * starts afresh, and the waiting states' pending action is fixed by the state.
 */
function key(snapshot: AnyMachineSnapshot): string {
  const c = ctx(snapshot);
  const value = String(snapshot.value);
  // At rest, whether the last message searched: its next message is followed too, so a search carried over would show.
  // Waiting on a duplicate name: whether there is content to add (nothing to add ends at once).
  const nothingToAdd = c.pending?.kind === 'duplicate' && !c.pending.content.trim();
  if (['idle', 'awaiting_confirmation', 'awaiting_choice'].includes(value)) return JSON.stringify([value, c.search !== null, nothingToAdd]);
  const dropped = c.dropped !== null;
  if (!['search', 'create', 'edit'].includes(value)) return JSON.stringify([value, dropped]);
  const d = c.decision!;
  return JSON.stringify([value, dropped, d.needs_clarification, d.pending_confirmation, d.needs_web_search, d.should_edit, d.should_create, c.confirmed, searchState(c)]);
}

// ---------------------------------------------------------------- what a message should end with

/** How a message ended, as its events say: the state it rests in, and the reply, write and success it calls for. */
interface Expected {
  state: 'idle' | 'awaiting_confirmation' | 'awaiting_choice';
  outcome: string;
  reply: string;
  write: 'create' | 'update' | null;
  /** A failure writes nothing: neither message, nor a document. */
  stored: boolean;
}

/** The message a path is in: what it was asked, decided and searched, and what the person left waiting. */
interface MessageTrack {
  said: string;
  decision: AgentDecision | null;
  search: 'performed' | 'unavailable' | 'failed' | null;
  dropped: string | null;
  modelCalls: number;
}

const failed = (message: string) => `I couldn't do that: ${message}. Nothing was changed; please send your message again.`;

/** The reply the seed asks for, built here from its texts (not from the machine's formatter). */
function expectedEnd(label: string, step: ReplayedStep, m: MessageTrack): Expected {
  const d = m.decision;
  const rest = (state: Expected['state'], outcome: string, reply: string, write: Expected['write'] = null, stored = true): Expected => ({ state, outcome, reply, write, stored });
  switch (label) {
    case 'load failed':
      return rest('idle', 'failed', failed(LOAD_ERROR), null, false);
    case 'decide failed':
      return rest('idle', 'failed', failed(DECIDE_ERROR), null, false);
    case 'create failed':
      return rest('idle', 'failed', failed(CREATE_ERROR), null, false);
    case 'edit failed':
      return rest('idle', 'failed', failed(EDIT_ERROR), null, false);
    case 'converse failed':
      return rest('idle', 'failed', failed(CONVERSE_ERROR), null, false);
    case 'decided clarify':
      return rest('idle', 'clarify', 'Which document should I add the dessert section to? \nYou have: Recipes, Travel Guide');
    case 'decided clarify without a question':
      return rest('idle', 'clarify', "I'm not sure what you would like me to do. Could you say which document, and what to change? You have: Recipes, Travel Guide");
    case 'decided confirm':
      // 4b, the seed's example word for word, and the buttons after it.
      return rest('awaiting_confirmation', 'confirm', "I'll remove the Budget section from the Recipes document. \nThis will delete all budget information. Should I proceed?");
    case 'created: ok': {
      const name = d!.document_name!;
      const summary = d!.content_summary ? `\n\n**Document Content Summary:**\n${d!.content_summary}` : '';
      const searched = m.search === 'performed' ? '\n\n_I performed a web search to gather initial content._' : '';
      return rest('idle', 'created', `I've created the document '${name}' in this project.${summary}${searched}`, 'create');
    }
    case 'created: duplicate':
    case 'created: duplicate, empty':
      return rest(
        'awaiting_choice',
        'duplicate',
        "A document named 'Recipes' already exists in this project.\nI can add this content to the existing document instead. \nWould you like me to update 'Recipes' with the new content?\n\nWould you like me to:\n1. Add this content to the existing document\n2. Create a new document with a different name",
      );
    case 'created: invalid':
      return rest(
        'idle',
        'create_failed',
        "I tried to create the document, but encountered an issue.\nThe document name wasn't specified. Please try again with a clearer request, \nlike 'Create a document called Recipes'.",
      );
    case 'edited: ok': {
      const summary = d!.content_summary ?? d!.change_summary;
      const searched = m.search === 'performed' ? '\n\n_I performed a web search to ensure accuracy._' : '';
      return rest('idle', 'updated', `${d!.intent_statement ?? "I've updated the document 'Recipes'."}${summary ? `\n\n**Content Summary:**\n${summary}` : ''}${searched}`, 'update');
    }
    case 'edited: unknown_document':
      return rest('idle', 'clarify', 'Which document should I change? You have: Recipes, Travel Guide');
    case 'edited: conflict':
      return rest('idle', 'conflict', "'Recipes' was changed by someone else while I was editing it, so I saved nothing. Ask me again and I'll work from the new version.");
    case 'edited: section_not_found':
      return rest('idle', 'section_not_found', "There is no 'Budget' section in 'Recipes', so nothing was changed. Its sections are: Breakfast, Dinner.");
    case 'conversed':
      return rest('idle', 'conversed', CONVERSED.text);
    case 'time up':
      return rest('idle', 'time_limit', expectedTimeUp(String(step.before.value), m, ctx(step.before)));
    case 'answered add_to_existing':
      // Only when the duplicate had nothing to add (otherwise the choice goes on to edit).
      return rest('idle', 'conversed', "There was no content to add, so 'Recipes' stays as it is.");
    case 'answered cancel': {
      const intent = ctx(step.before).pending!.decision.intent_statement!;
      return rest('idle', 'cancelled', `Cancelled: nothing was changed (${intent.replace(/\.$/, '')}).`);
    }
    case 'typed stop': {
      const p = ctx(step.before).pending!;
      const intent = p.kind === 'confirm' ? p.decision.intent_statement! : `create '${p.decision.document_name ?? p.existing.name}'`;
      return rest('idle', 'cancelled', `Cancelled: nothing was changed (${intent.replace(/\.$/, '')}).`);
    }
    case 'timed out': {
      const p = ctx(step.before).pending!;
      const intent = p.kind === 'confirm' ? p.decision.intent_statement!.replace(/\.$/, '') : `create '${p.decision.document_name}'`;
      return rest('idle', 'timed_out', `I didn't hear back, so I dropped the request (${intent}). Nothing was changed.`);
    }
    default:
      throw new Error(`no expected end for "${label}"`);
  }
}

/**
 * The reply of a message whose time ran out in `state` (issue 27): what was
 * done (the decision, a search made), what was not (the step under way and
 * the action after it), and that nothing was changed.
 */
function expectedTimeUp(state: string, m: MessageTrack, before: DocumentAgentContext): string {
  const d = state === 'load_context' || state === 'decide' ? null : m.decision;
  const action = !d ? null : d.should_create ? `creating '${d.document_name}'` : d.should_edit ? "changing 'Recipes'" : 'writing the answer';
  const done = [
    ...(d ? [d.intent_statement ? `worked out what to do (${d.intent_statement.replace(/\.$/, '')})` : 'worked out what to do'] : []),
    ...(m.search === 'performed' ? [`searched the web for "${d!.search_query}"`] : []),
  ];
  const notDone = [
    ...(state === 'load_context' ? ['reading the project and its documents'] : []),
    ...(state === 'decide' ? ['working out what to do'] : []),
    ...(state === 'search' ? [`the web search for "${before.decision!.search_query}"`] : []),
    ...(action ? [action] : []),
  ];
  return (
    `I stopped before finishing: this message reached ${TIME_LIMIT}.\n` +
    `Done: ${done.length ? done.join('; ') : 'nothing yet'}.\n` +
    `Not done: ${notDone.join('; ')}.\n` +
    'Nothing was changed in your documents; send the message again to try once more.'
  );
}

/** The note a search leaves at the end of the reply when it was not made, and the dropped request's note before it. */
function withNotes(reply: string, m: MessageTrack): string {
  const after = m.search === 'unavailable' ? '\n\n_Web search is not available here, so I went on without it._' : m.search === 'failed' ? `\n\n_The web search failed (${SEARCH_ERROR}), so I went on without it._` : '';
  const before = m.dropped ? `_I dropped the request I was waiting on you to confirm (${m.dropped})._\n\n` : '';
  return before + reply + after;
}

const MESSAGE_STARTS = new Set(['user.text', 'user.button', 'input.answered', 'input.timedOut']);
const outputOf = <T>(step: ReplayedStep) => (step.event as unknown as { output: T }).output;

/** A message that ended: the step it ended on, what was expected, and what it got. */
interface Ending {
  path: string;
  label: string;
  step: ReplayedStep;
  expected: Expected;
  track: MessageTrack;
}

/**
 * Follows a replayed path message by message (what was said, decided and
 * searched, what was dropped, the model calls), and returns each message's
 * ending with what it should be.
 */
function endingsOf(path: MachinePath, steps: ReplayedStep[]): Ending[] {
  const endings: Ending[] = [];
  let m: MessageTrack = { said: '', decision: null, search: null, dropped: null, modelCalls: 0 };
  for (const step of steps) {
    const label = labelOf(step.event);
    const before = ctx(step.before);
    if (MESSAGE_STARTS.has(step.event.type)) {
      const e = step.event as AnyEventObject;
      const p = before.pending;
      const said =
        e.type === 'user.text' ? (e.text as string) : e.type === 'user.button' ? (e.value as string) : e.type === 'input.timedOut' ? '' : label === 'answered proceed' ? 'Proceed' : label === 'answered cancel' ? 'Cancel' : label === 'answered add_to_existing' ? "Add this content to 'Recipes'" : "Create 'Recipes 2' instead";
      let decision: AgentDecision | null = null;
      if (label === 'answered proceed') decision = p!.decision;
      if (label === 'answered add_to_existing')
        decision =
          p!.kind === 'duplicate' && !p!.content.trim()
            ? null
            : {
                ...p!.decision,
                should_create: false,
                should_edit: true,
                document_id: 1,
                intent_statement: "I've added the content to the Recipes document.",
                content_summary: "Added the new content at the end of 'Recipes'.",
                change_summary: null,
              };
      if (label === 'answered create_new') decision = { ...p!.decision, document_name: 'Recipes 2' };
      const waiting = (e.type === 'user.text' || e.type === 'user.button') && label !== 'typed stop' && p;
      const dropped = waiting ? (p.kind === 'confirm' ? p.decision.intent_statement!.replace(/\.$/, '') : `create '${p.decision.document_name}'`) : null;
      m = { said, decision, search: null, dropped, modelCalls: 0 };
    }
    if (step.event.type === 'xstate.done.actor.decide') {
      m.decision = outputOf<DecideOutput>(step).decision;
      m.modelCalls += outputOf<DecideOutput>(step).modelCalls;
    }
    if (step.event.type === 'xstate.done.actor.editDocument') m.modelCalls += outputOf<EditOutcome>(step).modelCalls;
    if (step.event.type === 'xstate.done.actor.converse') m.modelCalls += outputOf<ConverseOutput>(step).modelCalls;
    if (label === 'searched: performed') m.search = 'performed';
    if (label === 'searched: unavailable') m.search = 'unavailable';
    if (label === 'search failed') m.search = 'failed';
    if (['idle', 'awaiting_confirmation', 'awaiting_choice'].includes(String(step.snapshot.value)))
      endings.push({ path: path.description, label, step, expected: expectedEnd(label, step, m), track: { ...m } });
  }
  return endings;
}

// ---------------------------------------------------------------- the run

type Trace = { path: MachinePath; steps: ReplayedStep[] };
const startedInput = <T>(step: ReplayedStep, id: string) => step.started.find((a) => a.id === id)?.input as T | undefined;

describe('document agent: model-based paths', () => {
  let paths: MachinePath[];
  let coverage: MachineCoverage;
  const traces: Trace[] = [];
  const allSteps = () => traces.flatMap((t) => t.steps);
  const endings = () => traces.flatMap((t) => endingsOf(t.path, t.steps));

  beforeAll(async () => {
    paths = generateMachinePaths(documentAgentMachine, { events, key, input: INPUT, describe: labelOf });
    coverage = await replayMachinePaths(documentAgentMachine, paths, {
      key,
      input: INPUT,
      onPath: (path, steps) => traces.push({ path, steps }),
      // Never stuck, answers only to open gates, and "cancel" wherever it waits for the person drops the pending action.
      invariants: { stop: { text: 'cancel', ends: (s) => s.status === 'done' || (s.context as DocumentAgentContext).pending === null } },
    });
    const pct = (f: MachineCoverage['states']) => `${f.covered}/${f.total} (${f.percent}%)`;
    console.log(`document-agent: ${coverage.paths} paths, ${coverage.steps} steps, states ${pct(coverage.states)}, transitions ${pct(coverage.transitions)}`);
  });

  it('replays every generated path and covers 100% of the states and transitions', () => {
    expect(traces).toHaveLength(paths.length);
    expect(coverage.states.missing).toEqual([]);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.states.percent).toBe(100);
    expect(coverage.transitions.percent).toBe(100);
    // The machine's root and its 16 states; every candidate of every transition, counted on the machine itself.
    expect(coverage.states.total).toBe(17);
    expect(coverage.transitions.total).toBe(52); // 44, a cancel word typed while a change waits (two waiting states), the message's time running out in each of its six actors
  });

  it('takes every outcome of every actor and every answer somewhere', () => {
    const used = new Set(paths.flatMap((p) => p.events.map((e) => labels.get(e))));
    const expected = [
      'message',
      'button',
      'loaded',
      'load failed',
      ...Object.keys(DECISIONS).map((n) => `decided ${n}`),
      'decide failed',
      ...Object.keys(SEARCHES).map((n) => `searched: ${n}`),
      'search failed',
      'created: ok',
      'created: duplicate',
      'created: duplicate, empty',
      'created: invalid',
      'create failed',
      ...Object.keys(EDITS).map((n) => `edited: ${n}`),
      'edit failed',
      'conversed',
      'converse failed',
      'time up',
      'answered proceed',
      'answered cancel',
      'answered add_to_existing',
      'answered create_new',
      'timed out',
      'new request',
      'typed stop',
      'button instead',
    ];
    expect(expected.filter((l) => !used.has(l))).toEqual([]);
  });

  it('ends every message with the reply, the writes and the event its events call for', () => {
    const all = endings();
    for (const { path, label, step, expected, track } of all) {
      const c = ctx(step.snapshot);
      const where = `${path} (ended on "${label}")`;
      expect(step.snapshot.value, where).toBe(expected.state);
      expect(c.outcome?.kind, where).toBe(expected.outcome);
      expect(c.reply, where).toBe(withNotes(expected.reply, track));
      // Step 5: the person's words and the reply, both or (a failure) neither; step 3c's write with them.
      expect(c.outbox!.messageNo, where).toBe(c.messageNo);
      // Without a load there is no chat read: the commit finds the session's (src/document-agent/workflow.ts).
      expect(c.outbox!.chatId, where).toBe(label === 'load failed' || (label === 'time up' && step.before.value === 'load_context') ? null : LOADED.chatId);
      expect(c.outbox!.user, where).toEqual(expected.stored ? { content: track.said } : null);
      expect(c.outbox!.assistant?.content ?? null, where).toBe(expected.stored ? c.reply : null);
      expect(c.outbox!.write?.kind ?? null, where).toBe(expected.write);
      // Step 6: the event, a success exactly when a document is written.
      expect(c.outbox!.event, where).toMatchObject({ success: expected.write !== null, metadata: { outcome: expected.outcome, web_search_performed: track.search === 'performed' } });
      // The seed's rule: at most two model calls a message, counted as the actors report them.
      expect(c.modelCalls, where).toBe(track.modelCalls);
      expect(c.modelCalls, where).toBeLessThanOrEqual(2);
    }
    // Every ending was reached, from a fresh message and from an answer, with and without a search.
    const ends = new Set(all.map((e) => e.label));
    expect([...ends].sort()).toEqual(
      [
        'load failed',
        'decide failed',
        'create failed',
        'edit failed',
        'converse failed',
        'time up',
        'decided clarify',
        'decided clarify without a question',
        'decided confirm',
        'created: ok',
        'created: duplicate',
        'created: duplicate, empty',
        'created: invalid',
        'edited: ok',
        'edited: unknown_document',
        'edited: conflict',
        'edited: section_not_found',
        'conversed',
        'answered add_to_existing',
        'answered cancel',
        'typed stop',
        'timed out',
      ].sort(),
    );
    expect(all.some((e) => e.label === 'created: ok' && e.track.search === 'performed')).toBe(true);
    expect(all.some((e) => e.label === 'created: ok' && e.track.search === 'unavailable')).toBe(true);
    expect(all.some((e) => e.label === 'created: ok' && e.track.search === 'failed')).toBe(true);
    expect(all.some((e) => e.track.dropped !== null)).toBe(true);
  });

  it('writes what the actor made: the created document, or the update at the version it was made from', () => {
    for (const { label, step } of endings()) {
      const write = ctx(step.snapshot).write;
      if (label === 'created: ok') {
        const o = outputOf<Extract<CreateOutcome, { ok: true }>>(step);
        expect(write).toEqual({ kind: 'create', projectId: INPUT.projectId, name: o.name, content: o.content, standingInstruction: o.standingInstruction });
      } else if (label === 'edited: ok') expect(write).toEqual({ kind: 'update', documentId: EDITED.documentId, name: EDITED.name, expectedVersion: EDITED.expectedVersion, content: EDITED.content });
      else expect(write).toBeNull();
    }
  });

  it('waits with the gate that answers the reply: Proceed/Cancel after a confirmation, the two choices after a duplicate name', () => {
    const waits = allSteps().filter((s) => s.snapshot.value === 'awaiting_confirmation' || s.snapshot.value === 'awaiting_choice');
    expect(waits.length).toBeGreaterThan(0);
    for (const { snapshot } of waits) {
      const answers = inputTestEvents(snapshot).flatMap((e) => (e.type === 'input.answered' ? [[(e as InputAnsweredEvent).name, (e as InputAnsweredEvent).value]] : []));
      expect(answers).toEqual(
        snapshot.value === 'awaiting_confirmation'
          ? [
              ['confirmation', 'proceed'],
              ['confirmation', 'cancel'],
            ]
          : [
              ['duplicate_choice', 'add_to_existing'],
              ['duplicate_choice', 'create_new'],
            ],
      );
      expect(ctx(snapshot).pending?.kind).toBe(snapshot.value === 'awaiting_confirmation' ? 'confirm' : 'duplicate');
    }
  });

  it('proceeding runs exactly the announced action, with no new decision', () => {
    const proceeds = allSteps().filter((s) => labels.get(s.event) === 'answered proceed');
    expect(proceeds.length).toBeGreaterThan(0);
    for (const step of proceeds) {
      const announced = ctx(step.before).pending as Extract<DocumentAgentContext['pending'], { kind: 'confirm' }>;
      expect(step.snapshot.value).toBe('edit');
      expect(step.started.map((a) => a.id)).toEqual(['editDocument']);
      const input = startedInput<EditInput>(step, 'editDocument')!;
      expect(input.decision).toEqual(announced.decision);
      expect(input.edit).toEqual({ kind: 'remove_section', heading: 'Budget' });
      expect(input.message).toBe(REQUEST);
      expect(ctx(step.snapshot).pending).toBeNull();
    }
  });

  it('a duplicate name’s choices continue: add to the existing document, or create under the proposed name', () => {
    const added = allSteps().filter((s) => labels.get(s.event) === 'answered add_to_existing');
    const created = allSteps().filter((s) => labels.get(s.event) === 'answered create_new');
    expect(added.length).toBeGreaterThan(0);
    expect(created.length).toBeGreaterThan(0);
    expect(added.some((step) => step.snapshot.value === 'idle')).toBe(true);
    for (const step of added) {
      const p = ctx(step.before).pending as Extract<DocumentAgentContext['pending'], { kind: 'duplicate' }>;
      // Nothing to add: said at once, and nothing is edited.
      if (!p.content.trim()) {
        expect(step.snapshot.value).toBe('idle');
        expect(step.started.some((a) => a.id === 'editDocument')).toBe(false);
        continue;
      }
      expect(step.snapshot.value).toBe('edit');
      const input = startedInput<EditInput>(step, 'editDocument')!;
      expect(input.decision).toMatchObject({ should_edit: true, should_create: false, document_id: p.existing.id });
      expect(input.edit).toEqual({ kind: 'append', text: p.content });
    }
    for (const step of created) {
      const p = ctx(step.before).pending as Extract<DocumentAgentContext['pending'], { kind: 'duplicate' }>;
      expect(step.snapshot.value).toBe('create');
      const input = startedInput<CreateInput>(step, 'createDocument')!;
      expect(input.decision).toMatchObject({ should_create: true, document_name: p.proposedName, document_content: p.content, standing_instruction: p.standingInstruction });
    }
    // The agent's proposal is what gets created when chosen.
    const afterNew = endings().filter((e) => e.label === 'created: ok' && e.track.said === "Create 'Recipes 2' instead");
    expect(afterNew.length).toBeGreaterThan(0);
    for (const e of afterNew) expect(ctx(e.step.snapshot).reply).toMatch(/^I've created the document 'Recipes 2' in this project\./);
  });

  it('new words while waiting are a new request: the pending one is dropped, and the next message starts from the context', () => {
    const instead = allSteps().filter((s) => ['new request', 'button instead'].includes(labels.get(s.event)!));
    expect(new Set(instead.map((s) => String(s.before.value)))).toEqual(new Set(['awaiting_confirmation', 'awaiting_choice']));
    for (const step of instead) {
      expect(step.snapshot.value).toBe('load_context');
      expect(ctx(step.snapshot).pending).toBeNull();
      expect(ctx(step.snapshot).dropped).not.toBeNull();
      expect(startedInput(step, 'loadContext')).toEqual({ owner: INPUT.owner, projectId: INPUT.projectId, sessionId: INPUT.sessionId, time: NO_CLOCK });
    }
  });

  it('searches before the action when the decision asks, and only then; a failed or impossible search is said, and the action goes on', () => {
    for (const step of allSteps().filter((s) => s.event.type === 'xstate.done.actor.decide')) {
      const d = outputOf<DecideOutput>(step).decision;
      expect(step.snapshot.value === 'search', labelOf(step.event)).toBe(d.needs_web_search && !d.needs_clarification && !d.pending_confirmation);
      if (step.snapshot.value === 'search') expect(startedInput(step, 'searchWeb')).toEqual({ query: d.search_query, time: NO_CLOCK });
    }
    // A search the message's time stopped ends the message (the 'time up' ending); any other outcome goes on to the action.
    const searched = allSteps().filter((s) => s.before.value === 'search' && labels.get(s.event) !== 'time up');
    expect(searched.length).toBeGreaterThan(0);
    for (const step of searched) {
      expect(step.snapshot.value).toBe('create');
      expect(startedInput<CreateInput>(step, 'createDocument')!.searchResults).toBe(labels.get(step.event) === 'searched: performed' ? SEARCHES.performed!.results : null);
    }
  });

  it('gives decide the message and the loaded context, and create and edit the project’s documents', () => {
    let seen = 0;
    for (const step of allSteps()) {
      const decide = startedInput<{ message: string; context: LoadedContext }>(step, 'decide');
      if (decide) {
        seen++;
        expect(decide.context).toEqual(LOADED);
        expect([REQUEST, 'Proceed', NEW_REQUEST, 'Create a document called Notes']).toContain(decide.message);
      }
      for (const id of ['createDocument', 'editDocument']) {
        const input = startedInput<CreateInput | EditInput>(step, id);
        if (input) expect(input.documents).toEqual([{ id: 1, name: 'Recipes' }, { id: 2, name: 'Travel Guide' }]);
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
