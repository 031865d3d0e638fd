import { z } from 'zod';
import {
  MergeStrategySchema,
  PathPatternSchema,
  canonical,
  concatKey,
  formatPath,
  isPlainObject,
  keysIgnoreCase,
  sameValue,
  strategyResolver,
  type FieldPath,
  type MergeStrategy,
} from './compose-strategies.js';
import { FlowDocumentError, toPointer, type FlowDocumentProblem } from './errors.js';
import { defaultOutcome } from './graph.js';
import { parseFlowValue } from './parse.js';
import {
  ActionNodeSchema,
  ConfirmationNodeSchema,
  isElseGuard,
  SubgraphNodeSchema,
  EdgeSchema,
  FlowDocumentSchema,
  FlowNodeSchema,
  InputNodeSchema,
  QuestionNodeSchema,
  TerminalNodeSchema,
  type FlowDocument,
  type FlowNode,
} from './schema.js';

/**
 * Layered composition of a flow document: a global flow, refined by an
 * industry pack, a tenant and an instance, merged deterministically field by
 * field (strategies in `compose-strategies.ts`) with a report of every change
 * and conflict.
 *
 * Order
 * - Layers are applied by level: global, pack, tenant, instance. Layers of one
 *   level are applied in the order given. `report.applied` lists the order used.
 * - Within a layer: the top-level fields (in the schema's order), then its nodes,
 *   then its edges, each list in the layer's order.
 * - Nodes keep the order in which their ids first appear: the first layer's
 *   nodes in its order, then each node a later layer adds, appended in that
 *   layer's order. A node removed and added again by a later layer goes to the
 *   end. (Ids are unique, so there are no ties.) Edges likewise, by
 *   `from` and outcome.
 * - Record keys (synonyms by category, migration maps) come out sorted by code
 *   point; object keys in the schema's order. The same layers therefore always
 *   give the same document and report, whatever the key order of the input.
 *
 * Merging
 * - Nodes are merged by `id`: a layer names the node and the fields it sets
 *   (`{ id: "q1", prompt: "..." }`); a node a layer adds needs its `kind`.
 *   `{ id, remove: true }` removes a node and the edges leaving it; edges still
 *   pointing at it are listed in `report.removals` and refuse the result.
 * - Edges are merged by `from`, outcome and guard (`on`, or the default outcome of
 *   the `from` node as composed so far): a layer redirects an edge by giving
 *   the same `from` and outcome with another `to`.
 * - Everything else by the field's strategy.
 *
 * Report
 * - The first layer applied is the base: what it sets is not a change. Every
 *   later layer's effect is: a value added where there was none (`add`), a
 *   different value replacing one (`replace`), a node or edge removed
 *   (`remove`). Giving a value that is already there is not a change.
 * - A conflict is two layers whose values cannot be merged: different values
 *   (or a removal) under `error`, or something other than lists under `concat`. Conflicts
 *   refuse the composition ({@link FlowCompositionError}) unless
 *   `collectConflicts` is set; then the earlier value is kept and the
 *   conflicts are in the report.
 * - The result is checked as any flow document (`parseFlowValue`); its
 *   problems are refused with the layers that set the fields concerned.
 */

export const LayerLevelSchema = z.enum(['global', 'pack', 'tenant', 'instance']);
export type LayerLevel = z.infer<typeof LayerLevelSchema>;
/** The levels in the order they are applied. */
export const LAYER_LEVELS: readonly LayerLevel[] = LayerLevelSchema.options;

type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/**
 * A node as a layer writes it: its `id` and the fields the layer sets, or
 * `{ id, remove: true }`. Which fields a node of its kind may have is checked
 * on the composed document.
 */
