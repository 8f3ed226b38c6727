/**
 * Pre-rendered marker sprites. Each (kind, colour) body and each (heading step, colour) arrow is drawn
 * once to an offscreen canvas; a frame then costs one or two `drawImage` calls per vehicle, which is
 * what lets 10,000 vehicles redraw within a frame budget.
 */
import type { VehicleMarkerKind } from './vehicle-index';

export const HEADING_STEPS = 36;

type Ctx = CanvasRenderingContext2D;

type SpriteSurface = { canvas: OffscreenCanvas | HTMLCanvasElement; ctx: CanvasRenderingContext2D };
/** A drawn sprite: an ImageBitmap where supported (blitting a canvas element costs a snapshot per draw). */
export type Sprite = ImageBitmap | HTMLCanvasElement;

function makeSurface(size: number): SpriteSurface {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(size, size);
    return { canvas, ctx: canvas.getContext('2d') as unknown as CanvasRenderingContext2D };
  }
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  return { canvas, ctx: canvas.getContext('2d')! };
}

function finish(surface: SpriteSurface): Sprite {
  const c = surface.canvas;
  return 'transferToImageBitmap' in c ? c.transferToImageBitmap() : c;
}

/** Draws a vehicle glyph in a 24x24 box centred on the origin. */
function drawGlyph(ctx: Ctx, kind: VehicleMarkerKind, ink: string, body: string): void {
  ctx.fillStyle = ink;
  ctx.strokeStyle = ink;
  ctx.lineWidth = 2;
  ctx.translate(-12, -12);
  if (kind === 'bus') {
    ctx.beginPath();
    ctx.roundRect(5, 4, 14, 14, 2.5);
    ctx.fill();
    ctx.fillStyle = body;
    ctx.fillRect(7, 6.5, 10, 4.5);
    ctx.fillRect(7, 14, 2.5, 1.8);
    ctx.fillRect(14.5, 14, 2.5, 1.8);
    ctx.fillStyle = ink;
    ctx.fillRect(6.5, 18, 3, 2.2);
    ctx.fillRect(14.5, 18, 3, 2.2);
  } else if (kind === 'motorcycle') {
    ctx.beginPath();
    ctx.arc(6.5, 15.5, 3.2, 0, Math.PI * 2);
    ctx.moveTo(20.7, 15.5);
    ctx.arc(17.5, 15.5, 3.2, 0, Math.PI * 2);
    ctx.moveTo(6.5, 15.5);
    ctx.lineTo(11, 10);
    ctx.lineTo(15, 10);
    ctx.lineTo(17.5, 15.5);
    ctx.moveTo(11, 10);
    ctx.lineTo(12.5, 15.5);
    ctx.moveTo(15, 10);
    ctx.lineTo(14, 6.5);
    ctx.lineTo(16.5, 6.5);
    ctx.stroke();
  } else {
    ctx.beginPath();
    ctx.moveTo(7.5, 11);
    ctx.lineTo(9.3, 6.5);
    ctx.lineTo(14.7, 6.5);
    ctx.lineTo(16.5, 11);
    ctx.closePath();
    ctx.fill();
    ctx.beginPath();
    ctx.roundRect(4, 10.5, 16, 6, 2);
    ctx.fill();
    ctx.beginPath();
    ctx.arc(8, 17, 2.2, 0, Math.PI * 2);
    ctx.arc(16, 17, 2.2, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.translate(12, 12);
}

export class SpriteCache {
  private readonly bodies = new Map<string, Sprite>();
  private readonly arrows = new Map<string, Sprite>();

  /**
   * @param radius marker body radius in CSS pixels
   * @param ratio device pixel ratio the sprites are rendered at
   */
  constructor(
    readonly radius: number,
    readonly ratio: number,
  ) {}

  /** CSS-pixel size of a sprite's square (body plus room for the heading arrow). */
  get size(): number {
    return (this.radius + 8) * 2;
  }

  body(kind: VehicleMarkerKind, fill: string, ring: string, ink: string): Sprite {
    const key = `${kind}|${fill}|${ring}|${ink}`;
    let sprite = this.bodies.get(key);
    if (sprite) return sprite;
    const surface = makeSurface(Math.ceil(this.size * this.ratio));
    const ctx = surface.ctx;
    ctx.scale(this.ratio, this.ratio);
    ctx.translate(this.size / 2, this.size / 2);
    ctx.beginPath();
    ctx.arc(0, 0, this.radius, 0, Math.PI * 2);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = ring;
    ctx.stroke();
    const scale = (this.radius * 1.35) / 24;
    ctx.scale(scale, scale);
    drawGlyph(ctx, kind, ink, fill);
    sprite = finish(surface);
    this.bodies.set(key, sprite);
    return sprite;
  }

  arrow(step: number, fill: string, ring: string): Sprite {
    const key = `${step}|${fill}|${ring}`;
    let sprite = this.arrows.get(key);
    if (sprite) return sprite;
    const surface = makeSurface(Math.ceil(this.size * this.ratio));
    const ctx = surface.ctx;
    ctx.scale(this.ratio, this.ratio);
    ctx.translate(this.size / 2, this.size / 2);
    ctx.rotate((step * (360 / HEADING_STEPS) * Math.PI) / 180);
    const r = this.radius;
    ctx.beginPath();
    ctx.moveTo(0, -r - 7);
    ctx.lineTo(5, -r + 1);
    ctx.lineTo(-5, -r + 1);
    ctx.closePath();
    ctx.fillStyle = fill;
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = ring;
    ctx.fill();
    ctx.stroke();
    sprite = finish(surface);
    this.arrows.set(key, sprite);
    return sprite;
  }

  clear(): void {
    for (const s of [...this.bodies.values(), ...this.arrows.values()]) if ('close' in s) s.close();
    this.bodies.clear();
    this.arrows.clear();
  }
}
