/**
 * Property tests (fast-check).
 *
 * (a) Documents: random flow documents (random graphs over a small pool of
 *     ids, so references sometimes miss; random answer specs, guards with
 *     broken CEL, subgraphs, constraints, paths), mutations of the example
 *     flows, and garbled JSON text. Parsing and compiling either succeed or
 *     throw a FlowDocumentError whose every problem has a message and a JSON
 *     Pointer into the document as written: never any other exception.
 * (b) Turns: random sequences of turns (buttons, categories, typed values,
 *     random and huge strings, malformed turns) through every example flow.
 *     Only the documented errors are thrown, the actor never fails, every
 *     reply fits the contract, and no answer is ever stored that the flow
 *     does not allow.
 *
 * Run counts and timings are printed (console.log) for the report.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromPromise, type AnyActorLogic, type StateValue } from 'xstate';
import { compileValidators, validateAnswer } from '../../src/flow/answer.js';
import { checkFlow } from '../../src/flow/check.js';
import { compileFlow, type ActionInput } from '../../src/flow/compile.js';
import { FlowDocumentError } from '../../src/flow/errors.js';
import { activeNode } from '../../src/flow/active-node.js';
import { flowGraph, type FlowGraph } from '../../src/flow/graph.js';
import { MAX_FLOW_TEXT_BYTES, parseFlowText, parseFlowValue } from '../../src/flow/parse.js';
import { answerKey, booleanLabels, type FlowDocument, type FlowNode } from '../../src/flow/schema.js';
import { startConversation, type Conversation } from '../../src/flow/conversation.js';
import { ConversationFinishedError, InvalidButtonError, InvalidTurnError } from '../../src/runtime/errors.js';
import { ReplySchema, type Reply } from '../../src/flow/reply.js';
import { patternSample } from '../../src/flow/nodes/test-events.js';
import { parseTurn } from '../../src/workflow/turn.js';

const flowsDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const flowNames = readdirSync(flowsDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();
const rawText = (name: string) => readFileSync(`${flowsDir}${name}.json`, 'utf8');
const rawFlow = (name: string): unknown => JSON.parse(rawText(name));
const loadFlow = (name: string): FlowDocument => parseFlowText(rawText(name), `${name}.json`);

// A sample in `npm test`; `npm run test:properties` (which CI runs) takes 1000 / 200, and more is a
// PROP_DOC_RUNS / PROP_TURN_RUNS away (e.g. 20000 / 2000 for a deeper search).
const DOC_RUNS = Number(process.env.PROP_DOC_RUNS ?? 100);
const TURN_RUNS = Number(process.env.PROP_TURN_RUNS ?? 20);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
// A new seed each run (more ground covered over time); a failure is replayed with PROP_SEED (fast-check also prints seed and path).
const SEED = Number(process.env.PROP_SEED ?? Date.now() % 2 ** 31);
fc.configureGlobal({ seed: SEED });
console.log(`[properties] seed ${SEED} (replay with PROP_SEED=${SEED})`);

// ================================================================ (a) documents

// ---------------------------------------------------------------- what a refusal must look like

/** The value at `pointer` in `doc`, or where it stops: pointers name the field as written, or a missing field of an existing object. */
function pointerFits(doc: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  if (!pointer.startsWith('/')) return false;
  const parts = pointer
    .slice(1)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  let at: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (at === null || typeof at !== 'object') return false;
    const has = Array.isArray(at) ? /^\d+$/.test(part) && Number(part) < at.length : Object.prototype.hasOwnProperty.call(at, part);
    // Only the last step may be missing (a required field that is not there).
    if (!has) return i === parts.length - 1;
    at = (at as Record<string, unknown>)[part];
  }
  return true;
}

type Outcome = 'accepted' | 'refused';

/** Parses and compiles `doc`; a refusal must be a FlowDocumentError with located, worded problems. */
function parseAndCompile(doc: unknown): Outcome {
  try {
    const parsed = parseFlowValue(doc, 'random');
    compileFlow(parsed);
    return 'accepted';
  } catch (error) {
    expectWellFormedRefusal(error, doc);
    return 'refused';
  }
}

function expectWellFormedRefusal(error: unknown, doc: unknown, text?: string) {
  if (!(error instanceof FlowDocumentError)) throw new Error(`not a FlowDocumentError: ${error instanceof Error ? error.stack : String(error)}\ndocument: ${short(doc)}`);
  expect(error.problems.length).toBeGreaterThan(0);
  for (const p of error.problems) {
    expect(typeof p.message).toBe('string');
    expect(p.message.trim().length, `empty message at ${p.pointer}`).toBeGreaterThan(0);
    expect(typeof p.pointer).toBe('string');
    if (doc !== undefined) expect(pointerFits(doc, p.pointer), `pointer ${JSON.stringify(p.pointer)} (${p.message}) does not point into ${short(doc)}`).toBe(true);
    if (text !== undefined && p.line !== undefined) {
      expect(p.line).toBeGreaterThanOrEqual(1);
      expect(p.line).toBeLessThanOrEqual(text.split('\n').length);
      expect(p.column ?? 1).toBeGreaterThanOrEqual(1);
    }
  }
}

const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 600 ? `${s.slice(0, 600)}…` : s;
};

// ---------------------------------------------------------------- random documents

