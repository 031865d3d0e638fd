/**
 * Layered composition: global, pack, tenant and instance layers merged field
 * by field with a report of every change, conflicts refused with the layers
 * and the path, and the same output for the same layers, always.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/testing/random.js';
import { createActor } from 'xstate';
import { compileFlow } from '../../src/flow/compile.js';
import {
  FlowCompositionError,
  composeFlow,
  type ComposeOptions,
  type Composition,
  type Layer,
  type LayerLevel,
} from '../../src/flow/compose.js';
import { formatPath, matchesPath, parsePathPattern, strategyResolver, type PathPattern } from '../../src/flow/compose-strategies.js';
import { FlowDocumentError } from '../../src/flow/errors.js';
import { GateConfigSchema, gateConfigToFlow } from '../../src/flow/gate-config.js';
import { categoriesOf, flowGraph } from '../../src/flow/graph.js';
import { parseFlowText, parseFlowValue } from '../../src/flow/parse.js';
import type { CategoryAnswer, FlowDocumentInput } from '../../src/flow/schema.js';

const BASE: FlowDocumentInput = {
  id: 'tiny',
  version: '1',
  title: 'Tiny',
  nodes: [
    {
      kind: 'question',
      id: 'q1',
      prompt: 'Ready?',
      label: 'Ready:',
      answer: { type: 'category', categories: ['Yes', 'No'], synonyms: { Yes: ['sure'] } },
      limitingValues: ['No'],
      stopMessage: 'Come back when you are ready.',
    },
    { kind: 'question', id: 'q2', prompt: 'Colour?', answer: { type: 'category', categories: ['Red', 'Blue'] } },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
    { kind: 'terminal', id: 'stop', outcome: 'stopped' },
  ],
  edges: [
    { from: 'q1', to: 'q2' },
    { from: 'q1', to: 'stop', on: 'limiting' },
    { from: 'q2', to: 'done' },
  ],
};

const layer = (name: string, level: LayerLevel, document: Layer['document']): Layer => ({ name, level, document });
const global = layer('global', 'global', BASE);

/** The conflicts or problems of a refused composition; fails the test when it is accepted. */
function refusal(layers: Layer[], options?: ComposeOptions): FlowCompositionError {
  try {
    composeFlow(layers, options);
  } catch (error) {
    expect(error).toBeInstanceOf(FlowCompositionError);
    return error as FlowCompositionError;
  }
  throw new Error('the composition was accepted');
}

function documentRefusal(run: () => unknown): FlowDocumentError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FlowDocumentError);
    return error as FlowDocumentError;
  }
  throw new Error('the input was accepted');
}

const question = (composition: Composition, id: string) => {
  const q = flowGraph(composition.document).question(id);
  if (!q) throw new Error(`no question ${id}`);
  return q;
};

