/**
 * Conversations kept as tests (issue 29 §2) from the command line's side:
 * `gateflow sessions`, `gateflow save-test`, `gateflow test --conversations`
 * and `gateflow replay`, reading recorded sessions from a real server on
 * loopback, and a flow changed after they were recorded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConversationTests, runReplay, runSaveTest, runSessions, remoteSessionsSource, type SessionsSource } from '../../src/cli/sessions.js';
import type { FlowDocument } from '../../src/flow/schema.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ConversationTestSchema } from '../../src/testing/conversation-format.js';
import { exampleFlows, serveOnLoopback, type LoopbackServer } from '../helpers/http.js';

const refund = exampleFlows().find((f) => f.id === 'refund-approval')!;
/** Version 2 takes at most 200 EUR: the recorded "250" is refused now. */
const lowerCap: FlowDocument = JSON.parse(JSON.stringify({ ...refund, version: 2 }));
(lowerCap.nodes[1] as { answer: { max: number } }).answer.max = 200;
/** Version 3 words a reason's label otherwise: states and answers stay, the message changes. */
const relabelled: FlowDocument = JSON.parse(JSON.stringify({ ...refund, version: 3 }));
(relabelled.nodes[2] as { answer: { labels: Record<string, string> } }).answer.labels.damaged = 'It came broken';

