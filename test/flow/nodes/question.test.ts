/**
 * The question node kind (src/flow/nodes/question.ts): typed answers and their validation, optional and conditional questions, its guarded `answered` edges, the checks of its fields, and the events the model-based harness tries on it.
 * Moved here from v1-semantics, check and model-based tests (names unchanged).
 */
import { describe, expect, it } from 'vitest';
import { compileFlow } from '../../../src/flow/compile.js';
import type { FlowDocumentInput } from '../../../src/flow/schema.js';
import { startConversation } from '../../../src/flow/conversation.js';
import { base, drive, error, eventsAt, example, flow, issues, ofType, texts } from '../helpers.js';

// ---------------------------------------------------------------- compiling and running (from v1-semantics.test.ts)

const TYPED: FlowDocumentInput = {
  id: 'typed',
  version: 1,
  fallback: 'planner',
  nodes: [
    { kind: 'question', id: 'name', prompt: 'Your name?', answer: { type: 'string' } },
    {
      kind: 'question',
      id: 'guests',
      prompt: 'How many guests?',
      answer: { type: 'number', integer: true, min: 1, max: 100 },
      validators: [{ check: 'value != 13.0', message: 'No parties of 13, please.' }],
      maxAttempts: 2,
    },
    { kind: 'question', id: 'day', prompt: 'Which day?', answer: { type: 'date', min: 'today', max: '2030-12-31' }, maxAttempts: 3 },
    { kind: 'question', id: 'email', prompt: 'Your email?', answer: { type: 'email' } },
    { kind: 'question', id: 'phone', prompt: 'Your phone?', answer: { type: 'phone' } },
    { kind: 'question', id: 'vip', prompt: 'VIP table?', answer: { type: 'boolean', trueLabel: 'Yes please', falseLabel: 'No thanks' } },
    { kind: 'confirmation', id: 'review' },
    { kind: 'terminal', id: 'booked', outcome: 'completed' },
    { kind: 'terminal', id: 'planner', outcome: 'handoff' },
    { kind: 'terminal', id: 'turned_away', outcome: 'stopped' },
  ],
  edges: [
    { from: 'name', to: 'guests' },
    { from: 'guests', to: 'day' },
    { from: 'guests', to: 'turned_away', on: 'invalid' },
    { from: 'day', to: 'email' },
    { from: 'email', to: 'phone' },
    { from: 'phone', to: 'vip' },
    { from: 'vip', to: 'review' },
    { from: 'review', to: 'booked', on: 'confirmed' },
    { from: 'review', to: 'guests', on: 'edit' },
  ],
};

