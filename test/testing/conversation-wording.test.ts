/**
 * A saved conversation test catches a change of wording (issue 29 §2), as
 * `gateflow replay` does: `save-test` keeps each reply's message, and
 * `gateflow test --conversations` fails at the first reply whose text
 * changed, naming the turn, expected and got. Whitespace is normalised; one
 * turn's wording is left unchecked by deleting its `message`, all of it by
 * `save-test --no-messages` (or `messages: false` from code).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConversationTests, runSaveTest, type SessionsSource } from '../../src/cli/sessions.js';
import type { FlowDocument } from '../../src/flow/schema.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ConversationTestSchema, conversationOf, normalisedMessage, type ConversationTest } from '../../src/testing/conversation-format.js';
import { describeDifference, runConversation } from '../../src/testing/conversation.js';
import { exampleFlows } from '../helpers/http.js';

const refund = exampleFlows().find((f) => f.id === 'refund-approval')!;
const changed = (patch: (doc: FlowDocument & { nodes: { prompt?: string }[] }) => void): FlowDocument => {
  const doc = JSON.parse(JSON.stringify(refund));
  patch(doc);
  return doc;
};
/** The amount question asked in other words: states, answers and buttons stay the same. */
const reworded = changed((d) => (d.nodes[1]!.prompt = 'How many euros should we refund?'));
/** The same words, reflowed: not a change of wording. */
const reflowed = changed((d) => (d.nodes[1]!.prompt = '  How much would you like\n  refunded,   in euros? '));

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

let runtime: Runtime;
let source: SessionsSource;
let sessionId: string;
let dir: string;
const caller = { owner: null };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateflow-wording-'));
  runtime = createRuntime({ workflows: [flowWorkflow(refund)], store: createMemoryStore() });
  ({ sessionId } = await runtime.start('refund-approval'));
  for (const turn of [{ text: 'CD5678' }, { text: '250' }, { button: 'wrong_item' }]) await runtime.turn(sessionId, turn);
  source = {
    list: (query) => runtime.sessions(caller, query),
    history: async (id) => (await runtime.session(id, caller, { after: 0, limit: 200 })).history,
    close: async () => undefined,
  };
});
afterAll(() => {
  runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

async function saved(options: { messages?: boolean } = {}): Promise<ConversationTest> {
  const out = new Collect();
  expect(await runSaveTest(source, sessionId, options, out)).toBe(0);
  return ConversationTestSchema.parse(JSON.parse(out.text));
}

/** A directory holding one conversation test. */
function dirWith(test: ConversationTest): string {
  const sub = mkdtempSync(join(dir, 'case-'));
  writeFileSync(join(sub, 'refund.json'), JSON.stringify(test, null, 2));
  return sub;
}

describe('a saved conversation and the wording of its replies', () => {
  it('keeps each reply’s message, and fails on a reworded question naming the turn, expected and got', async () => {
    const test = await saved();
    expect(test.start.message).toContain('What is your order number?');
    expect(test.turns[0]!.expect.message).toBe('How much would you like refunded, in euros?');
    expect(test.turns.every((t) => typeof t.expect.message === 'string')).toBe(true);

    expect((await runConversationTests(flowWorkflow(refund), dirWith(test), {})).ok).toBe(true);
    const result = await runConversationTests(flowWorkflow(reworded), dirWith(test), {});
    expect(result.ok).toBe(false);
    expect(result.lines).toEqual([
      'conversations: 0/1 pass',
      '  FAIL  refund.json: turn 1 ({"text":"CD5678"}): message: expected "How much would you like refunded, in euros?", got "How many euros should we refund?"',
    ]);
  });

  it('does not count reflowed whitespace as a change of wording', async () => {
    expect(normalisedMessage('  How much would you like\n  refunded,   in euros? ')).toBe('How much would you like refunded, in euros?');
    const result = await runConversation(flowWorkflow(reflowed), await saved());
    expect(result).toEqual({ ok: true, turns: 3 });
  });

  it('leaves a turn’s wording unchecked when its message is deleted', async () => {
    const test = await saved();
    delete test.turns[0]!.expect.message;
    // The summary repeats the question: the next difference is there.
    const summary = await runConversation(flowWorkflow(reworded), test);
    expect(summary.ok === false && [summary.difference.turn, summary.difference.field]).toEqual([3, 'message']);
    delete test.turns[2]!.expect.message;
    expect(await runConversation(flowWorkflow(reworded), test)).toEqual({ ok: true, turns: 3 });
  });

  it('leaves all wording unchecked with save-test --no-messages, or messages: false from code', async () => {
    const bare = await saved({ messages: false });
    expect([bare.start, ...bare.turns.map((t) => t.expect)].some((e) => 'message' in e)).toBe(false);
    expect((await runConversationTests(flowWorkflow(reworded), dirWith(bare), {})).ok).toBe(true);

    const full = await saved();
    expect((await runConversationTests(flowWorkflow(reworded), dirWith(full), { messages: false })).ok).toBe(true);
  });

  it('still reports a changed state before a changed message', async () => {
    const capped = changed((d) => ((d.nodes[1] as unknown as { answer: { max: number } }).answer.max = 200));
    const result = await runConversation(flowWorkflow(capped), await saved());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(describeDifference(result.difference)).toBe('turn 2 ({"text":"250"}): state: expected {"reason":"asking"}, got {"amount":"asking"}');
  });

  it('the viewer’s "Save as test" (conversationOf) keeps the messages too', async () => {
    const history = await source.history(sessionId);
    const test = conversationOf(history, { sessionId });
    expect(test.turns.map((t) => t.expect.message)).toEqual(history.slice(1).map((e) => e.reply.message));
  });
});
