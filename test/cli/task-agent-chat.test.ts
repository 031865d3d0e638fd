/**
 * `gateflow chat task-agent` in a real process: the goal is read from stdin,
 * the agent works on the store `gateflow serve` would open (PGlite with Apache
 * AGE in GATEFLOW_DB_DIR), and `gateflow graph --json` then shows its change.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/serve-process.js';
import { cliArgs } from '../helpers/cli.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function gateflow(args: string[], input: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgs(...args), { env: { ...cleanEnv(), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('gateflow chat task-agent', () => {
  it('does an explicit goal without a model, on the store that `gateflow graph` reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-agent-chat-'));
    dirs.push(dir);
    const env = { GATEFLOW_DB_DIR: join(dir, 'db') };
    const chat = await gateflow(['chat', 'task-agent', '--json'], `${JSON.stringify({ text: "Create a Ticket node with key 'T-7' and status open." })}\n`, env);
    expect(chat.code, chat.stderr).toBe(0);
    const replies = chat.stdout.trim().split('\n').map((l) => JSON.parse(l) as { state: string; message: string });
    expect(replies.map((r) => r.state)).toEqual(['idle', 'done']);
    expect(replies[1]!.message).toContain("create node Ticket 'T-7': done");
    const graph = await gateflow(['graph', '--json'], '', env);
    expect(graph.code, graph.stderr).toBe(0);
    expect(JSON.parse(graph.stdout)).toEqual({ nodes: [{ label: 'Ticket', key: 'T-7', properties: { status: 'open' } }], edges: [] });
  });
});
