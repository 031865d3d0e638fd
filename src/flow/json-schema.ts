import { z } from 'zod';
import { GateConfigSchema } from './gate-config.js';
import { FlowDocumentSchema } from './schema.js';

/**
 * JSON Schemas for editors and other languages, generated from the zod schemas
 * (which stay the single source). They state the shape only: cross-field rules
 * such as "a limiting value is a category" are checked by `parseFlowText`.
 */
export function flowDocumentJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(FlowDocumentSchema, { io: 'input' }) as Record<string, unknown>;
}

export function gateConfigJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(GateConfigSchema, { io: 'input' }) as Record<string, unknown>;
}
