// A graph view painted in square tiles, as map viewers do, so that no frame paints much. A tile is painted once at
// a zoom and copied while the view pans; a frame paints only the tiles it lacks, and stops when its time budget is
// spent, showing what it lacks from the last complete zoom scaled (blurry for a frame or two, never blank and never
// a stall). Painting a 10,000-node graph fitted to the screen takes about 100 ms here; no frame waits for that.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  const TILE = 128; // CSS pixels a side: a frame paints at least one, so small (256 measured 15-22 ms zoom frames on
  // the 10,000-node graph here, 128 12 ms); the grid index keeps the cost of more tiles low
  const FRAME_BUDGET_MS = 8; // painting stops for this frame once it has taken this long (after one tile)
  const MAX_TILE_BYTES = 160e6; // every tile kept, both zooms together
  const EMPTY = { empty: true }; // a tile outside the view's bounds: nothing to paint or copy

  // The tiles of one zoom k, device pixel ratio and content version. Tile (i, j) holds the square
  // [i TILE, (i + 1) TILE) x [j TILE, (j + 1) TILE) of the view scaled by k, untranslated: a pan moves where tiles
  // go, not what they hold. `tiles` is in least recently drawn order.
  class Level {
    constructor(k, dpr, content) {
      this.k = k;
      this.dpr = dpr;
      this.content = content;
      this.tiles = new Map(); // "i,j" -> canvas
    }

    matches(k, dpr, content) {
      return this.k === k && this.dpr === dpr && this.content === content;
    }
  }

  class TiledPainter {
    // paintTile(ctx, t, size, dpr) paints the view under transform t into a size x size (CSS pixels) canvas;
    // bounds(k) is the view's extent at zoom k in world units, [x, y, w, h], with room for strokes and labels.
    constructor(paintTile, bounds) {
      this.paintTile = paintTile;
      this.bounds = bounds;
      this.level = null; // the zoom drawn now
      this.fallback = null; // the last complete zoom, shown scaled where `level` lacks tiles
      this.spare = []; // canvases of dropped tiles, reused
      this.complete = false; // the last frame drew every visible tile at the current zoom
      this.pending = false; // tiles around the viewport are still to paint ahead of a pan
    }

    // Draws the viewport (transform t: screen = world k + (x, y); width x height CSS pixels) into ctx, painting
    // missing tiles until `deadline` (a performance.now() time) has passed.
    frame(ctx, transform, width, height, dpr, content, deadline) {
      // Translated by whole device pixels, so tiles are copied without resampling and neighbours meet exactly.
      const t = { x: Math.round(transform.x * dpr) / dpr, y: Math.round(transform.y * dpr) / dpr, k: transform.k };
      this.useLevel(t.k, dpr, content);
      const level = this.level;
      const visible = tileRange(t, width, height, 0);
      const missing = [];
      forTiles(visible, (i, j) => { if (!level.tiles.has(i + ',' + j)) missing.push([i, j]); });
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
      const underlay = missing.length > 0 && this.fallback !== null && this.fallback !== level;
      if (underlay) this.drawFallback(ctx, t, dpr);
      forTiles(visible, (i, j) => {
        const tile = this.take(level, i, j);
        if (!tile) return;
        if (underlay) this.clearTile(ctx, i, j, t, dpr);
        this.place(ctx, tile, i, j, t, dpr);
      });
      let painted = 0;
      while (missing.length && (painted === 0 || performance.now() < deadline)) {
        const [i, j] = missing.shift();
        this.clearTile(ctx, i, j, t, dpr);
        this.place(ctx, this.paint(level, i, j), i, j, t, dpr);
        painted++;
      }
      this.complete = missing.length === 0;
      if (this.complete && this.fallback !== level) {
        this.dropLevel(this.fallback);
        this.fallback = level;
      }
      // Ahead of a pan: the ring of tiles around the viewport, while the budget lasts.
      const ring = [];
      if (this.complete) {
        forTiles(tileRange(t, width, height, 1), (i, j) => { if (!level.tiles.has(i + ',' + j)) ring.push([i, j]); });
        while (ring.length && performance.now() < deadline) {
          const [i, j] = ring.shift();
          this.paint(level, i, j);
        }
      }
      this.pending = !this.complete || ring.length > 0;
      this.evict(visible);
    }

    // A new level when the zoom, the pixel ratio or the content changed; the old one stays as the fallback only
    // when it was complete (a zoom that a fast wheel passed through shows less than the one before it).
    useLevel(k, dpr, content) {
      if (this.level && this.level.matches(k, dpr, content)) return;
      const old = this.level;
      this.level = new Level(k, dpr, content);
      if (old && old !== this.fallback) this.dropLevel(old);
      if (this.fallback && this.fallback.dpr !== dpr) {
        this.dropLevel(this.fallback);
        this.fallback = null;
      }
    }

    // The fallback's tiles scaled to the current zoom, over the whole viewport; the current zoom's tiles then
    // replace it where they exist (clearTile). No clip to the missing tiles: a clip of many rectangles made this
    // the slowest part of a zoom frame (8 ms of 17 for the 10,000-node graph). A stand-in for a frame or two, so
    // not smoothed.
    drawFallback(ctx, t, dpr) {
      const fb = this.fallback;
      const s = t.k / fb.k;
      const side = TILE * s * dpr;
      const { width, height } = ctx.canvas;
      ctx.save();
      ctx.imageSmoothingEnabled = false;
      for (const [key, tile] of fb.tiles) {
        if (tile === EMPTY) continue;
        const [i, j] = key.split(',').map(Number);
        const x = (i * TILE * s + t.x) * dpr;
        const y = (j * TILE * s + t.y) * dpr;
        if (x < width && y < height && x + side > 0 && y + side > 0) ctx.drawImage(tile, x, y, side, side);
      }
      ctx.restore();
    }

    clearTile(ctx, i, j, t, dpr) {
      const [x, y] = this.origin(i, j, t, dpr);
      ctx.clearRect(x, y, this.side(dpr), this.side(dpr));
    }

    side(dpr) {
      return Math.round(TILE * dpr);
    }

    // Where tile (i, j) goes, in device pixels.
    origin(i, j, t, dpr) {
      return [i * this.side(dpr) + Math.round(t.x * dpr), j * this.side(dpr) + Math.round(t.y * dpr)];
    }

    place(ctx, tile, i, j, t, dpr) {
      if (tile === EMPTY) return;
      const [x, y] = this.origin(i, j, t, dpr);
      ctx.drawImage(tile, x, y);
    }

    // Tile (i, j) of the level if painted, marked as just drawn.
    take(level, i, j) {
      const key = i + ',' + j;
      const tile = level.tiles.get(key);
      if (!tile) return null;
      level.tiles.delete(key);
      level.tiles.set(key, tile);
      return tile;
    }

    paint(level, i, j) {
      const key = i + ',' + j;
      const k = level.k;
      const [bx, by, bw, bh] = this.bounds(k);
      if ((i + 1) * TILE < bx * k || i * TILE > (bx + bw) * k || (j + 1) * TILE < by * k || j * TILE > (by + bh) * k) {
        level.tiles.set(key, EMPTY);
        return EMPTY;
      }
      const side = this.side(level.dpr);
      const canvas = this.spare.pop() || document.createElement('canvas');
      if (canvas.width !== side || canvas.height !== side) {
        canvas.width = side;
        canvas.height = side;
      } else {
        const ctx = canvas.getContext('2d');
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.clearRect(0, 0, side, side);
      }
      this.paintTile(canvas.getContext('2d'), { x: -i * TILE, y: -j * TILE, k }, TILE, level.dpr);
      level.tiles.set(key, canvas);
      return canvas;
    }

    dropLevel(level) {
      if (!level) return;
      for (const tile of level.tiles.values()) if (tile !== EMPTY) this.spare.push(tile);
      level.tiles.clear();
    }

    // Keeps the tiles within MAX_TILE_BYTES (never the visible ones): the fallback's go first, then the current
    // zoom's least recently drawn.
    evict(visible) {
      const tileBytes = 4 * this.side(this.level.dpr) ** 2;
      const visibleCount = (visible.i1 - visible.i0 + 1) * (visible.j1 - visible.j0 + 1);
      const limit = Math.max(2 * visibleCount, Math.floor(MAX_TILE_BYTES / tileBytes));
      const count = () => this.level.tiles.size + (this.fallback && this.fallback !== this.level ? this.fallback.tiles.size : 0);
      if (this.fallback && this.fallback !== this.level && count() > limit) {
        this.dropLevel(this.fallback);
        this.fallback = null;
      }
      for (const key of this.level.tiles.keys()) {
        if (count() <= limit) break;
        const [i, j] = key.split(',').map(Number);
        if (i >= visible.i0 && i <= visible.i1 && j >= visible.j0 && j <= visible.j1) continue;
        const tile = this.level.tiles.get(key);
        if (tile !== EMPTY) this.spare.push(tile);
        this.level.tiles.delete(key);
      }
      this.spare.length = Math.min(this.spare.length, 16);
    }
  }

  // The tiles under the viewport, and `ring` more on every side.
  function tileRange(t, width, height, ring) {
    return {
      i0: Math.floor(-t.x / TILE) - ring, i1: Math.floor((width - t.x) / TILE) + ring,
      j0: Math.floor(-t.y / TILE) - ring, j1: Math.floor((height - t.y) / TILE) + ring,
    };
  }

  function forTiles(range, visit) {
    for (let j = range.j0; j <= range.j1; j++) for (let i = range.i0; i <= range.i1; i++) visit(i, j);
  }

  tcx.TiledPainter = TiledPainter;
  tcx.TILE_FRAME_BUDGET_MS = FRAME_BUDGET_MS;
})(window.tcx);
