export { MAX_BODY_BYTES, createApp, type AppOptions } from './app.js';
export { HttpError, toHttpError } from './errors.js';
export { DEFAULT_MAX_STREAMS, DEFAULT_MAX_STREAMS_PER_CALLER, type EventStreamLimits } from './events.js';
export { openApiDocument } from './openapi.js';
export {
  ActRequestSchema,
  ActResponseSchema,
  DocumentJsonSchema,
  MessageJsonSchema,
  ProjectJsonSchema,
  documentRoutes,
  type ActRequest,
  type ActResponse,
  type DocumentAgentSource,
} from './documents.js';
export { checkGraphSupport, storeGraphSource, type GraphSource, type GraphStatus } from './graph.js';
export { BundledLayoutsSchema, bundledLayoutLookup, type BundledLayoutLookup, type BundledLayouts } from './bundled-layouts.js';
export { startServer, type DocumentAgentServing, type RunningServer, type ServerOptions, type TaskAgentServing } from './node.js';
export { FlowDirectoryError, MAX_FLOW_FILES, exampleFlowsDir, loadFlowsDir } from '../flow-files/index.js';
