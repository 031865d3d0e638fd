import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplySchema } from '../../src/index.js';
import { cliArgs, runCli } from '../helpers/cli.js';

const root = new URL('../../', import.meta.url).pathname;
// No model in the environment: the CLI must work on the offline matcher alone.
const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
const cli = cliArgs();

/** A command in this process (what it prints and returns); the chats driven through pipes above and below run as processes. */
function run(args: string[], input?: string) {
  return runCli(args, { input });
}

const jsonLines = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown);

describe('gateflow chat --json', () => {
  it('reads turns from a file and prints one Reply per line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-cli-'));
    const turns = join(dir, 'turns.jsonl');
    writeFileSync(turns, ['{"button":"Yes"}', '{"text":"no, always covered"}', '{"text":"follow up"}', '{"button":"Adult"}', '{"text":"text me"}', '{"button":"confirm"}'].join('\n'));
    const result = spawnSync('bash', ['-c', `node ${cli.join(' ')} chat patient-intake --json < ${turns}`], { cwd: root, env, encoding: 'utf8' });
    expect(result.status).toBe(0);
    const replies = jsonLines(result.stdout).map((r) => ReplySchema.parse(r));
    expect(replies).toHaveLength(7);
    expect(replies[0]!.state).toEqual({ '1_patient_info_availability': 'asking' });
    expect(replies.map((r) => r.completion.reason)).toEqual([
      'awaiting_answer', 'awaiting_answer', 'awaiting_answer', 'awaiting_answer', 'awaiting_answer',
      'awaiting_user_confirmation', 'handed_off',
    ]);
    expect(replies[6]!.answers['5_preferred_contact']).toEqual({ value: 'Text message', confidence: 0.95, source: 'match', raw: 'text me' });
    expect(replies[6]!.artifacts[0]!.type).toBe('HANDOFF');
    expect(result.stderr).toMatch(/no model configured/);
  });

  it('answers bad lines with an error object and keeps going, until the conversation is finished', async () => {
    const result = await run(['chat', 'patient-intake', '--json'], 'not json\n{"txt":"yes"}\n{"button":"Maybe"}\n{"button":"No"}\n{"button":"Yes"}\n');
    const [, badJson, badTurn, unknownButton, stopped, ...after] = jsonLines(result.stdout) as Record<string, unknown>[];
    expect(badJson).toMatchObject({ error: { code: 'invalid_json' } });
    expect(badTurn).toMatchObject({ error: { code: 'invalid_turn' } });
    // A button that is not offered is refused as such, never read as text.
    expect(unknownButton).toMatchObject({ error: { code: 'invalid_button', message: 'button "Maybe" is not one of the offered buttons: "Yes", "No"' } });
    expect(stopped).toMatchObject({ state: 'stopped', completion: { isComplete: true, reason: 'stopped_limiting_value' } });
    // The chat ends with the conversation: the line after it is not read.
    expect(after).toEqual([]);
    expect(result.status).toBe(0);
  });

  it('can be driven line by line by another program', async () => {
    const child = spawn(process.execPath, [...cli, 'chat', 'patient-intake', '--json'], { cwd: root, env });
    const closed = new Promise((resolve) => child.on('close', resolve));
    const out = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => JSON.parse((await out.next()).value as string) as { state: unknown; message: string };
    expect((await next()).state).toEqual({ '1_patient_info_availability': 'asking' });
    // Each reply arrives before the next turn is written.
    child.stdin.write('{"text":"yes we have it"}\n');
    expect((await next()).state).toEqual({ '2_insurance_history': 'asking' });
    child.stdin.write('{"button":"Partial"}\n');
    expect((await next()).state).toEqual({ '3_visit_type': 'asking' });
    // A limiting value read from free text is checked before the flow stops; "yes" confirms it.
    child.stdin.write('{"text":"it is an emergency, chest pain"}\n');
    expect((await next()).message).toMatch(/^Just to check: .*Emergency/);
    child.stdin.write('{"text":"yes"}\n');
    const stopped = await next();
    expect(stopped.state).toBe('stopped');
    expect(stopped.message).toMatch(/call 911/);
    // The conversation is finished: the chat ends without waiting for its input to close.
    expect(await closed).toBe(0);
  });
});

describe('gateflow chat (terminal)', () => {
  it('shows buttons as numbered choices, takes a number as a press, and shows the end clearly', async () => {
    const result = await run(['chat', 'patient-intake'], '1\n3\n2\n1\ntext me please\n1\n');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('  1) Yes\n  2) No');
    expect(result.stdout).toContain('  1) New patient\n  2) Follow-up');
    expect(result.stdout).toContain('→ Partial (from: "Partial")');
    expect(result.stdout).toContain('→ Text message (from: "text me please")');
    expect(result.stdout).toContain('  1) Looks Good\n  2) Edit Answers');
    expect(result.stdout).toMatch(/── finished: handed off \(ready for handoff\) ──\n$/);
  });
});

