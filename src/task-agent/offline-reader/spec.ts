import type { NodeRef, PropertyValue } from '../../graph/model.js';
import type { Contradiction, GoalSpec, ToolSignature } from '../schemas.js';
import { nodeName } from './interpret.js';

/**
 * The GoalSpec of calls the offline reader is sure of: what they do (intent),
 * what they are about (entities, constraints), one sentence that says them.
 * Entities and constraints are descriptive: past the schema's bounds (50, 100)
 * the first are kept; the calls themselves are never cut.
 */

type Entity = GoalSpec['entities'][number];
type Constraint = GoalSpec['constraints'][number];

const INTENTS: Readonly<Record<string, GoalSpec['intent']>> = {
  add_node: 'create',
  add_edge: 'create',
  update_props: 'update',
  delete_node: 'delete',
  delete_edge: 'delete',
  query_graph: 'query',
  cypher_query: 'query',
};

const MAX_SUMMARY = 500;
const MAX_SUBJECT = 200;
const brief = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

// The calls were built by the interpreter with these shapes; read back loosely, for words only.
interface Args {
  label?: string;
  key?: string;
  type?: string;
  from?: NodeRef;
  to?: NodeRef;
  properties?: Record<string, PropertyValue>;
  target?: NodeRef;
  set?: Record<string, PropertyValue>;
  unset?: string[];
  where?: Record<string, PropertyValue>;
  detach?: boolean;
  neighbours?: unknown;
}

const shown = (value: PropertyValue) => JSON.stringify(value);
const listed = (props: Record<string, PropertyValue> | undefined) =>
  Object.entries(props ?? {})
    .map(([name, value]) => `${name} ${shown(value)}`)
    .join(', ');

function described(call: ToolSignature): string {
  const a = call.args as Args;
  const edge = () => `the ${a.type} edge from ${a.from ? nodeName(a.from) : '?'} to ${a.to ? nodeName(a.to) : '?'}`;
  const withProps = (props: Record<string, PropertyValue> | undefined) => (Object.keys(props ?? {}).length ? ` with ${listed(props)}` : '');
  switch (call.tool) {
    case 'add_node':
      return `create ${a.label} ${a.key}${withProps(a.properties)}`;
    case 'add_edge':
      return `create ${edge()}${withProps(a.properties)}`;
    case 'update_props': {
      const target = a.target ? nodeName(a.target) : '?';
      return a.set ? `set ${listed(a.set)} on ${target}` : `remove ${(a.unset ?? []).join(', ')} from ${target}`;
    }
    case 'delete_node':
      return `delete ${a.label} ${a.key}${a.detach ? ' and its edges' : ''}`;
    case 'delete_edge':
      return `delete ${edge()}`;
    case 'query_graph': {
      const which = a.key ? `${a.label} ${a.key}` : `${a.label ? `${a.label} nodes` : 'nodes'}${a.where ? ` with ${listed(a.where)}` : ''}`;
      return `find ${which}${a.neighbours ? (a.key ? ' and its neighbours' : ' and their neighbours') : ''}`;
    }
    case 'cypher_query':
      return 'run a read-only Cypher query';
    default:
      return `use the ${call.tool} tool`;
  }
}

function entitiesOf(calls: readonly ToolSignature[]): Entity[] {
  const all = calls.flatMap((call): Entity[] => {
    const a = call.args as Args;
    const node = (ref: NodeRef | undefined): Entity[] => (ref ? [{ kind: 'node', label: ref.label, key: ref.key }] : []);
    switch (call.tool) {
      case 'add_node':
      case 'delete_node':
        return node({ label: a.label ?? '', key: a.key ?? '' });
      case 'add_edge':
      case 'delete_edge':
        return [{ kind: 'edge', label: a.type ?? null, key: null }, ...node(a.from), ...node(a.to)];
      case 'update_props':
        return node(a.target);
      case 'query_graph':
        return a.label || a.key ? [{ kind: 'node', label: a.label ?? null, key: a.key ?? null }] : [];
      default:
        return [];
    }
  });
  const seen = new Set<string>();
  return all.filter((e) => !seen.has(JSON.stringify(e)) && seen.add(JSON.stringify(e)));
}

function constraintsOf(calls: readonly ToolSignature[]): Constraint[] {
  return calls.flatMap((call) => {
    const a = call.args as Args;
    const of = (subject: string, props: Record<string, PropertyValue> | undefined): Constraint[] =>
      Object.entries(props ?? {}).map(([property, value]) => ({ subject: brief(subject, MAX_SUBJECT), property, value }));
    switch (call.tool) {
      case 'add_node':
        return of(`${a.label} ${a.key}`, a.properties);
      case 'add_edge':
        return of(`${a.type} edge`, a.properties);
      case 'update_props':
        return of(a.target ? nodeName(a.target) : '', a.set);
      case 'query_graph':
        return of(a.label ? `${a.label} nodes` : 'nodes', a.where);
      default:
        return [];
    }
  });
}

function intentOf(calls: readonly ToolSignature[], missingTools: readonly string[]): GoalSpec['intent'] {
  if (missingTools.length) return 'unsupported';
  const intents = new Set(calls.map((call) => INTENTS[call.tool] ?? 'unsupported'));
  const [only] = intents;
  return intents.size === 1 && only ? only : 'mixed';
}

export function goalSpec(calls: readonly ToolSignature[], contradictions: readonly Contradiction[], missingTools: readonly string[]): GoalSpec {
  const steps = calls.map(described);
  const text = steps.join(', then ');
  const summary = brief(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`, MAX_SUMMARY);
  const [only] = calls;
  return {
    intent: intentOf(calls, missingTools),
    summary,
    entities: entitiesOf(calls).slice(0, 50),
    constraints: constraintsOf(calls).slice(0, 100),
    complexity: calls.length === 1 ? 'simple' : 'complex',
    confidence: 1,
    contradictions: contradictions.map((c) => ({ ...c, subject: brief(c.subject, MAX_SUBJECT), values: c.values.map((v) => brief(v, 200)) })),
    unsupportedReason: missingTools.length
      ? brief(`There is no ${missingTools.map((t) => `\`${t}\``).join(' or ')} tool: the graph tools create, change, delete and find nodes and edges.`, 300)
      : null,
    step: calls.length === 1 && only ? only : null,
  };
}
