export * from './extract/index.js';
export * from './flow/index.js';
export * from './runtime/index.js';
export * from './paths/index.js';
export * from './viz/index.js';
