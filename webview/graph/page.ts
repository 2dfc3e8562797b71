/**
 * The graph page's static markup and layout, shared by the panel (extension/webviews/graphPanel.ts)
 * and the browser test, which loads the very same page. No memory content is ever put in here.
 */

export const GRAPH_CSS = `
  html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; }
  body { display: flex; flex-direction: column; color: var(--vscode-foreground);
    background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  .bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 4px 8px; }
  #toolbar { border-bottom: 1px solid var(--vscode-panel-border); }
  #filters { padding-top: 0; }
  #filters .group { display: inline-flex; flex-wrap: wrap; gap: 2px 8px; align-items: center; }
  #filters .caption { color: var(--vscode-descriptionForeground); }
  #start { width: 220px; }
  #find { width: 160px; }
  #hops, #limit { width: 72px; }
  #layout { width: 170px; }
  #toolbar label { color: var(--vscode-descriptionForeground); }
  #legend-box > summary { cursor: pointer; padding: 0 8px; color: var(--vscode-descriptionForeground); }
  #legend { padding-top: 0; color: var(--vscode-descriptionForeground); }
  #legend .legend-group { display: inline-flex; flex-wrap: wrap; gap: 2px 10px; align-items: center; margin-right: 12px; }
  #legend .legend-item { display: inline-flex; gap: 4px; align-items: center; }
  #legend .swatch { display: inline-block; flex: none; }
  #legend .swatch.entity { width: 11px; height: 11px; border-radius: 50%; }
  #legend .swatch.memory { width: 6px; height: 6px; border-radius: 50%; }
  #legend .swatch.line { width: 16px; height: 2px; }
  #legend .swatch.capture { width: 9px; height: 9px; border-radius: 2px; }
  #results { display: flex; flex-wrap: wrap; gap: 4px; padding: 0 8px 4px; }
  #results:empty { display: none; }
  #results button { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground);
    border: none; padding: 2px 8px; cursor: pointer; font: inherit; }
  #results button:hover { background: var(--vscode-button-secondaryHoverBackground); }
  #status { color: var(--vscode-descriptionForeground); padding: 2px 8px; }
  #recall { padding: 3px 8px; background: var(--vscode-editorInfo-background, transparent);
    border-left: 3px solid var(--vscode-charts-yellow); display: flex; gap: 8px; align-items: center; }
  #recall[hidden] { display: none; }
  #main { flex: 1; min-height: 0; position: relative; }
  #graph { position: absolute; inset: 0; }
  #detail { white-space: pre-wrap; padding: 6px 8px; border-top: 1px solid var(--vscode-panel-border);
    max-height: 25%; overflow: auto; min-height: 1.5em; }
  #detail .actions { display: flex; gap: 6px; margin-top: 4px; }
  #tooltip { position: fixed; max-width: 340px; white-space: pre-wrap; pointer-events: none; padding: 4px 6px; z-index: 10;
    background: var(--vscode-editorHoverWidget-background); color: var(--vscode-editorHoverWidget-foreground);
    border: 1px solid var(--vscode-editorHoverWidget-border); }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export const GRAPH_BODY = `
<div id="toolbar" class="bar">
  <vscode-textfield id="start" placeholder="Start from an entity…" aria-label="Start from an entity"></vscode-textfield>
  <vscode-button id="overview" secondary icon="home" title="The most connected entities">Overview</vscode-button>
  <label for="hops">Hops</label>
  <vscode-single-select id="hops" aria-label="Hops from the start">
    <vscode-option value="1">1</vscode-option><vscode-option value="2">2</vscode-option><vscode-option value="3">3</vscode-option>
  </vscode-single-select>
  <label for="limit">Nodes</label>
  <vscode-single-select id="limit" aria-label="Most nodes to show">
    <vscode-option value="150">150</vscode-option><vscode-option value="400">400</vscode-option>
    <vscode-option value="1000">1000</vscode-option><vscode-option value="2000">2000</vscode-option>
  </vscode-single-select>
  <vscode-single-select id="layout" aria-label="Layout">
    <vscode-option value="force">Force</vscode-option><vscode-option value="concentric">Concentric by layer</vscode-option>
  </vscode-single-select>
  <vscode-textfield id="find" placeholder="Find in graph" aria-label="Find in graph"></vscode-textfield>
</div>
<div id="filters" class="bar">
  <span class="group" id="types"><span class="caption">Types</span></span>
  <span class="group" id="layers"><span class="caption">Layers</span></span>
  <span class="group" id="capture"><span class="caption">Capture</span></span>
</div>
<details id="legend-box" open><summary>What the colours mean</summary>
<div id="legend" class="bar" role="group" aria-label="What the colours mean"></div></details>
<div id="results" role="list" aria-label="Entities to start from"></div>
<div id="recall" hidden aria-live="polite"><span id="recall-text"></span><vscode-button id="recall-show" secondary>Show</vscode-button></div>
<div id="status" aria-live="polite">Loading…</div>
<div id="main"><div id="graph" aria-label="Entities and memories: scroll to zoom, drag to pan, click a node to open it, double-click to explore from it"></div></div>
<div id="detail" aria-live="polite"></div>
<ul id="node-list" class="sr-only" aria-label="Nodes in the graph"></ul>
<div id="tooltip" hidden></div>
`;
