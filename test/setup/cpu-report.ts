/**
 * With GATEFLOW_TEST_CPU_REPORT=<file>, each test file appends a line to that
 * file: its path and the CPU seconds its worker process and the children it
 * waited for (servers, CLI runs, the browser) used. The suite's time on two
 * cores is bound by its CPU, so this says where the time goes, whatever the
 * load on the machine (wall times do not).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

const report = process.env.GATEFLOW_TEST_CPU_REPORT;

/** utime + stime + cutime + cstime of this process, in seconds (Linux: /proc/self/stat, in clock ticks of 1/100 s). */
function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14-17 of stat(5), counted from the state (field 3) at index 0.
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

if (report) {
  const start = cpuSeconds();
  afterAll(() => {
    const file = expect.getState().testPath ?? 'unknown';
    appendFileSync(report, `${file}\t${(cpuSeconds() - start).toFixed(2)}\n`);
  });
}