export const NodePatchSchema = z
  .strictObject({
    id: QuestionNodeSchema.shape.id,
    remove: z.literal(true).optional(),
    kind: z.enum(FlowNodeSchema.options.map((node) => node.shape.kind.value) as [FlowNode['kind'], ...FlowNode['kind'][]]).optional(),
    prompt: QuestionNodeSchema.shape.prompt.optional(),
    label: QuestionNodeSchema.shape.label,
    // Any answer field a layer sets; the composed answer is checked as a whole.
    answer: z.record(z.string(), z.unknown()).optional(),
    limitingValues: QuestionNodeSchema.shape.limitingValues,
    stopMessage: QuestionNodeSchema.shape.stopMessage,
    key: QuestionNodeSchema.shape.key,
    required: QuestionNodeSchema.shape.required,
    when: QuestionNodeSchema.shape.when,
    validators: QuestionNodeSchema.shape.validators,
    maxAttempts: QuestionNodeSchema.shape.maxAttempts,
    ui: QuestionNodeSchema.shape.ui,
    actor: ActionNodeSchema.shape.actor.optional(),
    params: ActionNodeSchema.shape.params,
    assign: ActionNodeSchema.shape.assign,
    ref: SubgraphNodeSchema.shape.ref.optional(),
    // Without their defaults: a layer that says nothing about a label leaves it alone.
    confirmLabel: ConfirmationNodeSchema.shape.confirmLabel.unwrap().optional(),
    editLabel: ConfirmationNodeSchema.shape.editLabel.unwrap().optional(),
    outcome: TerminalNodeSchema.shape.outcome.optional(),
    message: TerminalNodeSchema.shape.message,
    to: InputNodeSchema.shape.to,
    deadline: InputNodeSchema.shape.deadline,
    // A layer replaces an input node's inputs as a whole (see compose-strategies.ts).
    inputs: InputNodeSchema.shape.inputs.optional(),
    // Every field of every node kind, and only those: a new field in the schema does not compile until it is here.
  } satisfies Record<KeysOfUnion<FlowNode> | 'remove', z.ZodType>)
  .superRefine((node, ctx) => {
    if (!node.remove) return;
    for (const key of Object.keys(node))
      if (key !== 'id' && key !== 'remove')
        ctx.addIssue({ code: 'custom', path: [key], message: `node "${node.id}" is removed: name only its id` });
  });

/** A layer's document: any part of a flow document, nodes as {@link NodePatchSchema}. */
export const PartialFlowDocumentSchema = FlowDocumentSchema.extend({
  nodes: z.array(NodePatchSchema),
  edges: z.array(EdgeSchema),
})
  .partial()
  .superRefine((doc, ctx) => {
    const seen = new Map<string, number>();
    doc.nodes?.forEach((node, i) => {
      const first = seen.get(node.id);
      if (first !== undefined)
        ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: `node "${node.id}" is already in this layer (nodes[${first}])` });
      else seen.set(node.id, i);
    });
  });

export const LayerSchema = z.strictObject({
  /** Names the layer in reports and messages; unique among the layers composed. */
  name: z.string().trim().min(1, 'must not be empty'),
  level: LayerLevelSchema,
  document: PartialFlowDocumentSchema,
});

export const ComposeOptionsSchema = z.strictObject({
  /** Strategies by path pattern (see `PathPattern`), over the defaults: `{ "nodes.*.prompt": "error" }`. */
  strategies: z
    .record(z.string(), MergeStrategySchema)
    .superRefine((strategies, ctx) => {
      for (const key of Object.keys(strategies)) {
        const checked = PathPatternSchema.safeParse(key);
        if (!checked.success)
          for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: [key], message: issue.message });
      }
    })
    .optional(),
  /** Return conflicts in the report (keeping the earlier value) instead of refusing the composition. */
  collectConflicts: z.boolean().optional(),
});

export type NodePatch = z.input<typeof NodePatchSchema>;
export type PartialFlowDocument = z.input<typeof PartialFlowDocumentSchema>;
/** A layer as a caller writes it. */
export type Layer = z.input<typeof LayerSchema>;
export type ComposeOptions = z.input<typeof ComposeOptionsSchema>;

export interface AppliedLayer {
  layer: string;
  level: LayerLevel;
}

export interface CompositionChange {
  path: FieldPath;
  layer: string;
  strategy: MergeStrategy;
  op: 'add' | 'replace' | 'remove';
  /** The value before; absent for `add`. */
  from?: unknown;
  /** The value after; absent for `remove`. */
  to?: unknown;
}

export interface CompositionConflict {
  path: FieldPath;
  /** The layer that set the value kept, and the layer whose value was refused. */
  layers: [string, string];
  values: [unknown, unknown];
  strategy: MergeStrategy;
  message: string;
}

export interface NodeRemoval {
  node: string;
  layer: string;
  /** Edges that left the node, removed with it. */
  removedEdges: FieldPath[];
  /** Edges of the result that still point at the node (empty when a layer re-added it or redirected them). */
  danglingEdges: { path: FieldPath; setBy: string[] }[];
}

