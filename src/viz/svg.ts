import type { DrawingLayout, LayoutBox, LayoutEdge, LayoutPoint } from './layout.js';
import { BOX_PADDING_X, BOX_PADDING_Y, CAPTION_HEIGHT, CAPTION_SIZE, EDGE_FONT_SIZE, EDGE_LINE_HEIGHT, FONT_SIZE, LINE_HEIGHT } from './layout.js';

/**
 * A laid-out drawing as a standalone SVG document: `gateflow viz --format svg`
 * writes it, the viewer inlines it. Every box is a `g.gf-node[data-id]`, every
 * edge a `g.gf-edge[data-id][data-transitions]` (a JSON array of transition ids); the viewer toggles the
 * classes `gf-active`, `gf-visited`, `gf-uncovered` and `gf-selected`, which
 * the document's own `<style>` draws. All text is XML-escaped: labels come
 * from flow documents, which anyone may write.
 */
export function drawingSvg(layout: DrawingLayout): string {
  const width = Math.max(1, Math.ceil(layout.width));
  const height = Math.max(1, Math.ceil(layout.height));
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" class="gf-drawing" data-level="${layout.level}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escapeXml(layout.title ?? layout.id)}</title>`,
    `<style>${STYLE}</style>`,
    '<defs>',
    '<marker id="gf-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="gf-arrowhead"/></marker>',
    '<marker id="gf-arrow-uncovered" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#dc2626"/></marker>',
    '</defs>',
    '<g class="gf-boxes">',
    ...layout.boxes.map(box),
    '</g>',
    '<g class="gf-edges">',
    ...layout.edges.map(edge),
    '</g>',
    '</svg>',
  ];
  return `${parts.join('\n')}\n`;
}

const STYLE = [
  '.gf-drawing{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;}',
  '.gf-node>rect.gf-box{fill:#fff;stroke:#64748b;stroke-width:1.2;}',
  '.gf-node.gf-group>rect.gf-box{fill:#f8fafc;fill-opacity:.6;stroke:#94a3b8;stroke-dasharray:none;}',
  '.gf-node>rect.gf-inner{fill:none;stroke:#64748b;stroke-width:1;}',
  `.gf-node text{font-size:${FONT_SIZE}px;fill:#0f172a;}`,
  `.gf-node text.gf-caption{font-size:${CAPTION_SIZE}px;fill:#64748b;text-transform:lowercase;}`,
  `.gf-badge text{font-size:${CAPTION_SIZE}px;fill:#7c2d12;}`,
  '.gf-badge rect{fill:#ffedd5;stroke:#fb923c;stroke-width:.8;}',
  '.gf-start,.gf-initial{fill:#0f172a;stroke:#0f172a;}',
  '.gf-edge path.gf-line{fill:none;stroke:#475569;stroke-width:1.2;marker-end:url(#gf-arrow);}',
  '.gf-arrowhead{fill:#475569;}',
  '.gf-edge.gf-targetless path.gf-line{stroke-dasharray:3 3;}',
  '.gf-edge.gf-implicit path.gf-line{stroke:#94a3b8;stroke-dasharray:2 4;}',
  '.gf-edge.gf-implicit text{fill:#64748b;font-style:italic;}',
  `.gf-edge text{font-size:${EDGE_FONT_SIZE}px;fill:#334155;}`,
  '.gf-edge rect.gf-label{fill:#fff;fill-opacity:.85;stroke:none;}',
  '.gf-node.gf-visited>rect.gf-box{stroke:#0d9488 !important;stroke-width:2;}',
  '.gf-edge.gf-visited path.gf-line{stroke:#0d9488;stroke-width:2;}',
  '.gf-node.gf-active>rect.gf-box{stroke:#ea580c !important;stroke-width:3 !important;}',
  '.gf-node.gf-active:not(.gf-group)>rect.gf-box{fill:#fff7ed !important;fill-opacity:1 !important;}',
  '.gf-edge.gf-uncovered path.gf-line{stroke:#dc2626;stroke-dasharray:6 4;marker-end:url(#gf-arrow-uncovered);}',
  '.gf-edge.gf-uncovered text{fill:#b91c1c;}',
  '.gf-node.gf-selected>rect.gf-box{stroke:#7c3aed !important;stroke-width:3 !important;}',
  '.gf-edge.gf-selected path.gf-line{stroke:#7c3aed;stroke-width:2.5;}',
  '.gf-node,.gf-edge{cursor:pointer;}',
].join('');

// Plain words: symbol glyphs are missing from many system fonts (Debian's Chromium showed an empty box).
const BADGES: Partial<Record<string, string>> = { input: 'input', path: 'path', limiting: 'limits' };

