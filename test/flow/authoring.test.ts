/**
 * Authoring that catches mistakes: guards typed by the answers they read,
 * the author's own (dotted) ids kept everywhere a person sees them,
 * unreachable nodes by id, schema problems worded as what to write, "did
 * you mean", every field of the JSON Schema described, and every invalid
 * file of a folder reported at once.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/validate.js';
import { CliError, readFlowsDir } from '../../src/cli/io.js';
import { compileFlow } from '../../src/flow/compile.js';
import { restoreConversation, startConversation } from '../../src/flow/conversation.js';
import { flowDocumentJsonSchema } from '../../src/flow/json-schema.js';
import { lintFlowText } from '../../src/flow/parse.js';
import { AnswerSpecSchema, type FlowDocumentInput } from '../../src/flow/schema.js';
import type { FlowTraceEvent } from '../../src/flow/trace.js';
import { generateFlowPaths, replayFlowPaths } from '../../src/testing/model-based.js';
import { drawMachine } from '../../src/viz/index.js';
import { flow, issues } from './helpers.js';

const flowsDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const EXAMPLES = readdirSync(flowsDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

type Json = Record<string, unknown>;
type RawEdge = { from: string; to: string; on?: string; guard?: string };
type RawNode = Json & { id: string; kind: string };
type RawFlow = Json & { nodes: RawNode[]; edges: RawEdge[]; constraints?: Json[] };

const raw = (name: string): RawFlow => JSON.parse(readFileSync(`${flowsDir}${name}.json`, 'utf8')) as RawFlow;
const node = (doc: RawFlow, id: string): RawNode => {
  const found = doc.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id}`);
  return found;
};
const edgeWithGuard = (doc: RawFlow, start: string): RawEdge => {
  const found = doc.edges.find((e) => e.guard?.startsWith(start));
  if (!found) throw new Error(`no edge guarded by ${start}`);
  return found;
};
/** What `gateflow validate` reports on a document: errors and warnings, with pointer and message. */
const lint = (doc: unknown, file = 'copy.json') => lintFlowText(JSON.stringify(doc, null, 2), file).problems;
const errorsOf = (doc: unknown) => lint(doc).filter((p) => (p.severity ?? 'error') === 'error');

/** `gateflow validate` on a text as a person sees it: the printed lines and the exit code. */
function validateText(text: string, file: string): { code: number; out: string } {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  const code = runValidate(text, file, false, sink);
  return { code, out };
}
const validate = (doc: unknown, file: string) => validateText(JSON.stringify(doc, null, 2), file);

describe('the example flows', () => {
  it('are seven, and each validates clean: no error, no warning', () => {
    expect(EXAMPLES).toHaveLength(7);
    for (const name of EXAMPLES) expect(lint(raw(name), `${name}.json`), name).toEqual([]);
  });
});