const ID_POOL = ['start', 'a', 'b', 'c', 'review', 'end', 'stop', 'act', 'sub', 'p'];
const nodeId = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...ID_POOL) },
  { weight: 1, arbitrary: fc.constantFrom('', 'has space', 'a.b', '#x', '__exit__', '-lead') },
);
const edgeTarget = fc.oneof({ weight: 6, arbitrary: nodeId }, { weight: 1, arbitrary: fc.constant('__exit__') });
const KEY_POOL = ['x', 'n', 'd', 'mail', 'tel', 'court_size'];
const answerKeyArb = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...KEY_POOL) }, { weight: 1, arbitrary: fc.constantFrom('1bad', 'has-dash', '') });
const SUB_POOL = ['s1', 's2'];
const subRef = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...SUB_POOL) }, { weight: 1, arbitrary: fc.constantFrom('missing', 'bad ref') });
const CATEGORIES = ['Yes', 'No', 'yes', 'Maybe', 'A', 'B', ''];

const validGuard = fc.constantFrom(
  "answers.x == 'A'",
  'answers.n > 3.0',
  'has(answers.x)',
  "has(answers.d) && answers.d >= '2026-01-01'",
  'true',
  'false',
  "answers.x == 'A' && answers.n < 10.0",
);
const guardText = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "answers.x == 'A'",
      'answers.n > 3.0',
      'answers.n > 3',
      'has(answers.x)',
      '!has(answers.tel) || size(answers.tel) > 6',
      'constraints.c1',
      'constraints.nope',
      "context.path.locked == 'home'",
      "context.channel == 'web'",
      'true',
      'false',
      'value > 1.0',
      "answers.x == 'A' && answers.n < 10.0",
      'answers.court_size * 10.0 >= 200.0',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom('answers.x ==', '((', 'foo bar', '', '   ', 'else', 'answers.', '"unterminated', '1 + 2', "'text'", '[1, 2]', 'x'.repeat(2100), 'a' + ' && a'.repeat(300)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

const dateBound = fc.oneof(fc.constantFrom('today', '2026-01-01', '2030-12-31', '2026-02-30', 'tomorrow', ''), fc.string({ maxLength: 10 }));
const answerSpec = fc.oneof(
  fc.record(
    {
      type: fc.constant('category'),
      categories: fc.array(fc.constantFrom(...CATEGORIES), { maxLength: 4 }),
      synonyms: fc.dictionary(fc.constantFrom(...CATEGORIES, 'Other'), fc.array(fc.constantFrom('yep', 'nope', 'yes', 'sure', ''), { maxLength: 3 }), { maxKeys: 3 }),
    },
    { requiredKeys: ['type', 'categories'] },
  ),
  fc.record(
    {
      type: fc.constant('string'),
      minLength: fc.integer({ min: -1, max: 3000 }),
      maxLength: fc.integer({ min: 0, max: 12000 }),
      pattern: fc.constantFrom('[a-z]+', '\\d{3}', '(', '[', '(?<x>a)', '\\p{L}+', 'a{2,1}'),
      patternMessage: fc.constantFrom('letters only', ''),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('number'), min: fc.double({ noNaN: true }), max: fc.double({ noNaN: true }), integer: fc.boolean(), unit: fc.constantFrom('m²', 'W', '') },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('boolean'), trueLabel: fc.constantFrom('Yes please', ''), falseLabel: fc.constantFrom('No thanks', 'Yes please') }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('date'), min: dateBound, max: dateBound }, { requiredKeys: ['type'] }),
  fc.constantFrom({ type: 'email' }, { type: 'phone' }, { type: 'email', extra: true }, { type: 'integer' }, {}),
);

const questionNode = fc.record(
  {
    kind: fc.constant('question'),
    id: nodeId,
    key: answerKeyArb,
    prompt: fc.constantFrom('What?', 'How many?', ''),
    answer: answerSpec,
    required: fc.boolean(),
    when: guardText,
    validators: fc.array(fc.record({ check: guardText, message: fc.constantFrom('No.', '') }), { maxLength: 2 }),
    maxAttempts: fc.integer({ min: 0, max: 101 }),
    limitingValues: fc.array(fc.constantFrom(...CATEGORIES), { maxLength: 2 }),
    stopMessage: fc.constantFrom('Stopped.', ''),
    label: fc.constantFrom('Q:', ''),
  },
  { requiredKeys: ['kind', 'id', 'prompt', 'answer'] },
);
const otherNode = fc.oneof(
  fc.record({ kind: fc.constant('confirmation'), id: nodeId, prompt: fc.constantFrom('Ok?', ''), confirmLabel: fc.constantFrom('Go', ''), editLabel: fc.constantFrom('Change', 'Go') }, { requiredKeys: ['kind', 'id'] }),
  fc.record({ kind: fc.constant('terminal'), id: nodeId, outcome: fc.constantFrom('handoff', 'stopped', 'completed', 'exploded'), message: fc.constantFrom('Bye.', '') }, { requiredKeys: ['kind', 'id', 'outcome'] }),
  fc.record({ kind: fc.constant('decision'), id: nodeId }),
  fc.record(
    {
      kind: fc.constant('action'),
      id: nodeId,
      actor: fc.constantFrom('priceLookup', 'lookup', 'bad-name', ''),
      params: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
      assign: fc.dictionary(answerKeyArb, fc.constantFrom('', 'total', 'a.b.c'), { maxKeys: 2 }),
    },
    { requiredKeys: ['kind', 'id', 'actor'] },
  ),
  fc.record({ kind: fc.constant('subgraph'), id: nodeId, ref: subRef }),
  fc.record({ kind: fc.constant('path'), id: nodeId, prompt: fc.constantFrom('Which?', ''), maxAttempts: fc.integer({ min: 0, max: 101 }) }, { requiredKeys: ['kind', 'id', 'prompt'] }),
  fc.record({ kind: fc.constantFrom('loop', 'Question', ''), id: nodeId }),
);
const anyNode = fc.oneof({ weight: 3, arbitrary: questionNode }, { weight: 4, arbitrary: otherNode });

