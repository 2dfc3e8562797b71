import type { Palette } from './graphModel';
import type { LayerName } from './protocol';

/**
 * The graph's colours, all from the VS Code theme's CSS variables (with Dark Modern values as the
 * fallback): entity types and memory layers on the charts palette, highlights and dimming.
 */

export function css(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

const TYPE_COLOURS: Record<string, [string, string]> = {
  file: ['--vscode-charts-blue', '#3794ff'],
  directory: ['--vscode-charts-blue', '#3794ff'],
  symbol: ['--vscode-charts-purple', '#b180d7'],
  package: ['--vscode-charts-orange', '#d18616'],
  tool: ['--vscode-charts-green', '#89d185'],
  person: ['--vscode-charts-red', '#f14c4c'],
  name: ['--vscode-charts-red', '#f14c4c'],
};
const LAYER_COLOURS: Record<LayerName, [string, string]> = {
  working: ['--vscode-charts-yellow', '#cca700'],
  episodic: ['--vscode-charts-blue', '#3794ff'],
  semantic: ['--vscode-charts-green', '#89d185'],
  procedural: ['--vscode-charts-purple', '#b180d7'],
  codebase: ['--vscode-charts-orange', '#d18616'],
};

export function palette(): Palette {
  const other = css('--vscode-descriptionForeground', '#9d9d9d');
  return {
    entity: (type) => {
      const c = TYPE_COLOURS[type];
      return c ? css(c[0], c[1]) : other;
    },
    // Memories are drawn smaller than entities (graphModel.nodeSize), so the two kinds read apart.
    layer: (layer) => css(LAYER_COLOURS[layer][0], LAYER_COLOURS[layer][1]),
    edge: css('--vscode-editorIndentGuide-activeBackground1', '#707070'),
    mention: css('--vscode-editorIndentGuide-background1', '#404040'),
    session: css('--vscode-charts-orange', '#d18616'),
    commit: css('--vscode-charts-yellow', '#cca700'),
  };
}

/** Colours the reducers use on every frame, read from the theme once (and again when it changes). */
export function readColours() {
  return {
    highlight: css('--vscode-charts-yellow', '#cca700'),
    dim: css('--vscode-disabledForeground', '#555555'),
    label: css('--vscode-foreground', '#cccccc'),
    hover: {
      background: css('--vscode-editorHoverWidget-background', '#252526'),
      border: css('--vscode-editorHoverWidget-border', '#454545'),
      foreground: css('--vscode-editorHoverWidget-foreground', '#cccccc'),
    },
  };
}
