/**
 * How the SQL store sorts a driver's errors: outages (nothing written, try
 * again: 503) from refusals (a bug or bad data: surfaced as they are).
 */
import { describe, expect, it } from 'vitest';
import { createSqlStore, type SqlClient } from '../../src/store/sql/sql-store.js';
import { ConflictError, StoreUnavailableError } from '../../src/store/types.js';

function failingWith(error: Error): SqlClient {
  return {
    query: async () => {
      throw error;
    },
    transaction: async () => {
      throw error;
    },
    close: async () => {},
  };
}

const withCode = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('the SQL store sorts driver errors', () => {
  it.each([
    ['a broken pipe (EPIPE looks like a SQLSTATE but carries a syscall)', withCode('write EPIPE', { code: 'EPIPE', errno: -32, syscall: 'write' })],
    ['a reset connection', withCode('read ECONNRESET', { code: 'ECONNRESET', errno: -104, syscall: 'read' })],
    ['a statement timeout (57014)', withCode('canceling statement due to statement timeout', { code: '57014' })],
    ['a connection failure (08006)', withCode('connection failure', { code: '08006' })],
    ['an error with no code (a client-side query timeout)', new Error('Query read timeout')],
  ])('%s is an outage: StoreUnavailableError', async (_name, error) => {
    await expect(createSqlStore('test', failingWith(error)).ping()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('a unique violation is a conflict; a refused statement surfaces as it is', async () => {
    await expect(createSqlStore('test', failingWith(withCode('duplicate key', { code: '23505' }))).load('s')).rejects.toBeInstanceOf(ConflictError);
    const refused = withCode('invalid input syntax', { code: '22P02' });
    await expect(createSqlStore('test', failingWith(refused)).load('s')).rejects.toBe(refused);
  });
});
