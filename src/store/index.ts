export { DirectoryLockedError, type LockHolder } from './dir-lock.js';
export { createMemoryStore } from './memory.js';
export { MIGRATIONS, type Migration } from './sql/migrations.js';
export { createSqlStore, migrate, type SqlClient } from './sql/sql-store.js';
export * from './types.js';