describe('layer order', () => {
  it('applies global, pack, tenant, instance whatever the order given', () => {
    const layers = [
      layer('site', 'instance', { title: 'Site' }),
      layer('acme', 'tenant', { title: 'Acme' }),
      global,
      layer('retail', 'pack', { title: 'Retail' }),
    ];
    const { document, report } = composeFlow(layers);
    expect(report.applied).toEqual([
      { layer: 'global', level: 'global' },
      { layer: 'retail', level: 'pack' },
      { layer: 'acme', level: 'tenant' },
      { layer: 'site', level: 'instance' },
    ]);
    expect(document.title).toBe('Site');
    expect(report.changes.map((c) => [c.layer, c.from, c.to])).toEqual([
      ['retail', 'Tiny', 'Retail'],
      ['acme', 'Retail', 'Acme'],
      ['site', 'Acme', 'Site'],
    ]);
  });

  it('applies layers of one level in the order given', () => {
    const a = layer('pack-a', 'pack', { nodes: [{ id: 'q2', prompt: 'Colour (A)?' }] });
    const b = layer('pack-b', 'pack', { nodes: [{ id: 'q2', prompt: 'Colour (B)?' }] });
    const ab = composeFlow([a, global, b]);
    expect(ab.report.applied.map((x) => x.layer)).toEqual(['global', 'pack-a', 'pack-b']);
    expect(question(ab, 'q2').prompt).toBe('Colour (B)?');
    const ba = composeFlow([b, global, a]);
    expect(ba.report.applied.map((x) => x.layer)).toEqual(['global', 'pack-b', 'pack-a']);
    expect(question(ba, 'q2').prompt).toBe('Colour (A)?');
  });

  it('appends the nodes a later layer adds, in its order, and keeps the first layer as the base', () => {
    const { document, report } = composeFlow([
      global,
      layer('pack', 'pack', {
        nodes: [
          { kind: 'question', id: 'q4', prompt: 'Size?', answer: { type: 'category', categories: ['S', 'L'] } },
          { kind: 'question', id: 'q3', prompt: 'Shape?', answer: { type: 'category', categories: ['Round', 'Square'] } },
        ],
        edges: [
          { from: 'q2', to: 'q4' },
          { from: 'q4', to: 'q3' },
          { from: 'q3', to: 'done' },
        ],
      }),
    ]);
    expect(document.nodes.map((n) => n.id)).toEqual(['q1', 'q2', 'done', 'stop', 'q4', 'q3']);
    expect(document.edges).toEqual([
      { from: 'q1', to: 'q2' },
      { from: 'q1', to: 'stop', on: 'limiting' },
      { from: 'q2', to: 'q4' },
      { from: 'q4', to: 'q3' },
      { from: 'q3', to: 'done' },
    ]);
    // The base's values are not changes; the pack's are, one per node or edge it adds or redirects.
    expect(report.changes.map((c) => [c.op, formatPath(c.path), c.strategy])).toEqual([
      ['add', 'nodes.q4', 'deep'],
      ['add', 'nodes.q3', 'deep'],
      ['replace', 'edges.q2.answered.to', 'override'],
      ['add', 'edges.q4.answered', 'deep'],
      ['add', 'edges.q3.answered', 'deep'],
    ]);
    expect(() => compileFlow(document)).not.toThrow();
  });
});