export interface CompositionReport {
  applied: AppliedLayer[];
  changes: CompositionChange[];
  conflicts: CompositionConflict[];
  removals: NodeRemoval[];
}

/** A problem of the composition, with the layers that set the fields concerned. */
export interface CompositionProblem {
  /** Where in the composed document (JSON Pointer), when the problem is in it. */
  pointer: string;
  /** The same place as a field path (nodes by id, edges by `from` and outcome). */
  path: FieldPath;
  layers: string[];
  message: string;
}

export interface Composition {
  document: FlowDocument;
  report: CompositionReport;
}

/** Layers that could not be composed: their conflicts, or the problems of the result. */
export class FlowCompositionError extends Error {
  override readonly name = 'FlowCompositionError';

  constructor(
    /** The flow's id (or `flow` when no layer gave one). */
    readonly flow: string,
    readonly report: CompositionReport,
    readonly problems: CompositionProblem[],
  ) {
    const counts = [
      report.conflicts.length > 0 && plural(report.conflicts.length, 'conflict'),
      problems.length > 0 && plural(problems.length, 'problem'),
    ].filter(Boolean);
    super(
      `cannot compose flow "${flow}" from layers ${report.applied.map((a) => `"${a.layer}" (${a.level})`).join(', ')}: ${counts.join(', ')}\n` +
        [...report.conflicts.map(formatConflict), ...problems.map(formatCompositionProblem)].map((line) => `  ${line}`).join('\n'),
    );
  }
}

export function formatConflict(conflict: CompositionConflict): string {
  const [a, b] = conflict.layers;
  const [x, y] = conflict.values;
  return `${formatPath(conflict.path)}: layer "${a}" set ${brief(x)}, layer "${b}" sets ${brief(y)} (${conflict.strategy}: ${conflict.message})`;
}

export function formatCompositionProblem(problem: CompositionProblem): string {
  const where = [formatPath(problem.path) || '/', problem.pointer && problem.pointer !== toPointer(problem.path) ? `(${problem.pointer})` : '']
    .filter(Boolean)
    .join(' ');
  const layers = problem.layers.length > 0 ? ` [${problem.layers.length === 1 ? 'layer' : 'layers'} ${problem.layers.map((l) => `"${l}"`).join(', ')}]` : '';
  return `${where}${layers}: ${problem.message}`;
}

/**
 * Composes layers into one checked flow document, with the report of what
 * each layer changed. Throws {@link FlowDocumentError} for a malformed layer
 * or options, {@link FlowCompositionError} for conflicts (unless
 * `collectConflicts`) and for a result that is not a valid flow.
 */
export function composeFlow(layers: readonly Layer[], options: ComposeOptions = {}): Composition {
  const settings = parseOrRefuse(ComposeOptionsSchema, options, 'compose options');
  const parsed = parseLayers(layers);
  const ordered = parsed
    .map((layer, index) => ({ layer, index }))
    .sort((a, b) => LAYER_LEVELS.indexOf(a.layer.level) - LAYER_LEVELS.indexOf(b.layer.level) || a.index - b.index)
    .map(({ layer }) => layer);

  const composer = new Composer(strategyResolver(settings.strategies), ordered.map((l) => l.name));
  ordered.forEach((layer, i) => composer.apply(layer, i === 0));
  const { report, raw, problems, flow } = composer.finish();

  if (report.conflicts.length > 0 && !settings.collectConflicts) throw new FlowCompositionError(flow, report, problems);

  let document: FlowDocument | undefined;
  let found: CompositionProblem[] = [];
  try {
    document = parseFlowValue(raw, `flow "${flow}"`);
  } catch (error) {
    if (!(error instanceof FlowDocumentError)) throw error;
    // A node a problem of the merge is already about (say, added without a kind) needs no second word.
    const reported = problems.map((p) => formatPath(p.path) + '.');
    found = error.problems
      .map((problem) => composer.attribute(problem, raw))
      .filter((p) => !reported.some((path) => (formatPath(p.path) + '.').startsWith(path)));
  }
  if (document === undefined || problems.length > 0) throw new FlowCompositionError(flow, report, [...problems, ...found]);
  return { document, report };
}

type ParsedLayer = z.output<typeof LayerSchema>;
type Value = unknown;
type Json = Record<string, unknown>;

