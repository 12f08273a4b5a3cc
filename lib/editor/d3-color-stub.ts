/**
 * What the browser build resolves `d3-color` to (next.config.js, `turbopack.resolveAlias`).
 *
 * React Flow's zoom imports d3-transition, whose `attr` and `style` tweens pick an interpolator
 * by asking d3-color whether a value is a colour, which keeps d3-color's parser and its table of
 * 148 named colours (~4.3 KB gzip) in the editor's first load. Nothing here animates a colour:
 * React Flow's animated viewport changes (fitView, setCenter, zoomIn/Out, a double-click zoom)
 * run one `tween` that interpolates the zoom transform with d3-interpolate's `interpolateZoom`,
 * and no code calls `transition().attr()` or `.style()`. With `color` recognising no value, such
 * a tween would interpolate a colour as a string (jumping to the end value) instead; the colour
 * interpolators it could reach (`interpolateRgb` and the others d3-interpolate imports) throw
 * here, so a future use fails loudly rather than drawing wrong colours.
 *
 * e2e/editing.spec.ts checks that the animated Fit view still moves the viewport frame by frame.
 */

/** Recognises no value as a colour; nothing is an instance of it, so `value instanceof color` is false. */
export function color(_specifier: string): null {
  return null;
}

function unavailable(name: string): never {
  throw new Error(
    `d3-color's ${name}() is not in the browser build (lib/editor/d3-color-stub.ts): remove the alias in next.config.js to animate colours.`,
  );
}

export const rgb = (): never => unavailable('rgb');
export const hsl = (): never => unavailable('hsl');
export const lab = (): never => unavailable('lab');
export const hcl = (): never => unavailable('hcl');
export const cubehelix = (): never => unavailable('cubehelix');