describe('strategies', () => {
  it('override: the later value wins and the replaced value is recorded', () => {
    const { document, report } = composeFlow([
      global,
      layer('acme', 'tenant', { version: '1-acme', nodes: [{ id: 'q1', prompt: 'Are you ready?', label: 'Ready:' }] }),
    ]);
    expect(document.version).toBe('1-acme');
    expect(question({ document, report }, 'q1').prompt).toBe('Are you ready?');
    // The same label again is not a change.
    expect(report.changes).toEqual([
      { path: ['version'], layer: 'acme', strategy: 'override', op: 'replace', from: '1', to: '1-acme' },
      { path: ['nodes', 'q1', 'prompt'], layer: 'acme', strategy: 'override', op: 'replace', from: 'Ready?', to: 'Are you ready?' },
    ]);
  });

  it('deep: objects merge key by key (synonym categories ignoring case), arrays inside are replaced', () => {
    const composed = composeFlow([
      global,
      layer('pack', 'pack', { nodes: [{ id: 'q1', answer: { synonyms: { yes: ['ready'], No: ['not yet'] } } }] }),
    ]);
    expect(question(composed, 'q1').answer).toEqual({
      type: 'category',
      categories: ['Yes', 'No'],
      synonyms: { No: ['not yet'], Yes: ['sure', 'ready'] },
    });
    expect(composed.report.changes.map((c) => [formatPath(c.path), c.op, c.strategy])).toEqual([
      ['nodes.q1.answer.synonyms.No', 'add', 'concat'],
      ['nodes.q1.answer.synonyms.Yes', 'replace', 'concat'],
    ]);

    const replaced = composeFlow(
      [global, layer('pack', 'pack', { nodes: [{ id: 'q2', answer: { categories: ['Green', 'Red'] } }] })],
      { strategies: { 'nodes.*.answer.categories': 'deep' } },
    );
    expect(categoriesOf(question(replaced, 'q2'))).toEqual(['Green', 'Red']);
    expect(replaced.report.changes).toEqual([
      { path: ['nodes', 'q2', 'answer', 'categories'], layer: 'pack', strategy: 'deep', op: 'replace', from: ['Red', 'Blue'], to: ['Green', 'Red'] },
    ]);
  });

  it('concat: lists are appended without duplicates (ignoring case), nothing new is no change', () => {
    const composed = composeFlow([
      global,
      layer('pack', 'pack', { nodes: [{ id: 'q2', answer: { categories: ['blue', 'Green', 'Green', 'Yellow'] } }] }),
      layer('acme', 'tenant', { nodes: [{ id: 'q2', answer: { categories: ['RED'] } }] }),
    ]);
    expect(categoriesOf(question(composed, 'q2'))).toEqual(['Red', 'Blue', 'Green', 'Yellow']);
    expect(composed.report.changes).toEqual([
      {
        path: ['nodes', 'q2', 'answer', 'categories'],
        layer: 'pack',
        strategy: 'concat',
        op: 'replace',
        from: ['Red', 'Blue'],
        to: ['Red', 'Blue', 'Green', 'Yellow'],
      },
    ]);
  });

  it('concat on something that is not a list is a conflict', () => {
    const error = refusal([global, layer('acme', 'tenant', { title: 'Acme' })], { strategies: { title: 'concat' } });
    expect(error.report.conflicts).toEqual([
      { path: ['title'], layers: ['global', 'acme'], values: ['Tiny', 'Acme'], strategy: 'concat', message: expect.stringContaining('list') },
    ]);
  });

  it('error: a different value is a conflict naming the path and both layers', () => {
    const layers = [
      global,
      layer('retail', 'pack', { nodes: [{ id: 'q1', prompt: 'Ready to buy?' }] }),
      layer('acme', 'tenant', { nodes: [{ id: 'q1', prompt: 'Ready to order?' }] }),
    ];
    const error = refusal(layers, { strategies: { 'nodes.*.prompt': 'error' } });
    expect(error.report.conflicts).toEqual([
      { path: ['nodes', 'q1', 'prompt'], layers: ['global', 'retail'], values: ['Ready?', 'Ready to buy?'], strategy: 'error', message: expect.any(String) },
      // The refused value is not kept: the tenant conflicts with the global value.
      { path: ['nodes', 'q1', 'prompt'], layers: ['global', 'acme'], values: ['Ready?', 'Ready to order?'], strategy: 'error', message: expect.any(String) },
    ]);
    expect(error.message).toContain('cannot compose flow "tiny"');
    expect(error.message).toContain('nodes.q1.prompt: layer "global" set "Ready?", layer "retail" sets "Ready to buy?"');
    expect(error.message).toContain('nodes.q1.prompt: layer "global" set "Ready?", layer "acme" sets "Ready to order?"');
    // The same value again is no conflict.
    expect(() => composeFlow([global, layer('acme', 'tenant', { nodes: [{ id: 'q1', prompt: 'Ready?' }] })], { strategies: { 'nodes.*.prompt': 'error' } })).not.toThrow();
  });

  it('refuses a layer that changes a node kind or the flow id, by default', () => {
    const error = refusal([
      global,
      layer('acme', 'tenant', { id: 'acme-tiny', nodes: [{ id: 'done', kind: 'question' }] }),
    ]);
    expect(error.report.conflicts.map((c) => [formatPath(c.path), c.layers, c.values])).toEqual([
      ['id', ['global', 'acme'], ['tiny', 'acme-tiny']],
      ['nodes.done.kind', ['global', 'acme'], ['terminal', 'question']],
    ]);
  });

  it('collectConflicts: returns the report, keeping the earlier values', () => {
    const { document, report } = composeFlow(
      [global, layer('acme', 'tenant', { title: 'Acme', nodes: [{ id: 'q1', prompt: 'Ready to order?' }] })],
      { strategies: { 'nodes.*.prompt': 'error' }, collectConflicts: true },
    );
    expect(question({ document, report }, 'q1').prompt).toBe('Ready?');
    expect(document.title).toBe('Acme');
    expect(report.conflicts).toHaveLength(1);
    expect(report.conflicts[0]).toMatchObject({ path: ['nodes', 'q1', 'prompt'], layers: ['global', 'acme'] });
    expect(report.changes.map((c) => formatPath(c.path))).toEqual(['title']);
  });

  it('an option overrides a default, and the most specific pattern wins', () => {
    const instance = layer('site', 'instance', { nodes: [{ id: 'q1', limitingValues: ['Yes'], stopMessage: 'Closed today.' }] });
    // By default limiting values are appended ...
    expect(question(composeFlow([global, instance]), 'q1').limitingValues).toEqual(['No', 'Yes']);
    // ... with this option the instance's list replaces the global one.
    const replaced = composeFlow([global, instance], { strategies: { 'nodes.q1.limitingValues': 'override' } });
    expect(question(replaced, 'q1').limitingValues).toEqual(['Yes']);

    // Every field of every node is frozen, except q1's stop message.
    const fields = refusal([global, instance], { strategies: { 'nodes.*.*': 'error', 'nodes.q1.stopMessage': 'override' } });
    expect(fields.report.conflicts.map((c) => formatPath(c.path))).toEqual(['nodes.q1.limitingValues']);
    expect(fields.report.changes.map((c) => formatPath(c.path))).toEqual(['nodes.q1.stopMessage']);

    // `error` on a node covers everything in it, whatever the strategies inside.
    const nodes = refusal([global, instance], { strategies: { 'nodes.*': 'error', 'nodes.q1.stopMessage': 'override' } });
    expect(nodes.report.conflicts.map((c) => [formatPath(c.path), c.strategy])).toEqual([
      ['nodes.q1.limitingValues', 'error'],
      ['nodes.q1.stopMessage', 'error'],
    ]);
    // ... and a layer restating values, or adding one no layer set, is no conflict.
    const restated = composeFlow([global, layer('site', 'instance', { nodes: [{ id: 'q1', limitingValues: ['No'], answer: { synonyms: { No: ['nope'] } } }] })], {
      strategies: { 'nodes.*': 'error' },
    });
    expect(restated.report.changes.map((c) => [formatPath(c.path), c.op, c.strategy])).toEqual([['nodes.q1.answer.synonyms.No', 'add', 'error']]);
  });

  it('refuses patterns that are malformed or name no field', () => {
    const typo = documentRefusal(() => composeFlow([global], { strategies: { 'nodes.*.promt': 'error' } }));
    expect(typo.source).toBe('compose options');
    expect(typo.problems).toEqual([{ pointer: '/strategies/nodes.*.promt', message: expect.stringContaining('names no field') }]);
    const empty = documentRefusal(() => composeFlow([global], { strategies: { 'nodes..prompt': 'error' } }));
    expect(empty.problems[0]!.message).toContain('empty segment');
    const unknown = documentRefusal(() => composeFlow([global], { strategies: { title: 'merge' as never } }));
    expect(unknown.problems[0]!.pointer).toBe('/strategies/title');
  });
});

