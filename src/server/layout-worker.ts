import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import { MissingDependencyError } from '../error/optional-dependency.js';
import type { WorkflowDrawing } from '../viz/drawing.js';
import { LAYOUT_REVISION, layoutDrawing, type DrawingLayout, type ElkLayouter } from '../viz/layout.js';
import type { DrawingLevel } from '../viz/overlay.js';

/**
 * ELK run in a worker thread (Node): a layout takes from a tenth of a second
 * to seconds of CPU, which on the server's own thread would hold every other
 * request that long. The worker runs elkjs's own worker build
 * (`elk-worker.min.js`, the code elkjs runs in a Web Worker in a browser) and
 * answers layouts in the order asked.
 */
export interface WorkerLayouter {
  /**
   * `layoutDrawing`, with ELK in a worker: an idle one, the one that has laid
   * out most for a layout asked for (its ELK is compiled hot: a first layout in
   * a new worker takes about 3x as long), the one that has laid out least for a
   * layout made ahead (so that every worker is hot by the time a person asks).
   */
  layout(drawing: WorkflowDrawing, level: DrawingLevel, options?: { urgent?: boolean }): Promise<DrawingLayout>;
  /** How many layouts it runs at once (its workers, 1 by default): a queue in front of it starts no more. */
  readonly workers: number;
  /**
   * Starts every worker not yet started (each loads ELK: a few tenths of a
   * second), so that the first layout asked for does not wait for that.
   */
  open(): void;
  /**
   * What decides its layouts besides the drawing: the layout code's revision,
   * gateflow's version and ELK's (a layout kept in a store under another code
   * is not served).
   */
  readonly code: string;
  /** Stops the worker (a later layout starts another). */
  close(): Promise<void>;
}

/** The version in a package's package.json, or `?` when it cannot be read. */
function versionOf(name: string): string {
  try {
    return String((createRequire(import.meta.url)(`${name}/package.json`) as { version?: unknown }).version ?? '?');
  } catch {
    return '?';
  }
}

/** Longer than any drawing a person can read takes to lay out: a layout still running then is stopped. */
const LAYOUT_LIMIT_MS = 5 * 60_000;

// CommonJS run by the worker: elkjs's worker build exports its in-process
// stand-in for a Web Worker (`Worker`), which dispatches ELK's commands.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Worker: Elk } = require(workerData);
const elk = new Elk();
elk.onmessage = (event) => {
  const { id, data, error } = event.data;
  // ELK's errors are Java exceptions compiled to JS: only their text crosses.
  if (error !== undefined) parentPort.postMessage({ id, error: String((error && error.message) || error) });
  else parentPort.postMessage({ id, data });
};
parentPort.on('message', (message) => elk.postMessage(message));
elk.postMessage({ id: 0, cmd: 'register', algorithms: ['layered'] });
`;

interface Answer {
  id: number;
  data?: ElkNode;
  error?: string;
}

/**
 * The workers of `workerLayouter` by default: one. A second lets a layout
 * asked for start beside one made ahead, but on two loaded cores it came out
 * slower, not faster (same-run medians of a machine level asked for mid-warming:
 * 731 ms with one worker, 1322 ms with two at load 10): the second worker's
 * ELK is compiled colder (a first layout in a new worker takes about 3x as
 * long), and the two share the CPU. More cores may differ: `workers` sets it.
 */
const WORKERS = 1;

export function workerLayouter(options: { workers?: number } = {}): WorkerLayouter {
  const lanes = Array.from({ length: Math.max(1, options.workers ?? WORKERS) }, () => oneWorker());
  // Layouts each lane has made: how hot its ELK is compiled.
  const made = lanes.map(() => 0);
  // The least busy lane (an idle one when a queue keeps within `workers`); among those, the hottest for a layout asked for, the coldest for one made ahead.
  const pick = (urgent: boolean): number => {
    const least = Math.min(...lanes.map((lane) => lane.busy()));
    const free = lanes.flatMap((lane, i) => (lane.busy() === least ? [i] : []));
    return free.reduce((best, i) => ((urgent ? made[i]! > made[best]! : made[i]! < made[best]!) ? i : best));
  };
  const elkFor = (urgent: boolean): ElkLayouter => ({
    layout(graph) {
      const lane = pick(urgent);
      made[lane]!++;
      return lanes[lane]!.elk.layout(graph);
    },
  });
  return {
    code: `gateflow-layout/${LAYOUT_REVISION} gateflow@${versionOf('gateflow')} elkjs@${versionOf('elkjs')}`,
    workers: lanes.length,
    layout: (drawing, level, layoutOptions) => layoutDrawing(drawing, level, { elk: elkFor(layoutOptions?.urgent === true) }),
    open: () => lanes.forEach((lane) => lane.open()),
    async close() {
      made.fill(0);
      await Promise.all(lanes.map((lane) => lane.close()));
    },
  };
}

/** One worker thread running ELK, started on its first layout (and again after it stops). */
function oneWorker(): { elk: ElkLayouter; busy(): number; open(): void; close(): Promise<void> } {
  let worker: Worker | null = null;
  let next = 1;
  const pending = new Map<number, { resolve: (graph: ElkNode) => void; reject: (error: Error) => void }>();

  const fail = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = null;
  };
  const start = (): Worker => {
    let script: string;
    try {
      script = createRequire(import.meta.url).resolve('elkjs/lib/elk-worker.min.js');
    } catch (cause) {
      throw new MissingDependencyError('elkjs', 'laying out drawings (SVG, the viewer)', { cause });
    }
    const made = new Worker(WORKER_SOURCE, { eval: true, workerData: script });
    // An idle worker does not keep the process alive.
    made.unref();
    made.on('message', (answer: Answer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return; // the answer to `register`
      pending.delete(answer.id);
      if (answer.error !== undefined) waiting.reject(new Error(`ELK could not lay the drawing out: ${answer.error}`));
      else waiting.resolve(answer.data as ElkNode);
    });
    made.on('error', (error) => worker === made && fail(error));
    made.on('exit', (code) => worker === made && fail(new Error(`the layout worker stopped (exit code ${code})`)));
    return made;
  };

  const elk: ElkLayouter = {
    layout(graph) {
      worker ??= start();
      const id = next++;
      const running = worker;
      return new Promise<ElkNode>((resolve, reject) => {
        const timer = setTimeout(() => {
          // A layout that never ends holds the worker: stop it, and the next layout starts another.
          if (pending.has(id)) void running.terminate();
        }, LAYOUT_LIMIT_MS);
        timer.unref();
        const settle = () => clearTimeout(timer);
        pending.set(id, {
          resolve: (laid) => (settle(), resolve(laid)),
          reject: (error) => (settle(), reject(error)),
        });
        running.postMessage({ id, cmd: 'layout', graph, layoutOptions: {}, options: {} });
      });
    },
  };

  return {
    elk,
    busy: () => pending.size,
    open: () => {
      try {
        worker ??= start();
      } catch {
        // elkjs missing: the first layout says so, to the one who asked.
      }
    },
    async close() {
      const running = worker;
      worker = null;
      fail(new Error('the layout worker was closed'));
      await running?.terminate();
    },
  };
}