const edge = fc.record(
  {
    from: nodeId,
    to: edgeTarget,
    on: fc.constantFrom('answered', 'limiting', 'invalid', 'confirmed', 'edit', 'done', 'error', 'next', 'sideways'),
    guard: guardText,
    label: fc.constantFrom('go', ''),
  },
  { requiredKeys: ['from', 'to'] },
);

const subgraph = fc.record(
  { title: fc.constantFrom('Sub', ''), entry: nodeId, nodes: fc.array(anyNode, { maxLength: 4 }), edges: fc.array(edge, { maxLength: 5 }) },
  { requiredKeys: ['entry', 'nodes', 'edges'] },
);

const constraint = fc.record(
  {
    name: fc.constantFrom('c1', 'c2', '1c'),
    oneOf: fc.array(answerKeyArb, { maxLength: 3 }),
    exclusive: fc.boolean(),
    check: guardText,
    message: fc.constantFrom('Need one.', ''),
    fallback: nodeId,
  },
  { requiredKeys: ['name', 'message'] },
);

const paths = fc.record(
  {
    options: fc.array(
      fc.record({ id: fc.constantFrom('home', 'sports', 'none', ''), label: fc.constantFrom('Home', ''), keywords: fc.array(fc.constantFrom('house', 'court', ''), { maxLength: 2 }) }, { requiredKeys: ['id'] }),
      { maxLength: 3 },
    ),
    policy: fc.record({ lockThreshold: fc.integer({ min: -1, max: 101 }), decay: fc.double({ min: -0.5, max: 1.5, noNaN: true }), minConfidence: fc.double({ noNaN: true }), allowSwitchBeforeLock: fc.boolean() }, { requiredKeys: [] }),
  },
  { requiredKeys: ['options'] },
);

/** Any graph: nodes, edges and the rest drawn independently. Mostly refused; the property is about how. */
const randomDocument = fc.record(
  {
    id: fc.constantFrom('flow', 'my-flow', 'Bad Id', ''),
    version: fc.oneof(fc.constantFrom('1.0.0', '', -1, 1.5), fc.nat()),
    title: fc.constantFrom('A flow', ''),
    start: nodeId,
    nodes: fc.array(anyNode, { maxLength: 7 }),
    edges: fc.array(edge, { maxLength: 10 }),
    subgraphs: fc.dictionary(fc.constantFrom(...SUB_POOL, 'bad ref'), subgraph, { maxKeys: 2 }),
    constraints: fc.array(constraint, { maxLength: 2 }),
    paths,
    fallback: nodeId,
    migrations: fc.array(fc.record({ from: fc.constantFrom('0.9', 1), nodes: fc.dictionary(nodeId, nodeId, { maxKeys: 2 }) }), { maxLength: 1 }),
    format: fc.constantFrom('gateflow/v1', 'gateflow/v0'),
  },
  { requiredKeys: ['id', 'version', 'nodes', 'edges'] },
);

/**
 * Valid-ish documents: a chain of questions from `start` to a terminal, each
 * with a random answer spec, plus random extra edges, decisions, constraints.
 * These get further into the checker and the compiler.
 */
const validSpec = fc.oneof(
  fc.constantFrom({ type: 'category', categories: ['A', 'B'] }, { type: 'category', categories: ['Yes', 'No'], synonyms: { Yes: ['yep'] } }),
  fc.integer({ min: -10, max: 100 }).map((min) => ({ type: 'number', min, max: min + 50, integer: min % 2 === 0 })),
  fc.constantFrom({ type: 'string', maxLength: 40 }, { type: 'string', pattern: '[a-z]+' }, { type: 'boolean' }, { type: 'date', min: 'today', max: '2035-12-31' }, { type: 'email' }, { type: 'phone' }),
);
const mostly = <T,>(good: fc.Arbitrary<T>, any: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: any });
const chainDocument = fc
  .record({
    specs: fc.array(mostly(validSpec, answerSpec as fc.Arbitrary<never>), { minLength: 1, maxLength: 4 }),
    whens: fc.array(fc.option(mostly(validGuard, guardText), { nil: undefined, freq: 3 }), { minLength: 4, maxLength: 4 }),
    edgeGuards: fc.array(fc.option(mostly(validGuard, guardText), { nil: undefined, freq: 3 }), { minLength: 4, maxLength: 4 }),
    extraEdges: fc.array(edge, { maxLength: 1, size: 'xsmall' }).chain((e) => fc.constantFrom([], [], [], e)),
    extraNodes: fc.array(anyNode, { maxLength: 1 }).chain((n) => fc.constantFrom([], [], [], n)),
    withReview: fc.boolean(),
    withDecision: fc.boolean(),
    constraints: fc.oneof(
      fc.constant([]),
      fc.record({ exclusive: fc.boolean(), fallback: fc.constantFrom('q0', 'q1', 'end') }).map((c) => [{ name: 'c1', oneOf: ['x', 'n'], message: 'Need one.', ...c }]),
      fc.array(constraint, { maxLength: 1 }),
    ).chain((c) => fc.constantFrom([], c)),
    fallback: fc.option(fc.constantFrom('end', 'end', 'end', 'q0', 'missing'), { nil: undefined, freq: 2 }),
    maxAttempts: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined, freq: 2 }),
  })
  .map((g) => {
    const ids = g.specs.map((_, i) => `q${i}`);
    const nodes: Record<string, unknown>[] = g.specs.map((answer, i) => ({
      kind: 'question',
      id: ids[i],
      key: KEY_POOL[i % KEY_POOL.length],
      prompt: `Question ${i}?`,
      answer,
      ...(i > 0 && g.whens[i] !== undefined && { when: g.whens[i] }),
      ...(g.maxAttempts !== undefined && (g.fallback !== undefined || i % 2 === 0) && { maxAttempts: g.maxAttempts }),
    }));
    const edges: Record<string, unknown>[] = [];
    ids.forEach((id, i) => {
      const next = ids[i + 1] ?? (g.withDecision ? 'decide' : g.withReview ? 'review' : 'end');
      if (g.edgeGuards[i] !== undefined) edges.push({ from: id, to: 'end', guard: g.edgeGuards[i] });
      edges.push({ from: id, to: next });
    });
    if (g.withDecision) {
      nodes.push({ kind: 'decision', id: 'decide' });
      edges.push({ from: 'decide', to: 'end', guard: g.edgeGuards[0] ?? 'true' }, { from: 'decide', to: g.withReview ? 'review' : 'end', guard: 'else' });
    }
    if (g.withReview) {
      nodes.push({ kind: 'confirmation', id: 'review' });
      edges.push({ from: 'review', to: 'end', on: 'confirmed' }, { from: 'review', to: ids[0], on: 'edit' });
    }
    nodes.push({ kind: 'terminal', id: 'end', outcome: 'completed' }, ...g.extraNodes);
    edges.push(...g.extraEdges);
    return {
      id: 'chain',
      version: 1,
      nodes,
      edges,
      ...(g.constraints.length > 0 && { constraints: g.constraints }),
      ...(g.fallback !== undefined && { fallback: g.fallback }),
    };
  });