describe('guards typed by the answers they read (broken copies of the examples)', () => {
  it('led-sales: a category compared with a value that is not one of its categories, and a misspelt answer key', () => {
    const doc = raw('led-sales');
    edgeWithGuard(doc, "answers.intention == 'buy_led'").guard = "answers.intention == 'buy_lde'";
    edgeWithGuard(doc, "answers.intention == 'support'").guard = "answers.intenton == 'support'";
    const found = errorsOf(doc);
    expect(found).toContainEqual(
      expect.objectContaining({
        message: expect.stringMatching(/^guard at character 21: 'buy_lde' is not one of the categories of answers\.intention \(.*buy_led.*\) \(did you mean "buy_led"\?\)$/),
        node: 'intent',
        guard: { source: "answers.intention == 'buy_lde'", position: 21 },
      }),
    );
    expect(found).toContainEqual(
      expect.objectContaining({
        message: 'guard at character 0: no question or action gives "answers.intenton" (did you mean "intention"?)',
        guard: { source: "answers.intenton == 'support'", position: 0 },
      }),
    );
    expect(found).toHaveLength(2);
    expect(found.every((p) => p.line !== undefined && p.pointer.startsWith('/edges/'))).toBe(true);
  });

  it('event-booking: a number compared with text (edge and validator), a yes/no with text, a date with a word', () => {
    const doc = raw('event-booking');
    edgeWithGuard(doc, 'answers.guests').guard = "answers.guests >= '50'";
    (node(doc, 'guests').validators as { check: string }[])[0]!.check = "value != '13'";
    node(doc, 'email').when = "answers.catering == 'Yes please'";
    node(doc, 'catering').when = "answers.event_date > 'next week'";
    const messages = errorsOf(doc).map((p) => [p.pointer.replace(/\d+/g, 'i'), p.message]);
    expect(messages).toEqual(
      expect.arrayContaining([
        ['/edges/i/guard', "guard at character 18: answers.guests is a number: compare it with a number, not the text '50' (e.g. answers.guests >= 50.0)"],
        ['/nodes/i/validators/i/check', "guard at character 9: value is a number: compare it with a number, not the text '13' (e.g. value != 13.0)"],
        ['/nodes/i/when', "guard at character 20: answers.catering is a yes/no: compare it with true or false, not the text 'Yes please' (e.g. answers.catering == true)"],
        ['/nodes/i/when', "guard at character 21: answers.event_date is a date: compare it with a date written 'YYYY-MM-DD', not the text 'next week' (e.g. answers.event_date > '2026-12-01')"],
      ]),
    );
    expect(messages).toHaveLength(4);
  });

  it('lighting-consult: a path id the flow does not have', () => {
    const doc = raw('lighting-consult');
    edgeWithGuard(doc, "context.path.locked == 'home'").guard = "context.path.locked == 'hme'";
    expect(errorsOf(doc).map((p) => p.message)).toEqual([
      "guard at character 23: 'hme' is not one of the paths of context.path.locked (home, sports) (did you mean \"home\"?)",
    ]);
  });

  it('clinic-callback: a category spelt in the wrong case never equals it', () => {
    const doc = raw('clinic-callback');
    node(doc, 'callback_window').when = "answers.symptoms_worse == 'no'";
    expect(errorsOf(doc).map((p) => [p.pointer, p.node, p.message])).toEqual([
      ['/nodes/2/when', 'callback_window', "guard at character 26: 'no' is not one of the categories of answers.symptoms_worse (Yes, No) (did you mean \"No\"?)"],
    ]);
  });

  it('contact-request: a constraint check reading a misspelt key', () => {
    const doc = raw('contact-request');
    doc.constraints![0]!.check = 'has(answers.emial)';
    expect(errorsOf(doc).map((p) => [p.pointer, p.message])).toEqual([
      ['/constraints/0/check', 'guard at character 4: no question or action gives "answers.emial" (did you mean "email"?)'],
    ]);
  });

  it('patient-intake (a gate config): a misspelt limiting value', () => {
    const doc = raw('patient-intake') as unknown as Json & { gates: Record<string, Json> };
    const [gate] = Object.keys(doc.gates);
    doc.gates[gate!]!.limiting_values = ['Noo'];
    expect(errorsOf(doc).map((p) => p.message)).toEqual([expect.stringMatching(/^limiting value "Noo" is not one of the categories \(.*\) \(did you mean "No"\?\)$/)]);
  });

  it('`answers[...]`, `in` lists, null and a non-yes/no used as true or false are typed too', () => {
    const d: FlowDocumentInput = {
      id: 'typed',
      version: 1,
      nodes: [
        { kind: 'question', id: 'kind', prompt: 'Which?', answer: { type: 'category', categories: ['Routine', 'Emergency'] } },
        { kind: 'decision', id: 'd' },
        { kind: 'terminal', id: 'end', outcome: 'completed' },
      ],
      edges: [
        { from: 'kind', to: 'd' },
        { from: 'd', to: 'end', guard: "answers['kind'] in ['Routine', 'Emergncy']" },
        { from: 'd', to: 'end', guard: 'answers.kind != null' },
        { from: 'd', to: 'end', guard: 'answers.kind' },
        { from: 'd', to: 'end', guard: "'knd' in answers" },
        { from: 'd', to: 'end' },
      ],
    };
    expect(issues(d).map((i) => [i.path.join('/'), i.message])).toEqual([
      ['edges/1/guard', "guard at character 31: 'Emergncy' is not one of the categories of answers.kind (Routine, Emergency) (did you mean \"Emergency\"?)"],
      ['edges/2/guard', 'guard at character 16: answers.kind is never null: to test whether it was given, write has(answers.kind)'],
      ['edges/3/guard', "guard at character 0: answers.kind is a category, not true or false: compare it, e.g. answers.kind == 'Routine'"],
      ['edges/4/guard', 'guard at character 0: no question or action gives "answers.knd" (did you mean "kind"?)'],
    ]);
  });
});