describe('path patterns', () => {
  const pattern = (text: string): PathPattern => {
    const parsed = parsePathPattern(text);
    if ('error' in parsed) throw new Error(parsed.error);
    return parsed;
  };

  it('names keys that are not bare names as JSON strings, and prints paths as patterns', () => {
    const path = ['nodes', 'q1', 'answer', 'synonyms', 'New patient.v2'];
    expect(formatPath(path)).toBe('nodes.q1.answer.synonyms."New patient.v2"');
    expect(matchesPath(pattern(formatPath(path)), path)).toBe(true);
    expect(matchesPath(pattern('nodes.*.answer.synonyms.*'), path)).toBe(true);
    expect(matchesPath(pattern('nodes.*.answer'), path)).toBe(false);
    expect(matchesPath(pattern('nodes.**'), path)).toBe(true);
    expect(matchesPath(pattern('**.synonyms.**'), path)).toBe(true);
    expect(matchesPath(pattern('nodes.q1.**'), ['nodes', 'q1'])).toBe(true);
    expect(parsePathPattern('nodes.q1*')).toEqual({ error: expect.stringContaining('q1*') });
    expect(parsePathPattern('title.')).toEqual({ error: 'ends with "."' });
    expect(parsePathPattern('"open')).toEqual({ error: expect.stringContaining('unterminated') });
  });

  it('resolves a path to the most specific pattern, options before defaults', () => {
    const resolve = strategyResolver({ 'nodes.**': 'error', '**.prompt': 'override', 'nodes.*.answer.*': 'deep' });
    expect(resolve(['nodes', 'q1', 'prompt'])).toBe('error'); // "nodes" beats "**" in the first segment
    expect(resolve(['nodes', 'q1', 'answer', 'categories'])).toBe('deep');
    expect(resolve(['title'])).toBe('override'); // a default
    expect(strategyResolver()(['nodes', 'q1', 'answer', 'synonyms', 'Yes'])).toBe('concat');
    expect(strategyResolver()(['nodes', 'q1', 'answer', 'synonyms'])).toBe('deep');
    expect(strategyResolver()(['somethingNew'])).toBe('override');
  });
});