describe('typed questions', () => {
  it('accepts number, date, email, phone, boolean and string answers and stores them typed', async () => {
    const f = await drive(TYPED);
    await f.text('  Ann   Lee ');
    await f.text('twelve');
    await f.text('2026-12-01');
    await f.text('ann@example.com');
    await f.text('+31 6 1234 5678');
    await f.text('yes please');
    expect(f.value).toEqual({ review: 'reviewing' });
    expect(f.answers).toEqual({
      name: 'Ann Lee',
      guests: 12,
      day: '2026-12-01',
      email: 'ann@example.com',
      phone: '+31612345678',
      vip: true,
    });
    // A number stays a number (and a yes/no a boolean): guards compare them as such.
    expect(typeof f.context.answers.guests!.value).toBe('number');
    expect(typeof f.context.answers.vip!.value).toBe('boolean');
    expect(f.context.answers.guests).toEqual({ value: 12, confidence: 1, source: 'match', raw: 'twelve' });
    expect(ofType(f.trace, 'answer.committed').map((e) => [e.node, e.value])).toEqual([
      ['name', 'Ann Lee'],
      ['guests', 12],
      ['day', '2026-12-01'],
      ['email', 'ann@example.com'],
      ['phone', '+31612345678'],
      ['vip', true],
    ]);
  });

  it('a boolean button uses its labels; a date may be relative to today', async () => {
    const f = await drive(TYPED);
    await f.text('Bo');
    await f.text('4');
    await f.text('tomorrow');
    await f.text('bo@example.com');
    await f.text('0612345678');
    await f.button('No thanks');
    expect(f.value).toEqual({ review: 'reviewing' });
    expect(f.context.answers.day!.value).toBe('2026-11-22');
    expect(f.context.answers.vip).toEqual({ value: false, confidence: 1, source: 'button', raw: 'No thanks' });
  });

  it('an invalid answer stays on the question, and the reply says why before asking again', async () => {
    const c = startConversation(flow(TYPED));
    await c.send({ text: 'Ann' });
    const refused = await c.send({ text: 'lots of people' });
    expect(refused.state).toEqual({ guests: 'asking' });
    expect(refused.message).toBe('I could not find a number in your answer.\n\nHow many guests?');
    expect(refused.answers.guests).toBeUndefined();
    expect(refused.completion.reason).toBe('awaiting_answer');
    c.stop();
  });

  it("a validator's refusal is said the same way", async () => {
    const c = startConversation(flow(TYPED));
    await c.send({ text: 'Ann' });
    // 13 is a whole number in range, refused by the validator: its message is said.
    const refused = await c.send({ text: '13' });
    expect(refused.state).toEqual({ guests: 'asking' });
    expect(refused.message).toBe('No parties of 13, please.\n\nHow many guests?');
    expect(refused.answers.guests).toBeUndefined();
    // Once answered, the reason is not said any more.
    const next = await c.send({ text: '14' });
    expect(next.message).toBe('Which day?');
    c.stop();
  });

  it('refused answers are counted; after maxAttempts the invalid edge is taken', async () => {
    const f = await drive(TYPED);
    await f.text('Ann');
    const first = await f.text('a few');
    expect(f.value).toEqual({ guests: 'asking' });
    expect(f.context.attempts).toEqual({ guests: 1 });
    expect(ofType(first, 'validation.failed')).toEqual([
      { type: 'validation.failed', node: 'guests', key: 'guests', message: 'I could not find a number in your answer.', attempt: 1, maxAttempts: 2 },
    ]);
    const second = await f.text('250');
    expect(ofType(second, 'validation.failed')).toEqual([
      { type: 'validation.failed', node: 'guests', key: 'guests', message: 'The number must be at most 100.', attempt: 2, maxAttempts: 2 },
    ]);
    expect(ofType(second, 'guard.evaluated')).toEqual([
      { type: 'guard.evaluated', node: 'guests', outcome: 'invalid', guards: [{ guard: 'else', result: true }], target: 'turned_away' },
    ]);
    expect(f.status).toBe('done');
    expect(f.output).toEqual({ outcome: 'stopped', terminal: 'turned_away', stoppedBy: null });
    expect(f.context.answers.guests).toBeUndefined();
  });

  it("without an invalid edge, the flow's fallback is taken after maxAttempts", async () => {
    const f = await drive(TYPED);
    await f.text('Ann');
    await f.text('8');
    await f.text('someday');
    await f.text('2020-01-01');
    expect(f.value).toEqual({ day: 'asking' });
    expect(f.context.attempts).toEqual({ day: 2 });
    const third = await f.text('2031-01-01');
    expect(ofType(third, 'validation.failed').map((e) => [e.message, e.attempt, e.maxAttempts])).toEqual([
      ['The date must be on or before 2030-12-31.', 3, 3],
    ]);
    expect(f.output).toEqual({ outcome: 'handoff', terminal: 'planner', stoppedBy: null });
    expect(f.context.answers.day).toBeUndefined();
  });

  it('a valid answer resets the attempt count: failures are counted in a row', async () => {
    const f = await drive(TYPED);
    await f.text('Ann');
    await f.text('many');
    expect(f.context.attempts).toEqual({ guests: 1 });
    await f.text('12');
    expect(f.context.attempts).toEqual({});
    for (const t of ['2026-12-01', 'ann@example.com', '0612345678', 'no thanks']) await f.text(t);
    expect(f.value).toEqual({ review: 'reviewing' });
    await f.button('edit');
    await f.button('guests');
    expect(f.value).toEqual({ guests: 'asking' });
    // One failure now is the first, not the second: the question is asked again.
    const again = await f.text('many');
    expect(ofType(again, 'validation.failed').map((e) => e.attempt)).toEqual([1]);
    expect(f.value).toEqual({ guests: 'asking' });
    expect(f.status).toBe('active');
  });

  it('nothing invalid is ever stored in answers', async () => {
    const f = await drive(TYPED);
    const turns = ['Ann', '13', '20', 'yesterday', '2026-12-24', 'ann at example', 'ann@example.com', 'call me', '0612345678', 'perhaps', 'yes'];
    const accepted = new Set(['Ann', '20', '2026-12-24', 'ann@example.com', '0612345678', 'yes']);
    for (const t of turns) {
      const before = structuredClone(f.context.answers);
      const events = await f.text(t);
      if (accepted.has(t)) {
        expect(ofType(events, 'answer.committed')).toHaveLength(1);
        expect(ofType(events, 'validation.failed')).toEqual([]);
      } else {
        expect(ofType(events, 'answer.committed')).toEqual([]);
        expect(ofType(events, 'validation.failed')).toHaveLength(1);
        expect(f.context.answers).toEqual(before);
        expect(f.context.invalid).toMatchObject({ node: ofType(events, 'validation.failed')[0]!.node });
      }
    }
    expect(f.value).toEqual({ review: 'reviewing' });
    expect(f.answers).toEqual({ name: 'Ann', guests: 20, day: '2026-12-24', email: 'ann@example.com', phone: '0612345678', vip: true });
  });
});

