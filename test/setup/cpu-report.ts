/**
 * With GATEFLOW_TEST_CPU_REPORT=<file>, each test file appends a line to that
 * file: its path and the CPU seconds its worker process and its children
 * (servers, CLI runs, the browser and its renderers) used. The suite's time on
 * two cores is bound by its CPU, so this says where the time goes, whatever
 * the load on the machine (wall times do not). With
 * GATEFLOW_TEST_CPU_REPORT_TESTS=1 each test gets a line too (file, test name,
 * seconds).
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';

const report = process.env.GATEFLOW_TEST_CPU_REPORT;
const perTest = process.env.GATEFLOW_TEST_CPU_REPORT_TESTS === '1';

interface ProcStat {
  ppid: number;
  /** utime + stime + cutime + cstime, in clock ticks of 1/100 s. */
  ticks: number;
}

/** Fields of /proc/<pid>/stat (stat(5)), counted from the state (field 3) at index 0. */
function procStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) };
  } catch {
    return undefined; // exited meanwhile
  }
}

/**
 * This process's CPU seconds, with its live descendants' (a browser's
 * renderers are not waited for until the browser closes) and the children it
 * has waited for.
 */
function cpuSeconds(): number {
  const stats = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat) stats.set(Number(name), stat);
  }
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let ticks = 0;
  const pending = [process.pid];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return ticks / 100;
}

if (report) {
  const start = cpuSeconds();
  if (perTest) {
    let testStart = 0;
    beforeEach(() => {
      testStart = cpuSeconds();
    });
    afterEach(() => {
      const { testPath, currentTestName } = expect.getState();
      appendFileSync(report, `${testPath ?? 'unknown'}\t${currentTestName ?? '?'}\t${(cpuSeconds() - testStart).toFixed(2)}\n`);
    });
  }
  afterAll(() => {
    const file = expect.getState().testPath ?? 'unknown';
    appendFileSync(report, `${file}\t${(cpuSeconds() - start).toFixed(2)}\n`);
  });
}