describe('node removal', () => {
  it('removes the node and the edges leaving it, and reports the edges still pointing at it', () => {
    const error = refusal([global, layer('acme', 'tenant', { nodes: [{ id: 'q2', remove: true }] })]);
    expect(error.report.removals).toEqual([
      {
        node: 'q2',
        layer: 'acme',
        removedEdges: [['edges', 'q2', 'answered']],
        danglingEdges: [{ path: ['edges', 'q1', 'answered'], setBy: ['global'] }],
      },
    ]);
    expect(error.problems).toContainEqual({
      pointer: '/edges/0/to',
      path: ['edges', 'q1', 'answered', 'to'],
      layers: ['global'],
      message: 'no node has the id "q2" (node "q2" was removed by layer "acme")',
    });
    expect(error.message).toContain('edges.q1.answered.to (/edges/0/to) [layer "global"]: no node has the id "q2" (node "q2" was removed by layer "acme")');
  });

  it('accepts the removal when the layer redirects the edges into the node', () => {
    const { document, report } = composeFlow([
      global,
      layer('acme', 'tenant', { nodes: [{ id: 'q2', remove: true }], edges: [{ from: 'q1', to: 'done' }] }),
    ]);
    expect(document.nodes.map((n) => n.id)).toEqual(['q1', 'done', 'stop']);
    expect(document.edges).toEqual([
      { from: 'q1', to: 'done' },
      { from: 'q1', to: 'stop', on: 'limiting' },
    ]);
    expect(report.removals).toEqual([{ node: 'q2', layer: 'acme', removedEdges: [['edges', 'q2', 'answered']], danglingEdges: [] }]);
    expect(report.changes.map((c) => [c.op, formatPath(c.path)])).toEqual([
      ['remove', 'nodes.q2'],
      ['remove', 'edges.q2.answered'],
      ['replace', 'edges.q1.answered.to'],
    ]);
    expect(() => compileFlow(document)).not.toThrow();
  });

  it('is a conflict when nodes are under "error"', () => {
    const error = refusal([global, layer('acme', 'tenant', { nodes: [{ id: 'q2', remove: true }] })], { strategies: { 'nodes.*': 'error' } });
    expect(error.report.conflicts).toEqual([
      { path: ['nodes', 'q2'], layers: ['global', 'acme'], values: [expect.objectContaining({ id: 'q2' }), { id: 'q2', remove: true }], strategy: 'error', message: expect.stringContaining('remove') },
    ]);
    expect(error.report.removals).toEqual([]);
  });

  it('refuses removing a node no earlier layer defines, and adding one without a kind', () => {
    const error = refusal([global, layer('acme', 'tenant', { nodes: [{ id: 'q9', remove: true }, { id: 'q8', prompt: 'Hi?' }] })]);
    expect(error.problems.map((p) => [formatPath(p.path), p.layers, p.message])).toEqual([
      ['nodes.q9', ['acme'], 'layer "acme" removes node "q9", which no layer before it defines'],
      ['nodes.q8', ['acme'], expect.stringContaining('adds node "q8" without a kind')],
    ]);
  });

  it('refuses a removal that sets fields', () => {
    const error = documentRefusal(() => composeFlow([global, layer('acme', 'tenant', { nodes: [{ id: 'q2', remove: true, prompt: 'x' }] })]));
    expect(error.source).toBe('layer "acme"');
    expect(error.problems).toEqual([{ pointer: '/nodes/0/prompt', message: 'node "q2" is removed: name only its id' }]);
  });
});

