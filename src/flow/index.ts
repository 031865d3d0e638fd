export { checkFlow, type FlowIssue } from './check.js';
export { BUSY_TAG, EXTRACT_ACTOR_ID, acceptedValues, compileFlow, extractionInput, noModelExtractActor, type FlowMachine, type FlowOutput } from './compile.js';
export * from './context.js';
export { FlowDocumentError, formatProblem, type FlowDocumentProblem } from './errors.js';
export { GATE_CONFIG_NODE_IDS, GateConfigSchema, GateSchema, checkGateConfig, gateConfigToFlow, isGateConfig, type Gate, type GateConfig } from './gate-config.js';
export { findCategory, flowGraph, isLimitingValue, type FlowGraph } from './graph.js';
export { flowDocumentJsonSchema, gateConfigJsonSchema } from './json-schema.js';
export { MAX_FLOW_TEXT_BYTES, parseFlowText, parseFlowValue } from './parse.js';
export * from './schema.js';
