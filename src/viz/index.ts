import type { AnyStateMachine } from 'xstate';
import { toDot } from './dot.js';
import { toMermaid } from './mermaid.js';
import { machineDrawing } from './model.js';

export { ALWAYS_EVENT, actionName, guardLabel, machineDrawing, transitionName } from './model.js';
export type { DrawnInput, DrawnInvoke, DrawnState, DrawnStateType, DrawnTransition, MachineDrawing } from './model.js';
export { escapeMermaid, mermaidId, mermaidIds, toMermaid } from './mermaid.js';
export { quote as dotQuote, toDot } from './dot.js';
export { inputLines, transitionLabel } from './label.js';
export { DRAWING_FORMAT, standaloneMachineDrawing, workflowDrawing } from './drawing.js';
export type { Outline, OutlineDetail, OutlineEdge, OutlineMark, OutlineNode, OutlinePath, OutlineUi, WorkflowDrawing } from './drawing.js';
export { layoutDrawing, wrap as wrapLabel } from './layout.js';
export type { DrawingLayout, LayoutBox, LayoutEdge, LayoutPoint, LayoutRect } from './layout.js';
export { drawingSvg, escapeXml } from './svg.js';
export { activeIds, activeStateIds, effectiveLevel, outlineEdgeTransitions, uncoveredEdgeIds, type CoverageSource, type DrawingLevel } from './overlay.js';

export type DrawingFormat = 'mermaid' | 'dot' | 'json';

/** Draws any XState v5 machine as Mermaid, Graphviz DOT, or the JSON drawing model. */
export function drawMachine(machine: AnyStateMachine, format: DrawingFormat): string {
  const drawing = machineDrawing(machine);
  switch (format) {
    case 'mermaid':
      return toMermaid(drawing);
    case 'dot':
      return toDot(drawing);
    case 'json':
      return JSON.stringify(drawing, null, 2);
  }
}
