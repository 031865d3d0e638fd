export * from './error/gateflow-error.js';
export * from './extract/index.js';
export * from './flow/index.js';
export * from './runtime/index.js';
export * from './workflow/index.js';
export * from './paths/index.js';
export * from './viz/index.js';