// ---------------------------------------------------------------- mutations of the examples

const EXAMPLES = flowNames.map((name) => ({ name, doc: rawFlow(name) }));

/** Every [container, key] in a JSON tree, so that a mutation can pick one by index. */
function slots(value: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []) {
  if (Array.isArray(value)) value.forEach((v, i) => (out.push([value, i]), slots(v, out)));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push([value as Record<string, unknown>, k]);
      slots(v, out);
    }
  return out;
}

type Mutation =
  | { op: 'deleteNode' | 'duplicateNode' | 'deleteEdge'; at: number }
  | { op: 'renameNode'; at: number; id: string }
  | { op: 'retargetEdge'; at: number; to: string; from: boolean }
  | { op: 'edgeOutcome'; at: number; on: string }
  | { op: 'corruptGuard'; at: number; guard: string }
  | { op: 'answerType'; at: number; type: string }
  | { op: 'replace'; at: number; value: unknown }
  | { op: 'remove'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom('deleteNode', 'duplicateNode', 'deleteEdge'), at: fc.nat() }),
  fc.record({ op: fc.constant('renameNode'), at: fc.nat(), id: nodeId }),
  fc.record({ op: fc.constant('retargetEdge'), at: fc.nat(), to: edgeTarget, from: fc.boolean() }),
  fc.record({ op: fc.constant('edgeOutcome'), at: fc.nat(), on: fc.constantFrom('answered', 'limiting', 'invalid', 'confirmed', 'edit', 'done', 'error', 'next', 'up') }),
  fc.record({ op: fc.constant('corruptGuard'), at: fc.nat(), guard: guardText }),
  fc.record({ op: fc.constant('answerType'), at: fc.nat(), type: fc.constantFrom('category', 'string', 'number', 'boolean', 'date', 'email', 'phone', 'money') }),
  fc.record({ op: fc.constant('replace'), at: fc.nat(), value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), nodeId, guardText) }),
  fc.record({ op: fc.constant('remove'), at: fc.nat() }),
);

type Json = Record<string, unknown>;
function scopesOf(doc: Json): { nodes: unknown[]; edges: unknown[] }[] {
  const subgraphs = doc.subgraphs !== null && typeof doc.subgraphs === 'object' ? Object.values(doc.subgraphs) : [];
  return [doc, ...subgraphs].filter(
    (s): s is { nodes: unknown[]; edges: unknown[] } => s !== null && typeof s === 'object' && Array.isArray((s as Json).nodes) && Array.isArray((s as Json).edges),
  );
}
const pick = <T,>(list: T[], at: number): T | undefined => (list.length === 0 ? undefined : list[at % list.length]);

function mutate(doc: Json, m: Mutation): void {
  const scopes = scopesOf(doc);
  // Earlier mutations may have put anything anywhere: only objects are nodes and edges to mutate.
  const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
  const nodes = scopes.flatMap((s) => s.nodes.flatMap((n, i) => (isObject(n) ? [{ list: s.nodes, i, node: n }] : [])));
  const edges = scopes.flatMap((s) => s.edges.flatMap((e, i) => (isObject(e) ? [{ list: s.edges, i, edge: e }] : [])));
  switch (m.op) {
    case 'deleteNode': {
      const n = pick(nodes, m.at);
      if (n) n.list.splice(n.i, 1);
      return;
    }
    case 'duplicateNode': {
      const n = pick(nodes, m.at);
      if (n) n.list.push(structuredClone(n.node));
      return;
    }
    case 'deleteEdge': {
      const e = pick(edges, m.at);
      if (e) e.list.splice(e.i, 1);
      return;
    }
    case 'renameNode': {
      const n = pick(nodes, m.at);
      if (n) n.node.id = m.id;
      return;
    }
    case 'retargetEdge': {
      const e = pick(edges, m.at);
      if (e) e.edge[m.from ? 'from' : 'to'] = m.to;
      return;
    }
    case 'edgeOutcome': {
      const e = pick(edges, m.at);
      if (e) e.edge.on = m.on;
      return;
    }
    case 'corruptGuard': {
      // An edge guard, a `when`, a validator or a constraint check.
      const places: [Json, string][] = [
        ...edges.map((e) => [e.edge, 'guard'] as [Json, string]),
        ...nodes.filter((n) => n.node.kind === 'question').map((n) => [n.node, 'when'] as [Json, string]),
        ...nodes.flatMap((n) => (Array.isArray(n.node.validators) ? n.node.validators : []).filter(isObject).map((v) => [v, 'check'] as [Json, string])),
        ...(Array.isArray(doc.constraints) ? doc.constraints : []).filter(isObject).map((c) => [c, 'check'] as [Json, string]),
      ];
      const p = pick(places, m.at);
      if (p) p[0][p[1]] = m.guard;
      return;
    }
    case 'answerType': {
      const questions = nodes.filter((n) => n.node.kind === 'question' && isObject(n.node.answer));
      const q = pick(questions, m.at);
      if (q) (q.node.answer as Json).type = m.type;
      // A gate config: change a gate's categories instead.
      else if (isObject(doc.gates)) {
        const gate = pick(Object.values(doc.gates).filter(isObject), m.at);
        if (gate) gate.expected_categories = m.type === 'category' ? [] : [m.type, m.type];
      }
      return;
    }
    case 'replace': {
      const s = pick(slots(doc), m.at);
      if (s) (s[0] as Record<string | number, unknown>)[s[1]] = structuredClone(m.value);
      return;
    }
    case 'remove': {
      const s = pick(slots(doc), m.at);
      if (!s) return;
      if (Array.isArray(s[0])) s[0].splice(s[1] as number, 1);
      else delete s[0][s[1] as string];
      return;
    }
  }
}

