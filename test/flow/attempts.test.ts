/**
 * Failed-answer budgets (the issue: "a flow that cannot read an answer stops
 * asking the same question forever"). Every question has a budget: its own
 * `maxAttempts`, else the flow's, else DEFAULT_MAX_ATTEMPTS (3). A question
 * whose answers are buttons then offers the buttons alone (state
 * `buttonsOnly`); one more failure leaves it on its `invalid` edge, else to
 * the flow's `fallback`; with neither it keeps offering the buttons. A question with
 * no answer buttons leaves at the budget's last failure (with neither: the implicit stop terminal). The intake's first
 * gate (matched directly, never by a model) is bounded too, and a converted
 * gate config ends at its `unreadable` terminal.
 */
import { InvalidButtonError } from '../../src/runtime/errors.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BUTTONS_ONLY_STATE,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_UNREADABLE_MESSAGE,
  FlowDocumentError,
  UNREADABLE_TERMINAL_ID,
  attemptBudget,
  compileFlow,
  flowDocumentJsonSchema,
  flowGraph,
  flowOutline,
  gateConfigJsonSchema,
  parseFlowText,
  parseFlowValue,
  type FlowDocument,
  type FlowDocumentInput,
  type FlowTraceEvent,
  type PathNode,
  type QuestionNode,
} from '../../src/flow/index.js';
import { restoreConversation, startConversation } from '../../src/flow/conversation.js';
import { ConversationFinishedError } from '../../src/runtime/errors.js';
import { BUTTONS_ONLY_MESSAGE, NOT_UNDERSTOOD_MESSAGE } from '../../src/flow/messages.js';
import type { Reply } from '../../src/flow/reply.js';
import type { Turn } from '../../src/workflow/turn.js';

const flowsDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const rawText = (name: string) => readFileSync(`${flowsDir}${name}.json`, 'utf8');
const example = (name: string): FlowDocument => parseFlowText(rawText(name), `${name}.json`);
/** The example gate config as written, changed by `edit`, then converted. */
const intakeWith = (edit: (config: Record<string, unknown> & { gates: Record<string, Record<string, unknown>> }) => void): FlowDocument => {
  const config = JSON.parse(rawText('patient-intake'));
  edit(config);
  return parseFlowValue(config, 'patient-intake.json');
};

const TODAY = new Date('2026-11-21T12:00:00Z');
const G1 = '1_patient_info_availability';
const G2 = '2_insurance_history';
const G3 = '3_visit_type';

/** Texts neither the offline matcher nor any parser reads (no model is configured: extraction abstains). */
const UNREADABLE = ['hmm', 'let me think about that', 'purple monkey dishwasher', 'asdf qwerty', 'well...', '???'];

/** A conversation with every reply and trace event kept. */
function converse(flow: FlowDocument) {
  const trace: FlowTraceEvent[] = [];
  const c = startConversation(flow, { today: () => TODAY, onTrace: (e) => trace.push(e) });
  const replies: Reply[] = [c.reply()];
  const send = async (turn: Turn) => {
    const reply = await c.send(turn);
    replies.push(reply);
    return reply;
  };
  return {
    c,
    trace,
    replies,
    send,
    text: (t: string) => send({ text: t }),
    button: (b: string) => send({ button: b }),
    /** `n` unreadable texts; the last reply. */
    unreadable: async (n: number) => {
      let last: Reply | undefined;
      for (let i = 0; i < n; i++) last = await send({ text: UNREADABLE[i % UNREADABLE.length]! });
      return last!;
    },
  };
}

const values = (reply: Reply) => Object.fromEntries(Object.entries(reply.answers).map(([k, a]) => [k, a.value]));
const committedRaw = (trace: FlowTraceEvent[]) => trace.filter((e) => e.type === 'answer.committed');

/** What a question with buttons says once it offers them alone. */
const buttonsAlone = (prompt: string) => `${BUTTONS_ONLY_MESSAGE}\n\n${prompt}`;

