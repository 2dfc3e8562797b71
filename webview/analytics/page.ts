/**
 * The Analytics page's static markup and styles, shared by the panel
 * (extension/webviews/analyticsPanel.ts) and the browser tests, which serve the very same page.
 */

/** Static markup only: the section's content is filled in by the script, as text. */
export const ANALYTICS_BODY = `<main>
  <section id="lifecycle" aria-labelledby="lifecycle-title">
    <h2 id="lifecycle-title">Lifecycle and health</h2>
    <p><button id="consolidate" type="button" title="Promote, archive what faded, merge related memories: a plan first, with undo after">Consolidate Now…</button></p>
    <p id="status" class="muted" role="status">Loading…</p>
    <div id="health"></div>
  </section>
</main>`;

export const ANALYTICS_CSS = `
  body { margin: 0; padding: 8px 16px; color: var(--vscode-foreground); background: var(--vscode-editor-background);
    font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  h2 { font-size: 1.15em; font-weight: 600; margin: 4px 0 8px; }
  h3 { font-size: 1em; font-weight: 600; margin: 16px 0 6px; }
  .muted { color: var(--vscode-descriptionForeground); }
  .tiles { display: flex; flex-wrap: wrap; gap: 8px 12px; margin: 0; }
  .tile { min-width: 150px; padding: 6px 10px; border: 1px solid var(--vscode-panel-border); border-radius: 3px; }
  .tile dt { color: var(--vscode-descriptionForeground); }
  .tile dd { margin: 2px 0 0; font-size: 1.4em; }
  .tile .note { font-size: 0.75em; color: var(--vscode-descriptionForeground); display: block; }
  #retention-chart { display: block; width: 100%; max-width: 560px; height: auto; }
  #retention-chart text { fill: var(--vscode-descriptionForeground); font-size: 10px; font-family: var(--vscode-font-family); }
  #retention-chart .axis { stroke: var(--vscode-panel-border); }
  #retention-chart .curve { stroke: var(--vscode-charts-blue); fill: none; stroke-width: 2; }
  #retention-chart .point { fill: var(--vscode-charts-blue); }
  #retention-chart .threshold { stroke: var(--vscode-charts-red); stroke-dasharray: 4 3; }
  #retention-chart text.threshold-label { fill: var(--vscode-charts-red); }
  table { border-collapse: collapse; }
  caption { text-align: left; color: var(--vscode-descriptionForeground); padding-bottom: 4px; }
  th, td { padding: 2px 10px 2px 0; text-align: right; }
  th:first-child, td:first-child { text-align: left; }
  th { font-weight: 600; border-bottom: 1px solid var(--vscode-panel-border); }
  .empty { max-width: 560px; }
  button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none;
    padding: 4px 10px; border-radius: 2px; font-family: inherit; cursor: pointer; }
  button:hover { background: var(--vscode-button-hoverBackground); }
`;