// ---------------------------------------------------------------- optional questions

const OPTIONAL: FlowDocumentInput = {
  id: 'optional',
  version: 1,
  nodes: [
    { kind: 'question', id: 'nickname', prompt: 'A nickname?', required: false, answer: { type: 'string' } },
    { kind: 'question', id: 'age', prompt: 'Your age?', answer: { type: 'number', integer: true } },
    { kind: 'terminal', id: 'end', outcome: 'completed' },
  ],
  edges: [
    { from: 'nickname', to: 'age' },
    { from: 'age', to: 'end' },
  ],
};

describe('required: false', () => {
  it('offers a Skip button, which moves on without an answer', async () => {
    const c = startConversation(flow(OPTIONAL));
    expect(c.reply().buttons).toEqual([{ label: 'Skip', value: 'skip' }]);
    const next = await c.send({ button: 'skip' });
    expect(next.state).toEqual({ age: 'asking' });
    expect(next.answers).toEqual({});
    c.stop();
  });

  it('"skip" as text moves on too, traced as skipped (optional)', async () => {
    const f = await drive(OPTIONAL);
    const events = await f.text('skip');
    expect(f.value).toEqual({ age: 'asking' });
    expect(f.context.answers).toEqual({});
    expect(ofType(events, 'answer.skipped')).toEqual([{ type: 'answer.skipped', node: 'nickname', key: 'nickname', reason: 'optional' }]);
    expect(ofType(events, 'answer.committed')).toEqual([]);
  });

  // Regression (found by these tests, fixed): (src/flow/compile.ts questionState, category branch): an optional
  // category question gets a "Skip" button (build-reply.ts questionButtons
  // adds it for every optional question), but its `asking` state has no
  // `answerSkipped` transition: pressing Skip (or saying "skip") is "not
  // understood" and the question is asked again, forever. checkFlow accepts
  // `required: false` on a category question.
  it('an optional category question can be skipped with its Skip button', async () => {
    const doc = flow({
      id: 'optional-category',
      version: 1,
      nodes: [
        { kind: 'question', id: 'name', prompt: 'Name?', answer: { type: 'string' } },
        { kind: 'question', id: 'color', prompt: 'Favourite colour?', required: false, answer: { type: 'category', categories: ['Red', 'Blue'] } },
        { kind: 'terminal', id: 'end', outcome: 'completed' },
      ],
      edges: [
        { from: 'name', to: 'color' },
        { from: 'color', to: 'end' },
      ],
    });
    const c = startConversation(doc);
    const asked = await c.send({ text: 'Ann' });
    expect(asked.buttons).toContainEqual({ label: 'Skip', value: 'skip' });
    const skipped = await c.send({ button: 'skip' });
    expect(skipped.state).toBe('end');
    expect(skipped.answers.color).toBeUndefined();
    c.stop();
  });

  it('an optional question still takes an answer', async () => {
    const f = await drive(OPTIONAL);
    await f.text('Ace');
    expect(f.answers).toEqual({ nickname: 'Ace' });
  });

  it('a required question refuses "skip", as text or button, and shows no Skip button', async () => {
    const c = startConversation(flow(OPTIONAL));
    const atAge = await c.send({ text: 'skip' });
    expect(atAge.buttons).toBeNull();
    const text = await c.send({ text: 'skip' });
    expect(text.state).toEqual({ age: 'asking' });
    expect(text.message).toBe('I could not find a number in your answer.\n\nYour age?');
    // "Skip" is not offered: as a button it is refused before the flow sees it.
    await expect(c.send({ button: 'skip' })).rejects.toThrow('button "skip" is not offered: this step takes text, not a button');
    expect(c.reply().answers).toEqual({});
    expect((await c.send({ text: '40' })).completion.reason).toBe('completed');
    c.stop();
  });
});