const gatePrompt = (flow: FlowDocument, id: string) => (flowGraph(flow).question(id) as QuestionNode).prompt;

describe('the default budget', () => {
  it('is 3, and every question and path node of every example flow has one (none is unlimited)', () => {
    expect(DEFAULT_MAX_ATTEMPTS).toBe(3);
    for (const name of ['clinic-callback', 'contact-request', 'event-booking', 'led-sales', 'lighting-consult', 'patient-intake', 'refund-approval']) {
      const doc = example(name);
      const nodes = [...doc.nodes, ...Object.values(doc.subgraphs ?? {}).flatMap((s) => s.nodes)];
      for (const node of nodes)
        if (node.kind === 'question' || node.kind === 'path') expect(attemptBudget(doc, node), `${name} ${node.id}`).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('patient-intake, the first gate (matched directly, never by a model)', () => {
  const flow = example('patient-intake');

  it('three unreadable texts: asked again twice, then the buttons alone, said plainly', async () => {
    const s = converse(flow);
    const [first, second] = [await s.text('hmm'), await s.text('let me think about that')];
    for (const r of [first, second]) {
      expect(r.state).toEqual({ [G1]: 'asking' });
      expect(r.message).toContain(NOT_UNDERSTOOD_MESSAGE);
    }
    const third = await s.text('purple monkey dishwasher');
    expect(third.state).toEqual({ [G1]: BUTTONS_ONLY_STATE });
    expect(third.message).toBe(buttonsAlone(gatePrompt(flow, G1)));
    expect(third.message).not.toBe(NOT_UNDERSTOOD_MESSAGE);
    expect(third.buttons).toEqual([
      { label: 'Yes', value: 'Yes' },
      { label: 'No', value: 'No' },
    ]);
    expect(third.buttonContext).toBe('gate_question');
    expect(third.completion).toEqual({ isComplete: false, reason: 'awaiting_answer', readyForHandoff: false });
    expect(third.answers).toEqual({});
    s.c.stop();
  });

  it('a button press then still answers normally', async () => {
    const s = converse(flow);
    expect((await s.unreadable(3)).state).toEqual({ [G1]: BUTTONS_ONLY_STATE });
    const answered = await s.button('Yes');
    expect(answered.state).toEqual({ [G2]: 'asking' });
    expect(answered.message).toBe(gatePrompt(flow, G2));
    expect(answered.answers[G1]).toEqual({ value: 'Yes', confidence: 1, source: 'button', raw: 'Yes' });
    s.c.stop();
  });

  it('so does a text the offline matcher reads surely, and a limiting value still stops', async () => {
    const s = converse(flow);
    expect((await s.unreadable(3)).state).toEqual({ [G1]: BUTTONS_ONLY_STATE });
    expect((await s.text('yes, we have it all')).state).toEqual({ [G2]: 'asking' });
    expect(values(s.replies.at(-1)!)).toEqual({ [G1]: 'Yes' });
    s.c.stop();

    const t = converse(flow);
    expect((await t.unreadable(3)).state).toEqual({ [G1]: BUTTONS_ONLY_STATE });
    const stopped = await t.button('No');
    expect(stopped.state).toBe('stopped');
    expect(stopped.completion).toEqual({ isComplete: true, reason: 'stopped_limiting_value', readyForHandoff: false });
    t.c.stop();
  });

  it('one more unreadable text ends the intake at the unreadable terminal: stopped, complete, nothing committed', async () => {
    const s = converse(flow);
    await s.unreadable(3);
    const end = await s.text('asdf qwerty');
    expect(end.state).toBe('unreadable');
    expect(end.message).toBe(DEFAULT_UNREADABLE_MESSAGE);
    expect(end.buttons).toBeNull();
    expect(end.completion).toEqual({ isComplete: true, reason: 'stopped', readyForHandoff: false });
    expect(end.answers).toEqual({});
    expect(s.c.done).toBe(true);
    await expect(s.c.send({ text: 'hello?' })).rejects.toBeInstanceOf(ConversationFinishedError);
    expect(committedRaw(s.trace)).toEqual([]);
  });

  it('a button that is none of the options is refused before the flow sees it: no failure is counted', async () => {
    const s = converse(flow);
    for (const b of ['Maybe', 'not-an-option', 'Perhaps']) await expect(s.button(b)).rejects.toBeInstanceOf(InvalidButtonError);
    expect((await s.button('Yes')).state).toEqual({ [G2]: 'asking' });
  });

  it('an answer resets the count: failures are counted in a row, per question', async () => {
    const s = converse(flow);
    await s.unreadable(2);
    await s.button('Yes');
    // Gate 2 starts from nothing: two failures there are still asked again, the third offers the buttons alone.
    await s.unreadable(2);
    expect(s.replies.at(-1)!.state).toEqual({ [G2]: 'asking' });
    expect(s.replies.at(-1)!.message).toContain(NOT_UNDERSTOOD_MESSAGE);
    expect((await s.text('hmm')).state).toEqual({ [G2]: BUTTONS_ONLY_STATE });
    s.c.stop();
  });

  it('a conversation restored in the buttons-alone state gives the same reply and goes on from there', async () => {
    const s = converse(flow);
    const before = await s.unreadable(3);
    const restored = restoreConversation(flow, JSON.parse(JSON.stringify(s.c.persist())), { today: () => TODAY });
    expect(restored.reply()).toEqual(before);
    expect((await restored.send({ text: 'still no idea' })).state).toBe('unreadable');
    s.c.stop();
    restored.stop();
  });
});

describe('patient-intake, a later gate (free text goes to the extractor, which abstains without a model)', () => {
  const flow = example('patient-intake');
  const toGate3 = async (s: ReturnType<typeof converse>) => {
    await s.button('Yes');
    await s.button('No');
    expect(s.replies.at(-1)!.state).toEqual({ [G3]: 'asking' });
  };

  it('three unreadable texts → the buttons alone; a button then answers', async () => {
    const s = converse(flow);
    await toGate3(s);
    const offered = await s.unreadable(3);
    expect(offered.state).toEqual({ [G3]: BUTTONS_ONLY_STATE });
    expect(offered.message).toBe(buttonsAlone(gatePrompt(flow, G3)));
    expect(offered.buttons?.map((b) => b.value)).toEqual(['New patient', 'Follow-up', 'Urgent care', 'Telehealth', 'Emergency']);
    const answered = await s.button('Telehealth');
    expect(answered.state).toEqual({ '4_patient_age_group': 'asking' });
    expect(values(answered)).toEqual({ [G1]: 'Yes', [G2]: 'No', [G3]: 'Telehealth' });
    s.c.stop();
  });

  it('one more unreadable text → the unreadable terminal; only the answers read before are kept', async () => {
    const s = converse(flow);
    await toGate3(s);
    await s.unreadable(3);
    const end = await s.text('no clue at all');
    expect(end.state).toBe('unreadable');
    expect(end.completion).toEqual({ isComplete: true, reason: 'stopped', readyForHandoff: false });
    expect(values(end)).toEqual({ [G1]: 'Yes', [G2]: 'No' });
    // Nothing unreadable was ever committed: only the two buttons.
    expect(committedRaw(s.trace).map((e) => (e.type === 'answer.committed' ? [e.key, e.value, e.source] : []))).toEqual([
      [G1, 'Yes', 'button'],
      [G2, 'No', 'button'],
    ]);
    expect(Object.values(end.answers).every((a) => !UNREADABLE.includes(a.raw) && a.raw !== 'no clue at all')).toBe(true);
  });

  it('the trace shows the question left for the fallback terminal', async () => {
    const s = converse(flow);
    await toGate3(s);
    await s.unreadable(4);
    expect(s.trace.filter((e) => e.type === 'node.enter').map((e) => (e.type === 'node.enter' ? e.node : '')).slice(-2)).toEqual([G3, 'unreadable']);
  });
});

describe('the budget is configurable', () => {
  it('per gate config (`max_attempts`): one failure offers the buttons alone, a second ends the intake', async () => {
    const flow = intakeWith((c) => (c.max_attempts = 1));
    expect(flow.maxAttempts).toBe(1);
    const s = converse(flow);
    expect((await s.text('hmm')).state).toEqual({ [G1]: BUTTONS_ONLY_STATE });
    expect((await s.text('hmm')).state).toBe('unreadable');
  });

  it('per gate config, more than the default: five failures are asked again before the buttons alone', async () => {
    const flow = intakeWith((c) => (c.max_attempts = 6));
    const s = converse(flow);
    await s.unreadable(5);
    expect(s.replies.at(-1)!.state).toEqual({ [G1]: 'asking' });
    expect((await s.text('hmm')).state).toEqual({ [G1]: BUTTONS_ONLY_STATE });
  });

  it('per gate (`gates.<id>.max_attempts`) over the config-wide value, and the unreadable message', async () => {
    const flow = intakeWith((c) => {
      c.max_attempts = 5;
      c.gates[G1]!.max_attempts = 2;
      c.unreadable_message = 'We will call you.';
    });
    const s = converse(flow);
    await s.unreadable(1);
    expect(s.replies.at(-1)!.state).toEqual({ [G1]: 'asking' });
    expect((await s.text('hmm')).state).toEqual({ [G1]: BUTTONS_ONLY_STATE });
    const end = await s.text('hmm');
    expect(end.message).toBe('We will call you.');
  });

  const choice = (extra: Partial<FlowDocumentInput>, question: Partial<QuestionNode> = {}): FlowDocumentInput => ({
    id: 'choice',
    version: 1,
    nodes: [
      { kind: 'question', id: 'colour', prompt: 'Which colour?', answer: { type: 'category', categories: ['Red', 'Blue'] }, ...question } as QuestionNode,
      { kind: 'terminal', id: 'done', outcome: 'completed' },
    ],
    edges: [{ from: 'colour', to: 'done' }],
    ...extra,
  });
  /** How many unreadable texts it takes until the buttons are offered alone. */
  const failuresBeforeButtonsAlone = async (doc: FlowDocumentInput) => {
    const s = converse(parseFlowValue(doc, doc.id));
    for (let n = 1; n <= 20; n++) {
      const reply = await s.text('hmm');
      if (JSON.stringify(reply.state) === JSON.stringify({ colour: BUTTONS_ONLY_STATE })) return n;
      if (reply.completion.isComplete) break;
    }
    return Infinity;
  };

  it('per flow (top-level `maxAttempts`) over the default, per question over the flow', async () => {
    expect(await failuresBeforeButtonsAlone(choice({}))).toBe(DEFAULT_MAX_ATTEMPTS);
    expect(await failuresBeforeButtonsAlone(choice({ maxAttempts: 5 }))).toBe(5);
    // (A question's own maxAttempts must say where it goes: an invalid edge or the flow's fallback, as before.)
    expect(await failuresBeforeButtonsAlone(choice({ maxAttempts: 5, fallback: 'done' }, { maxAttempts: 2 }))).toBe(2);
    expect(attemptBudget({ maxAttempts: 5 }, { kind: 'question', id: 'q', prompt: 'Q?', answer: { type: 'string' }, maxAttempts: 2 })).toBe(2);
  });

  it('a path node counts every message: without its own maxAttempts, the votes to lock plus the flow budget, less one', () => {
    const doc = example('lighting-consult');
    const project = doc.nodes.find((n) => n.id === 'project') as PathNode;
    expect(attemptBudget(doc, project)).toBe(8);
    const { maxAttempts: _, ...unbudgeted } = project;
    expect(attemptBudget(doc, unbudgeted)).toBe(3 + DEFAULT_MAX_ATTEMPTS - 1);
    expect(attemptBudget({ ...doc, maxAttempts: 4 }, unbudgeted)).toBe(3 + 4 - 1);
  });

  it('the JSON Schemas name the new fields', () => {
    const flowSchema = flowDocumentJsonSchema() as { properties: Record<string, unknown> };
    expect(flowSchema.properties.maxAttempts).toMatchObject({ type: 'integer', minimum: 1 });
    const gateSchema = gateConfigJsonSchema() as {
      properties: Record<string, unknown> & { gates: { additionalProperties: { properties: Record<string, unknown> } } };
    };
    expect(gateSchema.properties.max_attempts).toMatchObject({ type: 'integer', minimum: 1 });
    expect(gateSchema.properties.unreadable_message).toMatchObject({ type: 'string' });
    expect(gateSchema.properties.gates.additionalProperties.properties.max_attempts).toMatchObject({ type: 'integer', minimum: 1 });
  });
});

describe('questions without answer buttons leave at the budget only where their author said where to go', () => {
  const numbers = (extra: Partial<FlowDocumentInput>, invalidEdge: boolean): FlowDocumentInput => ({
    id: 'numbers',
    version: 1,
    nodes: [
      { kind: 'question', id: 'guests', prompt: 'How many guests?', answer: { type: 'number', integer: true, min: 1, max: 100 } },
      { kind: 'question', id: 'note', prompt: 'Anything else?', answer: { type: 'string', minLength: 3 } },
      { kind: 'terminal', id: 'done', outcome: 'completed' },
      ...(invalidEdge ? [{ kind: 'terminal' as const, id: 'call_us', outcome: 'handoff' as const, message: 'Please call us.' }] : []),
      { kind: 'terminal', id: 'planner', outcome: 'handoff', message: 'A planner will call.' },
    ],
    edges: [
      { from: 'guests', to: 'note' },
      ...(invalidEdge ? [{ from: 'guests', to: 'call_us', on: 'invalid' as const }] : []),
      { from: 'note', to: 'done' },
      { from: 'note', to: 'planner', on: 'invalid' },
    ],
    ...extra,
  });

  it('a number question: its invalid edge after three refused answers, no buttons-alone state', async () => {
    const doc = parseFlowValue(numbers({}, true), 'numbers');
    expect(Object.keys(compileFlow(doc).root.states.guests!.states)).not.toContain(BUTTONS_ONLY_STATE);
    const s = converse(doc);
    const refused = [await s.text('lots'), await s.text('500')];
    for (const r of refused) expect(r.state).toEqual({ guests: 'asking' });
    expect(refused[1]!.message).toBe('The number must be at most 100.\n\nHow many guests?');
    const end = await s.text('0');
    expect(end.state).toBe('call_us');
    expect(end.completion).toEqual({ isComplete: true, reason: 'handed_off', readyForHandoff: true });
    expect(end.answers).toEqual({});
    expect(s.trace.filter((e) => e.type === 'validation.failed').map((e) => (e.type === 'validation.failed' ? `${e.attempt}/${e.maxAttempts}` : ''))).toEqual(['1/3', '2/3', '3/3']);
  });

  it("without an invalid edge, the flow's fallback", async () => {
    const s = converse(parseFlowValue(numbers({ fallback: 'planner' }, false), 'numbers'));
    await s.unreadable(3);
    expect(s.replies.at(-1)!.state).toBe('planner');
  });

  it('without either, it keeps asking, saying why each answer was not taken; a plain value then answers (found by hand: "before christmas please" at a count ended a survey)', async () => {
    const doc = parseFlowValue(numbers({}, false), 'numbers');
    // Only its free-text question, which has an invalid edge, could leave: no implicit stop terminal.
    expect(flowGraph(doc).node(UNREADABLE_TERMINAL_ID)).toBeUndefined();
    const s = converse(doc);
    await s.unreadable(3);
    const again = await s.text('loads');
    expect(again.state).toEqual({ guests: 'asking' });
    expect(again.message).toContain('How many guests?');
    expect(again.completion.isComplete).toBe(false);
    expect(s.c.done).toBe(false);
    const answered = await s.text('12');
    expect(answered.state).toEqual({ note: 'asking' });
    expect(values(answered)).toEqual({ guests: 12 });
  });

  it('an example flow with neither (lighting-consult: the rooms question after the path locks on home)', async () => {
    const s = converse(example('lighting-consult'));
    for (const t of ['my kitchen', 'the living room at home', 'and the bedroom of the house']) await s.text(t);
    expect(s.replies.at(-1)!.state).toEqual({ rooms: 'asking' });
    await s.unreadable(2);
    const more = await s.text('a few');
    expect(more.state).toEqual({ rooms: 'asking' });
    expect(more.completion.isComplete).toBe(false);
  });

  it('the free-text question of a small flow: its invalid edge after its budget', async () => {
    const s = converse(parseFlowValue(numbers({}, true), 'numbers'));
    await s.text('12');
    await s.text('no');
    await s.text('x');
    expect(s.replies.at(-1)!.state).toEqual({ note: 'asking' });
    expect((await s.text('ok')).state).toBe('planner');
    expect(values(s.replies.at(-1)!)).toEqual({ guests: 12 });
  });
});

describe('a yes/no question offers its buttons alone too, then takes the fallback (event-booking)', () => {
  it('three unreadable answers → the two labels alone; one more → the fallback (a phone number for the planner)', async () => {
    const s = converse(example('event-booking'));
    await s.text('60');
    await s.text('2026-12-24');
    expect(s.replies.at(-1)!.state).toEqual({ catering: 'asking' });
    const offered = await s.unreadable(3);
    expect(offered.state).toEqual({ catering: BUTTONS_ONLY_STATE });
    expect(offered.message).toBe(buttonsAlone('Do you need catering?'));
    expect(offered.buttons).toEqual([
      { label: 'Yes please', value: 'Yes please' },
      { label: 'No thanks', value: 'No thanks' },
    ]);
    const end = await s.text('perhaps');
    expect(end.state).toEqual({ planner_phone: 'asking' });
    expect(values(end)).toEqual({ guests: 60, event_date: '2026-12-24' });
  });

  it('a label pressed in the buttons-alone state answers', async () => {
    const s = converse(example('event-booking'));
    await s.text('60');
    await s.text('2026-12-24');
    expect((await s.unreadable(3)).state).toEqual({ catering: BUTTONS_ONLY_STATE });
    expect((await s.button('No thanks')).state).toEqual({ email: 'asking' });
    expect(values(s.replies.at(-1)!)).toMatchObject({ catering: false });
  });
});

describe('a category question with an invalid edge leaves on it after the buttons alone', () => {
  it('takes the invalid edge, and the node it goes to asks its own question', async () => {
    const doc = parseFlowValue(
      {
        id: 'two-asks',
        version: 1,
        nodes: [
          { kind: 'question', id: 'colour', prompt: 'Which colour?', answer: { type: 'category', categories: ['Red', 'Blue'] } },
          { kind: 'question', id: 'words', prompt: 'Describe it in your own words.', answer: { type: 'string' } },
          { kind: 'terminal', id: 'done', outcome: 'completed' },
        ],
        edges: [
          { from: 'colour', to: 'done' },
          { from: 'colour', to: 'words', on: 'invalid' },
          { from: 'words', to: 'done' },
        ],
      },
      'two-asks',
    );
    const s = converse(doc);
    await s.unreadable(3);
    expect(s.replies.at(-1)!.state).toEqual({ colour: BUTTONS_ONLY_STATE });
    const next = await s.text('greenish');
    expect(next.state).toEqual({ words: 'asking' });
    expect(next.message).toBe('Describe it in your own words.');
    expect(next.answers).toEqual({});
  });
});

describe('a question with buttons and nowhere its author said to go keeps offering them', () => {
  // No invalid edge, no fallback: what the reader cannot read never ends the conversation while a button can answer.
  /** Questions asked one after the other, then done: no invalid edge, no fallback. */
  const chain = (id: string, questions: { id: string; prompt: string; answer: QuestionNode['answer'] }[]): FlowDocument =>
    parseFlowValue(
      {
        id,
        version: 1,
        nodes: [...questions.map((q) => ({ kind: 'question' as const, ...q })), { kind: 'terminal', id: 'done', outcome: 'completed' }],
        edges: questions.map((q, i) => ({ from: q.id, to: questions[i + 1]?.id ?? 'done' })),
      },
      id,
    );
  const flow = (answer: QuestionNode['answer']): FlowDocument =>
    chain('keeps-asking', [
      { id: 'pick', prompt: 'Which one?', answer },
      { id: 'guests', prompt: 'How many guests?', answer: { type: 'number', integer: true, min: 1, max: 9 } },
    ]);

  for (const [kind, answer, button, value] of [
    ['a category question', { type: 'category', categories: ['Red', 'Blue'] }, 'Blue', 'Blue'],
    ['a yes/no question', { type: 'boolean' }, 'No', false],
  ] as const) {
    it(`${kind}: ten unreadable answers leave it offering the buttons alone, active; a button then answers`, async () => {
      const doc = flow(answer as QuestionNode['answer']);
      const s = converse(doc);
      for (let i = 0; i < 10; i++) {
        const reply = await s.unreadable(1);
        expect(reply.state).toEqual({ pick: i < DEFAULT_MAX_ATTEMPTS - 1 ? 'asking' : BUTTONS_ONLY_STATE });
        expect(reply.status).toBe('active');
        expect(reply.answers).toEqual({});
        if (i >= DEFAULT_MAX_ATTEMPTS - 1) expect(reply.message).toBe(buttonsAlone('Which one?'));
      }
      expect(s.c.done).toBe(false);
      const answered = await s.button(button);
      expect(answered.state).toEqual({ guests: 'asking' });
      expect(values(answered)).toEqual({ pick: value });
    });
  }

  it('nor does the typed question of that flow end it: it keeps asking too (no implicit stop terminal)', async () => {
    const doc = flow({ type: 'category', categories: ['Red', 'Blue'] });
    expect(flowGraph(doc).node(UNREADABLE_TERMINAL_ID)).toBeUndefined();
    const s = converse(doc);
    await s.button('Red');
    const again = await s.unreadable(4);
    expect(again.state).toEqual({ guests: 'asking' });
    expect(values(again)).toEqual({ pick: 'Red' });
  });

  it('a flow of button questions alone gets no implicit stop terminal, in its machine or its drawing', () => {
    const doc = chain('buttons-only', [
      { id: 'pick', prompt: 'Which one?', answer: { type: 'category', categories: ['Red', 'Blue'] } },
      { id: 'sure', prompt: 'Sure?', answer: { type: 'boolean' } },
    ]);
    expect(flowGraph(doc).node(UNREADABLE_TERMINAL_ID)).toBeUndefined();
    expect(Object.keys(compileFlow(doc).root.states)).not.toContain(UNREADABLE_TERMINAL_ID);
    expect(flowOutline(doc).edges.filter((e) => e.implicit)).toEqual([]);
  });
});

describe('reserved ids', () => {
  it('a flow may not name a node like the implicit stop terminal', () => {
    const doc: FlowDocumentInput = {
      id: 'reserved',
      version: 1,
      nodes: [
        { kind: 'question', id: 'q', prompt: 'Q?', answer: { type: 'string' } },
        { kind: 'terminal', id: UNREADABLE_TERMINAL_ID, outcome: 'completed' },
      ],
      edges: [{ from: 'q', to: UNREADABLE_TERMINAL_ID }],
    };
    expect(() => parseFlowValue(doc, 'reserved')).toThrow(FlowDocumentError);
    expect(() => parseFlowValue(doc, 'reserved')).toThrow(/"__unreadable__" is reserved/);
  });

  it('a gate config may not name a gate "unreadable"', () => {
    expect(() =>
      intakeWith((c) => {
        const order = c.gate_order as string[];
        c.gates.unreadable = c.gates[G2]!;
        delete c.gates[G2];
        order[1] = 'unreadable';
      }),
    ).toThrow(/"unreadable" is reserved for the node the conversion adds/);
  });
});
