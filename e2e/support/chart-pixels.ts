import { expect, type Locator } from '@playwright/test';

// A chart proves it drew its data by the pixels it painted: the canvas of a figure holds pixels of a
// series' own colour, read from the chart's legend (the time-series chart's uPlot marker, the bar
// chart's swatch), so a chart that mounts an empty canvas, or draws only its axes, fails.

async function countPixelsOfColour(canvas: Locator, cssColour: string): Promise<number> {
  return canvas.evaluate((element, colour) => {
    const [red, green, blue] = colour
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map(Number) as [number, number, number];
    const canvasElement = element as HTMLCanvasElement;
    const context = canvasElement.getContext('2d')!;
    const { data } = context.getImageData(0, 0, canvasElement.width, canvasElement.height);
    let count = 0;
    for (let at = 0; at < data.length; at += 4) {
      // Opaque, and the colour give or take the edge's anti-aliasing.
      const distance =
        Math.abs(data[at]! - red) + Math.abs(data[at + 1]! - green) + Math.abs(data[at + 2]! - blue);
      if (data[at + 3]! > 200 && distance <= 30) count += 1;
    }
    return count;
  }, cssColour);
}

/** The colour a legend's mark is drawn in, as the browser computes it ("rgb(15, 108, 189)"). */
export async function readLegendColour(
  mark: Locator,
  property: 'borderColor' | 'backgroundColor',
): Promise<string> {
  return mark.evaluate((element, name) => getComputedStyle(element)[name], property);
}

/** Waits until the figure's canvas holds at least `least` pixels of the series' colour. */
export async function expectCanvasDrawsColour(figure: Locator, cssColour: string, least = 20): Promise<void> {
  const canvas = figure.locator('canvas').first();
  await expect(canvas).toBeVisible();
  await expect.poll(() => countPixelsOfColour(canvas, cssColour)).toBeGreaterThanOrEqual(least);
}
