/**
 * How sigma draws a hovered or highlighted node's label: in the theme's hover-widget colours
 * (sigma's default is a white box, glaring in a dark theme). Text only, via fillText.
 */
export interface HoverColours {
  background: string;
  border: string;
  foreground: string;
}

interface LabelData {
  x: number;
  y: number;
  size: number;
  label: string | null;
}

interface LabelSettings {
  labelSize: number;
  labelFont: string;
  labelWeight: string;
}

export function themedHoverLabel(colours: () => HoverColours) {
  return (context: CanvasRenderingContext2D, data: LabelData, settings: LabelSettings): void => {
    if (typeof data.label !== 'string' || data.label === '') return;
    const c = colours();
    const size = settings.labelSize;
    context.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
    const pad = 3;
    const x = data.x + data.size + 2;
    const width = context.measureText(data.label).width + 2 * pad;
    const height = size + 2 * pad;
    context.fillStyle = c.background;
    context.strokeStyle = c.border;
    context.lineWidth = 1;
    context.fillRect(x, data.y - height / 2, width, height);
    context.strokeRect(x + 0.5, data.y - height / 2 + 0.5, width - 1, height - 1);
    context.fillStyle = c.foreground;
    context.fillText(data.label, x + pad, data.y + size / 3);
  };
}