const mutatedExample = fc
  .record({ example: fc.constantFrom(...EXAMPLES), mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }) })
  .map(({ example, mutations }) => {
    const doc = structuredClone(example.doc) as Json;
    for (const m of mutations) mutate(doc, m);
    return doc;
  });

// ---------------------------------------------------------------- garbled text

const garbledText = fc.oneof(
  // A document, then cut, spliced or given a duplicate key or a comment.
  fc
    .record({
      doc: fc.oneof(mutatedExample, randomDocument, fc.constantFrom(...EXAMPLES.map((e) => e.doc))),
      cut: fc.nat(),
      insert: fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom('{', '}', '[', ',', '"', '//', '/*', '\u0000', '\ufeff', ',}', '"id": "x",')),
      how: fc.constantFrom('cut', 'insert', 'duplicateKey', 'comment', 'trailingComma', 'asIs', 'indent'),
    })
    .map(({ doc, cut, insert, how }) => {
      const text = JSON.stringify(doc, null, how === 'indent' ? 2 : 0);
      const at = cut % (text.length + 1);
      switch (how) {
        case 'cut':
          return text.slice(0, at);
        case 'insert':
          return text.slice(0, at) + insert + text.slice(at);
        case 'duplicateKey':
          return text.replace('"id":', '"id": "dup", "id":');
        case 'comment':
          return `// a comment\n${text}`;
        case 'trailingComma':
          return text.replace(/\}$/, ',}');
        default:
          return text;
      }
    }),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom('', ' ', 'null', '[]', '{}', '"flow"', '1e999', '{"gate_order": []}', '{"gate_order": null, "gates": 1}', '\ufeff{}', `{"nodes": [${'{},'.repeat(50)}{}]}`),
);

describe('(a) parsing and compiling random documents: accepted, or refused with located problems', () => {
  const run = (name: string, arb: fc.Arbitrary<unknown>, check: (v: unknown) => Outcome) => {
    it(`${name} (${DOC_RUNS} runs)`, () => {
      const counts: Record<Outcome, number> = { accepted: 0, refused: 0 };
      const started = performance.now();
      fc.assert(
        fc.property(arb, (doc) => {
          counts[check(doc)]++;
        }),
        { numRuns: DOC_RUNS },
      );
      const ms = performance.now() - started;
      console.log(`[properties] (a) ${name}: ${DOC_RUNS} runs in ${seconds(ms)} (last pass: ${counts.accepted} accepted, ${counts.refused} refused)`);
      // Each generator reaches the checker's refusals; the near-valid ones also reach the compiler.
      expect(counts.refused).toBeGreaterThan(0);
    });
  };

  run('random graphs', randomDocument, parseAndCompile);
  run('valid-ish chains of typed questions', chainDocument, parseAndCompile);
  run('mutations of the example flows', mutatedExample, parseAndCompile);
  run('random and garbled JSON text', garbledText as fc.Arbitrary<unknown>, (text) => {
    try {
      compileFlow(parseFlowText(text as string, 'garbled'));
      return 'accepted';
    } catch (error) {
      let doc: unknown;
      try {
        doc = JSON.parse(text as string);
      } catch {
        doc = undefined; // syntax errors point at the root
      }
      expectWellFormedRefusal(error, doc, text as string);
      return 'refused';
    }
  });

  /** The checker's warning for a loop that may run without asking anything: such a document may hang (see the bug at the end of this file). */
  const mayLoop = (flow: FlowDocument) => checkFlow(flow).some((i) => i.message.startsWith('loop with no question asked'));
  const someTurns = fc.array(
    fc.oneof(
      fc.constantFrom('A', 'B', 'Yes', 'No', 'yep', 'confirm', 'edit', 'skip', 'Go', 'Change', 'buy_led', 'sports_court', 'warehouse', 'home', 'Billing').map((b) => ({ button: b })),
      typedValue.map((t) => ({ text: t })),
      fc.string({ maxLength: 20 }).map((t) => ({ text: t })),
    ),
    { maxLength: 10 },
  );
  const playAccepted = (name: string, arb: fc.Arbitrary<unknown>, runs: number) =>
    it(`accepted ${name} start and take random turns without an actor error or a forbidden answer (${runs} runs)`, async () => {
      let accepted = 0;
      let played = 0;
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(arb, randomLookup, someTurns, async (doc, plan, script) => {
          if (parseAndCompile(doc) !== 'accepted') return;
          accepted++;
          const flow = parseFlowValue(doc);
          if (mayLoop(flow)) return;
          await playTurns(flow, flowGraph(flow), plan, script);
          played++;
        }),
        { numRuns: runs },
      );
      console.log(`[properties] (a) ${name}: ${accepted}/${runs} accepted, ${played} played with random turns, in ${seconds(performance.now() - started)}`);
      expect(played).toBeGreaterThan(runs / 20);
    });
  playAccepted('chains', chainDocument, Math.max(300, Math.round(DOC_RUNS / 3)));
  playAccepted('mutated examples', mutatedExample, Math.max(300, Math.round(DOC_RUNS / 3)));

  it('a text over the size limit is refused before it is parsed', () => {
    const text = `{"id": "big", "description": "${'x'.repeat(MAX_FLOW_TEXT_BYTES)}"}`;
    expect(() => parseFlowText(text)).toThrow(FlowDocumentError);
  });

  it('the refusal check can fail: a pointer into nothing is caught', () => {
    expect(pointerFits({ nodes: [{ id: 'a' }] }, '/nodes/0/id')).toBe(true);
    expect(pointerFits({ nodes: [{ id: 'a' }] }, '/nodes/0/prompt')).toBe(true); // a missing field of an existing node
    expect(pointerFits({ nodes: [{ id: 'a' }] }, '/nodes/3/id')).toBe(false);
    expect(pointerFits({ nodes: [] }, 'nodes')).toBe(false);
    expect(() => expectWellFormedRefusal(new TypeError('boom'), {})).toThrow(/not a FlowDocumentError/);
  });
});

