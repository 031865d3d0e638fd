/**
 * The registry of node kinds (src/flow/nodes/index.ts): every kind module is
 * registered, under its own kind; the flow document's node schema is made of
 * the registered kinds' schemas; and the layering that keeps kinds free of
 * import cycles holds (see nodes/kind.ts).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { compileFlow } from '../../../src/flow/compile.js';
import { OUTCOMES_BY_KIND } from '../../../src/flow/graph.js';
import { NODE_KINDS, findKind, kindOf } from '../../../src/flow/nodes/index.js';
import type { AnyNodeKind } from '../../../src/flow/nodes/kind.js';
import { FlowNodeSchema } from '../../../src/flow/schema.js';
import { example } from '../helpers.js';

const nodesDir = fileURLToPath(new URL('../../../src/flow/nodes/', import.meta.url));
const flowDir = fileURLToPath(new URL('../../../src/flow/', import.meta.url));
/** Modules of src/flow/nodes that are not kinds. */
const NOT_KINDS = ['index.ts', 'kind.ts', 'shared.ts', 'test-events.ts'];
const kindModules = readdirSync(nodesDir).filter((f) => f.endsWith('.ts') && !NOT_KINDS.includes(f));

const isNodeKind = (value: unknown): value is AnyNodeKind =>
  typeof value === 'object' && value !== null && typeof (value as AnyNodeKind).kind === 'string' && typeof (value as AnyNodeKind).state === 'function';

describe('the registry of node kinds', () => {
  it('registers every kind module of src/flow/nodes, under its own kind', async () => {
    const found: AnyNodeKind[] = [];
    for (const file of kindModules) found.push(...Object.values(await import(`${nodesDir}${file}`)).filter(isNodeKind));
    expect(found.map((k) => `${k.kind}.ts`).sort(), 'each kind module exports one kind, named as its file').toEqual([...kindModules].sort());
    expect(Object.keys(NODE_KINDS).sort(), 'every kind module is registered in src/flow/nodes/index.ts').toEqual(found.map((k) => k.kind).sort());
    for (const kind of found) expect(NODE_KINDS[kind.kind as keyof typeof NODE_KINDS], `the ${kind.kind} kind`).toBe(kind);
  });

  it('the document schema takes exactly the registered kinds, in the registry order', () => {
    expect(FlowNodeSchema.options.map((o) => o.shape.kind.value)).toEqual(Object.keys(NODE_KINDS));
    expect(FlowNodeSchema.options).toEqual(Object.values(NODE_KINDS).map((k) => k.schema));
  });

  it("edges leave a node on its kind's outcomes, the first when an edge names none", () => {
    expect(OUTCOMES_BY_KIND).toEqual(Object.fromEntries(Object.values(NODE_KINDS).map((k) => [k.kind, k.outcomes])));
    expect(findKind('no-such-kind')).toBeUndefined();
    expect(() => kindOf({ kind: 'no-such-kind' })).toThrow('no node kind "no-such-kind" is registered');
  });

  it('no two kinds (nor a kind and the shared helpers) name a guard or an action alike', () => {
    // compileFlow refuses a name given twice; every example flow compiles with every kind's guards and actions.
    const machine = compileFlow(example('led-sales'));
    const guards = Object.keys(machine.implementations.guards);
    const actions = Object.keys(machine.implementations.actions);
    expect(new Set(guards).size).toBe(guards.length);
    expect(guards).toEqual(expect.arrayContaining(['cel', 'constraintFails', 'buttonIsCategory', 'buttonIsConfirm', 'outputUsable', 'buttonIsPath']));
    expect(actions).toEqual(expect.arrayContaining(['traceNode', 'traceRoute', 'commitButton', 'startCorrection', 'assignOutput', 'countAttempt']));
  });

  it('any module of src/flow may be the first one imported: kinds reach neither the registry nor the document schema', async () => {
    const modules = [...readdirSync(flowDir).filter((f) => f.endsWith('.ts')), ...readdirSync(nodesDir).filter((f) => f.endsWith('.ts')).map((f) => `nodes/${f}`)];
    for (const module of modules) {
      vi.resetModules();
      // A kind importing schema.ts, graph.ts or the registry would meet its own half-evaluated module here.
      await expect(import(`${flowDir}${module}`), module).resolves.toBeDefined();
    }
  });
});
