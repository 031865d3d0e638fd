/**
 * The widget's styles, scoped under `.gf-chat` and themed with CSS variables.
 * Rendered as a React 19 hoisted <style> (deduplicated by its href), so a
 * consumer needs no CSS loader and no framework. Override any `--gf-*`.
 */
export const CHAT_WIDGET_CSS = `
.gf-chat {
  --gf-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --gf-bg: #ffffff;
  --gf-fg: #1d2330;
  --gf-muted: #5b6475;
  --gf-border: #d5d9e2;
  --gf-accent: #2457d6;
  --gf-accent-fg: #ffffff;
  /* Hover colours keep the text at a contrast ratio of at least 4.5:1. */
  --gf-accent-hover: #1a3f9e;
  --gf-hover-bg: #e8eefc;
  --gf-user-bg: #e8eefc;
  --gf-assistant-bg: #f4f5f8;
  --gf-error-bg: #fdecec;
  --gf-error-fg: #8a1c1c;
  --gf-done-bg: #e7f6ec;
  --gf-done-fg: #1b5e33;
  --gf-wait-bg: #fff4dc;
  --gf-wait-fg: #5c4100;
  --gf-radius: 12px;
  --gf-gap: 0.75rem;
  font-family: var(--gf-font);
  color: var(--gf-fg);
  background: var(--gf-bg);
  border: 1px solid var(--gf-border);
  border-radius: var(--gf-radius);
  display: flex;
  flex-direction: column;
  gap: var(--gf-gap);
  padding: var(--gf-gap);
  max-width: 40rem;
  box-sizing: border-box;
}
.gf-chat *, .gf-chat *::before, .gf-chat *::after { box-sizing: inherit; }
.gf-header { display: flex; align-items: center; justify-content: space-between; gap: var(--gf-gap); }
.gf-header h2 { font-size: 1.1rem; margin: 0; }
.gf-badge { margin-right: auto; min-width: 1.6rem; padding: 0.1rem 0.5rem; border-radius: 999px; background: var(--gf-wait-bg); color: var(--gf-wait-fg); border: 1px solid var(--gf-wait-fg); font-weight: 600; font-size: 0.9rem; text-align: center; }
.gf-chat button.gf-badge { padding: 0.1rem 0.5rem; background: var(--gf-wait-bg); color: var(--gf-wait-fg); border-color: var(--gf-wait-fg); }
.gf-chat button.gf-badge[aria-expanded="true"] { background: var(--gf-wait-fg); color: var(--gf-wait-bg); }
/* Positioned: the visually hidden labels of scrolled-out messages stay inside it instead of stretching the page. */
.gf-transcript { position: relative; list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.5rem; max-height: 28rem; overflow-y: auto; }
.gf-message { border-radius: var(--gf-radius); padding: 0.5rem 0.75rem; max-width: 90%; }
.gf-message p, .gf-message h3 { margin: 0.25rem 0; }
.gf-message h3 { font-size: 1rem; }
.gf-user p { white-space: pre-wrap; overflow-wrap: anywhere; }
.gf-message hr { border: 0; border-top: 1px solid var(--gf-border); }
.gf-assistant { background: var(--gf-assistant-bg); align-self: flex-start; }
.gf-user { background: var(--gf-user-bg); align-self: flex-end; }
.gf-summary { border: 1px solid var(--gf-accent); max-width: 100%; }
.gf-thinking { color: var(--gf-muted); font-style: italic; display: flex; align-items: center; gap: 0.5rem; }
.gf-dots { width: 1.5rem; height: 0.5rem; background: radial-gradient(circle, var(--gf-muted) 30%, transparent 35%) 0 50% / 0.5rem 0.5rem repeat-x; animation: gf-pulse 1s infinite alternate; }
@keyframes gf-pulse { from { opacity: 0.3; } to { opacity: 1; } }
@media (prefers-reduced-motion: reduce) { .gf-dots { animation: none; } }
.gf-end { height: 0; padding: 0; }
.gf-status { color: var(--gf-muted); margin: 0; }
.gf-error { background: var(--gf-error-bg); color: var(--gf-error-fg); border-radius: var(--gf-radius); padding: 0.5rem 0.75rem; display: flex; align-items: center; justify-content: space-between; gap: var(--gf-gap); }
.gf-error p { margin: 0; }
.gf-finished { background: var(--gf-done-bg); color: var(--gf-done-fg); border-radius: var(--gf-radius); padding: 0.5rem 0.75rem; margin: 0; font-weight: 600; }
.gf-finished.gf-stopped_limiting_value, .gf-finished.gf-stopped, .gf-finished.gf-cancelled { background: var(--gf-assistant-bg); color: var(--gf-fg); }
.gf-buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.gf-chat button { font: inherit; border-radius: 999px; border: 1px solid var(--gf-accent); background: var(--gf-bg); color: var(--gf-accent); padding: 0.4rem 0.9rem; cursor: pointer; }
.gf-chat button.gf-primary { background: var(--gf-accent); color: var(--gf-accent-fg); }
.gf-chat button:hover:not(:disabled) { background: var(--gf-hover-bg); }
.gf-chat button.gf-primary:hover:not(:disabled) { background: var(--gf-accent-hover); border-color: var(--gf-accent-hover); color: var(--gf-accent-fg); }
.gf-chat button:focus-visible, .gf-chat input:focus-visible, .gf-chat select:focus-visible, .gf-chat textarea:focus-visible { outline: 3px solid var(--gf-accent); outline-offset: 2px; }
.gf-chat button:disabled { opacity: 0.5; cursor: not-allowed; }
.gf-input { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: flex-end; }
.gf-count { flex-basis: 100%; margin: 0; font-size: 0.85rem; color: var(--gf-muted); text-align: right; }
.gf-count-over { color: var(--gf-error-fg); font-weight: 600; }
.gf-input textarea { flex: 1; font: inherit; line-height: 1.4; padding: 0.45rem 0.75rem; border: 1px solid var(--gf-border); border-radius: 1.1rem; color: var(--gf-fg); background: var(--gf-bg); resize: none; overflow-y: auto; }
.gf-ask { background: var(--gf-assistant-bg); border: 1px solid var(--gf-border); border-radius: var(--gf-radius); padding: 0.5rem 0.75rem; display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.gf-ask p { margin: 0; flex-basis: 100%; }
.gf-inputs { display: flex; flex-direction: column; gap: 0.5rem; }
.gf-inputs-panel { border: 1px solid var(--gf-wait-fg); border-radius: var(--gf-radius); padding: 0.5rem; }
.gf-input-form { border: 1px solid var(--gf-accent); border-radius: var(--gf-radius); padding: 0.5rem 0.75rem; display: flex; flex-direction: column; gap: 0.35rem; }
.gf-input-label { font-weight: 600; margin: 0; }
.gf-input-note, .gf-input-hint { color: var(--gf-muted); font-size: 0.9rem; margin: 0; }
.gf-input-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.gf-input-row input:not([type="radio"]), .gf-input-row select, .gf-input-row textarea { flex: 1; min-width: 8rem; font: inherit; padding: 0.4rem 0.6rem; border: 1px solid var(--gf-border); border-radius: 8px; color: var(--gf-fg); background: var(--gf-bg); }
.gf-input-row textarea { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9rem; flex-basis: 100%; }
.gf-input-row [aria-invalid="true"] { border-color: var(--gf-error-fg); }
.gf-choice { display: flex; gap: 1rem; flex: 1; }
.gf-choice label { display: inline-flex; align-items: center; gap: 0.3rem; cursor: pointer; }
.gf-input-error { background: var(--gf-error-bg); color: var(--gf-error-fg); border-radius: 8px; padding: 0.35rem 0.6rem; margin: 0; }
.gf-waiting { list-style: none; margin: 0; padding: 0.5rem 0.75rem; background: var(--gf-wait-bg); color: var(--gf-wait-fg); border-radius: var(--gf-radius); display: flex; flex-direction: column; gap: 0.25rem; }
.gf-waiting-who { font-weight: 600; }
.gf-waiting-actions { display: flex; justify-content: flex-end; }
.gf-inbox { max-width: 48rem; }
.gf-inbox h3 { font-size: 1rem; margin: 0; }
.gf-inbox-meta { color: var(--gf-muted); font-weight: normal; }
.gf-inbox-sessions { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: var(--gf-gap); }
.gf-inbox-session { border: 1px solid var(--gf-border); border-radius: var(--gf-radius); padding: 0.5rem 0.75rem; display: flex; flex-direction: column; gap: 0.5rem; }
.gf-inbox-transcript summary { cursor: pointer; color: var(--gf-accent); }
.gf-inbox-transcript .gf-transcript { margin-top: 0.5rem; max-height: 16rem; }
.gf-answered { list-style: none; margin: 0; padding: 0.5rem 0.75rem; background: var(--gf-done-bg); color: var(--gf-done-fg); border-radius: var(--gf-radius); }
.gf-note { color: var(--gf-muted); margin: 0; font-size: 0.9rem; }
.gf-visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;