// ================================================================ (b) turns

/** What a flow offers to press or say: buttons, category names and synonyms, path keywords. */
function vocabulary(flow: FlowDocument) {
  const buttons = new Set<string>(['confirm', 'edit', 'skip', 'Skip']);
  const words = new Set<string>(['yes', 'no', 'looks good', 'change it', 'skip', 'not sure', 'I do not know']);
  const nodes: FlowNode[] = [...flow.nodes, ...Object.values(flow.subgraphs ?? {}).flatMap((s) => s.nodes)];
  for (const node of nodes) {
    if (node.kind === 'question') {
      if (node.answer.type === 'category') {
        for (const c of node.answer.categories) (buttons.add(c), words.add(c), words.add(c.toUpperCase()));
        for (const list of Object.values(node.answer.synonyms ?? {})) for (const s of list) words.add(s);
      }
      if (node.answer.type === 'boolean') for (const l of Object.values(booleanLabels(node.answer))) (buttons.add(l), words.add(l));
    }
    if (node.kind === 'confirmation') (buttons.add(node.confirmLabel), buttons.add(node.editLabel), words.add(node.confirmLabel), words.add(node.editLabel));
  }
  for (const p of flow.paths?.options ?? []) {
    buttons.add(p.id);
    if (p.label) buttons.add(p.label);
    for (const k of p.keywords ?? []) words.add(k);
  }
  return { buttons: [...buttons], words: [...words] };
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const typedValue = fc.oneof(
  fc.integer({ min: -100, max: 30_000 }).map(String),
  fc.constantFrom('13', '0', '1', '50', '49', '500', '501', '20', '2000', '12.5', '1e3', '1,000', 'ten', 'twenty five', '-3', '5k'),
  fc.double({ noNaN: true }).map(String),
  fc.date({ min: new Date('2020-01-01'), max: new Date('2035-12-31'), noInvalidDate: true }).map(isoDay),
  fc.constantFrom('today', 'tomorrow', 'next friday', '2026-02-30', '31/12/2026', '2030-12-31', '2031-01-01'),
  fc.emailAddress(),
  fc.constantFrom('a@b', 'name@example.com', 'not an email', '@example.com'),
  fc.stringMatching(/^\+?\d{5,17}$/),
  fc.constantFrom('+1 555 0100 200', '555-CALL-NOW', '(555) 010-0200'),
  fc.constantFrom('yes', 'no', 'Yes please', 'No thanks', 'maybe'),
);

/**
 * A turn chosen when it is sent, from where the conversation is: one of the
 * reply's buttons, or an answer the current question accepts. Random
 * sequences then get past typed questions and reach the ends of the flows.
 */
type Follow = { follow: 'button' | 'good'; n: number };
const isFollow = (t: unknown): t is Follow => typeof t === 'object' && t !== null && 'follow' in t;

function goodTurn(graph: FlowGraph, reply: Reply, n: number): unknown {
  const active = activeNode(graph, reply.state as StateValue);
  const node = active?.node;
  const today = Date.now();
  const day = 86_400_000;
  if (node?.kind === 'path') {
    const options = graph.doc.paths?.options ?? [];
    const option = options[n % options.length]!;
    return { text: `it is for the ${option.keywords?.[n % (option.keywords.length || 1)] ?? option.id}` };
  }
  if (node?.kind !== 'question') return reply.buttons?.length ? { button: reply.buttons[n % reply.buttons.length]!.value } : { text: 'yes' };
  const a = node.answer;
  switch (a.type) {
    case 'category':
      return { button: a.categories[n % a.categories.length] };
    case 'number': {
      const min = Math.ceil(a.min ?? 0);
      const max = Math.floor(a.max ?? min + 1000);
      return { text: String(min + (n % (max - min + 1))) };
    }
    case 'date': {
      const max = a.max && a.max !== 'today' ? Date.parse(a.max) : today + 3 * 365 * day;
      return { text: isoDay(new Date(today + (1 + (n % Math.max(1, Math.floor((max - today) / day) - 1))) * day)) };
    }
    case 'boolean':
      return { button: n % 2 === 0 ? booleanLabels(a).trueLabel : booleanLabels(a).falseLabel };
    case 'email':
      return { text: `person${n}@example.com` };
    case 'phone':
      return { text: `+1555${String(n).padStart(7, '0').slice(-7)}` };
    case 'string':
      // A question with a pattern (an order number "AB1234") takes text that matches it.
      return { text: (a.pattern !== undefined ? patternSample(a.pattern) : undefined) ?? `Answer ${n}` };
  }
}

type TurnInput = unknown;
function turnArb(flow: FlowDocument): fc.Arbitrary<TurnInput> {
  const { buttons, words } = vocabulary(flow);
  const text = (a: fc.Arbitrary<string>) => a.map((t) => ({ text: t }));
  return fc.oneof(
    { weight: 8, arbitrary: fc.record({ follow: fc.constantFrom<Follow['follow']>('button', 'good'), n: fc.nat(10_000) }) },
    { weight: 6, arbitrary: fc.constantFrom(...buttons).map((b) => ({ button: b })) },
    { weight: 5, arbitrary: text(fc.constantFrom(...words)) },
    { weight: 4, arbitrary: text(typedValue) },
    { weight: 1, arbitrary: text(fc.string({ maxLength: 40 })) },
    { weight: 1, arbitrary: text(fc.string({ unit: 'binary', maxLength: 40 })) },
    { weight: 1, arbitrary: text(fc.string({ unit: 'grapheme', maxLength: 40 })) },
    // Huge: up to 20k characters (over 4000 is refused as a bad turn).
    { weight: 1, arbitrary: text(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 20_000 })).map(([s, n]) => s.repeat(Math.ceil(n / s.length)).slice(0, n))) },
    { weight: 1, arbitrary: fc.string({ maxLength: 250 }).map((b) => ({ button: b })) },
    { weight: 1, arbitrary: fc.record({ text: fc.constantFrom(...words), turnId: fc.constantFrom('t1', 't2', 't3') }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>({}, null, 'hello', [], { text: 1 }, { button: '' }, { text: 'a', button: 'b' }, { text: 'x', extra: 1 }, { button: 'x', turnId: '' }) },
  );
}

