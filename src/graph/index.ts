/**
 * The task agent's property graph (seed 004): Apache AGE in the sessions'
 * database, one graph per owner, changed and read through tools a model
 * calls. `graphPgliteOptions` is exported from `./pglite.js` apart, so that
 * importing this does not load the AGE bundle.
 */
export { parseAgtype, type AgValue } from './agtype.js';
export { DEFAULT_GRAPH_LIMITS, openAgeGraph, type AgeGraphOptions, type GraphLimits } from './age-graph.js';
export { ensureGraphSupport } from './availability.js';
export { checkReadPlan } from './cypher-plan.js';
export { DEFAULT_CYPHER_LIMITS, runReadOnlyCypher, type CypherLimits, type CypherResult } from './cypher-query.js';
export { checkCypherText, CYPHER_FUNCTIONS, dollarQuoted, MAX_CYPHER_COLUMNS, MAX_CYPHER_LENGTH, type CheckedCypher } from './cypher-text.js';
export {
  CypherQueryError,
  CypherRefusedError,
  DuplicateEdgeError,
  DuplicateNodeError,
  DuplicateToolError,
  EdgeNotFoundError,
  GraphCapReachedError,
  GraphInputError,
  GraphUnavailableError,
  LabelKindConflictError,
  NodeHasEdgesError,
  NodeNotFoundError,
  ToolInputError,
  ToolNotFoundError,
  type CypherRefusal,
} from './errors.js';
export { graphNameFor, SHARED_GRAPH } from './graph-name.js';
export {
  EdgeRefSchema,
  EdgeTypeSchema,
  GraphEdgeSchema,
  GraphNodeSchema,
  GraphSnapshotSchema,
  KEY_PROPERTY,
  LabelSchema,
  NewEdgeSchema,
  NewNodeSchema,
  NodeKeySchema,
  NodeRefSchema,
  PropertiesSchema,
  PropertyChangeSchema,
  PropertyNameSchema,
  PropertyValueSchema,
  withPropertyChange,
  type EdgeRef,
  type GraphEdge,
  type GraphNode,
  type GraphSnapshot,
  type NewEdge,
  type NewNode,
  type NodeRef,
  type Properties,
  type PropertyChange,
  type PropertyValue,
} from './model.js';
export { GraphQuerySchema, MAX_QUERY_LIMIT, type GraphQuery, type GraphQueryResult, type PropertyGraph } from './property-graph.js';
export { graphSnapshot } from './snapshot.js';
export { inSavepoint, readOnlyScope, type GraphSql } from './sql-scope.js';
export { asAiSdkTools } from './tools/ai-sdk.js';
export {
  addEdgeTool,
  addNodeTool,
  createGraphToolRegistry,
  cypherQueryTool,
  deleteEdgeTool,
  deleteNodeTool,
  GRAPH_TOOLS,
  queryGraphTool,
  updatePropsTool,
} from './tools/graph-tools.js';
export { ToolRegistry, type ToolOutcome } from './tools/registry.js';
export { defineTool, TOOL_NAME, type GraphTool, type ToolContext } from './tools/tool.js';
