export { DirectoryLockedError, type LockHolder } from './dir-lock.js';
export { createMemoryStore } from './memory.js';
export { SCHEMA_CHANGES, type SchemaChange } from './sql/schema-changes.js';
export { createSqlStore, upgradeSchema, type SqlClient } from './sql/sql-store.js';
export * from './types.js';