let server: LoopbackServer;
let runtime: Runtime;
let source: SessionsSource;
let dir: string;
const recorded: string[] = [];

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateflow-conversations-'));
  runtime = createRuntime({ workflows: [flowWorkflow(refund)], store: createMemoryStore() });
  server = await serveOnLoopback(createApp({ runtime }));
  source = remoteSessionsSource({ server: server.url });
  for (const reason of ['wrong_item', 'damaged']) {
    const { sessionId } = await runtime.start('refund-approval');
    for (const turn of [{ text: 'CD5678' }, { text: '250' }, { button: reason }, { button: 'confirm' }]) await runtime.turn(sessionId, turn);
    recorded.push(sessionId);
  }
});
afterAll(async () => {
  await server.close();
  runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('gateflow sessions', () => {
  it('prints the sessions newest first, as a table or as the API answers', async () => {
    const table = new Collect();
    expect(await runSessions(source, {}, { json: false }, table)).toBe(0);
    const lines = table.text.trim().split('\n');
    expect(lines[0]).toMatch(/^SESSION +WORKFLOW +VERSION +STATUS +STEPS +UPDATED +STATE$/);
    expect(lines.slice(1).map((l) => l.split(/ +/)[0])).toEqual([...recorded].reverse());
    expect(lines[1]).toContain('refund-approval  1        waiting  5');

    const json = new Collect();
    await runSessions(source, { limit: 1 }, { json: true }, json);
    const page = JSON.parse(json.text);
    expect(page.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([recorded[1]]);
    expect(page.nextAfter).toEqual(expect.any(Number));
  });

  it('says how to print the next page with the same filters, page size and server', async () => {
    const first = new Collect();
    await runSessions(source, { workflowId: 'refund-approval', status: 'waiting', limit: 1 }, { json: false, server: server.url }, first);
    const more = /^more: (.*)$/m.exec(first.text)?.[1];
    expect(more).toBe(`gateflow sessions --workflow refund-approval --status waiting --limit 1 --server ${server.url} --after ${/--after (\d+)/.exec(more ?? '')?.[1]}`);
    // The command as printed gives the older session, and no further page.
    const after = Number(/--after (\d+)/.exec(more!)![1]);
    const next = new Collect();
    await runSessions(source, { workflowId: 'refund-approval', status: 'waiting', limit: 1, after }, { json: false, server: server.url }, next);
    expect(next.text.trim().split('\n').slice(1).map((l) => l.split(/ +/)[0])).toEqual([recorded[0]]);
    expect(next.text).not.toContain('more:');
  });
});

describe('gateflow save-test and gateflow test --conversations', () => {
  it('saves a session as a conversation test that passes on its flow and fails on a changed one with the first difference', async () => {
    const file = join(dir, 'wrong-item.json');
    const said = new Collect();
    expect(await runSaveTest(source, recorded[0]!, { out: file }, said)).toBe(0);
    expect(said.text).toBe(`saved 4 turns of refund-approval session ${recorded[0]} to ${file}\n`);
    const test = ConversationTestSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(test.turns.map((t) => t.turn)).toEqual([{ text: 'CD5678' }, { text: '250' }, { button: 'wrong_item' }, { button: 'confirm' }]);
    expect(test.turns[1]!.expect).toEqual({
      state: { reason: 'asking' },
      status: 'active',
      answers: { order_number: 'CD5678', amount: 250 },
      buttons: ['damaged', 'late', 'wrong_item', 'other'],
      message: 'What went wrong?',
    });
    expect(test.turns[3]!.expect.status).toBe('waiting');

    const same = await runConversationTests(flowWorkflow(refund), dir, {});
    expect(same.lines).toEqual(['conversations: 1/1 pass', '  ok    wrong-item.json (4 turns)']);
    expect(same.ok).toBe(true);

    const changed = await runConversationTests(flowWorkflow(lowerCap), dir, {});
    expect(changed.ok).toBe(false);
    expect(changed.lines).toEqual([
      'conversations: 0/1 pass',
      '  FAIL  wrong-item.json: turn 2 ({"text":"250"}): state: expected {"reason":"asking"}, got {"amount":"asking"}',
    ]);
  });

  it('a button the flow no longer offers is a difference, with the refusal as what came', async () => {
    const sub = mkdtempSync(join(dir, 'gone-'));
    const saved = new Collect();
    await runSaveTest(source, recorded[0]!, {}, saved);
    writeFileSync(join(sub, 'gone.json'), saved.text.replace(/"wrong_item"/g, '"wrong_thing"'));
    const result = await runConversationTests(flowWorkflow(refund), sub, {});
    expect(result.lines[1]).toMatch(/^ {2}FAIL {2}gone\.json: turn 2 \(\{"text":"250"\}\): buttons: expected \["damaged","late","wrong_thing","other"\], got \["damaged","late","wrong_item","other"\]$/);
  });

  it('refuses a file that is not a conversation test, saying where', async () => {
    const sub = mkdtempSync(join(dir, 'bad-'));
    writeFileSync(join(sub, 'bad.json'), JSON.stringify({ format: 'gateflow.conversation/1', workflowId: 'refund-approval', flowVersion: 1, start: {}, turns: [{ turn: { shout: 'x' } }] }));
    await expect(runConversationTests(flowWorkflow(refund), sub, {})).rejects.toThrow(/bad\.json: not a gateflow\.conversation\/1 conversation:\n {2}start\.state: .*\n[\s\S]*turns\.0\.turn/);
  });
});

describe('gateflow replay', () => {
  it('reports each recorded session the same on its own flow, and where it first differs on changed ones', async () => {
    const same = new Collect();
    expect(await runReplay(source, flowWorkflow(refund), { json: false }, same)).toBe(0);
    expect(same.text.split('\n')[0]).toBe('replayed 2 refund-approval sessions against refund-approval@1: 2 same, 0 different');

    const capped = new Collect();
    expect(await runReplay(source, flowWorkflow(lowerCap), { json: false }, capped)).toBe(1);
    expect(capped.text).toContain(`  different  ${recorded[0]}: turn 2 ({"text":"250"}): state: expected {"reason":"asking"}, got {"amount":"asking"}`);

    // Only the session that chose "damaged" shows the new label: the other is the same.
    const words = new Collect();
    expect(await runReplay(source, flowWorkflow(relabelled), { json: true }, words)).toBe(1);
    const report = JSON.parse(words.text);
    const bySession = Object.fromEntries(report.sessions.map((s: { sessionId: string }) => [s.sessionId, s]));
    expect(bySession[recorded[0]!]).toEqual({ sessionId: recorded[0], steps: 5, same: true, difference: null });
    expect(bySession[recorded[1]!].difference).toMatchObject({ turn: 3, said: { button: 'damaged' }, field: 'message' });
    expect(bySession[recorded[1]!].difference.got).toContain('It came broken');
  });
});
