/**
 * Labels that never overlap. sigma picks which labels to draw from a coarse grid (a few per cell),
 * which still lets long labels of nearby nodes run into each other; this drawer keeps the boxes it
 * drew in the current frame and skips a label that would overlap one of them. Labels sigma is
 * told to force (found, hovered, lit by a recall) are always drawn: the user asked for those.
 */

export interface LabelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface LabelData {
  x: number;
  y: number;
  size: number;
  label: string | null;
  forceLabel?: boolean;
}

interface LabelSettings {
  labelSize: number;
  labelFont: string;
  labelWeight: string;
}

/** A gap kept between two labels, in pixels. */
const GAP = 2;

export function boxesOverlap(a: LabelBox, b: LabelBox): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Where sigma's disc label (text right of the node, vertically centred) lies, with a gap around it. */
export function labelBox(data: LabelData, fontSize: number, textWidth: number): LabelBox {
  return {
    x: data.x + data.size + 3 - GAP,
    y: data.y - fontSize / 2 - GAP,
    width: textWidth + 2 * GAP,
    height: fontSize + 2 * GAP,
  };
}

/**
 * A `defaultDrawNodeLabel` for sigma, and `reset`, to call when a frame starts (sigma's
 * beforeRender event). `drawn` counts the labels drawn and `skipped` those left out, this frame.
 */
export function collisionFreeLabels(colour: () => string) {
  let boxes: LabelBox[] = [];
  let skipped = 0;
  return {
    reset(): void {
      boxes = [];
      skipped = 0;
    },
    get drawn(): number {
      return boxes.length;
    },
    get skipped(): number {
      return skipped;
    },
    // An arrow function: sigma calls it detached from this object.
    draw: (context: CanvasRenderingContext2D, data: LabelData, settings: LabelSettings): void => {
      if (typeof data.label !== 'string' || data.label === '') return;
      const size = settings.labelSize;
      context.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
      const box = labelBox(data, size, context.measureText(data.label).width);
      if (!data.forceLabel && boxes.some((b) => boxesOverlap(b, box))) {
        skipped++;
        return;
      }
      boxes.push(box);
      context.fillStyle = colour();
      context.fillText(data.label, data.x + data.size + 3, data.y + size / 3);
    },
  };
}