describe('bad flow documents from the CLI', () => {
  it('exits non-zero and names the file, the path and the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-cli-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ id: 'bad', version: 1, gate_order: ['a', 'b'], gates: { a: { question: 'A?', expected_categories: ['Yes', 'No'], limiting_values: ['Maybe'] } } }, null, 2));
    const chat = await run(['chat', file, '--json'], '');
    expect(chat.status).toBe(1);
    expect(chat.stdout).toBe('');
    expect(chat.stderr).toContain(`${file}: invalid flow document (2 problems)`);
    expect(chat.stderr).toContain(`${file}:6:5 /gate_order/1: gate "b" is not defined in "gates"`);
    expect(chat.stderr).toContain(`${file}:16:9 /gates/a/limiting_values/0: limiting value "Maybe" is not one of the categories (Yes, No)`);
    // validate reports on stdout, one line per problem, and exits 1.
    const validate = await run(['validate', file]);
    expect(validate.status).toBe(1);
    expect(validate.stdout.split('\n')).toEqual([
      `error   ${file}:6:5 /gate_order/1: gate "b" is not defined in "gates"`,
      `error   ${file}:16:9 /gates/a/limiting_values/0: limiting value "Maybe" is not one of the categories (Yes, No)`,
      `${file}: invalid (2 errors, 0 warnings)`,
      '',
    ]);
  });

  it('validate --json: errors and warnings with node ids and guard positions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-cli-'));
    const file = join(dir, 'broken.json');
    writeFileSync(
      file,
      JSON.stringify(
        {
          id: 'broken',
          version: 1,
          nodes: [
            { kind: 'question', id: 'size', prompt: 'How big?', answer: { type: 'number' } },
            { kind: 'decision', id: 'route' },
            { kind: 'terminal', id: 'done', outcome: 'completed' },
          ],
          edges: [
            { from: 'size', to: 'route' },
            { from: 'route', to: 'done', guard: 'answers.size > 10.0 &&' },
            { from: 'route', to: 'done', guard: "answers.colour == 'red'" },
            { from: 'route', to: 'nowhere' },
          ],
        },
        null,
        2,
      ),
    );
    const result = await run(['validate', file, '--json']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ file, ok: false, flow: null });
    // A guard reading an answer no question gives is an error.
    expect(report.errors).toEqual([
      expect.objectContaining({ pointer: '/edges/1/guard', node: 'route', guard: { source: 'answers.size > 10.0 &&', position: 22 } }),
      expect.objectContaining({ pointer: '/edges/2/guard', node: 'route', guard: { source: "answers.colour == 'red'", position: 0 } }),
      expect.objectContaining({ pointer: '/edges/3/to', message: 'no node has the id "nowhere"' }),
    ]);
    expect(report.warnings).toEqual([]);
    expect(report.errors[0].line).toBeGreaterThan(1);
  });

  it('says so when the flow cannot be found, and shows usage for unknown commands', async () => {
    const noFlow = await run(['chat', 'no-such-flow']);
    expect(noFlow.status).toBe(2);
    expect(noFlow.stderr).toMatch(/^unknown flow "no-such-flow"; available: clinic-callback, /);
    const unknown = await run(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"[\s\S]*usage: gateflow/);
  });

  it('validates the example flows', async () => {
    const result = await run(['validate', 'patient-intake']);
    expect(result.status).toBe(0);
    // Five gates, the summary, the handoff, the limiting-value stop, and the stop a question takes when it cannot read an answer.
    expect(result.stdout).toMatch(/ok \(flow patient-intake@1\.0\.0, 9 nodes, 5 questions; 0 errors, 0 warnings\)/);
    // Subflows count: the LED flow has 9 nodes of its own and 5 in its two subgraphs.
    expect((await run(['validate', 'led-sales'])).stdout).toMatch(/ok \(flow led-sales@1\.0\.0, 18 nodes, 7 questions; 0 errors, 0 warnings\)/);
  });

  it('viz draws the flow as written and the compiled machine with guards on its edges, in mermaid, dot, json and svg', async () => {
    const mermaid = await run(['viz', 'led-sales']);
    expect(mermaid.status).toBe(0);
    expect(mermaid.stdout.startsWith('stateDiagram-v2\n')).toBe(true);
    expect(mermaid.stdout).toContain('led_sales_intent_answered --> led_sales_led : always [cel#58; answers.intention == \'buy_led\']');
    expect(mermaid.stdout).toContain('state "contact" as led_sales_led_contact {');
    const dot = await run(['viz', 'led-sales', '--format', 'dot']);
    expect(dot.stdout).toMatch(/^digraph /);
    expect(dot.stdout).toContain('cluster_');
    const json = JSON.parse((await run(['viz', 'led-sales', '--format', 'json'])).stdout);
    expect(json).toMatchObject({ format: 'gateflow.drawing/1', id: 'led-sales', kind: 'workflow', version: '1.0.0' });
    const intent = json.machine.states.find((s: { id: string }) => s.id === 'led-sales.intent');
    expect(intent.meta).toMatchObject({ node: 'intent', kind: 'question', ui: { x: 0, y: 0, color: '#2563eb' } });
    expect(json.machine.transitions).toContainEqual(expect.objectContaining({ source: 'led-sales.order_size', guard: 'cel: answers.fixtures > 40.0 || answers.quote_total > 20000.0' }));
    expect(json.outline.nodes).toContainEqual(expect.objectContaining({ id: 'intent', state: 'led-sales.intent', ui: { x: 0, y: 0, color: '#2563eb' } }));
    // The same drawing as SVG, without a browser: a box per node as written, or per state with --level machine.
    const svg = (await run(['viz', 'led-sales', '--format', 'svg'])).stdout;
    expect(svg.startsWith('<?xml')).toBe(true);
    expect(svg.match(/class="gf-node[^"]*"/g)).toHaveLength(json.outline.nodes.length);
    const machineSvg = (await run(['viz', 'led-sales', '--format', 'svg', '--level', 'machine'])).stdout;
    expect(machineSvg.match(/class="gf-node[^"]*"/g)).toHaveLength(json.machine.states.length);
    // Agents and hand-written machines by name.
    expect(JSON.parse((await run(['viz', 'task-agent', '--format', 'json'])).stdout)).toMatchObject({ id: 'task-agent', kind: 'workflow', outline: null });
    expect(JSON.parse((await run(['viz', 'pathSelection', '--format', 'json'])).stdout)).toMatchObject({ id: 'pathSelection', kind: 'machine', version: null });
    const png = await run(['viz', 'led-sales', '--format', 'png']);
    expect(png.status).toBe(2);
    expect(png.stderr).toContain('--format must be mermaid, dot, json, svg, not "png"');
    expect((await run(['viz', 'led-sales', '--format', 'svg', '--level', 'deep'])).status).toBe(2);
  });

  it('chat --trace writes the flow\'s events as JSON lines on stderr, replies stay on stdout', async () => {
    const turns = ['{"text":"I want to buy LED lights"}', '{"text":"a tennis court"}', '{"text":"600"}', '{"text":"9000"}', '{"text":"300"}', '{"text":"me@example.com"}'].join('\n');
    const result = await run(['chat', 'led-sales', '--json', '--trace'], turns);
    expect(result.status).toBe(0);
    const replies = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(replies.at(-1).state).toEqual({ review: 'reviewing' });
    const events = result.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(events[0]).toEqual({ type: 'node.enter', node: 'intent', kind: 'question' });
    expect(events).toContainEqual({ type: 'guard.evaluated', node: 'intent', outcome: 'answered', guards: [{ guard: "answers.intention == 'buy_led'", result: true }], target: 'led' });
    expect(events).toContainEqual(expect.objectContaining({ type: 'validation.failed', node: 'led.wattage', key: 'wattage', attempt: 1, maxAttempts: 3 }));
    expect(events).toContainEqual({ type: 'node.enter', node: 'led.contact.quote_email', kind: 'question' });
    // The price lookup (an example actor the CLI registers) ran and its output became answers.
    expect(events).toContainEqual({ type: 'action.done', node: 'quote', actor: 'priceLookup', assigned: ['quote_total', 'fixtures'] });
    expect(replies.at(-1).answers.quote_total).toEqual({ value: 12 * 300 * 0.9, confidence: 1, source: 'action', raw: 'priceLookup' });
  });
});

describe('npm run -s gateflow', () => {
  it('prints plain output: the first stdout line is the opening Reply', () => {
    const result = spawnSync('npm', ['run', '-s', 'gateflow', '--', 'chat', 'patient-intake', '--json'], { cwd: root, env, input: '', encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(ReplySchema.parse(JSON.parse(result.stdout.split('\n')[0]!)).flowId).toBe('patient-intake');
  });
});