describe('inputs: answer keys the host gives', () => {
  const withPlan = (inputs?: FlowDocumentInput['inputs']): FlowDocumentInput => ({
    id: 'plans',
    version: 1,
    ...(inputs && { inputs }),
    nodes: [
      { kind: 'decision', id: 'route' },
      { kind: 'terminal', id: 'pro', outcome: 'completed', message: 'Pro' },
      { kind: 'terminal', id: 'basic', outcome: 'completed', message: 'Basic' },
    ],
    edges: [
      { from: 'route', to: 'pro', guard: "has(answers.plan) && answers.plan == 'pro'" },
      { from: 'route', to: 'basic' },
    ],
  });
  const PLAN: FlowDocumentInput['inputs'] = { plan: { type: 'category', categories: ['basic', 'pro'] } };

  it('a key no question or action gives is an error unless declared, and then it is typed', () => {
    expect(issues(withPlan()).map((i) => i.message)).toEqual([
      'guard at character 4: no question or action gives "answers.plan" (an answer the host gives at start is declared in "inputs")',
      'guard at character 21: no question or action gives "answers.plan" (an answer the host gives at start is declared in "inputs")',
    ]);
    expect(issues(withPlan(PLAN))).toEqual([]);
    const typo = withPlan(PLAN);
    typo.edges[0]!.guard = "answers.plan == 'Pro'";
    expect(issues(typo).map((i) => i.message)).toEqual([
      "guard at character 16: 'Pro' is not one of the categories of answers.plan (basic, pro) (did you mean \"pro\"?)",
    ]);
  });

  it('a start fact that fits the declared type is an answer from the start; one that does not is never stored', () => {
    const doc = flow(withPlan(PLAN));
    const fits = startConversation(doc, { context: { plan: 'pro' } });
    expect(fits.reply()).toMatchObject({ state: 'pro', message: 'Pro', answers: { plan: { value: 'pro', source: 'host' } } });
    const unfit = startConversation(doc, { context: { plan: 'gold' } });
    expect(unfit.reply().state).toBe('basic');
    expect(unfit.reply().answers).toEqual({});
  });
});