/** An action actor that answers at random: a usable output, a broken one, or a failure. */
const randomLookup = fc.oneof(
  fc.record({ total: fc.double({ min: 0, max: 1e6, noNaN: true }), fixtures: fc.integer({ min: 0, max: 500 }) }).map((out) => ({ kind: 'resolve', out }) as const),
  fc.constantFrom<unknown>({ total: 'lots' }, {}, null, 42, { total: Number.NaN, fixtures: 1 }, { total: 1, fixtures: { n: 2 } }).map((out) => ({ kind: 'resolve', out }) as const),
  fc.constantFrom('pricing down', '').map((message) => ({ kind: 'reject', message }) as const),
);
type LookupPlan = { kind: 'resolve'; out: unknown } | { kind: 'reject'; message: string };
const lookupActor = (plan: LookupPlan): AnyActorLogic =>
  fromPromise<unknown, ActionInput>(async () => {
    if (plan.kind === 'reject') throw new Error(plan.message);
    return plan.out;
  });

/** Every stored answer is one the flow allows: its question's schema and validators accept it; exclusive groups hold. */
function checkAnswers(flow: FlowDocument, graph: FlowGraph, reply: Reply) {
  const values = Object.fromEntries(Object.entries(reply.answers).map(([k, a]) => [k, a.value]));
  const assigned = new Set(
    [...flow.nodes, ...Object.values(flow.subgraphs ?? {}).flatMap((s) => s.nodes)].flatMap((n) => (n.kind === 'action' ? Object.keys(n.assign ?? {}) : [])),
  );
  for (const [key, answer] of Object.entries(reply.answers)) {
    const q = graph.question(key);
    if (!q || answerKey(q) !== key) {
      expect(assigned.has(key), `answer "${key}" belongs to no question and no action`).toBe(true);
      expect(answer.source).toBe('action');
      continue;
    }
    const checked = validateAnswer(q, answer.value, { answers: values, context: {} }, compileValidators(q), new Date());
    expect(checked, `answers.${key} = ${JSON.stringify(answer.value)} is not allowed by question "${q.id}"`).toEqual({ ok: true, value: answer.value });
  }
  for (const c of flow.constraints ?? [])
    if (c.exclusive && c.oneOf) expect(c.oneOf.filter((k) => values[k] !== undefined).length, `exclusive ${c.name}`).toBeLessThanOrEqual(1);
}

/** What a played conversation reached: for the report, and to show the runs get somewhere. */
interface Played {
  /** The terminal reached, or null. */
  terminal: string | null;
  answersChecked: number;
  /** The answers the conversation holds at its end. */
  answered: number;
}

