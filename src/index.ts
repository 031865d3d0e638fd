export * from './extract/index.js';
export * from './flow/index.js';
export * from './runtime/index.js';
