/**
 * An offline tile layer drawn on canvas: a plain ground in the sunken surface colour with a light grid
 * (one line per 1/4 tile) and heavier lines on tile edges. Stories, screenshots and benchmarks use it so
 * nothing is fetched from the network and every run renders the same pixels.
 */
import L from 'leaflet';
import { readMapTheme } from './map-theme';

export class LocalTileLayer extends L.GridLayer {
  protected override createTile(coords: L.Coords): HTMLElement {
    const size = this.getTileSize();
    const tile = L.DomUtil.create('canvas', 'leaflet-tile') as HTMLCanvasElement;
    tile.width = size.x;
    tile.height = size.y;
    const ctx = tile.getContext('2d');
    const map = this._map as L.Map | undefined;
    if (!ctx || !map) return tile;
    const theme = readMapTheme(map.getContainer());
    ctx.fillStyle = theme.surfaceSunken;
    ctx.fillRect(0, 0, size.x, size.y);
    ctx.strokeStyle = theme.border;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let i = 1; i < 4; i++) {
      const p = Math.round((size.x * i) / 4) + 0.5;
      ctx.moveTo(p, 0);
      ctx.lineTo(p, size.y);
      ctx.moveTo(0, p);
      ctx.lineTo(size.x, p);
    }
    ctx.stroke();
    ctx.lineWidth = 2;
    ctx.strokeStyle = theme.foregroundMuted;
    ctx.globalAlpha = 0.35;
    ctx.strokeRect(0, 0, size.x, size.y);
    // A faint diagonal "road" whose direction depends on the tile parity, so panning is visible.
    ctx.beginPath();
    if ((coords.x + coords.y) % 2 === 0) {
      ctx.moveTo(0, size.y * 0.3);
      ctx.lineTo(size.x, size.y * 0.7);
    } else {
      ctx.moveTo(size.x * 0.3, 0);
      ctx.lineTo(size.x * 0.7, size.y);
    }
    ctx.lineWidth = 6;
    ctx.strokeStyle = theme.surface;
    ctx.globalAlpha = 1;
    ctx.stroke();
    return tile;
  }
}
