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
  // `n` orders sessions by creation, as the SQL stores' bigserial does. A record is kept as its
  // fields, the snapshot (the one value a caller could change) as JSON text: a commit writes the
  // snapshot's text and sets the rest, with no record object to build and write out. Times are
  // kept as milliseconds (a Date's text costs a commit more than the rest of its fields).
  const sessions = new Map<string, HeldSession>();
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
  const parseRecord = (s: HeldSession): SessionRecord => ({
    sessionId: s.sessionId,
    flowId: s.flowId,
    flowVersion: s.flowVersion,
    snapshot: JSON.parse(s.snapshot) as SessionRecord['snapshot'],
    owner: s.owner,
    version: s.version,
    status: s.status,
    createdAt: new Date(s.createdAt),
    updatedAt: new Date(s.updatedAt),
  });
  const parseEntry = (text: string): JournalEntry => {
    // createdAt: milliseconds (a Date reads them as it reads the ISO text entries once had).
    const e = JSON.parse(text) as JournalEntry & { createdAt: number };
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
    const e = JSON.parse(held) as SessionEvent & { createdAt: number };
    return { ...e, createdAt: new Date(e.createdAt) };
  };
  const openGates = (sessionId: string) =>
    [...gates.values()]
      .map((g) => parseGate(g.gate))
      .filter((g) => g.sessionId === sessionId && g.status === 'open')
      .sort(byOpening);
  const announce = (list: readonly NewSessionEvent[] | undefined) => {
    // Written out (a spread that adds keys is a slow path), the time in milliseconds as the store's other times.
    for (const e of list ?? [])
      events.push(
        JSON.stringify({ type: e.type, sessionId: e.sessionId, workflowId: e.workflowId, owner: e.owner, to: e.to, gateId: e.gateId, data: e.data, id: events.length + 1, createdAt: Date.now() }),
      );
  };

  return {
    kind: 'memory',
    async create(s: NewSession) {
      if (sessions.has(s.sessionId)) throw new ConflictError(`session ${s.sessionId} exists`);
      const now = Date.now();
      const { reply, gates: opened, events: announced, trace } = s;
      const entry = { seq: 1, turnId: null, turn: null, reply, trace: trace ?? [], createdAt: now };
      sessions.set(s.sessionId, {
        sessionId: s.sessionId,
        flowId: s.flowId,
        flowVersion: s.flowVersion,
        snapshot: JSON.stringify(s.snapshot),
        owner: s.owner,
        version: 1,
        status: reply.status,
        createdAt: now,
        updatedAt: now,
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
      return { session: parseRecord(s), replayed: seq !== undefined ? parseEntry(s.journal[seq - 1]!) : null, gates: openGates(sessionId) };
    },
    async commitTurn(sessionId, expectedVersion, t: CommittedTurn) {
      const s = sessions.get(sessionId);
      if (!s) throw new ConflictError(`session ${sessionId} does not exist`);
      // Writes that must commit with the turn need a database to commit in.
      if (t.effects) throw new Error(`memory store: session ${sessionId}: this workflow keeps data in a SQL database; use the PGlite or PostgreSQL store`);
      if (s.version !== expectedVersion) throw new ConflictError(`session ${sessionId} is at version ${s.version}, not ${expectedVersion}`);
      if (t.turnId !== null && s.turnIds.has(t.turnId)) throw new ConflictError(`turn ${t.turnId} is already taken`);
      const at = Date.now();
      const version = expectedVersion + 1;
      // Written before anything changes: a value JSON cannot write (a cycle, a BigInt) fails the commit, not half of it.
      const snapshot = JSON.stringify(t.snapshot);
      const entry = JSON.stringify({ seq: version, turnId: t.turnId, turn: t.turn, reply: t.reply, trace: t.trace ?? [], createdAt: at });
      s.snapshot = snapshot;
      s.flowVersion = t.flowVersion;
      s.status = t.reply.status;
      s.updatedAt = at;
      s.version = version;
      s.journal.push(entry);
      if (t.turnId !== null) s.turnIds.set(t.turnId, version);
      for (const g of t.gates?.opened ?? []) gates.set(g.gateId, { gate: JSON.stringify(g), leaseUntil: 0, place: ++places });
      for (const c of t.gates?.closed ?? []) {
        const held = gates.get(c.gateId);
        if (!held) continue;
        const gate = parseGate(held.gate);
        if (gate.status !== 'open') continue;
        held.gate = JSON.stringify({ ...gate, status: c.status, value: c.value ?? null, answeredBy: c.answeredBy ?? null, closedAt: new Date(at).toISOString() });
      }
      announce(t.events);
      // Last, as a SQL store reads it from the journal: the step itself (built into an event when read).
      events.push({ sessionId, workflowId: s.flowId, owner: s.owner, seq: version, status: t.reply.status, at });
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
        if (filter.visibleTo && held.owner !== null && held.owner !== filter.visibleTo.owner) continue;
        if (filter.workflowId !== undefined && held.flowId !== filter.workflowId) continue;
        if (filter.status !== undefined && held.status !== filter.status) continue;
        const { snapshot, sessionId, flowId, flowVersion, status, version, owner, createdAt, updatedAt } = parseRecord(held);
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

/** A session as the memory store keeps it: its record's fields (the snapshot as JSON text, times in ms), its journal (JSON text). */
interface HeldSession {
  sessionId: string;
  flowId: string;
  flowVersion: SessionRecord['flowVersion'];
  snapshot: string;
  owner: string | null;
  version: number;
  status: SessionRecord['status'];
  createdAt: number;
  updatedAt: number;
  journal: string[];
  turnIds: Map<string, number>;
  n: number;
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
