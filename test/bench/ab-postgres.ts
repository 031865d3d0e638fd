/**
 * A PostgreSQL turn before and after a change, in one run: the tree at AB_BASE (a git ref, default
 * `main`, exported with `git archive` into a temporary directory) and this working tree, each a runtime
 * on a schema of its own, driven in alternating rounds in one process, with one durable INSERT on its
 * own between rounds (the floor of a turn that writes once). Prints per side the turn p50 and p95,
 * the last turn's p50 (it announces the session finished) and the process CPU per conversation, so
 * that a speedup of a few per cent shows above the machine's drift:
 *
 *   GATEFLOW_TEST_DATABASE_URL=postgres://… AB_BASE=main npx tsx test/bench/ab-postgres.ts
 *
 * (package.json and tsconfig.json come along: tsx reads the module type from them.)
 * AB_WARMUP (default 400) conversations per side unmeasured, then AB_ROUNDS (8) rounds of AB_PER (60).
 * The two sides share the process (and the `pg` package): CPU is each side's batches, not its own process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Store } from '../../src/store/types.js';
import { createTestSchema } from '../helpers/postgres.js';
import { PROFILE_INTAKE } from './profile-intake.js';

const BASE = process.env.AB_BASE ?? 'main';
const WARMUP = Number(process.env.AB_WARMUP ?? 400);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const PER = Number(process.env.AB_PER ?? 60);

const here = fileURLToPath(new URL('../..', import.meta.url));
const baseDir = mkdtempSync(join(tmpdir(), 'gateflow-ab-'));
execFileSync('sh', ['-c', `git -C "${here}" archive "${BASE}" package.json tsconfig.json src machines test | tar -x -C "${baseDir}"`]);
symlinkSync(join(here, 'node_modules'), join(baseDir, 'node_modules'));

interface Side {
  name: string;
  conversation(samples?: number[], last?: number[]): Promise<void>;
  close(): Promise<void>;
  ms: number[];
  lastMs: number[];
  cpu: number;
  n: number;
}

async function side(name: string, dir: string): Promise<Side> {
  const { createFlowRuntime } = (await import(join(dir, 'src/flow/runtime.ts'))) as { createFlowRuntime: (o: unknown) => Runtime };
  const { createPostgresStore } = (await import(join(dir, 'src/store/postgres.ts'))) as { createPostgresStore: (o: unknown) => Promise<Store> };
  const { profileFlow } = (await import(join(dir, 'test/bench/profile-intake.ts'))) as { profileFlow: { id: string } };
  const schema = await createTestSchema(`gf_ab_${name}`);
  const store = await createPostgresStore({ connectionString: schema.url, max: 20 });
  const runtime = createFlowRuntime({ flows: [profileFlow], store });
  return {
    name,
    ms: [],
    lastMs: [],
    cpu: 0,
    n: 0,
    conversation: async (samples, last) => {
      const { sessionId } = await runtime.start(profileFlow.id);
      for (const turn of PROFILE_INTAKE) {
        const t0 = performance.now();
        await runtime.turn(sessionId, turn);
        samples?.push(performance.now() - t0);
      }
      if (samples) last?.push(samples.at(-1)!);
    },
    close: async () => {
      runtime.close();
      await store.close();
      await schema.drop();
    },
  };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const p = (a: number[], q: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(q * a.length))]!;

const sides = [await side('before', baseDir), await side('after', here)];
const floorSchema = await createTestSchema('gf_ab_floor');
const floorClient = new pg.Client({ connectionString: floorSchema.url });
await floorClient.connect();
await floorClient.query('CREATE TABLE bench_commits (id bigserial PRIMARY KEY, body text NOT NULL)');
const floor: number[] = [];
try {
  for (const s of sides) for (let i = 0; i < WARMUP; i++) await s.conversation();
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of r % 2 ? [...sides].reverse() : sides) {
      const c0 = cpuMs();
      for (let i = 0; i < PER; i++) await s.conversation(s.ms, s.lastMs);
      s.cpu += cpuMs() - c0;
      s.n += PER;
    }
    for (let i = 0; i < PER; i++) {
      const t0 = performance.now();
      await floorClient.query({ name: 'floor', text: 'INSERT INTO bench_commits (body) VALUES ($1)', values: ['x'.repeat(400)] });
      floor.push(performance.now() - t0);
    }
  }
  console.log(`${BASE} (before) and this tree (after): ${ROUNDS} alternating rounds of ${PER} intakes each after ${WARMUP} unmeasured`);
  console.table(
    sides.map((s) => ({
      side: s.name,
      'turn p50 ms': p(s.ms, 0.5).toFixed(3),
      'turn p95 ms': p(s.ms, 0.95).toFixed(3),
      'last turn p50 ms': p(s.lastMs, 0.5).toFixed(3),
      'CPU ms/conversation': (s.cpu / s.n).toFixed(3),
    })),
  );
  console.log(
    `one durable INSERT p50 ${p(floor, 0.5).toFixed(3)} ms; after / before turn p50 ${(p(sides[1]!.ms, 0.5) / p(sides[0]!.ms, 0.5)).toFixed(3)}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const s of sides) await s.close();
  await floorClient.end();
  await floorSchema.drop();
  rmSync(baseDir, { recursive: true, force: true });
}
