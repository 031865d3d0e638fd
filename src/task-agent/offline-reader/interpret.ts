import type { NodeRef, PropertyValue } from '../../graph/model.js';
import { GRAPH_TOOLS } from '../../graph/tools/graph-tools.js';
import type { Contradiction, ToolSignature } from '../schemas.js';
import { readClause, type Command } from './grammar.js';
import { labelWord, propertyWord } from './lexicon.js';
import type { Assign, Mention } from './phrases.js';
import { spell, type Token } from './tokens.js';
import { unsure } from './unsure.js';

/**
 * Commands in order, as tool calls. References are resolved against the
 * nodes read before ("the 'User' node" is the one User named earlier; "it"
 * the one node named earlier), and every property value asked for is kept, so
 * that a later statement asking another value ("The ticket should be closed")
 * is recorded as a contradiction while the call keeps the first value.
 */

const GRAPH_TOOL_NAMES = new Set(GRAPH_TOOLS.map((t) => t.name));
const MAX_VALUES = 5;

export const nodeName = (ref: NodeRef): string => `${ref.label} ${ref.key}`;
const edgeName = (type: string, from: NodeRef, to: NodeRef) => `${type} edge from ${nodeName(from)} to ${nodeName(to)}`;
/** The same value as a person means it: 'Open' is open, '30' is 30. */
const sameValue = (a: PropertyValue, b: PropertyValue) => String(a).toLowerCase() === String(b).toLowerCase();

interface Asked {
  value: PropertyValue;
  raw: string;
}

export class Interpreter {
  readonly calls: ToolSignature[] = [];
  readonly contradictions: Contradiction[] = [];
  /** Tools asked for by name that are not graph tools. */
  readonly missingTools: string[] = [];
  /** Nodes read in the clauses before, in order. */
  readonly #nodes: NodeRef[] = [];
  /** Nodes named in this clause. */
  readonly #named: NodeRef[] = [];
  /** The value asked for each property of each subject, as the calls so far leave it. */
  readonly #asked = new Map<string, Map<string, Asked>>();
  /** The properties of each node created here: a statement after may add to them. */
  readonly #created = new Map<string, Record<string, PropertyValue>>();

  read(command: Command): void {
    this.#apply(command);
    // Nodes named in a clause are known from the next one: "link user u1 to it" does not mean u1.
    for (const ref of this.#named.splice(0)) this.#remember(ref);
  }

  #apply(command: Command): void {
    switch (command.kind) {
      case 'createNode': {
        const ref = this.#name({ label: command.label, key: command.key });
        if (this.#created.has(nodeName(ref))) unsure(`${nodeName(ref)} is created twice`);
        const properties = this.#ask(nodeName(ref), command.props);
        this.#created.set(nodeName(ref), properties);
        return this.#call('add_node', { label: ref.label, key: ref.key, properties });
      }
      case 'createEdge': {
        const [from, to] = [this.#resolve(command.from), this.#resolve(command.to)];
        const properties = this.#ask(edgeName(command.type, from, to), command.props);
        return this.#call('add_edge', { type: command.type, from, to, properties });
      }
      case 'update': {
        const target = this.#resolve(command.target);
        const set = this.#ask(nodeName(target), command.set);
        for (const name of command.unset) this.#asked.get(nodeName(target))?.delete(name);
        const change = { ...(command.set.length ? { set } : {}), ...(command.unset.length ? { unset: command.unset } : {}) };
        return this.#call('update_props', { target: { kind: 'node', ...target }, ...change });
      }
      case 'deleteNode':
        return this.#call('delete_node', { ...this.#resolve(command.target), detach: command.detach });
      case 'deleteEdge':
        return this.#call('delete_edge', { type: command.type, from: this.#resolve(command.from), to: this.#resolve(command.to) });
      case 'findNodes': {
        const where = this.#ask(`${command.label ?? 'all'} nodes`, command.where);
        return this.#call('query_graph', {
          ...(command.label ? { label: command.label } : {}),
          ...(command.where.length ? { where } : {}),
          ...(command.neighbours ? { neighbours: command.neighbours } : {}),
          ...(command.limit ? { limit: command.limit } : {}),
        });
      }
      case 'findNode':
        return this.#call('query_graph', { ...this.#resolve(command.target), ...(command.neighbours ? { neighbours: command.neighbours } : {}) });
      case 'cypher':
        return this.#call('cypher_query', { query: command.query });
      case 'tool':
        return this.#tool(command.name, command.task);
      case 'statement':
        return this.#state(this.#resolve(command.about), command.props, command.modal);
      case 'headStatement':
        return this.#headStatement(command);
    }
  }

