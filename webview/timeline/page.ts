/**
 * The timeline page's static markup and styles, shared by the panel (extension/webviews/timelinePanel.ts)
 * and the browser tests and benchmark, which serve the very same page outside VS Code.
 */

/** Static markup only: every list (layers, kinds, agents, tags, memories) is filled in by the script. */
export const TIMELINE_BODY = `<div id="toolbar" role="toolbar" aria-label="Timeline filters">
  <span id="layers" class="group" aria-label="Layers"></span>
  <vscode-single-select id="kind" aria-label="Kind" title="Kind"></vscode-single-select>
  <vscode-single-select id="status-filter" aria-label="Status" title="Status"></vscode-single-select>
  <vscode-single-select id="agent" aria-label="Agent" title="Agent" combobox></vscode-single-select>
  <vscode-single-select id="tag" aria-label="Tag" title="Tag" combobox></vscode-single-select>
  <vscode-textfield id="search" placeholder="Filter by text or id" aria-label="Filter by text">
    <vscode-icon slot="content-before" name="search" title="search"></vscode-icon>
  </vscode-textfield>
  <vscode-button id="fit" icon="screen-full" secondary title="Show every memory">Fit</vscode-button>
  <span class="group">
    <vscode-checkbox id="asof" title="Grey out what was not yet known or true at a moment: click the time axis to move it">As of</vscode-checkbox>
    <vscode-radio-group id="axis" aria-label="As-of time">
      <vscode-radio name="axis" value="transaction" title="What Engram had recorded by then (transaction time)" checked>known</vscode-radio>
      <vscode-radio name="axis" value="valid" title="What was true then, as Engram knows it now (valid time)">true</vscode-radio>
    </vscode-radio-group>
    <span id="asof-time" class="muted"></span>
  </span>
  <span id="status" class="muted" role="status">Loading…</span>
</div>
<canvas id="timeline" tabindex="0" aria-label="Memories on a time axis: wheel to zoom, drag to pan, shift-drag to select a range, click to select and open a memory"></canvas>
<div id="bottom">
  <div id="detail" aria-live="polite"></div>
  <div id="brush" hidden>
    <div id="brush-head"><span id="brush-title"></span>
      <vscode-button id="brush-clear" icon="close" secondary title="Clear the selected range">Clear</vscode-button></div>
    <ul id="brush-list"></ul>
  </div>
</div>
<div id="tooltip" role="tooltip" hidden></div>`;

export const TIMELINE_CSS = `
  html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; }
  body { display: flex; flex-direction: column; color: var(--vscode-foreground);
    background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  #toolbar { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; padding: 6px 8px;
    border-bottom: 1px solid var(--vscode-panel-border); }
  #toolbar .group { display: inline-flex; gap: 6px; align-items: center; }
  #toolbar vscode-single-select { width: 120px; }
  #search { width: 200px; }
  .swatch { display: inline-block; width: 8px; height: 8px; border-radius: 2px; margin-right: 2px; }
  .muted { color: var(--vscode-descriptionForeground); }
  #timeline { flex: 1; width: 100%; min-height: 0; cursor: grab; display: block; outline: none; }
  #timeline:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  #bottom { display: flex; gap: 12px; border-top: 1px solid var(--vscode-panel-border); max-height: 32%; min-height: 2.5em; }
  #detail, #brush { overflow: auto; padding: 6px 8px; flex: 1; }
  #detail .content { white-space: pre-wrap; margin: 4px 0; }
  #detail .refs { display: flex; flex-wrap: wrap; gap: 4px 10px; }
  #brush-head { display: flex; gap: 8px; align-items: center; }
  #brush-list { list-style: none; margin: 4px 0 0; padding: 0; }
  #brush-list li { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; padding: 1px 0; }
  .link { background: none; border: none; padding: 0; color: var(--vscode-textLink-foreground); cursor: pointer;
    font: inherit; text-align: left; }
  .link:hover { color: var(--vscode-textLink-activeForeground); text-decoration: underline; }
  .link:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  #tooltip { position: fixed; max-width: 360px; white-space: pre-wrap; pointer-events: none; padding: 4px 6px; z-index: 10;
    background: var(--vscode-editorHoverWidget-background); color: var(--vscode-editorHoverWidget-foreground);
    border: 1px solid var(--vscode-editorHoverWidget-border); }
`;