// ---------------------------------------------------------------- when

const WHEN: FlowDocumentInput = {
  id: 'when',
  version: 1,
  nodes: [
    { kind: 'question', id: 'pet', prompt: 'Which pet?', answer: { type: 'category', categories: ['Dog', 'Cat', 'None'] } },
    { kind: 'question', id: 'pet_name', prompt: "Your pet's name?", when: "answers.pet != 'None'", answer: { type: 'string' } },
    { kind: 'question', id: 'city', prompt: 'Your city?', answer: { type: 'string' } },
    { kind: 'terminal', id: 'end', outcome: 'completed' },
  ],
  edges: [
    { from: 'pet', to: 'pet_name' },
    { from: 'pet_name', to: 'city' },
    { from: 'city', to: 'end' },
  ],
};

describe('when', () => {
  it('a question whose `when` is false is passed over, unanswered, traced as not_applicable', async () => {
    const f = await drive(WHEN);
    const events = await f.button('None');
    expect(f.value).toEqual({ city: 'asking' });
    expect(f.context.answers.pet_name).toBeUndefined();
    expect(ofType(events, 'answer.skipped')).toEqual([{ type: 'answer.skipped', node: 'pet_name', key: 'pet_name', reason: 'not_applicable' }]);
    // It was entered and left within the turn, never waiting.
    expect(events.filter((e) => e.type === 'node.enter').map((e) => (e as { node: string }).node)).toEqual(['pet_name', 'city']);
  });

  it('a question whose `when` is true is asked', async () => {
    const f = await drive(WHEN);
    const events = await f.button('Dog');
    expect(f.value).toEqual({ pet_name: 'asking' });
    expect(ofType(events, 'answer.skipped')).toEqual([]);
    await f.text('Rex');
    expect(f.answers).toEqual({ pet: 'Dog', pet_name: 'Rex' });
  });
});