  #call(tool: string, args: Record<string, unknown>): void {
    this.calls.push({ tool, args });
  }

  #remember(ref: NodeRef): void {
    if (!this.#nodes.some((n) => n.label === ref.label && n.key === ref.key)) this.#nodes.push(ref);
  }

  #name(ref: NodeRef): NodeRef {
    this.#named.push(ref);
    return ref;
  }

  /** The node a mention names: given whole, or the only one read before that fits. */
  #resolve(m: Mention): NodeRef {
    if (m.label !== null && m.key !== null) return this.#name({ label: m.label, key: m.key });
    const fits = this.#nodes.filter((n) => (m.key === null || n.key === m.key) && (m.label === null || n.label === m.label));
    const [only] = fits;
    if (fits.length === 1 && only) return this.#name(only);
    if (fits.length > 1) return unsure(`"${m.text}" could be ${fits.map(nodeName).join(' or ')}`);
    return unsure(m.key !== null ? `"${m.text}": the label of ${m.key} is not given` : `"${m.text}" refers to no node named before`);
  }

  /** Properties asked for by a call: the first of two values given at once is kept, the pair recorded. */
  #ask(subject: string, assigns: readonly Assign[]): Record<string, PropertyValue> {
    const properties: Record<string, PropertyValue> = {};
    const raws = new Map<string, string>();
    const asked = this.#asked.get(subject) ?? new Map<string, Asked>();
    this.#asked.set(subject, asked);
    for (const { name, value, raw } of assigns) {
      const first = raws.get(name);
      if (first !== undefined) {
        if (!sameValue(properties[name] ?? '', value)) this.#contradiction(subject, name, first, raw);
        continue;
      }
      properties[name] = value;
      raws.set(name, raw);
      asked.set(name, { value, raw });
    }
    return properties;
  }

  /** A value asked for in passing: the same is fine, another contradicts, a new one joins the node's creation. */
  #state(subject: NodeRef, props: readonly Assign[], modal: boolean): void {
    const name = nodeName(subject);
    for (const { name: property, value, raw } of props) {
      const before = this.#asked.get(name)?.get(property);
      const created = this.#created.get(name);
      if (before) {
        if (!sameValue(before.value, value)) this.#contradiction(name, property, before.raw, raw);
      } else if (modal && created) {
        created[property] = value;
        this.#asked.get(name)?.set(property, { value, raw });
      } else unsure(`the text says what the ${property} of ${name} is (${raw}) but asks nothing of it`);
    }
  }

  /** "The ticket should be closed" (a node of that label was read) or "Status should be closed" (a property of the one node). */
  #headStatement(command: Extract<Command, { kind: 'headStatement' }>): void {
    const { word, value, modal } = command;
    const asLabel = labelWord(word)?.label;
    if (asLabel && this.#nodes.some((n) => n.label === asLabel)) {
      if (!value.status) unsure(`"${word}" should be "${value.raw}": which property is meant is not said`);
      return this.#state(this.#resolve({ label: asLabel, key: null, text: `the ${word}` }), [{ name: 'status', value: value.value, raw: value.raw }], modal);
    }
    const property = propertyWord(word);
    if (!property) unsure(`could not read "${word}"`);
    this.#state(this.#resolve({ label: null, key: null, text: word }), [{ name: property ?? word, value: value.value, raw: value.raw }], modal);
  }

  #contradiction(subject: string, property: string, first: string, next: string): void {
    const known = this.contradictions.find((c) => c.subject === subject && c.property === property);
    if (!known) {
      this.contradictions.push({ subject, property, values: [first, next] });
      return;
    }
    if (known.values.some((v) => v.toLowerCase() === next.toLowerCase())) return;
    if (known.values.length >= MAX_VALUES) unsure(`too many values asked for the ${property} of ${subject}`);
    known.values.push(next);
  }

  /** A tool asked for by name: a graph tool only with a purpose read as calls of that tool; any other is passed on as asked. */
  #tool(name: string, task: readonly Token[]): void {
    if (!GRAPH_TOOL_NAMES.has(name)) {
      this.missingTools.push(name);
      return this.#call(name, {});
    }
    const command = task.length ? readClause(task) : null;
    if (!command) return unsure(`${name} is asked for, but not what it should do${task.length ? `: could not read "${spell(task)}"` : ''}`);
    const before = this.calls.length;
    this.#apply(command);
    const made = this.calls.slice(before);
    if (!made.length || made.some((call) => call.tool !== name)) unsure(`${name} is asked for, but "${spell(task)}" is not done with it`);
  }
}