describe('invalid inputs and results', () => {
  it('refuses a malformed layer with its name and the pointer into its document', () => {
    const error = documentRefusal(() => composeFlow([global, layer('acme', 'tenant', { nodes: [{ id: 'q1', prompt: '  ' }] })]));
    expect(error.source).toBe('layer "acme"');
    expect(error.problems).toEqual([{ pointer: '/nodes/0/prompt', message: 'must not be empty' }]);
    expect(documentRefusal(() => composeFlow([global, { ...global, level: 'tenant' }])).problems).toEqual([
      { pointer: '/1/name', message: 'layer name "global" is already used by layers[0]' },
    ]);
    expect(documentRefusal(() => composeFlow([])).problems[0]!.message).toBe('no layers to compose');
    expect(documentRefusal(() => composeFlow([{ name: 'x', level: 'site' as never, document: {} }])).source).toBe('layer "x"');
  });

  it('refuses an invalid result with the layers that set the fields concerned', () => {
    const error = refusal([global, layer('site', 'instance', { nodes: [{ id: 'q2', limitingValues: ['Purple'] }] })]);
    expect(error.problems).toEqual([
      {
        pointer: '/nodes/1/limitingValues/0',
        path: ['nodes', 'q2', 'limitingValues', '0'],
        layers: ['site'],
        message: 'limiting value "Purple" is not one of the categories (Red, Blue)',
      },
      {
        pointer: '/nodes/1/limitingValues',
        path: ['nodes', 'q2', 'limitingValues'],
        layers: ['site'],
        message: 'question "q2" has limiting values but no "limiting" edge to stop on',
      },
    ]);
    // A field the global layer set and the instance extended names both.
    const both = refusal([global, layer('site', 'instance', { nodes: [{ id: 'q1', limitingValues: ['Maybe'] }] })]);
    expect(both.problems.map((p) => [formatPath(p.path), p.layers])).toEqual([['nodes.q1.limitingValues.1', ['site']]]);
    const node = refusal([global, layer('site', 'instance', { nodes: [{ id: 'done', prompt: 'Bye' }] })]);
    expect(node.problems.map((p) => [formatPath(p.path), p.layers])).toEqual([['nodes.done', ['global', 'site']]]);
  });

  it('refuses an edge given twice in one layer', () => {
    const error = documentRefusal(() =>
      composeFlow([global, layer('acme', 'tenant', { edges: [{ from: 'q1', to: 'done' }, { from: 'q1', to: 'q2', on: 'answered' }] })]),
    );
    expect(error.problems).toEqual([{ pointer: '/edges/1', message: 'edges[0] already leaves "q1" on "answered" in this layer' }]);
  });
});

const random = seededRandom;

/** A copy of a JSON value with every object's keys in a random order. */
function shuffleKeys<T>(value: T, next: () => number): T {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, next) as unknown) as T;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, shuffleKeys(v, next)])) as T;
  }
  return value;
}

/** `shuffled` with the layers of each level back in their order in `original` (where they are, by level, in `shuffled`). */
function keepLevelOrder(shuffled: Layer[], original: Layer[]): Layer[] {
  const queues = new Map<string, Layer[]>();
  for (const l of original) queues.set(l.level, [...(queues.get(l.level) ?? []), l]);
  const byName = new Map(shuffled.map((l) => [l.name, l]));
  return shuffled.map((l) => byName.get(queues.get(l.level)!.shift()!.name)!);
}

const FLOW_PATH = fileURLToPath(new URL('../../machines/flows/patient-intake.json', import.meta.url));
const G1 = '1_patient_info_availability';
const G2 = '2_insurance_history';
const G3 = '3_visit_type';
const G4 = '4_patient_age_group';
const G5 = '5_preferred_contact';

