// A graph view (docs/web.md VIEW) drawn on one canvas: pan and zoom from d3.behavior.zoom (d3 v3), hit testing,
// selection and tooltips. The server has laid the view out; painter.js draws it, in tiles (tiles.js).
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  const { prepare, paint, toSvg, intersects, boxIntersects, reach, CLUSTER_HEADER } = tcx.painter;

  // Distance from p to the polyline through the sampled Bezier segments of an edge.
  function edgeDistance(points, px, py) {
    let best = Infinity;
    let prev = points[0];
    for (let s = 0; s + 3 < points.length; s += 3) {
      const [a, b, c, d] = points.slice(s, s + 4);
      for (let step = 1; step <= 8; step++) {
        const u = step / 8;
        const v = 1 - u;
        const q = [0, 1].map((i) => v * v * v * a[i] + 3 * v * v * u * b[i] + 3 * v * u * u * c[i] + u * u * u * d[i]);
        best = Math.min(best, segmentDistance(prev, q, px, py));
        prev = q;
      }
    }
    return best;
  }

  function segmentDistance(a, b, px, py) {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = dx * dx + dy * dy;
    const u = len ? Math.max(0, Math.min(1, ((px - a[0]) * dx + (py - a[1]) * dy) / len)) : 0;
    return Math.hypot(px - (a[0] + u * dx), py - (a[1] + u * dy));
  }

  // One shared tooltip element for every canvas.
  function tooltip() {
    let tip = document.getElementById('tooltip');
    if (!tip) {
      tip = document.createElement('div');
      tip.id = 'tooltip';
      tip.hidden = true;
      document.body.appendChild(tip);
    }
    return tip;
  }

  class GraphView {
    // handlers: onSelect(key or null), onToggle(key) for a double-clicked collapsed group or cluster.
    constructor(canvas, handlers) {
      this.canvas = canvas;
      this.ctx = canvas.getContext('2d');
      this.handlers = handlers;
      this.geo = null;
      this.t = { x: 0, y: 0, k: 1 };
      this.marks = { selected: new Set(), highlighted: new Set(), heat: true };
      this.drawnNodes = 0; // in the viewport at the last frame
      this.countedViewport = ''; // the transform and size drawnNodes was counted for
      this.frame = 0; // a requested animation frame, or 0
      this.content = 0; // bumped when what is drawn changes, not only where
      this.tiles = new tcx.TiledPainter(
        (ctx, t, size, dpr) => paint(ctx, this.geo, t, size, size, this.marks, dpr),
        (k) => {
          const [x, y, w, h] = this.view.bounds;
          const r = reach(k);
          return [x - r, y - r, w + 2 * r, h + 2 * r];
        });
      this.fitted = false; // fit() found the canvas laid out (a hidden pane is fitted when first shown)
      this.shown = null; // the name of the view shown, kept by app.js
      this.zoom = d3.behavior.zoom().scaleExtent([0.002, 16]).on('zoom', () => {
        this.t = { x: d3.event.translate[0], y: d3.event.translate[1], k: d3.event.scale };
        this.requestDraw();
      });
      // Double-click expands groups here, so it must not also zoom.
      d3.select(canvas).call(this.zoom).on('dblclick.zoom', null);
      canvas.addEventListener('click', (e) => this.clicked(e));
      canvas.addEventListener('dblclick', (e) => this.doubleClicked(e));
      canvas.addEventListener('mousemove', (e) => this.hovered(e));
      canvas.addEventListener('mouseleave', () => { tooltip().hidden = true; });
      new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    }

    get view() {
      return this.geo ? this.geo.view : null;
    }

    // Shows a new VIEW answer; keeps the pan and zoom when it is the same view redrawn (a strategy change).
    setView(view, keepTransform) {
      this.geo = view ? prepare(view) : null;
      this.countedViewport = '';
      if (!keepTransform) this.fit();
      this.changed();
    }

    setMarks(selected, highlighted) {
      this.marks.selected = new Set(selected.filter(Boolean));
      this.marks.highlighted = new Set(highlighted.filter(Boolean));
      this.changed();
    }

    setHeat(on) {
      this.marks.heat = on;
      this.changed();
    }

    // What is drawn changed, not only where: the next frames paint afresh.
    changed() {
      this.content++;
      this.requestDraw();
    }

    // Every visible tile of the current view, zoom and marks is drawn (tests wait for it).
    get complete() {
      return !this.geo || this.tiles.complete;
    }

    size() {
      return { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
    }

    resize() {
      const dpr = window.devicePixelRatio || 1;
      const { width, height } = this.size();
      if (!width || !height) return;
      this.canvas.width = Math.round(width * dpr);
      this.canvas.height = Math.round(height * dpr);
      if (this.geo && !this.fitted) this.fit();
      this.draw();
    }

    setTransform(x, y, k) {
      this.zoom.translate([x, y]).scale(k);
      this.t = { x, y, k };
      this.requestDraw();
    }

    // The whole graph in the viewport, never magnified past 1.5x.
    fit() {
      const { width, height } = this.size();
      this.fitted = Boolean(this.geo && width && height);
      if (!this.fitted) return;
      const [bx, by, bw, bh] = this.view.bounds;
      const k = Math.min(1.5, (width - 20) / Math.max(bw, 1), (height - 20) / Math.max(bh, 1));
      this.setTransform((width - bw * k) / 2 - bx * k, (height - bh * k) / 2 - by * k, k);
    }

    zoomBy(factor) {
      const { width, height } = this.size();
      const k = Math.max(0.002, Math.min(16, this.t.k * factor));
      const cx = width / 2;
      const cy = height / 2;
      this.setTransform(cx - (cx - this.t.x) * (k / this.t.k), cy - (cy - this.t.y) * (k / this.t.k), k);
    }

    // Pans by (dx, dy) screen pixels and draws at once (a test times these frames).
    panBy(dx, dy) {
      this.setTransform(this.t.x + dx, this.t.y + dy, this.t.k);
      this.draw();
    }

    // Scrolls `key` into the middle of the viewport when it is outside it.
    reveal(key) {
      const box = this.boxOf(key);
      if (!box) return;
      const { width, height } = this.size();
      const [x, y, w, h] = box;
      const sx = x * this.t.k + this.t.x;
      const sy = y * this.t.k + this.t.y;
      if (sx >= 0 && sy >= 0 && sx + w * this.t.k <= width && sy + h * this.t.k <= height) return;
      this.setTransform(width / 2 - (x + w / 2) * this.t.k, height / 2 - (y + h / 2) * this.t.k, this.t.k);
    }

    boxOf(key) {
      const at = this.geo && this.geo.keyIndex.get(key);
      if (!at) return null;
      if (at.type === 'node') return this.view.nodes[at.index].box;
      if (at.type === 'cluster') return this.view.clusters[at.index].box;
      const b = this.geo.edgeBoxes[at.index];
      return [b[0], b[1], b[2] - b[0], b[3] - b[1]];
    }

    // The drawn item showing `key`: itself, or the collapsed group hiding it; null when not in this view.
    drawnAs(key) {
      if (!this.geo || !key) return null;
      return this.geo.keyIndex.has(key) ? key : this.geo.hiddenIn.get(key) || null;
    }

    requestDraw() {
      if (this.frame) return;
      this.frame = requestAnimationFrame(() => this.draw());
    }

    // One frame: the tiles under the viewport, painting those it lacks within the frame budget; the next frame
    // goes on while any are missing, or to paint ahead of a pan.
    draw() {
      if (this.frame) cancelAnimationFrame(this.frame); // this frame draws what it would have
      this.frame = 0;
      const started = performance.now();
      const { width, height } = this.size();
      if (!this.geo || !width || !height) {
        this.ctx.setTransform(1, 0, 0, 1, 0, 0);
        this.ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
        this.drawnNodes = 0;
        this.countedViewport = '';
        return;
      }
      const dpr = window.devicePixelRatio || 1;
      this.tiles.frame(this.ctx, this.t, width, height, dpr, this.content, started + tcx.TILE_FRAME_BUDGET_MS);
      const viewport = [this.t.x, this.t.y, this.t.k, width, height].join();
      if (viewport !== this.countedViewport) this.drawnNodes = this.nodesInViewport(width, height);
      this.countedViewport = viewport;
      if (this.tiles.pending) this.requestDraw();
      tcx.lastRenderMs = performance.now() - started;
    }

    nodesInViewport(width, height) {
      const { x, y, k } = this.t;
      const [x0, y0, x1, y1] = [-x / k, -y / k, (width - x) / k, (height - y) / k];
      const nodes = this.view.nodes;
      return this.geo.nodeGrid.query(x0, y0, x1, y1).filter((i) => boxIntersects(nodes[i].box, x0, y0, x1, y1)).length;
    }

    // The item under a mouse event: a node, else an edge within a few pixels, else a cluster's label band.
    hit(event) {
      if (!this.geo) return null;
      const rect = this.canvas.getBoundingClientRect();
      const px = (event.clientX - rect.left - this.t.x) / this.t.k;
      const py = (event.clientY - rect.top - this.t.y) / this.t.k;
      const view = this.view;
      const under = this.geo.nodeGrid.query(px, py, px, py);
      for (let j = under.length - 1; j >= 0; j--) { // the last drawn is on top
        const [x, y, w, h] = view.nodes[under[j]].box;
        if (px >= x && px <= x + w && py >= y && py <= y + h) return { type: 'node', item: view.nodes[under[j]] };
      }
      const tolerance = 5 / this.t.k;
      let nearest = null;
      let best = tolerance;
      for (const i of this.geo.edgeGrid.query(px - tolerance, py - tolerance, px + tolerance, py + tolerance)) {
        if (!intersects(this.geo.edgeBoxes[i], px - tolerance, py - tolerance, px + tolerance, py + tolerance)) continue;
        const d = edgeDistance(view.edges[i].points, px, py);
        if (d <= best) { best = d; nearest = i; }
      }
      if (nearest !== null) return { type: 'edge', item: view.edges[nearest] };
      for (let i = view.clusters.length - 1; i >= 0; i--) {
        const [x, y, w] = view.clusters[i].box;
        if (px >= x && px <= x + w && py >= y && py <= y + CLUSTER_HEADER) return { type: 'cluster', item: view.clusters[i] };
      }
      return null;
    }

    clicked(event) {
      if (event.defaultPrevented) return; // d3's zoom marks the click that ends a drag
      const found = this.hit(event);
      this.handlers.onSelect(found && found.item.key ? found.item.key : null);
    }

    doubleClicked(event) {
      const found = this.hit(event);
      if (!found) return;
      const collapsed = found.type === 'node' && found.item.style === 'collapsed-group';
      if (collapsed || found.type === 'cluster') this.handlers.onToggle(found.item.key);
    }

    hovered(event) {
      const tip = tooltip();
      const found = event.buttons ? null : this.hit(event);
      const text = found ? found.item.tooltip || found.item.label || found.item.key : '';
      this.canvas.style.cursor = found ? 'pointer' : '';
      tip.hidden = !text;
      if (!text) return;
      tip.textContent = text;
      tip.style.left = Math.min(event.clientX + 14, window.innerWidth - tip.offsetWidth - 8) + 'px';
      tip.style.top = Math.min(event.clientY + 14, window.innerHeight - tip.offsetHeight - 8) + 'px';
    }

    toSvg() {
      return this.geo ? toSvg(this.geo, this.marks) : null;
    }

    // The whole view rendered off screen (at most 8192 pixels a side), as a PNG blob.
    toPng(callback) {
      if (!this.geo) return callback(null);
      const [bx, by, bw, bh] = this.view.bounds;
      const k = Math.min(2, 8192 / (Math.max(bw, bh) + 20));
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil((bw + 20) * k);
      canvas.height = Math.ceil((bh + 20) * k);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      const t = { x: (10 - bx) * k, y: (10 - by) * k, k };
      paint(ctx, this.geo, t, canvas.width, canvas.height, this.marks, 1);
      canvas.toBlob(callback, 'image/png');
    }
  }

  tcx.GraphView = GraphView;
})(window.tcx);