describe("the author's own ids, dotted as in the seed's draft IR", () => {
  const DOTTED: FlowDocumentInput = {
    id: 'dotted',
    version: 1,
    nodes: [
      { kind: 'question', id: 'q.intent', key: 'intention', prompt: 'What do you need?', answer: { type: 'category', categories: ['buy_led', 'support'] } },
      { kind: 'subgraph', id: 'sg.led', ref: 'subgraph.led_path' },
      { kind: 'terminal', id: 'n.done', outcome: 'completed', message: 'Thanks.' },
      { kind: 'terminal', id: 'n.support', outcome: 'handoff', message: 'Support will call.' },
    ],
    edges: [
      { from: 'q.intent', to: 'sg.led', guard: "answers.intention == 'buy_led'" },
      { from: 'q.intent', to: 'n.support' },
      { from: 'sg.led', to: 'n.done' },
    ],
    subgraphs: {
      'subgraph.led_path': {
        entry: 'q.court_size',
        nodes: [
          { kind: 'question', id: 'q.court_size', key: 'court_size', prompt: 'Court size (m²)?', answer: { type: 'number', min: 1 } },
          { kind: 'question', id: 'q.wattage', key: 'wattage', prompt: 'Wattage?', answer: { type: 'number' } },
        ],
        edges: [
          { from: 'q.court_size', to: 'q.wattage' },
          { from: 'q.wattage', to: '__exit__' },
        ],
      },
    },
  };

  it('compile and run: replies, trace events and a restored session name the ids as written', async () => {
    const trace: FlowTraceEvent[] = [];
    const c = startConversation(flow(DOTTED), { onTrace: (e) => trace.push(e) });
    expect(c.reply()).toMatchObject({ state: { 'q.intent': 'asking' }, message: 'What do you need?' });
    expect(await c.send({ button: 'buy_led' })).toMatchObject({ state: { 'sg.led': { 'q.court_size': 'asking' } }, message: 'Court size (m²)?' });
    expect((await c.send({ text: 'not a number' })).state).toEqual({ 'sg.led': { 'q.court_size': 'asking' } });
    expect((await c.send({ text: '600' })).state).toEqual({ 'sg.led': { 'q.wattage': 'asking' } });

    const again = restoreConversation(flow(DOTTED), JSON.parse(JSON.stringify(c.persist())) as ReturnType<typeof c.persist>);
    expect(again.reply().state).toEqual({ 'sg.led': { 'q.wattage': 'asking' } });
    expect(await again.send({ text: '300' })).toMatchObject({ state: 'n.done', message: 'Thanks.', answers: { intention: { value: 'buy_led' }, court_size: { value: 600 }, wattage: { value: 300 } } });

    const named = trace.flatMap((e) => ('node' in e ? [`${e.type} ${e.node}`] : []));
    expect(named).toEqual(
      expect.arrayContaining([
        'node.enter q.intent',
        'answer.committed q.intent',
        'guard.evaluated q.intent',
        'node.enter sg.led',
        'node.enter sg.led.q.court_size',
        'validation.failed sg.led.q.court_size',
        'answer.committed sg.led.q.court_size',
        'node.enter sg.led.q.wattage',
      ]),
    );
    expect(trace).toContainEqual(expect.objectContaining({ type: 'guard.evaluated', node: 'q.intent', target: 'sg.led' }));
    expect(trace).toContainEqual(expect.objectContaining({ type: 'guard.evaluated', node: 'sg.led.q.court_size', target: 'sg.led.q.wattage' }));
    // Nothing a person sees carries XState's escaping.
    expect(JSON.stringify(trace)).not.toContain('\\\\');
  });

  it('model-based paths reach every state and transition of a flow with dotted ids', async () => {
    const coverage = await replayFlowPaths(flow(DOTTED), generateFlowPaths(flow(DOTTED)));
    expect([coverage.states.missing, coverage.transitions.missing]).toEqual([[], []]);
  });

  it('the drawing labels each state with the id as written', () => {
    const mermaid = drawMachine(compileFlow(DOTTED), 'mermaid');
    for (const id of ['q.intent', 'sg.led', 'q.court_size', 'q.wattage', 'n.done']) expect(mermaid).toContain(`state "${id}" as`);
    const json = JSON.parse(drawMachine(compileFlow(DOTTED), 'json')) as { states: { key: string; meta: { node?: string; place?: string } | null }[] };
    expect(json.states.find((s) => s.key === 'q.wattage')?.meta).toMatchObject({ node: 'q.wattage', place: 'sg.led.q.wattage' });
  });

  it('gateflow validate names the ids as written, with "did you mean"', () => {
    const broken = structuredClone(DOTTED) as unknown as RawFlow & { subgraphs: Record<string, RawFlow> };
    broken.edges[2]!.to = 'n.dnoe';
    broken.subgraphs['subgraph.led_path']!.edges[0]!.to = 'q.watage';
    broken.subgraphs['subgraph.led_path']!.nodes.push({ kind: 'terminal', id: 'q.orphan', outcome: 'stopped' });
    const { code, out } = validate(broken, 'dotted.json');
    expect(code).toBe(1);
    expect(out).toContain('/edges/2/to: no node has the id "n.dnoe" (did you mean "n.done"?)');
    expect(out).toContain('/subgraphs/subgraph.led_path/edges/0/to: no node has the id "q.watage" (did you mean "q.wattage"?)');
    expect(out).toContain('[node q.orphan]: node "q.orphan" is unreachable: no edge leads to it from the entry "q.court_size"');
    expect(validate(DOTTED, 'dotted.json')).toEqual({ code: 0, out: 'dotted.json: ok (flow dotted@1, 6 nodes, 3 questions; 0 errors, 0 warnings)\n' });
  });

  it("a question with a dotted id and no key is read as answers['q.intent']", () => {
    const d = structuredClone(DOTTED) as unknown as RawFlow;
    delete d.nodes[0]!.key;
    d.edges[0]!.guard = "answers.q.intent == 'buy_led'";
    expect(issues(d).map((i) => i.message)).toEqual([`guard at character 0: no question or action gives "answers.q" (did you mean answers['q.intent']?)`]);
    d.edges[0]!.guard = "answers['q.intent'] == 'buy_led'";
    expect(issues(d)).toEqual([]);
  });

  it('a dotted id that would read as a node inside another is refused', () => {
    const d = structuredClone(DOTTED) as unknown as RawFlow;
    d.nodes.push({ kind: 'terminal', id: 'sg.led.q.wattage', outcome: 'stopped' }, { kind: 'terminal', id: 'q.intent.asking', outcome: 'stopped' });
    d.edges.push({ from: 'q.intent', to: 'sg.led.q.wattage', on: 'invalid' });
    d.edges.push({ from: 'q.intent', to: 'q.intent.asking', on: 'limiting' });
    expect(issues(d).filter((i) => /reads as|same place/.test(i.message)).map((i) => [i.path.join('/'), i.message])).toEqual([
      ['subgraphs/subgraph.led_path/nodes/1/id', 'node "q.wattage" (at "sg.led.q.wattage") has the same place as another node: rename one of them'],
      ['nodes/4/id', 'node "sg.led.q.wattage" (at "sg.led.q.wattage") has the same place as another node: rename one of them'],
      ['nodes/5/id', 'node id "q.intent.asking" reads as a node inside "q.intent" (ids are joined with "." in traces and state ids): rename one of them'],
    ]);
  });
});

