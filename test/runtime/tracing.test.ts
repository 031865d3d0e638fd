/**
 * Every turn of every workflow is a span (OpenTelemetry, through
 * @opentelemetry/api): the workflow, the session, the state before and after,
 * the outcome and the store round trips. A no-op unless the host installs an
 * SDK; here the SDK's in-memory exporter catches them.
 */
import type { Turn } from '../../src/workflow/turn.js';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { greetingWorkflow } from '../fixtures/greeting-workflow.js';
import { approvalWorkflow } from '../helpers/approval-workflow.js';
import { GATE_1, GATE_2, seedFlow } from '../helpers/intake.js';

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, tracer: provider.getTracer('test') };
}

const attributesOf = (span: ReadableSpan) => ({ name: span.name, ...span.attributes });

describe('a span per turn', () => {
  afterEach(() => trace.disable());

  it('records gate answers, refusals and cancels as spans of their own', async () => {
    const { exporter, tracer } = sdk();
    const runtime = createRuntime({ workflows: [approvalWorkflow], store: createMemoryStore(), tracer });
    const { sessionId, reply } = await runtime.start('approval');
    const gateId = reply.inputs![0]!.gateId;
    await expect(runtime.answer(gateId, 'no email')).rejects.toMatchObject({ code: 'invalid_input_value' });
    await runtime.answer(gateId, 'ana@example.com');
    await runtime.cancel(sessionId);
    const spans = exporter.getFinishedSpans().map(attributesOf);
    expect(spans.slice(1)).toEqual([
      expect.objectContaining({ name: 'gateflow.answer', 'gateflow.input.id': gateId, 'gateflow.session.id': sessionId, 'gateflow.turn.outcome': 'invalid_input_value' }),
      expect.objectContaining({
        name: 'gateflow.answer',
        'gateflow.input.name': 'email',
        'gateflow.state.before': 'contact',
        'gateflow.state.after': 'approval',
        'gateflow.turn.outcome': 'applied',
      }),
      expect.objectContaining({ name: 'gateflow.cancel', 'gateflow.session.id': sessionId, 'gateflow.turn.outcome': 'applied' }),
    ]);
    runtime.close();
  });

  it('records workflow, session, states, outcome and round trips for each turn of a flow', async () => {
    const { exporter, tracer } = sdk();
    const runtime = createFlowRuntime({ flows: [seedFlow()], store: createMemoryStore(), tracer });
    const { sessionId } = await runtime.start('seed-gates');
    await runtime.turn(sessionId, { button: 'Yes', turnId: 't1' });
    await runtime.turn(sessionId, { button: 'Yes', turnId: 't1' });
    await expect(runtime.turn(sessionId, { nope: 1 } as unknown as Turn)).rejects.toMatchObject({ code: 'invalid_turn' });
    await expect(runtime.turn('AAAAAAAAAAAAAAAAAAAAAAAA', { button: 'Yes' })).rejects.toMatchObject({ code: 'session_not_found' });

    const spans = exporter.getFinishedSpans().map(attributesOf);
    expect(spans).toEqual([
      expect.objectContaining({
        name: 'gateflow.start',
        'gateflow.workflow.id': 'seed-gates',
        'gateflow.workflow.version': '1',
        'gateflow.session.id': sessionId,
        'gateflow.state.after': JSON.stringify({ [GATE_1]: 'asking' }),
        'gateflow.store.round_trips': 1,
      }),
      expect.objectContaining({
        name: 'gateflow.turn',
        'gateflow.workflow.id': 'seed-gates',
        'gateflow.session.id': sessionId,
        'gateflow.turn.kind': 'button',
        'gateflow.state.before': JSON.stringify({ [GATE_1]: 'asking' }),
        'gateflow.state.after': JSON.stringify({ [GATE_2]: 'asking' }),
        'gateflow.turn.outcome': 'applied',
        'gateflow.turn.conflicts': 0,
        // This process saved the session last: the commit alone (its version check says it was still current).
        'gateflow.store.round_trips': 1,
      }),
      expect.objectContaining({ name: 'gateflow.turn', 'gateflow.turn.outcome': 'replayed', 'gateflow.store.round_trips': 1 }),
      expect.objectContaining({ name: 'gateflow.turn', 'gateflow.turn.outcome': 'invalid_turn' }),
      expect.objectContaining({ name: 'gateflow.turn', 'gateflow.turn.outcome': 'session_not_found', 'gateflow.store.round_trips': 1 }),
    ]);
    // A caller's mistake is not an error of the service; the spans say what happened all the same.
    expect(exporter.getFinishedSpans().every((s) => s.status.code !== 2)).toBe(true);
  });

  it('marks a span as an error when the store fails, and works for a hand-written workflow through the global tracer', async () => {
    const { exporter, provider } = sdk();
    trace.setGlobalTracerProvider(provider);
    const store = createMemoryStore();
    const runtime = createRuntime({ workflows: [greetingWorkflow], store });
    const { sessionId } = await runtime.start('greeting');
    await runtime.turn(sessionId, { text: 'Ada' });
    store.commitTurn = async () => {
      const { StoreUnavailableError } = await import('../../src/store/types.js');
      throw new StoreUnavailableError('down');
    };
    await expect(runtime.turn(sessionId, { button: 'yes' })).rejects.toMatchObject({ code: 'store_unavailable' });

    const turns = exporter.getFinishedSpans().filter((s) => s.name === 'gateflow.turn');
    expect(turns.map(attributesOf)).toEqual([
      expect.objectContaining({ 'gateflow.workflow.id': 'greeting', 'gateflow.state.before': 'askingName', 'gateflow.state.after': 'confirming' }),
      expect.objectContaining({ 'gateflow.workflow.id': 'greeting', 'gateflow.state.before': 'confirming', 'gateflow.turn.outcome': 'store_unavailable' }),
    ]);
    expect(turns[1]!.status.code).toBe(2);
    expect(turns[1]!.events.map((e) => e.name)).toContain('exception');
  });

  it('costs nothing without an SDK: no spans, same replies', async () => {
    const runtime = createFlowRuntime({ flows: [seedFlow()], store: createMemoryStore() });
    const { sessionId } = await runtime.start('seed-gates');
    expect((await runtime.turn(sessionId, { button: 'Yes' })).state).toEqual({ [GATE_2]: 'asking' });
  });
});