/** Top-level fields other than the node and edge lists, in the schema's order. */
const TOP_FIELDS = Object.keys(FlowDocumentSchema.shape).filter((key) => key !== 'nodes' && key !== 'edges');
const NO_OUTCOME = '(default)';

function parseLayers(layers: readonly Layer[]): ParsedLayer[] {
  if (!Array.isArray(layers) || layers.length === 0)
    throw new FlowDocumentError('layers', [{ pointer: '', message: 'no layers to compose' }]);
  const parsed = layers.map((layer, i) => {
    const result = LayerSchema.safeParse(layer);
    if (result.success) return { ...result.data, document: canonical(result.data.document) };
    const name = (layer as { name?: unknown } | undefined)?.name;
    const source = typeof name === 'string' && name.trim() !== '' ? `layer "${name.trim()}"` : `layers[${i}]`;
    // Problems in the document point into it (a layer is usually a file); others into the layer.
    throw new FlowDocumentError(
      source,
      result.error.issues.map((issue) => {
        const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
        return { pointer: toPointer(path[0] === 'document' ? path.slice(1) : path), message: issue.message };
      }),
    );
  });
  const names = new Map<string, number>();
  const duplicates: FlowDocumentProblem[] = [];
  parsed.forEach((layer, i) => {
    const first = names.get(layer.name);
    if (first !== undefined) duplicates.push({ pointer: `/${i}/name`, message: `layer name "${layer.name}" is already used by layers[${first}]` });
    else names.set(layer.name, i);
  });
  if (duplicates.length > 0) throw new FlowDocumentError('layers', duplicates);
  return parsed;
}

function parseOrRefuse<T extends z.ZodType>(schema: T, value: unknown, source: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new FlowDocumentError(
    source,
    result.error.issues.map((issue) => ({
      pointer: toPointer(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))),
      message: issue.message,
    })),
  );
}

const keyOf = (path: FieldPath) => path.join('\u0000');

/** The merge state: the document so far, who set what, and the report. */
class Composer {
  private readonly top: Json = {};
  private readonly nodes = new Map<string, Json>();
  private readonly edges = new Map<string, { path: FieldPath; edge: Json }>();
  /** The layer that last set the value at each path (the nearest ancestor's when a path has none). */
  private readonly setBy = new Map<string, string>();
  private readonly report: CompositionReport = { applied: [], changes: [], conflicts: [], removals: [] };
  private readonly problems: CompositionProblem[] = [];
  private layer = '';
  private base = true;

  constructor(
    private readonly strategyOf: (path: FieldPath) => MergeStrategy,
    /** Layer names in the order applied, to list the layers of a problem in that order. */
    private readonly order: readonly string[],
  ) {}

  apply(layer: ParsedLayer, base: boolean): void {
    this.layer = layer.name;
    this.base = base;
    this.report.applied.push({ layer: layer.name, level: layer.level });
    const doc = layer.document as Json & { nodes?: Json[]; edges?: Json[] };

    for (const field of TOP_FIELDS) {
      if (doc[field] === undefined) continue;
      const merged = this.merge([field], this.top[field], doc[field]);
      if (merged !== undefined) this.top[field] = merged;
    }
    for (const node of doc.nodes ?? []) this.applyNode(node);
    const seen = new Map<string, number>();
    (doc.edges ?? []).forEach((edge, i) => {
      const from = String(edge.from);
      const kind = this.nodes.get(from)?.kind;
      // `defaultOutcome` reads only the kind.
      const outcome = (edge.on as string | undefined) ?? (typeof kind === 'string' ? defaultOutcome({ kind } as FlowNode) : undefined) ?? NO_OUTCOME;
      // Guarded edges of one outcome are told apart by their guard: `answered if answers.x == 1.0`.
      const guard = typeof edge.guard === 'string' && !isElseGuard(edge.guard) ? edge.guard : undefined;
      const branch = guard === undefined ? outcome : `${outcome} if ${guard}`;
      const key = keyOf([from, branch]);
      const first = seen.get(key);
      if (first !== undefined)
        throw new FlowDocumentError(`layer "${layer.name}"`, [
          { pointer: `/edges/${i}`, message: `edges[${first}] already leaves "${from}" on "${branch}" in this layer` },
        ]);
      seen.set(key, i);
      this.applyEdge(['edges', from, branch], edge);
    });
  }