describe('a realistic composition: the patient intake', () => {
  const text = readFileSync(FLOW_PATH, 'utf8');
  const globalFlow = gateConfigToFlow(GateConfigSchema.parse(JSON.parse(text)));
  const layers: Layer[] = [
    layer('downtown-site', 'instance', { nodes: [{ id: G3, limitingValues: ['Urgent care'] }] }),
    layer('acme-clinic', 'tenant', { nodes: [{ id: G5, prompt: 'How would the patient like Acme Clinic to reach them?' }] }),
    layer('patient-intake', 'global', globalFlow),
    layer('dental-pack', 'pack', {
      nodes: [{ id: G3, answer: { categories: ['Cleaning'], synonyms: { Cleaning: ['teeth cleaning', 'hygienist', 'dental cleaning'] } } }],
    }),
  ];

  it('compiles, and the report lists exactly what each layer changed', () => {
    // The global layer is the gate config as parseFlowText reads it.
    expect(globalFlow).toEqual(parseFlowText(text, FLOW_PATH));
    const { document, report } = composeFlow(layers);
    expect(report.applied.map((a) => a.layer)).toEqual(['patient-intake', 'dental-pack', 'acme-clinic', 'downtown-site']);
    expect(report.conflicts).toEqual([]);
    expect(report.removals).toEqual([]);
    const visitTypes = ['New patient', 'Follow-up', 'Urgent care', 'Telehealth', 'Emergency'];
    expect(report.changes).toEqual([
      {
        path: ['nodes', G3, 'answer', 'categories'],
        layer: 'dental-pack',
        strategy: 'concat',
        op: 'replace',
        from: visitTypes,
        to: [...visitTypes, 'Cleaning'],
      },
      {
        path: ['nodes', G3, 'answer', 'synonyms', 'Cleaning'],
        layer: 'dental-pack',
        strategy: 'concat',
        op: 'add',
        to: ['teeth cleaning', 'hygienist', 'dental cleaning'],
      },
      {
        path: ['nodes', G5, 'prompt'],
        layer: 'acme-clinic',
        strategy: 'override',
        op: 'replace',
        from: 'How should we contact the patient about this visit?',
        to: 'How would the patient like Acme Clinic to reach them?',
      },
      {
        path: ['nodes', G3, 'limitingValues'],
        layer: 'downtown-site',
        strategy: 'concat',
        op: 'replace',
        from: ['Emergency'],
        to: ['Emergency', 'Urgent care'],
      },
    ]);

    // Nothing else moved: the composed flow is the global one with those four edits.
    const expected = structuredClone(globalFlow);
    const visit = expected.nodes.find((n) => n.id === G3)!;
    const contact = expected.nodes.find((n) => n.id === G5)!;
    if (visit.kind !== 'question' || contact.kind !== 'question' || visit.answer.type !== 'category') throw new Error('not questions');
    visit.answer.categories.push('Cleaning');
    visit.answer.synonyms!['Cleaning'] = ['teeth cleaning', 'hygienist', 'dental cleaning'];
    visit.limitingValues!.push('Urgent care');
    contact.prompt = 'How would the patient like Acme Clinic to reach them?';
    expect(document).toEqual(expected);
    // Record keys come out sorted, whatever order the layers gave them in.
    expect(Object.keys((question({ document, report }, G3).answer as CategoryAnswer).synonyms!)).toEqual(
      ['Cleaning', 'Emergency', 'Follow-up', 'New patient', 'Telehealth', 'Urgent care'],
    );
    expect(document.nodes.map((n) => n.id)).toEqual(globalFlow.nodes.map((n) => n.id));

    // It runs: at this site urgent care stops the intake; the pack's phrase means its category.
    const machine = compileFlow(document);
    const actor = createActor(machine).start();
    for (const value of ['Yes', 'No']) actor.send({ type: 'user.button', value });
    expect(actor.getSnapshot().context.answers).toMatchObject({ [G1]: { value: 'Yes' }, [G2]: { value: 'No' } });
    actor.send({ type: 'user.button', value: 'Urgent care' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'stopped', stoppedBy: G3 });

    const other = createActor(machine).start();
    for (const value of ['Yes', 'No']) other.send({ type: 'user.button', value });
    other.send({ type: 'user.text', text: 'teeth cleaning' });
    expect(other.getSnapshot().context.answers[G3]).toMatchObject({ value: 'Cleaning' });
    expect(other.getSnapshot().value).toMatchObject({ [G4]: expect.anything() });
  });

  it('gives the same document and report, byte for byte, whatever the key order of the input', () => {
    // One more layer, whose changes are objects (a node with synonyms) rather than lists and strings.
    const referral = layer('acme-referral', 'tenant', {
      nodes: [
        {
          kind: 'question',
          id: '6_referral',
          prompt: 'Was the patient referred by another provider?',
          label: 'Referred:',
          answer: { type: 'category', categories: ['Yes', 'No'], synonyms: { Yes: ['referred', 'referral'], No: ['self referred', 'walked in'] } },
        },
      ],
      edges: [
        { from: G5, to: '6_referral' },
        { from: '6_referral', to: 'confirmation' },
      ],
    });
    const all = [...layers, referral];
    const next = random(20240601);
    const outputs = new Set<string>();
    for (let run = 0; run < 20; run++) {
      // Keys shuffled everywhere; layers shuffled across levels (the order within a level is meaningful).
      const shuffled = keepLevelOrder(shuffleKeys(all, next).sort(() => next() - 0.5), all);
      outputs.add(JSON.stringify(composeFlow(shuffled)));
    }
    expect(outputs.size).toBe(1);
    const [output] = [...outputs];
    expect(JSON.parse(output!).report.changes).toHaveLength(7);
    // ... and the shuffling did shuffle: the input text differed.
    const inputs = new Set(Array.from({ length: 5 }, () => JSON.stringify(shuffleKeys(all, next))));
    expect(inputs.size).toBeGreaterThan(1);
  });

  it('refuses an instance that changes a prompt when prompts are frozen, naming both layers', () => {
    const error = refusal(layers, { strategies: { [`nodes.${G5}.prompt`]: 'error' } });
    expect(error.message).toContain(`nodes.${G5}.prompt: layer "patient-intake" set "How should we contact the patient about this visit?", layer "acme-clinic" sets`);
  });
});

