import { ConflictError, type CommittedTurn, type JournalEntry, type NewSession, type SessionRecord, type Store } from './types.js';

/**
 * Sessions in a Map: for tests, benchmarks and the browser. Values are kept as
 * JSON text, as a database would, so that nothing shares objects with callers.
 */
export function createMemoryStore(): Store {
  const sessions = new Map<string, { record: string; journal: string[]; turnIds: Map<string, number> }>();
  const parseRecord = (text: string): SessionRecord => {
    const r = JSON.parse(text) as SessionRecord & { createdAt: string; updatedAt: string };
    return { ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) };
  };
  const parseEntry = (text: string): JournalEntry => {
    const e = JSON.parse(text) as JournalEntry & { createdAt: string };
    return { ...e, createdAt: new Date(e.createdAt) };
  };

  return {
    kind: 'memory',
    async create(s: NewSession) {
      if (sessions.has(s.sessionId)) throw new ConflictError(`session ${s.sessionId} exists`);
      const now = new Date();
      const record: SessionRecord = { ...s, version: 1, createdAt: now, updatedAt: now };
      delete (record as Partial<NewSession>).reply;
      const entry: JournalEntry = { seq: 1, turnId: null, turn: null, reply: s.reply, createdAt: now };
      sessions.set(s.sessionId, { record: JSON.stringify(record), journal: [JSON.stringify(entry)], turnIds: new Map() });
    },
    async load(sessionId, turnId) {
      const s = sessions.get(sessionId);
      if (!s) return null;
      const seq = turnId !== undefined ? s.turnIds.get(turnId) : undefined;
      return { session: parseRecord(s.record), replayed: seq !== undefined ? parseEntry(s.journal[seq - 1]!) : null };
    },
    async commitTurn(sessionId, expectedVersion, t: CommittedTurn) {
      const s = sessions.get(sessionId);
      if (!s) throw new ConflictError(`session ${sessionId} does not exist`);
      const record = parseRecord(s.record);
      if (record.version !== expectedVersion)
        throw new ConflictError(`session ${sessionId} is at version ${record.version}, not ${expectedVersion}`);
      if (t.turnId !== null && s.turnIds.has(t.turnId)) throw new ConflictError(`turn ${t.turnId} is already taken`);
      const now = new Date();
      const version = expectedVersion + 1;
      s.record = JSON.stringify({ ...record, snapshot: t.snapshot, flowVersion: t.flowVersion, version, updatedAt: now });
      s.journal.push(JSON.stringify({ seq: version, turnId: t.turnId, turn: t.turn, reply: t.reply, createdAt: now }));
      if (t.turnId !== null) s.turnIds.set(t.turnId, version);
      return version;
    },
    async history(sessionId, page) {
      const journal = sessions.get(sessionId)?.journal ?? [];
      // Entry seq n is at index n - 1.
      const from = Math.max(0, page?.after ?? 0);
      return journal.slice(from, page?.limit !== undefined ? from + page.limit : undefined).map(parseEntry);
    },
    async ping() {},
    async close() {
      sessions.clear();
    },
  };
}
