import type { AnswerInput, TaskStep } from '../../machines/task-agent.js';

/**
 * The answer's facts, without a model: each call and its outcome in words,
 * and what the goal ended with. The model may phrase a lead sentence; these
 * lines are always shown, so the answer never claims what was not done.
 */

const ref = (v: unknown): string => {
  if (v && typeof v === 'object' && 'label' in v && 'key' in v) return `${String((v as { label: unknown }).label)} '${String((v as { key: unknown }).key)}'`;
  return JSON.stringify(v);
};

/** One call in words: "created node Ticket 'TICKET-123'", "found 2 nodes". */
export function describeStep(step: TaskStep): string {
  const a = step.call.args;
  const what = (() => {
    switch (step.call.tool) {
      case 'add_node':
        return `create node ${ref(a)}`;
      case 'add_edge':
        return `create edge ${String(a.type)} from ${ref(a.from)} to ${ref(a.to)}`;
      case 'update_props': {
        const t = (a.target ?? {}) as Record<string, unknown>;
        const target = t.kind === 'edge' ? `edge ${String(t.type)} from ${ref(t.from)} to ${ref(t.to)}` : `node ${ref(t)}`;
        const set = a.set ? ` set ${Object.entries(a.set as Record<string, unknown>).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ')}` : '';
        const unset = Array.isArray(a.unset) && a.unset.length ? ` remove ${a.unset.join(', ')}` : '';
        return `update ${target}:${set}${unset}`;
      }
      case 'delete_node':
        return `delete node ${ref(a)}${a.detach ? ' and its edges' : ''}`;
      case 'delete_edge':
        return `delete edge ${String(a.type)} from ${ref(a.from)} to ${ref(a.to)}`;
      case 'query_graph':
        return `find nodes${a.label ? ` labelled ${String(a.label)}` : ''}${a.where ? ` where ${Object.entries(a.where as Record<string, unknown>).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(' and ')}` : ''}`;
      case 'cypher_query':
        return 'run a read-only Cypher query';
      default:
        return `call ${step.call.tool}`;
    }
  })();
  // An unknown tool's refusal lists every tool: said once, in the escalation, not again per call.
  if (!step.outcome.ok) return `${what}: not done (${step.outcome.error.code === 'tool_not_found' ? 'there is no such tool' : step.outcome.error.message})`;
  return `${what}: done${found(step.outcome.result)}`;
}

/** What a read found, listed (at most 20). */
function found(result: unknown): string {
  if (!result || typeof result !== 'object') return '';
  const r = result as { nodes?: { label: string; key: string; properties: Record<string, unknown> }[]; rows?: unknown[] };
  if (Array.isArray(r.nodes) && !('edgesDeleted' in r)) {
    if (r.nodes.length === 0) return ', found nothing';
    const shown = r.nodes.slice(0, 20).map((n) => `${n.label} '${n.key}'${Object.keys(n.properties).filter((k) => k !== 'key').length ? ` (${Object.entries(n.properties).filter(([k]) => k !== 'key').map(([k, v]) => `${k}: ${String(v)}`).join(', ')})` : ''}`);
    return `, found ${r.nodes.length}: ${shown.join('; ')}${r.nodes.length > 20 ? '; …' : ''}`;
  }
  if (Array.isArray(r.rows)) return `, ${r.rows.length} row${r.rows.length === 1 ? '' : 's'}`;
  return '';
}

const ENDINGS: Record<AnswerInput['ending'], string> = {
  completed: 'Done.',
  stopped: 'Stopped as you asked.',
  timed_out: 'Nobody answered my question in time, so I stopped.',
  informed: '',
  gave_up: 'I could not finish.',
};

/** The whole answer without a model: how it ended, each call, and what was not done. */
export function summarizeSteps(input: AnswerInput): string {
  const lines = input.steps.map((s, i) => `${i + 1}. ${describeStep(s)}`);
  const changed = input.steps.filter((s) => s.outcome.ok && s.write).length;
  const head =
    input.ending === 'informed'
      ? (input.escalation?.message ?? 'I cannot do this.')
      : input.ending === 'completed' && changed > 0
        ? `Done: ${changed} change${changed === 1 ? '' : 's'} to the graph.`
        : ENDINGS[input.ending];
  const tail =
    input.ending === 'completed' || input.ending === 'informed'
      ? []
      : [
          changed ? `The ${changed} change${changed === 1 ? '' : 's'} above ${changed === 1 ? 'was' : 'were'} made; nothing else was done.` : 'Nothing was changed in the graph.',
          ...(input.goal ? [`Not done: ${input.spec?.summary ?? input.goal}`] : []),
        ];
  return [head, ...(lines.length ? ['', ...lines] : []), ...(tail.length ? ['', ...tail] : [])].join('\n').trim();
}