async function playTurns(flow: FlowDocument, graph: FlowGraph, plan: LookupPlan, turns: TurnInput[]): Promise<Played> {
  let answersChecked = 0;
  const conversation: Conversation = startConversation(flow, { actors: { priceLookup: lookupActor(plan) }, settleTimeoutMs: 5_000 });
  try {
    const first = ReplySchema.parse(conversation.reply());
    checkAnswers(flow, graph, first);
    for (const planned of turns) {
      const turn = isFollow(planned)
        ? planned.follow === 'good'
          ? goodTurn(graph, conversation.reply(), planned.n)
          : (() => {
              const buttons = conversation.reply().buttons ?? [];
              return buttons.length > 0 ? { button: buttons[planned.n % buttons.length]!.value } : { text: 'ok' };
            })()
        : planned;
      const wasDone = conversation.done;
      const valid = parseTurn(turn).success;
      let reply: Reply | undefined;
      try {
        reply = await conversation.send(turn as never);
      } catch (error) {
        if (error instanceof InvalidTurnError) expect(valid, `InvalidTurnError for a valid turn ${short(turn)}`).toBe(false);
        else if (error instanceof ConversationFinishedError) expect(wasDone, 'ConversationFinishedError before the end').toBe(true);
        else if (error instanceof InvalidButtonError) {
          // Refused only when the button is not one the current reply offers (by value or label, any case).
          const pressed = (turn as { button: string }).button.trim().toLowerCase();
          const offered = (conversation.reply().buttons ?? []).flatMap((b) => [b.value.toLowerCase(), b.label.toLowerCase()]);
          expect(offered, `InvalidButtonError for an offered button ${short(turn)}`).not.toContain(pressed);
        } else throw error;
      }
      if (reply) {
        expect(valid).toBe(true);
        // A replayed turnId may return the reply of an earlier turn; a new turn never answers once the flow is done.
        if (!(turn as { turnId?: string }).turnId) expect(wasDone).toBe(false);
      }
      const persisted = conversation.persist().snapshot as { status: string };
      expect(persisted.status, 'the actor failed').not.toBe('error');
      const now = ReplySchema.parse(conversation.reply());
      if (reply) ReplySchema.parse(reply);
      checkAnswers(flow, graph, now);
      answersChecked += Object.keys(now.answers).length;
      expect(now.completion.isComplete).toBe(conversation.done);
    }
    return { terminal: conversation.done ? String(conversation.reply().state) : null, answersChecked, answered: Object.keys(conversation.reply().answers).length };
  } finally {
    conversation.stop();
  }
}

describe('(b) random turns through every example flow', () => {
  it.each(flowNames)(`%s: only documented errors, never an actor error, replies fit the contract, answers are allowed (${TURN_RUNS} runs)`, async (name) => {
    const flow = loadFlow(name);
    const graph = flowGraph(flow);
    let turnsSent = 0;
    let finished = 0;
    let answersChecked = 0;
    const terminals: Record<string, number> = {};
    let mostAnswered = 0;
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(randomLookup, fc.array(turnArb(flow), { maxLength: 25, size: 'max' }), async (plan, turns) => {
        turnsSent += turns.length;
        const played = await playTurns(flow, graph, plan, turns);
        finished++;
        answersChecked += played.answersChecked;
        mostAnswered = Math.max(mostAnswered, played.answered);
        if (played.terminal) terminals[played.terminal] = (terminals[played.terminal] ?? 0) + 1;
      }),
      { numRuns: TURN_RUNS },
    );
    const ms = performance.now() - started;
    console.log(
      `[properties] (b) ${name}: ${TURN_RUNS} runs, ${turnsSent} turns in ${seconds(ms)}; ${answersChecked} stored answers checked; terminals reached: ${JSON.stringify(terminals)}`,
    );
    expect(finished).toBeGreaterThanOrEqual(TURN_RUNS);
    // The random turns get somewhere: answers are stored (and checked), and some conversation ends or gets past its
    // second answer. (A question no longer ends a flow for answers it cannot read, so fewer random runs end.)
    expect(answersChecked).toBeGreaterThan(0);
    expect(Object.keys(terminals).length > 0 || mostAnswered >= Math.min(2, graph.questions.length)).toBe(true);
  });

  it('the answer check can fail: a value the question does not allow is caught', () => {
    const flow = loadFlow('event-booking');
    const graph = flowGraph(flow);
    const reply = (answers: Record<string, unknown>) =>
      ({ answers: Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, { value: v, confidence: 1, source: 'match', raw: String(v) }])) }) as unknown as Reply;
    expect(() => checkAnswers(flow, graph, reply({ guests: 12 }))).not.toThrow();
    expect(() => checkAnswers(flow, graph, reply({ guests: 13 }))).toThrow(/not allowed/);
    expect(() => checkAnswers(flow, graph, reply({ guests: 2.5 }))).toThrow(/not allowed/);
    expect(() => checkAnswers(flow, graph, reply({ made_up: 'x' }))).toThrow(/no question and no action/);
    const contact = loadFlow('contact-request');
    expect(() => checkAnswers(contact, flowGraph(contact), reply({ email: 'a@b.example', phone: '5550100200' }))).toThrow(/exclusive/);
  });
});

// ================================================================ bugs found on the way

describe('bugs found by these properties', () => {
  const whenLoop = {
    id: 'when-loop',
    version: 1,
    nodes: [
      { kind: 'question', id: 'plan', prompt: 'Now or later?', answer: { type: 'category', categories: ['now', 'later'] } },
      { kind: 'question', id: 'a', prompt: 'A?', when: "answers.plan == 'later'", answer: { type: 'number' } },
      { kind: 'question', id: 'b', prompt: 'B?', when: "answers.plan == 'later'", answer: { type: 'number' } },
      { kind: 'terminal', id: 'end', outcome: 'completed' },
    ],
    edges: [
      { from: 'plan', to: 'a' },
      { from: 'a', to: 'b' },
      // "Ask b until it is answered": when b is passed over, it never is.
      { from: 'b', to: 'a', guard: '!has(answers.b)' },
      { from: 'b', to: 'end' },
    ],
  };
  /** Compiles `doc` and presses `button` in a child process, killed after `timeout` ms: a synchronous loop cannot be stopped otherwise. */
  // Regression (found choosing which random documents to play, fixed): a loop
  // through questions passed over by `when` was only a warning, and when no
  // guard ended it `send` never returned. The checker now refuses it.
  it('a document whose `when` loop could spin within one turn is refused', () => {
    expect(() => parseFlowValue(whenLoop)).toThrow(/loop with no question asked: .*within one turn/);
  });
});