describe('guards are named XState guards with params', () => {
  it('guarded answered edges go through the `answered` child with the same named guards', () => {
    const machine = compileFlow(example('led-sales'));
    const intent = machine.root.states.intent!;
    expect(Object.keys(intent.states)).toEqual(['entering', 'asking', 'buttonsOnly', 'answered']);
    expect(intent.states.answered!.always!.map((t) => t.guard)).toEqual([
      { type: 'cel', params: { expr: "answers.intention == 'buy_led'" } },
      { type: 'cel', params: { expr: "answers.intention == 'support'" } },
      undefined,
    ]);
  });
});

// ---------------------------------------------------------------- checks (from check.test.ts)

describe('answers', () => {
  it('validators on a category question', () => {
    const d = base();
    d.nodes[0]!.validators = [{ check: "value != 'No'", message: 'Say yes.' }];
    expect(issues(d)).toEqual([
      error(['nodes', 0, 'validators'], 'a category question takes only its categories: validators apply to typed answers', { node: 'a' }),
    ]);
  });

  it('limiting values on a typed question', () => {
    const d = base();
    d.nodes[1]!.limitingValues = ['0'];
    d.edges.push({ from: 'n', to: 'end', on: 'limiting' });
    expect(issues(d)).toEqual([
      error(['nodes', 1, 'limitingValues'], 'limiting values are categories: only a category question has them', { node: 'n' }),
    ]);
  });

  it('a pattern that is not a regular expression', () => {
    const d = base();
    d.nodes[1]!.answer = { type: 'string', pattern: '[a-' };
    expect(issues(d)).toEqual([
      error(['nodes', 1, 'answer', 'pattern'], 'not a regular expression: Invalid regular expression: /[a-/u: Unterminated character class', {
        node: 'n',
      }),
    ]);
  });

  it('a number min above its max', () => {
    const d = base();
    d.nodes[1]!.answer = { type: 'number', min: 10, max: 1 };
    expect(issues(d)).toEqual([error(['nodes', 1, 'answer', 'min'], 'min 10 is more than max 1', { node: 'n' })]);
  });

  it('a date min after its max', () => {
    const d = base();
    d.nodes[1]!.answer = { type: 'date', min: '2026-05-01', max: '2026-01-01' };
    expect(issues(d)).toEqual([error(['nodes', 1, 'answer', 'min'], 'min 2026-05-01 is after max 2026-01-01', { node: 'n' })]);
  });

  it('a string minLength above its maxLength (or the default 2000)', () => {
    const d = base();
    d.nodes[1]!.answer = { type: 'string', minLength: 50, maxLength: 10 };
    expect(issues(d)).toEqual([error(['nodes', 1, 'answer', 'minLength'], 'minLength 50 is more than maxLength 10', { node: 'n' })]);
    d.nodes[1]!.answer = { type: 'string', minLength: 2001 };
    expect(issues(d)).toEqual([error(['nodes', 1, 'answer', 'minLength'], 'minLength 2001 is more than maxLength 2000', { node: 'n' })]);
  });
});

// ---------------------------------------------------------------- model-based events (from model-based.test.ts)

describe('events derived from the flow, per node kind', () => {
  it('a number question: bounds, values around the literals its validators and guards compare with, out of range, unparseable', () => {
    const events = eventsAt('event-booking.json', []);
    expect(texts(events)).toEqual(expect.arrayContaining(['1', '500', '13', '49', '50', '0', '501', 'no idea']));
  });

  it('a date question: bounds relative to the fixed today, a day outside each, an unreadable date', () => {
    const events = eventsAt('event-booking.json', [{ type: 'user.text', text: '60' }]);
    expect(texts(events)).toEqual(expect.arrayContaining(['2026-11-21', '2030-12-31', '2026-11-20', '2031-01-01', 'sometime soon']));
  });

  it('an optional question: skip as a button and as text', () => {
    const events = eventsAt('contact-request.json', [{ type: 'user.text', text: 'Sam' }]);
    expect(events).toContainEqual({ type: 'user.button', value: 'skip' });
    expect(events).toContainEqual({ type: 'user.text', text: 'skip' });
  });
});
