import type { GateRecord } from '../inputs/gate.js';
import {
  ConflictError,
  type CommittedTurn,
  type InputFilter,
  type JournalEntry,
  type NewSession,
  type NewSessionEvent,
  type SessionEvent,
  type SessionRecord,
  type SessionSummary,
  type Store,
  steppedEvent,
  LAYOUTS_PER_DRAWING,
  layoutBytes,
  MAX_LAYOUT_BYTES,
  MAX_LAYOUTS,
  type LayoutKey,
} from './types.js';

/**
 * Sessions in a Map: for tests, benchmarks and the browser. Values are kept as
 * JSON text, as a database would, so that nothing shares objects with callers.
 */
export function createMemoryStore(): Store {
  // `n` orders sessions by creation, as the SQL stores' bigserial does.
  // Beside the record's text, what a commit checks and announces (version, flow, owner): a commit need not parse the record.
  const sessions = new Map<
    string,
    { record: string; version: number; flowId: string; owner: string | null; createdAt: string; journal: string[]; turnIds: Map<string, number>; n: number }
  >();
  let created = 0;
  // Gates by id (JSON text, with a lease time kept beside it), and the announcements in order.
  const gates = new Map<string, { gate: string; leaseUntil: number; place: number }>();
  // The order gates were opened in, as the SQL stores' `n`.
  let places = 0;
  // The announcements: JSON text of those a caller gave, and each step's own (made here, never shared) as is.
  let events: (string | Stepped)[] = [];
  // Layouts by key, oldest first (a Map keeps insertion order: one stored again moves to the end).
  const layouts = new Map<string, { drawingId: string; body: string }>();
  const layoutKey = (k: LayoutKey) => JSON.stringify([k.drawingId, k.contentHash, k.level, k.code]);
  const parseRecord = (text: string): SessionRecord => {
    const r = JSON.parse(text) as SessionRecord & { createdAt: string; updatedAt: string };
    return { ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) };
  };
  const parseEntry = (text: string): JournalEntry => {
    const e = JSON.parse(text) as JournalEntry & { createdAt: string };
    return { ...e, createdAt: new Date(e.createdAt) };
  };
  const parseGate = (text: string): GateRecord => {
    const g = JSON.parse(text) as GateRecord & { deadline: string | null; openedAt: string; closedAt: string | null };
    return {
      ...g,
      deadline: g.deadline === null ? null : new Date(g.deadline),
      openedAt: new Date(g.openedAt),
      closedAt: g.closedAt === null ? null : new Date(g.closedAt),
    };
  };
  const parseEvent = (held: string | Stepped, index: number): SessionEvent => {
    if (typeof held !== 'string') {
      const { sessionId, workflowId, owner, seq, status, at } = held;
      return { ...steppedEvent({ sessionId, workflowId, owner }, seq, status), id: index + 1, createdAt: new Date(at) };
    }
    const e = JSON.parse(held) as SessionEvent & { createdAt: string };
    return { ...e, createdAt: new Date(e.createdAt) };
  };
  const openGates = (sessionId: string) =>
    [...gates.values()]
      .map((g) => parseGate(g.gate))
      .filter((g) => g.sessionId === sessionId && g.status === 'open')
      .sort(byOpening);
  const announce = (list: readonly NewSessionEvent[] | undefined) => {
    for (const e of list ?? []) events.push(JSON.stringify({ ...e, id: events.length + 1, createdAt: new Date().toISOString() }));
  };

  return {
    kind: 'memory',
    async create(s: NewSession) {
      if (sessions.has(s.sessionId)) throw new ConflictError(`session ${s.sessionId} exists`);
      const now = new Date().toISOString();
      const { reply, gates: opened, events: announced, trace } = s;
      // The record's fields written out (a rest copy and a spread are slow paths), its times as the text JSON writes for a Date (see commitTurn).
      const record = { sessionId: s.sessionId, flowId: s.flowId, flowVersion: s.flowVersion, snapshot: s.snapshot, owner: s.owner, version: 1, status: reply.status, createdAt: now, updatedAt: now };
      const entry = { seq: 1, turnId: null, turn: null, reply, trace: trace ?? [], createdAt: now };
      sessions.set(s.sessionId, {
        record: JSON.stringify(record),
        version: 1,
        flowId: s.flowId,
        owner: s.owner,
        createdAt: now,
        journal: [JSON.stringify(entry)],
        turnIds: new Map(),
        n: ++created,
      });
      for (const g of opened ?? []) gates.set(g.gateId, { gate: JSON.stringify(g), leaseUntil: 0, place: ++places });
      announce(announced);
    },
    async load(sessionId, turnId) {
      const s = sessions.get(sessionId);
      if (!s) return null;
      const seq = turnId !== undefined ? s.turnIds.get(turnId) : undefined;
      return { session: parseRecord(s.record), replayed: seq !== undefined ? parseEntry(s.journal[seq - 1]!) : null, gates: openGates(sessionId) };
    },
    async commitTurn(sessionId, expectedVersion, t: CommittedTurn) {
      const s = sessions.get(sessionId);
      if (!s) throw new ConflictError(`session ${sessionId} does not exist`);
      // Writes that must commit with the turn need a database to commit in.
      if (t.effects) throw new Error(`memory store: session ${sessionId}: this workflow keeps data in a SQL database; use the PGlite or PostgreSQL store`);
      if (s.version !== expectedVersion) throw new ConflictError(`session ${sessionId} is at version ${s.version}, not ${expectedVersion}`);
      if (t.turnId !== null && s.turnIds.has(t.turnId)) throw new ConflictError(`turn ${t.turnId} is already taken`);
      const now = new Date();
      // Times as the text JSON writes for a Date (a Date in the value would be written through its toJSON, slower).
      const at = now.toISOString();
      const version = expectedVersion + 1;
      // The record's fields in the order create() wrote them (its JSON reads back the same).
      const record: Omit<SessionRecord, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string } = {
        sessionId,
        flowId: s.flowId,
        flowVersion: t.flowVersion,
        snapshot: t.snapshot,
        owner: s.owner,
        version,
        status: t.reply.status,
        createdAt: s.createdAt,
        updatedAt: at,
      };
      s.record = JSON.stringify(record);
      s.version = version;
      s.journal.push(JSON.stringify({ seq: version, turnId: t.turnId, turn: t.turn, reply: t.reply, trace: t.trace ?? [], createdAt: at }));
      if (t.turnId !== null) s.turnIds.set(t.turnId, version);
      for (const g of t.gates?.opened ?? []) gates.set(g.gateId, { gate: JSON.stringify(g), leaseUntil: 0, place: ++places });
      for (const c of t.gates?.closed ?? []) {
        const held = gates.get(c.gateId);
        if (!held) continue;
        const gate = parseGate(held.gate);
        if (gate.status !== 'open') continue;
        held.gate = JSON.stringify({ ...gate, status: c.status, value: c.value ?? null, answeredBy: c.answeredBy ?? null, closedAt: now });
      }
      announce(t.events);
      // Last, as a SQL store reads it from the journal: the step itself (built into an event when read).
      events.push({ sessionId, workflowId: s.flowId, owner: s.owner, seq: version, status: t.reply.status, at: now.getTime() });
      return version;
    },
    async history(sessionId, page) {
      const journal = sessions.get(sessionId)?.journal ?? [];
      // Entry seq n is at index n - 1.
      const from = Math.max(0, page?.after ?? 0);
      return journal.slice(from, page?.limit !== undefined ? from + page.limit : undefined).map(parseEntry);
    },
    async listSessions(filter) {
      const found: SessionSummary[] = [];
      // Insertion order is creation order: walk it backwards for newest first.
      for (const held of [...sessions.values()].reverse()) {
        if (found.length >= filter.limit) break;
        if (filter.after !== undefined && held.n >= filter.after) continue;
        const r = parseRecord(held.record);
        if (filter.visibleTo && r.owner !== null && r.owner !== filter.visibleTo.owner) continue;
        if (filter.workflowId !== undefined && r.flowId !== filter.workflowId) continue;
        if (filter.status !== undefined && r.status !== filter.status) continue;
        const { snapshot, sessionId, flowId, flowVersion, status, version, owner, createdAt, updatedAt } = r;
        const state = (snapshot as { value?: unknown }).value ?? null;
        found.push({ sessionId, flowId, flowVersion, state, status, version, owner, createdAt, updatedAt, cursor: held.n });
      }
      return found;
    },
    async findInput(gateId) {
      const held = gates.get(gateId);
      return held ? parseGate(held.gate) : null;
    },
    async listInputs(filter: InputFilter = {}) {
      const v = filter.visibleTo;
      const after = filter.after ?? 0;
      return [...gates.values()]
        .filter((held) => held.place > after)
        .map((held) => ({ ...parseGate(held.gate), place: held.place }))
        .filter(
          (g) =>
            g.status === 'open' &&
            (filter.sessionId === undefined || g.sessionId === filter.sessionId) &&
            (filter.workflowId === undefined || g.workflowId === filter.workflowId) &&
            (v === undefined || (g.owner === null && v.owner === null) || (g.to === null && g.owner === v.owner) || (g.to !== null && v.roles.includes(g.to))),
        )
        .sort((a, b) => a.place - b.place)
        .slice(0, filter.limit ?? 500);
    },
    async claimDueInputs(now, leaseMs, limit) {
      const due = [...gates.values()]
        .map((held) => ({ held, gate: parseGate(held.gate) }))
        .filter(({ held, gate }) => gate.status === 'open' && gate.deadline !== null && gate.deadline <= now && held.leaseUntil <= now.getTime())
        .sort((a, b) => a.gate.deadline!.getTime() - b.gate.deadline!.getTime())
        .slice(0, limit);
      for (const { held } of due) held.leaseUntil = now.getTime() + leaseMs;
      return [...new Set(due.map(({ gate }) => gate.sessionId))];
    },
    async nextDeadline() {
      let next: Date | null = null;
      for (const held of gates.values()) {
        const g = parseGate(held.gate);
        if (g.status === 'open' && g.deadline !== null && (next === null || g.deadline < next)) next = g.deadline;
      }
      return next;
    },
    async readEvents(after, limit) {
      const from = Math.max(0, after);
      return events.slice(from, from + limit).map((e, i) => parseEvent(e, from + i));
    },
    async lastEventId() {
      return events.length;
    },
    async ping() {},
    layouts: {
      async get(key) {
        return layouts.get(layoutKey(key))?.body ?? null;
      },
      async put(key, body) {
        if (layoutBytes(body) > MAX_LAYOUT_BYTES) return false;
        const k = layoutKey(key);
        layouts.delete(k);
        layouts.set(k, { drawingId: key.drawingId, body });
        // The newest kept: LAYOUTS_PER_DRAWING of this drawing, MAX_LAYOUTS in all.
        const mine = [...layouts].filter(([, l]) => l.drawingId === key.drawingId);
        for (const [old] of mine.slice(0, Math.max(0, mine.length - LAYOUTS_PER_DRAWING))) layouts.delete(old);
        for (const old of [...layouts.keys()].slice(0, Math.max(0, layouts.size - MAX_LAYOUTS))) layouts.delete(old);
        return true;
      },
    },
    async close() {
      layouts.clear();
      sessions.clear();
      gates.clear();
      events = [];
    },
  };
}

/** A step's announcement as the memory store keeps it: what `session.stepped` says, and when. */
interface Stepped {
  sessionId: string;
  workflowId: string;
  owner: string | null;
  seq: number;
  status: string;
  at: number;
}

// Gates are kept in the order they were opened (a Map keeps insertion order; the sort is stable).
const byOpening = (a: GateRecord, b: GateRecord) => a.openedAt.getTime() - b.openedAt.getTime();