describe('properties', () => {
  it('composing one layer gives the document itself, and restating it changes nothing', () => {
    const alone = composeFlow([global]);
    expect(alone.document).toEqual(parseFlowValue(BASE));
    expect(alone.report.changes).toEqual([]);
    const again = composeFlow([global, layer('copy', 'tenant', BASE), layer('copy2', 'instance', alone.document)]);
    expect(again.document).toEqual(alone.document);
    expect(again.report.changes).toEqual([]);
  });

  it('random layers: prompts are the last layer\'s, categories the union in order, one change per effect', () => {
    const levels: LayerLevel[] = ['global', 'pack', 'tenant', 'instance'];
    const words = ['Red', 'Blue', 'Green', 'green', 'Teal', 'Pink'];
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const pick = <T,>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
      const extra: Layer[] = Array.from({ length: 1 + Math.floor(next() * 6) }, (_, i) => {
        const node: { id: string; prompt?: string; answer?: { categories: string[] } } = { id: 'q2' };
        if (next() < 0.6) node.prompt = pick(['Colour?', 'Which colour?', 'Favourite colour?']);
        if (next() < 0.6) node.answer = { categories: Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(words)) };
        return layer(`layer-${i}`, pick(levels.slice(1)), { nodes: [node] });
      });
      const given = [...extra, global].sort(() => next() - 0.5);
      const { document, report } = composeFlow(given);

      // The model: apply in level order, within a level in the order given.
      const order = [global, ...levels.slice(1).flatMap((level) => given.filter((l) => l.level === level && l !== global))];
      expect(report.applied.map((a) => a.layer), `seed ${seed}`).toEqual(order.map((l) => l.name));
      let prompt = 'Colour?';
      let categories = ['Red', 'Blue'];
      let changes = 0;
      for (const l of order.slice(1)) {
        const node = (l.document.nodes ?? [])[0] as { prompt?: string; answer?: { categories: string[] } };
        if (node.prompt !== undefined && node.prompt !== prompt) {
          prompt = node.prompt;
          changes++;
        }
        const before = categories.length;
        for (const c of node.answer?.categories ?? [])
          if (!categories.some((k) => k.toLowerCase() === c.toLowerCase())) categories = [...categories, c];
        if (categories.length > before) changes++;
      }
      const q2 = flowGraph(document).question('q2')!;
      expect(q2.prompt, `seed ${seed}`).toBe(prompt);
      expect(categoriesOf(q2), `seed ${seed}`).toEqual(categories);
      expect(report.changes, `seed ${seed}`).toHaveLength(changes);
      expect(report.changes.every((c) => order.some((l) => l.name === c.layer)), `seed ${seed}`).toBe(true);
    }
  });
});