  private applyNode(patch: Json): void {
    const id = String(patch.id);
    const path = ['nodes', id];
    const existing = this.nodes.get(id);
    if (patch.remove === true) {
      if (!existing) {
        this.problem(path, [this.layer], `layer "${this.layer}" removes node "${id}", which no layer before it defines`);
        return;
      }
      const strategy = this.strategyOf(path);
      if (strategy === 'error') {
        this.conflict(path, existing, patch, strategy, 'a layer may not remove a node an earlier layer set');
        return;
      }
      this.nodes.delete(id);
      this.release(path);
      this.record({ path, op: 'remove', strategy, from: existing });
      const removedEdges: FieldPath[] = [];
      for (const [key, { path: edgePath, edge }] of this.edges)
        if (edge.from === id) {
          this.edges.delete(key);
          this.release(edgePath);
          removedEdges.push(edgePath);
          this.record({ path: edgePath, op: 'remove', strategy: this.strategyOf(edgePath), from: edge });
        }
      this.report.removals.push({ node: id, layer: this.layer, removedEdges, danglingEdges: [] });
      return;
    }
    if (!existing && patch.kind === undefined)
      this.problem(path, [this.layer], `layer "${this.layer}" adds node "${id}" without a kind (no layer before it defines the node)`);
    const merged = this.merge(path, existing, patch);
    if (isPlainObject(merged)) this.nodes.set(id, merged);
  }

  private applyEdge(path: FieldPath, edge: Json): void {
    const key = keyOf(path.slice(1));
    const existing = this.edges.get(key);
    if (!existing) {
      this.edges.set(key, { path, edge });
      this.added(path, edge, this.strategyOf(path));
      return;
    }
    // `from` and the outcome are the key: only `to` can differ.
    const merged = this.merge(path, { to: existing.edge.to }, { to: edge.to });
    if (isPlainObject(merged)) existing.edge = { ...existing.edge, to: merged.to };
  }

