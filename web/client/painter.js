// How a view looks: the geometry a frame needs beyond the VIEW answer (docs/web.md), the canvas painter and the
// SVG writer, in world coordinates (points, y down) under a pan/zoom transform. Large graphs stay smooth because a
// frame touches only what intersects the viewport, batches strokes and fills by style, and leaves labels out when
// they would be too small to read. The same painter draws the PNG export; the SVG export writes the same geometry
// as markup. graph.js handles the interaction.
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
  const EDGE_LABEL_REACH = 120; // how far right of an edge's box its label may run (world units; labels have no box)

  // How far past its box an item's paint reaches at zoom k, in world units: strokes (a mark is at least 2 screen
  // pixels wide however far out) and, for edges, labels. A tile paints what reaches into it, or it would cut a
  // line or a label at its border.
  function strokeReach(k) {
    return 3 / k + 2;
  }
  function reach(k) {
    return strokeReach(k) + EDGE_LABEL_REACH;
  }

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

  // Items by the cells of a grid over the view, so that painting a tile (and hit testing, graph.js) visits what lies
  // near it rather than every item: a tile of the 10,000-node graph took 3.2 ms scanning 20,000 boxes, 1.8 ms with
  // the grid. Boxes are (x0, y0, x1, y1); an item is in every cell its box touches.
  const GRID_CELLS = 64; // a side, at most
  class GridIndex {
    constructor(boxes) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const b of boxes) { x0 = Math.min(x0, b[0]); y0 = Math.min(y0, b[1]); x1 = Math.max(x1, b[2]); y1 = Math.max(y1, b[3]); }
      if (!boxes.length) x0 = y0 = x1 = y1 = 0;
      this.x0 = x0;
      this.y0 = y0;
      this.cell = Math.max((x1 - x0) / GRID_CELLS, (y1 - y0) / GRID_CELLS, 1);
      this.columns = Math.max(1, Math.ceil((x1 - x0) / this.cell) + 1);
      this.rows = Math.max(1, Math.ceil((y1 - y0) / this.cell) + 1);
      this.cells = Array.from({ length: this.columns * this.rows }, () => []);
      this.seen = new Uint32Array(boxes.length);
      this.stamp = 0;
      boxes.forEach((b, i) => this.visit(b[0], b[1], b[2], b[3], (cell) => cell.push(i)));
    }

    visit(x0, y0, x1, y1, f) {
      const c0 = Math.max(0, Math.floor((x0 - this.x0) / this.cell));
      const c1 = Math.min(this.columns - 1, Math.floor((x1 - this.x0) / this.cell));
      const r0 = Math.max(0, Math.floor((y0 - this.y0) / this.cell));
      const r1 = Math.min(this.rows - 1, Math.floor((y1 - this.y0) / this.cell));
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) f(this.cells[r * this.columns + c]);
    }

    // Indices of the items whose cells the rectangle touches, in ascending order (paint order): a superset of
    // those whose boxes it intersects.
    query(x0, y0, x1, y1) {
      const found = [];
      const stamp = ++this.stamp;
      this.visit(x0, y0, x1, y1, (cell) => {
        for (const i of cell) if (this.seen[i] !== stamp) { this.seen[i] = stamp; found.push(i); }
      });
      return found.sort((a, b) => a - b);
    }
  }

  // What a frame needs beyond the VIEW answer: edges' bounding boxes (x0, y0, x1, y1), label lines and the
  // grids. Styles are made canonical in place, so the view's own objects are what hit testing returns.
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
      nodeGrid: new GridIndex(view.nodes.map(({ box: [x, y, w, h] }) => [x, y, x + w, y + h])),
      edgeGrid: new GridIndex(edgeBoxes),
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
    const pad = strokeReach(t.k);
    const x0 = -t.x / t.k - pad;
    const y0 = -t.y / t.k - pad;
    const x1 = x0 + width / t.k + 2 * pad;
    const y1 = y0 + height / t.k + 2 * pad;
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

    const edgeLabels = t.k * EDGE_FONT >= MIN_EDGE_LABEL_PX;
    const labelX0 = edgeLabels ? x0 - EDGE_LABEL_REACH : x0;
    const edges = geo.edgeGrid.query(labelX0, y0, x1, y1).filter((i) => intersects(geo.edgeBoxes[i], labelX0, y0, x1, y1));
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
    if (edgeLabels) {
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

    const nodes = geo.nodeGrid.query(x0, y0, x1, y1).filter((i) => boxIntersects(view.nodes[i].box, x0, y0, x1, y1));
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

  tcx.painter = { prepare, paint, toSvg, intersects, boxIntersects, reach, CLUSTER_HEADER };
})(window.tcx);