describe('schema problems say what to write', () => {
  const problems = (doc: unknown) => lint(doc).map((p) => [p.pointer, p.message]);
  const ok = { id: 'w', version: 1, nodes: [{ kind: 'terminal', id: 'end', outcome: 'completed' }], edges: [] };

  it('a wrong type names the field, an example and what was there; a missing field says so', () => {
    expect(problems({ ...ok, nodes: [{ kind: 'question', id: 'q', prompt: 5, answer: { type: 'string' } }, ...ok.nodes] })).toEqual([
      ['/nodes/0/prompt', '"prompt" must be text, e.g. "What is your name?" (not the number 5)'],
    ]);
    expect(problems({ ...ok, nodes: [{ kind: 'question', id: 'q', answer: { type: 'string' } }, ...ok.nodes] })).toEqual([
      ['/nodes/0/prompt', '"prompt" is missing: write text, e.g. "What is your name?"'],
    ]);
  });

  it('unknown fields, kinds, types and outcomes: "did you mean"', () => {
    expect(
      problems({
        ...ok,
        nodes: [
          { kind: 'question', id: 'q', prompt: 'Q?', promt: 'x', answer: { type: 'numbr' } },
          { kind: 'questoin', id: 'r' },
          { kind: 'terminal', id: 'end', outcome: 'complete' },
        ],
        edges: [{ from: 'q', to: 'end', on: 'answerd' }],
      }),
    ).toEqual([
      ['/nodes/0/answer/type', '"type" must be one of "category", "string", "number", "boolean", "date", "email", "phone", not "numbr" (did you mean "number"?)'],
      ['/nodes/0', 'unknown field "promt" (did you mean "prompt"?)'],
      ['/nodes/1/kind', '"kind" must be one of "question", "confirmation", "terminal", "decision", "action", "subgraph", "path", "input", not "questoin" (did you mean "question"?)'],
      ['/nodes/2/outcome', '"outcome" must be one of "handoff", "stopped", "completed", not "complete" (did you mean "completed"?)'],
      ['/edges/0/on', '"on" must be one of "answered", "limiting", "invalid", "confirmed", "edit", "done", "error", "next", "timeout", not "answerd" (did you mean "answered"?)'],
    ]);
  });

  it('no problem shows zod\'s own wording', () => {
    const bad = { id: 'w', version: 1, title: 3, start: 7, nodes: [{ kind: 'question', id: 'q', prompt: [], answer: { type: 'number', min: '3', integer: 'yes' } }], edges: [{}], maxAttempts: 0, paths: 'x' };
    const messages = lint(bad).map((p) => p.message);
    expect(messages.length).toBeGreaterThan(5);
    for (const message of messages) expect(message).not.toMatch(/Invalid input|expected \w+, received|Unrecognized key|Invalid option|Too (small|big)/);
  });
});

