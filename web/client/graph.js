// A graph view (docs/web.md VIEW) drawn on one canvas. The server has laid it out; this file only draws what it
// is told, in world coordinates (points, y down) under a pan/zoom transform from d3.behavior.zoom (d3 v3).
// Large graphs stay smooth because a frame touches only what intersects the viewport, batches strokes and fills
// by style, and leaves labels out when they would be too small to read. The same painter draws the PNG export;
// the SVG export writes the same geometry as markup.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  // Colours as the desktop explorer's GraphStyle.cpp, so screenshots of both agree.
  const NODE_FILL = {
    'op': '#d0ebff', 'data-movement-op': '#ffd8a8', 'tensor': '#f1f3f5', 'graph-input': '#d3f9d8',
    'graph-output': '#ffe3e3', 'constant': '#e9ecef', 'collapsed-group': '#e5dbff',
    'physical-tensor': '#adb5bd', 'virtual-tensor': '#ffffff',
  };
  const NODE_STROKE = {
    'data-movement-op': { color: '#e8590c', width: 2.5 }, // what VTC eliminates: a heavy orange border
    'constant': { color: '#495057', width: 1.2, dash: [4, 3] },
    'virtual-tensor': { color: '#495057', width: 1.2, dash: [4, 3] },
    'collapsed-group': { color: '#5f3dc4', width: 1.5 },
  };
  const DEFAULT_STROKE = { color: '#495057', width: 1 };
  const EDGE_STROKE = {
    'dataflow': { color: '#495057' }, 'type-i': { color: '#2b8a3e' },
    'type-ii': { color: '#e8590c', dash: [6, 4] }, 'points-to': { color: '#1c7ed6' },
  };
  const ELLIPSES = new Set(['tensor', 'graph-input', 'graph-output', 'constant']);
  const CLUSTER_FILL = { kernel: '#fff9db', scope: '#f8f9fa' };
  const SELECTED = '#1971c2';
  const HIGHLIGHT = '#d6336c';
  const HIGHLIGHT_FILL = '#ffe066';
  const FONT = 'Helvetica, Arial, sans-serif';
  const NODE_FONT = 10;
  const EDGE_FONT = 8;
  const CLUSTER_FONT = 10;
  const CLUSTER_HEADER = 18; // the band at a cluster's top that holds its label (and takes its clicks)
  const HOT_LABEL = 0.65; // heat above which the fill is dark enough for white labels
  const MIN_LABEL_PX = 5; // labels smaller than this on screen are unreadable: skip them
  const MIN_EDGE_LABEL_PX = 7;
  const FULL_EDGE_LABEL_ZOOM = 2;
  const MIN_ARROW_ZOOM = 0.15;
  const HEAT_STEPS = 32; // heat quantised, so that fills batch into a bounded number of colours

  // The desktop's heat ramp: pale yellow through orange to red (HSV hue 55..0).
  function heatColour(heat) {
    const h = Math.max(0, Math.min(1, heat));
    const hue = (1 - h) * 55;
    const s = 0.15 + 0.85 * h;
    const f = (n) => {
      const k = (n + hue / 60) % 6;
      return Math.round(255 * (1 - s * Math.max(0, Math.min(k, 4 - k, 1))));
    };
    return 'rgb(' + f(5) + ',' + f(3) + ',' + f(1) + ')';
  }

  function grow(box, x, y) {
    box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y);
    box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y);
  }

  // Style names as docs/web.md spells them ("data-movement-op", "type-ii"); core's nodeStyleName() and
  // edgeStyleName() write "data-movement op" and "type II", which the server may pass on as they are.
  function canonicalStyle(style) {
    return String(style || '').toLowerCase().replace(/ /g, '-');
  }

  // What a frame needs beyond the VIEW answer: edges' bounding boxes (x0, y0, x1, y1) and label lines.
  // Styles are made canonical in place, so the view's own objects are what hit testing returns.
  function prepare(view) {
    for (const item of view.nodes.concat(view.edges)) item.style = canonicalStyle(item.style);
    const edgeBoxes = view.edges.map((e) => {
      const box = [Infinity, Infinity, -Infinity, -Infinity];
      for (const [x, y] of e.points) grow(box, x, y);
      for (const [x, y] of e.arrow || []) grow(box, x, y);
      return box;
    });
    return {
      view,
      edgeBoxes,
      nodeLines: view.nodes.map((n) => (n.label || '').split('\n')),
      edgeLines: view.edges.map((e) => (e.label ? e.label.split('\n') : [])),
      clusterLines: view.clusters.map((c) => c.label || ''),
      keyIndex: indexKeys(view),
      hiddenIn: hidingNodes(view),
    };
  }

  // key of an item inside a collapsed group -> the group's node.
  function hidingNodes(view) {
    const hiddenIn = new Map();
    for (const node of view.nodes) for (const key of node.hidden || []) hiddenIn.set(key, node.key);
    return hiddenIn;
  }

  // key -> {type, index} for every drawn item, so linked selection finds what to mark.
  function indexKeys(view) {
    const index = new Map();
    view.clusters.forEach((c, i) => index.set(c.key, { type: 'cluster', index: i }));
    view.edges.forEach((e, i) => { if (e.key && !index.has(e.key)) index.set(e.key, { type: 'edge', index: i }); });
    view.nodes.forEach((n, i) => index.set(n.key, { type: 'node', index: i }));
    return index;
  }

  function intersects(box, x0, y0, x1, y1) {
    return box[0] <= x1 && box[2] >= x0 && box[1] <= y1 && box[3] >= y0;
  }

  function boxIntersects([x, y, w, h], x0, y0, x1, y1) {
    return x <= x1 && x + w >= x0 && y <= y1 && y + h >= y0;
  }

  function traceEdge(ctx, points) {
    ctx.moveTo(points[0][0], points[0][1]);
    for (let i = 1; i + 2 < points.length; i += 3) {
      const [a, b, c] = [points[i], points[i + 1], points[i + 2]];
      ctx.bezierCurveTo(a[0], a[1], b[0], b[1], c[0], c[1]);
    }
  }

  // An arrowhead from the spline's end `a` to the tip `b`, as Graphviz draws it.
  function arrowPolygon([a, b]) {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const half = 0.35;
    return [b, [a[0] - dy * half, a[1] + dx * half], [a[0] + dy * half, a[1] - dx * half]];
  }

  function traceNode(ctx, node, roundedOk) {
    const [x, y, w, h] = node.box;
    if (ELLIPSES.has(node.style)) {
      ctx.moveTo(x + w, y + h / 2);
      ctx.ellipse(x + w / 2, y + h / 2, w / 2, h / 2, 0, 0, 2 * Math.PI);
    } else if (roundedOk && ctx.roundRect) {
      ctx.roundRect(x, y, w, h, 4);
    } else {
      ctx.rect(x, y, w, h);
    }
  }

  // The point halfway along an edge's middle Bezier segment, where its label goes.
  function edgeMiddle(points) {
    const segments = Math.max(1, Math.floor((points.length - 1) / 3));
    const s = Math.floor(segments / 2) * 3;
    const p = points.slice(s, s + 4);
    if (p.length < 4) return points[Math.floor(points.length / 2)];
    const at = (i) => 0.125 * p[0][i] + 0.375 * p[1][i] + 0.375 * p[2][i] + 0.125 * p[3][i];
    return [at(0), at(1)];
  }

  // Groups items by a string so each group costs one path and one stroke or fill.
  function bucket(map, key, value) {
    let list = map.get(key);
    if (!list) map.set(key, list = []);
    list.push(value);
  }

  // Skia rasterises one path of thousands of contours in superlinear time (10,000 arrowheads: 300 ms), paths of a
  // few dozen in linear time: so many shapes are traced and painted a chunk at a time.
  const CHUNK = 64;
  function paintChunked(ctx, list, trace, paintPath) {
    for (let i = 0; i < list.length; i += CHUNK) {
      ctx.beginPath();
      for (let j = i; j < Math.min(i + CHUNK, list.length); j++) trace(list[j]);
      paintPath();
    }
  }

  function setStroke(ctx, stroke, minWidth) {
    ctx.strokeStyle = stroke.color;
    ctx.lineWidth = Math.max(stroke.width, minWidth);
    ctx.setLineDash(stroke.dash || []);
  }

  // Draws `geo` into ctx with transform t ({x, y, k}: screen = world * k + (x, y)) over a width x height
  // (CSS pixels) area. marks: {selected: Set, highlighted: Set, heat: bool}. Returns how many nodes it drew.
  function paint(ctx, geo, t, width, height, marks, scale) {
    const view = geo.view;
    ctx.setTransform(scale * t.k, 0, 0, scale * t.k, scale * t.x, scale * t.y);
    const x0 = -t.x / t.k;
    const y0 = -t.y / t.k;
    const x1 = x0 + width / t.k;
    const y1 = y0 + height / t.k;
    const hair = 0.8 / t.k; // thinnest line still visible when zoomed out
    const labels = t.k * NODE_FONT >= MIN_LABEL_PX;

    const clusters = [];
    view.clusters.forEach((c, i) => { if (boxIntersects(c.box, x0, y0, x1, y1)) clusters.push(i); });
    for (const i of clusters) {
      const c = view.clusters[i];
      ctx.beginPath();
      if (ctx.roundRect) ctx.roundRect(c.box[0], c.box[1], c.box[2], c.box[3], 8);
      else ctx.rect(c.box[0], c.box[1], c.box[2], c.box[3]);
      ctx.fillStyle = CLUSTER_FILL[c.kind] || CLUSTER_FILL.scope;
      ctx.fill();
      const marked = marks.selected.has(c.key) ? SELECTED : marks.highlighted.has(c.key) ? HIGHLIGHT : null;
      setStroke(ctx, marked ? { color: marked, width: 2.5 } : { color: '#ced4da', width: 1 }, hair);
      ctx.stroke();
    }
    if (labels) {
      ctx.font = 'bold ' + CLUSTER_FONT + 'px ' + FONT;
      ctx.fillStyle = '#343a40';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      for (const i of clusters) {
        const c = view.clusters[i];
        ctx.fillText(geo.clusterLines[i], c.box[0] + 8, c.box[1] + CLUSTER_HEADER / 2 + 1, Math.max(1, c.box[2] - 16));
      }
    }

    const edges = [];
    geo.edgeBoxes.forEach((box, i) => { if (intersects(box, x0, y0, x1, y1)) edges.push(i); });
    // Sub-pixel arrowheads are invisible, and filling thousands of them is the slowest part of a zoomed-out frame.
    const arrows = t.k >= MIN_ARROW_ZOOM;
    const edgeGroups = new Map();
    for (const i of edges) {
      const e = view.edges[i];
      const marked = e.key && (marks.selected.has(e.key) ? 'selected' : marks.highlighted.has(e.key) ? 'highlighted' : '');
      bucket(edgeGroups, (e.style || 'dataflow') + '|' + (e.chosen ? 1 : 0) + '|' + (marked || ''), i);
    }
    for (const [group, list] of edgeGroups) {
      const [style, chosen, marked] = group.split('|');
      const base = EDGE_STROKE[style] || EDGE_STROKE.dataflow;
      const width = chosen === '1' ? 3 : 1.3;
      const stroke = marked === 'selected' ? { color: SELECTED, width: 3.5 }
        : marked === 'highlighted' ? { color: HIGHLIGHT, width: 3 } : { color: base.color, width, dash: base.dash };
      setStroke(ctx, stroke, hair);
      paintChunked(ctx, list, (i) => traceEdge(ctx, view.edges[i].points), () => ctx.stroke());
      if (!arrows) continue;
      ctx.fillStyle = stroke.color;
      paintChunked(ctx, list.filter((i) => view.edges[i].arrow), (i) => {
        const [p, q, r] = arrowPolygon(view.edges[i].arrow);
        ctx.moveTo(p[0], p[1]); ctx.lineTo(q[0], q[1]); ctx.lineTo(r[0], r[1]); ctx.closePath();
      }, () => ctx.fill());
    }
    if (t.k * EDGE_FONT >= MIN_EDGE_LABEL_PX) {
      // Edge labels have no position of their own and crowd each other: the first line (the VTOG edge's id and
      // op, a tensor's shape) until zoomed in far, the rest is in the tooltip.
      const allLines = t.k >= FULL_EDGE_LABEL_ZOOM;
      ctx.setLineDash([]);
      ctx.font = EDGE_FONT + 'px ' + FONT;
      ctx.fillStyle = '#495057';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      for (const i of edges) {
        const lines = allLines ? geo.edgeLines[i] : geo.edgeLines[i].slice(0, 1);
        if (!lines.length) continue;
        const [mx, my] = edgeMiddle(view.edges[i].points);
        lines.forEach((line, j) => ctx.fillText(line, mx + 4, my + (j - (lines.length - 1) / 2) * (EDGE_FONT + 2)));
      }
    }

    const nodes = [];
    view.nodes.forEach((n, i) => { if (boxIntersects(n.box, x0, y0, x1, y1)) nodes.push(i); });
    const rounded = t.k * 8 >= 1; // corners smaller than a pixel are not worth the cost
    const fills = new Map();
    const strokes = new Map();
    for (const i of nodes) {
      const n = view.nodes[i];
      const fill = marks.highlighted.has(n.key) ? HIGHLIGHT_FILL
        : marks.heat && n.heat > 0 ? heatColour(Math.round(n.heat * HEAT_STEPS) / HEAT_STEPS) : NODE_FILL[n.style] || '#ffffff';
      bucket(fills, fill, i);
      bucket(strokes, n.style, i);
    }
    const traceIndex = (i) => traceNode(ctx, view.nodes[i], rounded);
    for (const [fill, list] of fills) {
      ctx.fillStyle = fill;
      paintChunked(ctx, list, traceIndex, () => ctx.fill());
    }
    for (const [style, list] of strokes) {
      setStroke(ctx, NODE_STROKE[style] || DEFAULT_STROKE, hair);
      paintChunked(ctx, list, traceIndex, () => ctx.stroke());
    }
    for (const [set, stroke] of [[marks.highlighted, { color: HIGHLIGHT, width: 2.5 }], [marks.selected, { color: SELECTED, width: 3.5 }]]) {
      ctx.beginPath();
      for (const key of set) {
        const at = geo.keyIndex.get(key);
        if (at && at.type === 'node') traceNode(ctx, view.nodes[at.index], rounded);
      }
      setStroke(ctx, stroke, 2 / t.k); // marks stay visible however far out
      ctx.stroke();
    }
    if (labels) {
      ctx.setLineDash([]);
      ctx.font = NODE_FONT + 'px ' + FONT;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (const i of nodes) {
        const node = view.nodes[i];
        const [x, y, w, h] = node.box;
        const onRed = marks.heat && node.heat > HOT_LABEL && !marks.highlighted.has(node.key);
        ctx.fillStyle = onRed ? '#ffffff' : '#212529';
        const lines = geo.nodeLines[i];
        const cx = x + w / 2;
        const cy = y + h / 2 - ((lines.length - 1) * (NODE_FONT + 2)) / 2;
        lines.forEach((line, j) => ctx.fillText(line, cx, cy + j * (NODE_FONT + 2), w - 4));
      }
    }
    return nodes.length;
  }

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

  function escapeXml(text) {
    return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  }

  function svgText(x, y, lines, size, anchor, extra) {
    const spans = lines.map((line, j) => '<tspan x="' + x + '" dy="' + (j ? size + 2 : 0) + '">' + escapeXml(line) + '</tspan>');
    return '<text x="' + x + '" y="' + y + '" font-size="' + size + '" text-anchor="' + anchor + '" dominant-baseline="middle"' +
      (extra || '') + '>' + spans.join('') + '</text>';
  }

  // The whole view as SVG markup, from the geometry the canvas draws.
  function toSvg(geo, marks) {
    const view = geo.view;
    const [bx, by, bw, bh] = view.bounds;
    const out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + [bx - 10, by - 10, bw + 20, bh + 20].join(' ') +
      '" width="' + (bw + 20) + '" height="' + (bh + 20) + '" font-family="' + FONT + '">',
      '<rect x="' + (bx - 10) + '" y="' + (by - 10) + '" width="' + (bw + 20) + '" height="' + (bh + 20) + '" fill="#ffffff"/>'];
    view.clusters.forEach((c, i) => {
      const [x, y, w, h] = c.box;
      out.push('<rect x="' + x + '" y="' + y + '" width="' + w + '" height="' + h + '" rx="8" fill="' +
        (CLUSTER_FILL[c.kind] || CLUSTER_FILL.scope) + '" stroke="#ced4da"/>');
      out.push(svgText(x + 8, y + CLUSTER_HEADER / 2 + 1, [geo.clusterLines[i]], CLUSTER_FONT, 'start', ' font-weight="bold"'));
    });
    view.edges.forEach((e, i) => {
      if (e.points.length < 2) return;
      const stroke = EDGE_STROKE[e.style] || EDGE_STROKE.dataflow;
      const colour = marks.selected.has(e.key) ? SELECTED : stroke.color;
      const d = 'M' + e.points[0].join(',') + e.points.slice(1).map((p, j) => (j % 3 === 0 ? ' C' : ' ') + p.join(',')).join('');
      out.push('<path d="' + d + '" fill="none" stroke="' + colour + '" stroke-width="' + (e.chosen ? 3 : 1.3) + '"' +
        (stroke.dash ? ' stroke-dasharray="' + stroke.dash.join(',') + '"' : '') + '/>');
      if (e.arrow) out.push('<polygon points="' + arrowPolygon(e.arrow).map((p) => p.join(',')).join(' ') + '" fill="' + colour + '"/>');
      if (geo.edgeLines[i].length) {
        const [mx, my] = edgeMiddle(e.points);
        out.push(svgText(mx + 4, my - ((geo.edgeLines[i].length - 1) * (EDGE_FONT + 2)) / 2, geo.edgeLines[i], EDGE_FONT, 'start', ' fill="#495057"'));
      }
    });
    view.nodes.forEach((n, i) => {
      const [x, y, w, h] = n.box;
      const stroke = marks.selected.has(n.key) ? { color: SELECTED, width: 3.5 } : NODE_STROKE[n.style] || DEFAULT_STROKE;
      const fill = marks.heat && n.heat > 0 ? heatColour(n.heat) : NODE_FILL[n.style] || '#ffffff';
      const paintAttrs = ' fill="' + fill + '" stroke="' + stroke.color + '" stroke-width="' + stroke.width + '"' +
        (stroke.dash ? ' stroke-dasharray="' + stroke.dash.join(',') + '"' : '');
      out.push(ELLIPSES.has(n.style)
        ? '<ellipse cx="' + (x + w / 2) + '" cy="' + (y + h / 2) + '" rx="' + w / 2 + '" ry="' + h / 2 + '"' + paintAttrs + '/>'
        : '<rect x="' + x + '" y="' + y + '" width="' + w + '" height="' + h + '" rx="4"' + paintAttrs + '/>');
      const lines = geo.nodeLines[i];
      out.push(svgText(x + w / 2, y + h / 2 - ((lines.length - 1) * (NODE_FONT + 2)) / 2, lines, NODE_FONT, 'middle'));
    });
    out.push('</svg>');
    return out.join('\n');
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
      this.drawnNodes = 0; // in the last frame
      this.frame = 0; // a requested animation frame, or 0
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
      if (!keepTransform) this.fit();
      this.requestDraw();
    }

    setMarks(selected, highlighted) {
      this.marks.selected = new Set(selected.filter(Boolean));
      this.marks.highlighted = new Set(highlighted.filter(Boolean));
      this.requestDraw();
    }

    setHeat(on) {
      this.marks.heat = on;
      this.requestDraw();
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

    draw() {
      if (this.frame) cancelAnimationFrame(this.frame); // this frame draws what it would have
      this.frame = 0;
      const started = performance.now();
      const ctx = this.ctx;
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
      const { width, height } = this.size();
      this.drawnNodes = this.geo ? paint(ctx, this.geo, this.t, width, height, this.marks, dpr) : 0;
      tcx.lastRenderMs = performance.now() - started;
    }

    // The item under a mouse event: a node, else an edge within a few pixels, else a cluster's label band.
    hit(event) {
      if (!this.geo) return null;
      const rect = this.canvas.getBoundingClientRect();
      const px = (event.clientX - rect.left - this.t.x) / this.t.k;
      const py = (event.clientY - rect.top - this.t.y) / this.t.k;
      const view = this.view;
      for (let i = view.nodes.length - 1; i >= 0; i--) {
        const [x, y, w, h] = view.nodes[i].box;
        if (px >= x && px <= x + w && py >= y && py <= y + h) return { type: 'node', item: view.nodes[i] };
      }
      const tolerance = 5 / this.t.k;
      let nearest = null;
      let best = tolerance;
      this.geo.edgeBoxes.forEach((b, i) => {
        if (!intersects(b, px - tolerance, py - tolerance, px + tolerance, py + tolerance)) return;
        const d = edgeDistance(view.edges[i].points, px, py);
        if (d <= best) { best = d; nearest = i; }
      });
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
  tcx.heatColour = heatColour;
})(window.tcx);
