import { ConflictError, type Store } from '../../src/store/types.js';

/** A store that counts the commits that lost the version race (so a test can show a race happened). */
export function countingConflicts(inner: Store): Store & { conflicts(): number } {
  let conflicts = 0;
  return {
    ...inner,
    kind: inner.kind,
    commitTurn: async (...args) => {
      try {
        return await inner.commitTurn(...args);
      } catch (error) {
        if (error instanceof ConflictError) conflicts++;
        throw error;
      }
    },
    conflicts: () => conflicts,
  };
}
