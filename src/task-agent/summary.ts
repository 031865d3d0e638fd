import { goalOutcome, type AnswerInput, type TaskStep } from '../../machines/task-agent.js';

/**
 * The answer's facts, without a model: each call and its outcome in words,
 * and what the goal ended with. The model may phrase a lead sentence; these
 * lines are always shown, so the answer never claims what was not done.
 */

/** The most characters of one value the answer echoes (a model may send megabytes). */
const MAX_ECHO = 80;
/** The most rows or nodes of a read the answer lists. */
export const MAX_ROWS_SHOWN = 20;

/** A value as the answer shows it: clipped, and "(missing)" for none. */
const text = (v: unknown): string => {
  if (v === undefined || v === null) return '(missing)';
  const t = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return t.length > MAX_ECHO ? `${t.slice(0, MAX_ECHO - 1)}…` : t;
};

/** A node reference in words (`Ticket 'T-1'`), or what is missing from it. */
const ref = (v: unknown): string => {
  if (v && typeof v === 'object') {
    const { label, key } = v as { label?: unknown; key?: unknown };
    if (label !== undefined || key !== undefined) return `${label === undefined ? 'a node with no label' : text(label)} ${key === undefined ? 'with no key' : `'${text(key)}'`}`;
  }
  return v === undefined || v === null ? 'a node not given' : text(v);
};
const edgeType = (v: unknown) => (v === undefined || v === null ? 'with no type' : text(v));

/** One call in words: "created node Ticket 'TICKET-123'", "found 2 nodes". */
export function describeStep(step: TaskStep): string {
  const a = step.call.args;
  const what = (() => {
    switch (step.call.tool) {
      case 'add_node':
        return `create node ${ref(a)}`;
      case 'add_edge':
        return `create edge ${edgeType(a.type)} from ${ref(a.from)} to ${ref(a.to)}`;
      case 'update_props': {
        const t = (a.target ?? {}) as Record<string, unknown>;
        const target = t.kind === 'edge' ? `edge ${edgeType(t.type)} from ${ref(t.from)} to ${ref(t.to)}` : `node ${ref(t)}`;
        const set = a.set && typeof a.set === 'object' ? ` set ${Object.entries(a.set as Record<string, unknown>).slice(0, 10).map(([k, v]) => `${text(k)} = ${text(JSON.stringify(v))}`).join(', ')}` : '';
        const unset = Array.isArray(a.unset) && a.unset.length ? ` remove ${a.unset.slice(0, 10).map(text).join(', ')}` : '';
        return `update ${target}:${set}${unset}`;
      }
      case 'delete_node':
        return `delete node ${ref(a)}${a.detach ? ' and its edges' : ''}`;
      case 'delete_edge':
        return `delete edge ${edgeType(a.type)} from ${ref(a.from)} to ${ref(a.to)}`;
      case 'query_graph':
        return `find nodes${a.label ? ` labelled ${text(a.label)}` : ''}${a.where && typeof a.where === 'object' ? ` where ${Object.entries(a.where as Record<string, unknown>).slice(0, 10).map(([k, v]) => `${text(k)} = ${text(JSON.stringify(v))}`).join(' and ')}` : ''}`;
      case 'cypher_query':
        return 'run a read-only Cypher query';
      default:
        return `call ${text(step.call.tool)}`;
    }
  })();
  // An unknown tool's refusal lists every tool: said once, in the escalation, not again per call.
  if (!step.outcome.ok) return `${what}: not done (${step.outcome.error.code === 'tool_not_found' ? 'there is no such tool' : clipMessage(step.outcome.error.message)})`;
  return `${what}: done${found(step.outcome.result)}`;
}

const clipMessage = (m: string) => (m.length > 500 ? `${m.slice(0, 499)}…` : m);

/** What a read found, listed (at most {@link MAX_ROWS_SHOWN}, with the count). */
function found(result: unknown): string {
  if (!result || typeof result !== 'object') return '';
  const r = result as { nodes?: { label: string; key: string; properties: Record<string, unknown> }[]; rows?: unknown[]; truncated?: boolean };
  const more = (n: number) => (n > MAX_ROWS_SHOWN ? `; … (${n - MAX_ROWS_SHOWN} more not shown)` : '');
  if (Array.isArray(r.nodes) && !('edgesDeleted' in r)) {
    if (r.nodes.length === 0) return ', found nothing';
    const shown = r.nodes.slice(0, MAX_ROWS_SHOWN).map((n) => {
      const props = Object.entries(n.properties ?? {}).filter(([k]) => k !== 'key');
      return `${text(n.label)} '${text(n.key)}'${props.length ? ` (${props.slice(0, 10).map(([k, v]) => `${k}: ${text(v)}`).join(', ')})` : ''}`;
    });
    return `, found ${r.nodes.length}${r.truncated ? ' (the read was cut off there)' : ''}: ${shown.join('; ')}${more(r.nodes.length)}`;
  }
  if (Array.isArray(r.rows)) {
    const count = `${r.rows.length} row${r.rows.length === 1 ? '' : 's'}${r.truncated ? ' (the read was cut off there)' : ''}`;
    if (r.rows.length === 0) return ', 0 rows';
    return `, ${count}: ${r.rows.slice(0, MAX_ROWS_SHOWN).map((row) => text(row)).join('; ')}${more(r.rows.length)}`;
  }
  return '';
}

const ENDINGS: Record<AnswerInput['ending'], string> = {
  completed: 'Done.',
  stopped: 'Stopped as you asked.',
  timed_out: 'Nobody answered my question in time, so I stopped.',
  informed: '',
  gave_up: 'I could not finish.',
};

/** The answer's first line, from the facts: "Done" only when every call planned succeeded. */
export function answerHead(input: AnswerInput): string {
  const changed = input.steps.filter((s) => s.outcome.ok && s.write).length;
  if (input.ending === 'informed') return input.escalation?.message ?? 'I cannot do this.';
  if (input.ending !== 'completed') return ENDINGS[input.ending];
  const outcome = goalOutcome(input.steps, input.ending);
  const failed = input.steps.filter((s) => !s.outcome.ok).length;
  if (outcome === 'completed') return changed > 0 ? `Done: ${changed} change${changed === 1 ? '' : 's'} to the graph.` : ENDINGS.completed;
  if (outcome === 'partial') return `Partly done: ${failed} of ${input.steps.length} step${input.steps.length === 1 ? '' : 's'} failed.`;
  return 'I could not do it: every step failed.';
}

/** The whole answer without a model: how it ended, each call, and what was not done. */
export function summarizeSteps(input: AnswerInput): string {
  const lines = input.steps.map((s, i) => `${i + 1}. ${describeStep(s)}`);
  const changed = input.steps.filter((s) => s.outcome.ok && s.write).length;
  const outcome = goalOutcome(input.steps, input.ending);
  const head = answerHead(input);
  const tail =
    (input.ending === 'completed' && outcome === 'completed') || input.ending === 'informed'
      ? []
      : [
          changed ? `The ${changed} change${changed === 1 ? '' : 's'} above ${changed === 1 ? 'was' : 'were'} made; nothing else was done.` : 'Nothing was changed in the graph.',
          ...(input.goal ? [`Not done: ${input.spec?.summary ?? input.goal}`] : []),
        ];
  return [head, ...(lines.length ? ['', ...lines] : []), ...(tail.length ? ['', ...tail] : [])].join('\n').trim();
}
