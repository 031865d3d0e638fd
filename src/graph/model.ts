import { z } from 'zod';

/**
 * The property graph's model: what a node, an edge and their properties may
 * be. Labels, edge types and property names become part of Cypher text (AGE
 * takes no parameter for them), so they are identifiers checked strictly here,
 * once; every value travels as a parameter.
 */

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
const identifier = (what: string) =>
  z.string().regex(IDENTIFIER, `${what} must start with a letter and hold only letters, digits and _ (at most 63)`);

/** A node's label, such as `Ticket`. */
export const LabelSchema = identifier('a label').describe('The node label, such as "Ticket" (letters, digits, _; starts with a letter)');

/** An edge's type, such as `REPORTS`. */
export const EdgeTypeSchema = identifier('an edge type').describe('The edge type, such as "REPORTS" (letters, digits, _; starts with a letter)');

/** The property that holds a node's key: set by add_node, never by a property change. */
export const KEY_PROPERTY = 'key';

/** A property name; `key` is a node's identity and not a property. */
export const PropertyNameSchema = identifier('a property name')
  .refine((name) => name !== KEY_PROPERTY, `"${KEY_PROPERTY}" is the node's identity, given to add_node; it is not a property`)
  .describe('A property name (letters, digits, _; starts with a letter; not "key")');

/** A node's key: unique among the nodes of its label. */
export const NodeKeySchema = z
  .string()
  .min(1)
  .max(200)
  .refine((key) => !/[\u0000-\u001f\u007f]/.test(key), 'a key holds no control characters')
  .describe('The node key, unique per label, such as "TICKET-123"');

const ScalarSchema = z.union([z.string().max(10_000), z.number().finite(), z.boolean()]);

/** A property value: a JSON scalar or a list of scalars (null is no value: remove the property instead). */
export const PropertyValueSchema = z.union([ScalarSchema, z.array(ScalarSchema).max(1000)]);
export type PropertyValue = z.infer<typeof PropertyValueSchema>;

/** Properties of a node or an edge. */
export const PropertiesSchema = z
  .record(PropertyNameSchema, PropertyValueSchema)
  .refine((p) => Object.keys(p).length <= 100, 'at most 100 properties')
  .describe('Properties: names to strings, numbers, booleans or lists of them');
export type Properties = z.infer<typeof PropertiesSchema>;

/** Which node: its label and its key. */
export const NodeRefSchema = z.strictObject({ label: LabelSchema, key: NodeKeySchema });
export type NodeRef = z.infer<typeof NodeRefSchema>;

/** Which edge: its type and its two ends (one edge per type, from and to). */
export const EdgeRefSchema = z.strictObject({
  type: EdgeTypeSchema,
  from: NodeRefSchema.describe('The node the edge starts at'),
  to: NodeRefSchema.describe('The node the edge points to'),
});
export type EdgeRef = z.infer<typeof EdgeRefSchema>;

export const GraphNodeSchema = z.strictObject({ label: LabelSchema, key: NodeKeySchema, properties: PropertiesSchema });
export type GraphNode = z.infer<typeof GraphNodeSchema>;

export const GraphEdgeSchema = z.strictObject({
  type: EdgeTypeSchema,
  from: NodeRefSchema,
  to: NodeRefSchema,
  properties: PropertiesSchema,
});
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;

/** What add_node takes: a node, its properties optional. */
export const NewNodeSchema = z.strictObject({ label: LabelSchema, key: NodeKeySchema, properties: PropertiesSchema.default({}) });
export type NewNode = z.input<typeof NewNodeSchema>;

/** What add_edge takes: an edge, its properties optional. */
export const NewEdgeSchema = z.strictObject({ ...EdgeRefSchema.shape, properties: PropertiesSchema.default({}) });
export type NewEdge = z.input<typeof NewEdgeSchema>;

/** A graph or a part of one, as `GET /api/graph` and `gateflow graph --json` give it. */
export const GraphSnapshotSchema = z.strictObject({ nodes: z.array(GraphNodeSchema), edges: z.array(GraphEdgeSchema) });
export type GraphSnapshot = z.infer<typeof GraphSnapshotSchema>;

const changeFields = {
  set: PropertiesSchema.optional().describe('Properties to add or overwrite'),
  unset: z.array(PropertyNameSchema).max(100).optional().describe('Property names to remove'),
};
type ChangeFields = { set?: Properties | undefined; unset?: string[] | undefined };
const changesSomething = (c: ChangeFields) => Object.keys(c.set ?? {}).length + (c.unset?.length ?? 0) > 0;
const setAndUnsetApart = (c: ChangeFields) => !(c.unset ?? []).some((name) => Object.hasOwn(c.set ?? {}, name));

/** A property change beside other fields (what it changes): `set` overwrites or adds, `unset` removes. */
export const withPropertyChange = <T extends z.ZodRawShape>(shape: T) =>
  z
    .strictObject({ ...shape, ...changeFields })
    .refine((c) => changesSomething(c as ChangeFields), 'nothing to change: give set or unset')
    .refine((c) => setAndUnsetApart(c as ChangeFields), 'a property cannot be both set and unset');

/** How a node or an edge's properties change: `set` overwrites or adds, `unset` removes. */
export const PropertyChangeSchema = withPropertyChange({});
export type PropertyChange = z.infer<typeof PropertyChangeSchema>;

export const sameNode = (a: NodeRef, b: NodeRef) => a.label === b.label && a.key === b.key;

/** A zod error's issues as `{ path, message }`, for the errors that carry them. */
export const issuesOf = (error: z.ZodError): { path: string; message: string }[] =>
  // At most ten, in words: a value that is absent is "missing", never "received undefined".
  error.issues.slice(0, 10).map((issue) => ({ path: issue.path.map(String).join('.').slice(0, 200), message: inWords(issue) }));

function inWords(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message))
    return `missing (${issue.expected === 'object' ? 'an object' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`} is needed)`;
  return issue.message.slice(0, 300);
}