  /**
   * Merges `patch` into `base` at `path` by the path's strategy (or `forced`,
   * inside an object under `error`); returns the value to keep.
   */
  private merge(path: FieldPath, base: Value, patch: Value, forced?: MergeStrategy): Value {
    if (patch === undefined) return base;
    const strategy = forced ?? this.strategyOf(path);
    if (base === undefined) {
      this.added(path, patch, strategy);
      return patch;
    }
    switch (strategy) {
      case 'override':
        return this.replace(path, base, patch, strategy);
      case 'error':
        // Objects: what the later layer gives is compared key by key, all of it under `error`.
        if (isPlainObject(base) && isPlainObject(patch)) return this.mergeKeys(path, base, patch, 'error');
        if (sameValue(base, patch)) return base;
        this.conflict(path, base, patch, strategy, 'a layer may not change a value an earlier layer set');
        return base;
      case 'deep':
        if (isPlainObject(base) && isPlainObject(patch)) return this.mergeKeys(path, base, patch);
        return this.replace(path, base, patch, strategy);
      case 'concat': {
        if (!Array.isArray(base) || !Array.isArray(patch)) {
          this.conflict(path, base, patch, strategy, 'needs a list on both sides');
          return base;
        }
        const seen = new Set(base.map(concatKey));
        const added = patch.filter((item) => {
          const key = concatKey(item);
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        if (added.length === 0) return base;
        const merged = [...base, ...added];
        added.forEach((_, i) => this.setBy.set(keyOf([...path, String(base.length + i)]), this.layer));
        this.record({ path, op: 'replace', strategy, from: base, to: merged });
        return merged;
      }
    }
  }

  private mergeKeys(path: FieldPath, base: Json, patch: Json, forced?: MergeStrategy): Json {
    const out: Json = { ...base };
    const ignoreCase = keysIgnoreCase(path);
    for (const key of Object.keys(patch).sort()) {
      const target = (ignoreCase && Object.keys(out).find((k) => k.toLowerCase() === key.toLowerCase())) || key;
      const value = this.merge([...path, target], out[target], patch[key], forced);
      if (value !== undefined) out[target] = value;
    }
    return out;
  }

  private replace(path: FieldPath, base: Value, patch: Value, strategy: MergeStrategy): Value {
    if (sameValue(base, patch)) return base;
    this.claim(path);
    this.record({ path, op: 'replace', strategy, from: base, to: patch });
    return patch;
  }

  private added(path: FieldPath, value: Value, strategy: MergeStrategy): void {
    this.claim(path);
    this.record({ path, op: 'add', strategy, to: value });
  }

  /** The current layer now owns the value at `path`, and everything in it. */
  private claim(path: FieldPath): void {
    this.release(path);
    this.setBy.set(keyOf(path), this.layer);
  }

  /** Forgets who set the value at `path` and everything in it. */
  private release(path: FieldPath): void {
    const key = keyOf(path);
    for (const other of [...this.setBy.keys()]) if (other === key || other.startsWith(key + '\u0000')) this.setBy.delete(other);
  }

  private record(change: Omit<CompositionChange, 'layer'>): void {
    if (this.base) return;
    this.report.changes.push({
      path: change.path,
      layer: this.layer,
      strategy: change.strategy,
      op: change.op,
      ...(change.from !== undefined && { from: change.from }),
      ...(change.to !== undefined && { to: change.to }),
    });
  }

  private conflict(path: FieldPath, base: Value, patch: Value, strategy: MergeStrategy, message: string): void {
    this.report.conflicts.push({ path, layers: [this.ownerOf(path), this.layer], values: [base, patch], strategy, message });
  }

  private problem(path: FieldPath, layers: string[], message: string): void {
    this.problems.push({ pointer: '', path, layers, message });
  }

  /** The layer that set the value at `path`: its own entry, or its nearest ancestor's. */
  private ownerOf(path: FieldPath): string {
    for (let depth = path.length; depth >= 0; depth--) {
      const owner = this.setBy.get(keyOf(path.slice(0, depth)));
      if (owner !== undefined) return owner;
    }
    return '';
  }

  /** The layers that set anything at or inside `path`, in the order applied. */
  private layersAt(path: FieldPath): string[] {
    const key = keyOf(path);
    const found = new Set<string>();
    const owner = this.ownerOf(path);
    if (owner) found.add(owner);
    for (const [other, layer] of this.setBy) if (other.startsWith(key + '\u0000')) found.add(layer);
    return [...found].sort((a, b) => this.order.indexOf(a) - this.order.indexOf(b));
  }

  finish(): { report: CompositionReport; raw: Json; problems: CompositionProblem[]; flow: string } {
    const edges = [...this.edges.values()];
    for (const removal of this.report.removals)
      if (!this.nodes.has(removal.node))
        removal.danglingEdges = edges
          .filter(({ edge }) => edge.to === removal.node)
          .map(({ path }) => ({ path, setBy: this.layersAt([...path, 'to']) }));
    const raw = canonical({
      ...this.top,
      nodes: [...this.nodes.values()],
      edges: edges.map(({ edge }) => edge),
    });
    const flow = typeof this.top.id === 'string' ? this.top.id : 'flow';
    return { report: this.report, raw, problems: this.problems, flow };
  }

  /** A problem of the composed document, with its field path and the layers that set it. */
  attribute(problem: FlowDocumentProblem, raw: Json): CompositionProblem {
    const position = fromPointer(problem.pointer);
    const path = this.fieldPath(position, raw);
    const value = position.reduce<unknown>((at, key) => (isPlainObject(at) || Array.isArray(at) ? (at as Json)[key] : undefined), raw);
    const removal = typeof value === 'string' && !this.nodes.has(value) ? this.report.removals.findLast((r) => r.node === value) : undefined;
    const note = removal ? ` (node "${removal.node}" was removed by layer "${removal.layer}")` : '';
    return { pointer: problem.pointer, path, layers: this.layersAt(path), message: problem.message + note };
  }

  /** Maps a position in the composed document (`nodes/3/prompt`) to a field path (`nodes.q4.prompt`). */
  private fieldPath(position: string[], raw: Json): FieldPath {
    const [list, index, ...rest] = position;
    const entry = index !== undefined && /^\d+$/.test(index) ? (raw[list ?? ''] as Json[] | undefined)?.[Number(index)] : undefined;
    if (list === 'nodes' && entry) return ['nodes', String(entry.id), ...rest];
    if (list === 'edges' && entry) {
      const found = [...this.edges.values()][Number(index)];
      if (found) return rest[0] === 'to' ? [...found.path, 'to'] : found.path;
    }
    return position;
  }
}

function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
