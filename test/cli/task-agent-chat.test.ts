/**
 * `gateflow chat task-agent`: the goal is read from stdin, the agent works on
 * the store `gateflow serve` would open (PGlite with Apache AGE in
 * GATEFLOW_DB_DIR, a new directory here), and `gateflow graph --json` then
 * shows its change. Both commands run in this process (the CLI's main with
 * in-memory streams): what they read, print and return is what is checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('gateflow chat task-agent', () => {
  it('does an explicit goal without a model, on the store that `gateflow graph` reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-agent-chat-'));
    dirs.push(dir);
    const env = { GATEFLOW_DB_DIR: join(dir, 'db') };
    const chat = await runCli(['chat', 'task-agent', '--json'], { input: `${JSON.stringify({ text: "Create a Ticket node with key 'T-7' and status open." })}\n`, env });
    expect(chat.status, chat.stderr).toBe(0);
    const replies = chat.stdout.trim().split('\n').map((l) => JSON.parse(l) as { state: string; message: string });
    expect(replies.map((r) => r.state)).toEqual(['idle', 'done']);
    expect(replies[1]!.message).toContain("create node Ticket 'T-7': done");
    const graph = await runCli(['graph', '--json'], { env });
    expect(graph.status, graph.stderr).toBe(0);
    expect(JSON.parse(graph.stdout)).toEqual({ nodes: [{ label: 'Ticket', key: 'T-7', properties: { status: 'open' } }], edges: [] });
  });
});