// The marks a page toggles (active, visited, selected) are !important: they
// must show on a box the author coloured, whose colour is an inline style.
function box(b: LayoutBox): string {
  const classes = ['gf-node', b.group ? 'gf-group' : null, b.final ? 'gf-final' : null, ...b.marks.map((m) => `gf-mark-${m}`)].filter((c) => c !== null);
  const attrs = `class="${classes.join(' ')}" data-id="${escapeXml(b.id)}" data-kind="${escapeXml(b.kind)}"`;
  const fill = b.color !== null && isCssColor(b.color) ? (b.group ? ` style="stroke:${b.color};stroke-width:2"` : ` style="fill:${b.color};fill-opacity:.18;stroke:${b.color}"`) : '';
  const rx = b.kind === 'decision' || b.kind === 'parallel' ? 2 : 8;
  const out = [`<g ${attrs}>`, `<title>${escapeXml(b.title)}</title>`];
  out.push(`<rect class="gf-box" x="${n(b.x)}" y="${n(b.y)}" width="${n(b.width)}" height="${n(b.height)}" rx="${rx}"${fill}/>`);
  // A final state, a terminal node: a second border inside the first.
  if (b.final) out.push(`<rect class="gf-inner" x="${n(b.x + 3)}" y="${n(b.y + 3)}" width="${n(Math.max(0, b.width - 6))}" height="${n(Math.max(0, b.height - 6))}" rx="${Math.max(0, rx - 2)}"/>`);
  let y = b.y + BOX_PADDING_Y;
  if (b.caption !== null) {
    out.push(`<text class="gf-caption" x="${n(b.x + BOX_PADDING_X)}" y="${n(y + CAPTION_SIZE)}">${escapeXml(b.caption)}</text>`);
    y += CAPTION_HEIGHT;
  }
  b.lines.forEach((line, i) => {
    out.push(`<text class="gf-label" x="${n(b.x + BOX_PADDING_X)}" y="${n(y + i * LINE_HEIGHT + FONT_SIZE)}">${escapeXml(line)}</text>`);
  });
  // Badges at the top right, one per mark that has one.
  let right = b.x + b.width - 4;
  for (const mark of b.marks) {
    const text = BADGES[mark];
    if (text === undefined) continue;
    const w = text.length * 6 + 8;
    right -= w;
    out.push(`<g class="gf-badge gf-badge-${mark}"><rect x="${n(right)}" y="${n(b.y + 4)}" width="${w}" height="15" rx="7"/><text x="${n(right + 4)}" y="${n(b.y + 15)}">${escapeXml(text)}</text></g>`);
    right -= 3;
  }
  // Where a flow starts: a dot and an arrow into the box's left side.
  if (b.marks.includes('start') || b.initial) out.push(startArrow(b, b.marks.includes('start') ? 'gf-start' : 'gf-initial'));
  out.push('</g>');
  return out.join('');
}

function startArrow(b: LayoutBox, cls: string): string {
  const y = b.y + Math.min(b.height / 2, 20);
  const x = b.x;
  return `<g class="${cls}"><circle cx="${n(x - 18)}" cy="${n(y)}" r="4"/><path d="M${n(x - 14)},${n(y)} L${n(x - 2)},${n(y)}" stroke-width="1.5"/><path d="M${n(x - 6)},${n(y - 3)} L${n(x)},${n(y)} L${n(x - 6)},${n(y + 3)} z"/></g>`;
}

function edge(e: LayoutEdge): string {
  const classes = ['gf-edge', e.targetless ? 'gf-targetless' : null, e.implicit ? 'gf-implicit' : null].filter((c) => c !== null);
  const attrs = `class="${classes.join(' ')}" data-id="${escapeXml(e.id)}" data-source="${escapeXml(e.source)}" data-target="${escapeXml(e.target)}" data-transitions="${escapeXml(JSON.stringify(e.transitions))}"`;
  const out = [`<g ${attrs}>`];
  if (e.label !== null) out.push(`<title>${escapeXml(e.label)}</title>`);
  if (e.points.length > 1) out.push(`<path class="gf-line" d="${pathData(e.points)}"/>`);
  if (e.labelBox !== null && e.labelLines.length > 0) {
    const l = e.labelBox;
    out.push(`<rect class="gf-label" x="${n(l.x)}" y="${n(l.y)}" width="${n(l.width)}" height="${n(l.height)}"/>`);
    e.labelLines.forEach((line, i) => {
      out.push(`<text x="${n(l.x + 2)}" y="${n(l.y + i * EDGE_LINE_HEIGHT + EDGE_FONT_SIZE)}">${escapeXml(line)}</text>`);
    });
  }
  out.push('</g>');
  return out.join('');
}

function pathData(points: readonly LayoutPoint[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${n(p.x)},${n(p.y)}`).join(' ');
}

/** A number for an attribute: rounded to a tenth, never NaN. */
function n(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 10) / 10) : '0';
}

/** Colours only as CSS colour literals (`#2563eb`, `rgb(...)`, `teal`): an author's string never reaches a style attribute otherwise. */
function isCssColor(value: string): boolean {
  return /^#[0-9a-f]{3,8}$/i.test(value) || /^(rgb|hsl)a?\([\d\s.,%/]+\)$/i.test(value) || /^[a-z]{3,20}$/i.test(value);
}

/** Text and attribute values made inert: `& < > " '` become entities, and characters XML forbids are dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