describe('gateflow schema', () => {
  it('describes every field of a flow document', () => {
    const undescribed: string[] = [];
    let fields = 0;
    const walk = (schema: unknown, at: string) => {
      if (typeof schema !== 'object' || schema === null) return;
      const s = schema as Record<string, unknown>;
      for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        fields++;
        if (typeof property.description !== 'string' || property.description.trim() === '') undescribed.push(`${at}.${name}`);
        walk(property, `${at}.${name}`);
      }
      for (const key of ['items', 'additionalProperties']) walk(s[key], `${at}[]`);
      for (const key of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((o) => walk(o, at));
      for (const def of Object.values((s.$defs ?? {}) as Record<string, unknown>)) walk(def, '$defs');
    };
    walk(flowDocumentJsonSchema(), '');
    expect(fields).toBeGreaterThan(100);
    expect(undescribed).toEqual([]);
  });
});

describe('serve --flows', () => {
  it('reports every invalid file of the folder at once, each with all its problems', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-flows-'));
    writeFileSync(join(dir, 'a-good.json'), readFileSync(`${flowsDir}contact-request.json`, 'utf8'));
    const typo = raw('led-sales');
    edgeWithGuard(typo, "answers.intention == 'buy_led'").guard = "answers.intention == 'buy_lde'";
    writeFileSync(join(dir, 'b-typo.json'), JSON.stringify(typo, null, 2));
    writeFileSync(join(dir, 'c-syntax.json'), '{"id": ');
    let error: unknown;
    try {
      readFlowsDir(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliError);
    const { message, exitCode } = error as CliError;
    expect(exitCode).toBe(1);
    expect(message).toMatch(/^2 of 3 flow files in .* are invalid:\n/);
    expect(message).toContain('b-typo.json: invalid flow document (1 problem)');
    expect(message).toContain('did you mean "buy_led"?');
    expect(message).toContain('c-syntax.json: invalid flow document');
    expect(message).not.toContain('a-good.json');
  });
});

describe('the README on flow documents', () => {
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const section = (title: string) => {
    const start = readme.indexOf(`### ${title}`);
    expect(start, title).toBeGreaterThan(0);
    return readme.slice(start, readme.indexOf('\n#', start + 4));
  };

  it("has an example `answer` for every answer type, each one the schema accepts", () => {
    const rows = section("A question's `answer`")
      .split('\n')
      .filter((line) => /^\| `\w+` \| `\{/.test(line));
    const examples = rows.map((row) => JSON.parse(/\| `(\{.*?\})`/.exec(row)![1]!) as { type: string });
    expect(examples.map((e) => e.type)).toEqual(['category', 'string', 'number', 'boolean', 'date', 'email', 'phone']);
    for (const example of examples) expect(AnswerSpecSchema.safeParse(example).error, example.type).toBeUndefined();
  });

  it('shows what gateflow validate prints for an impossible guard, as it prints it', () => {
    const checked = section('What is checked (`gateflow validate`)');
    const doc = /```json\n([\s\S]*?)```/.exec(checked)![1]!;
    const shown = /```text\n\$ gateflow validate visit\.json\n([\s\S]*?)```/.exec(checked)![1]!;
    expect(validateText(doc, 'visit.json')).toEqual({ code: 1, out: shown });
  });
});
