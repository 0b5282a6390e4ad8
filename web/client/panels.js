// The panels beside the graph: strategy table, kernel table, latency chart, CUDA source (source.js), details,
// search results and superoptimizer candidates. Each renders an answer of the API and reports clicks through callbacks; none
// fetches anything itself, so app.js decides when data is stale.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  const { el, format, SortableTable, SourcePanel } = tcx;

  const EDGE_STATES = ['auto', 'accepted', 'forced', 'forbidden'];

  // The VTOG edges, one row each, with the state the user sets (handlers.onState(id, state)).
  function strategyTable(table, handlers) {
    const stateCell = (edge) => el('select', {
      'aria-label': 'state of ' + edge.id, 'data-edge': edge.id, disabled: handlers.readOnly(),
      onchange: (e) => handlers.onState(edge.id, e.target.value),
    }, EDGE_STATES.map((s) => el('option', { value: s, selected: s === edge.state, text: s })));
    const edgeNumber = (edge) => Number(String(edge.id).replace(/\D/g, ''));
    // The state control comes first: names are long and the table scrolls sideways.
    return new SortableTable(table, [
      { title: 'edge', value: edgeNumber, cell: (e) => e.id },
      { title: 'state', value: (e) => EDGE_STATES.indexOf(e.state), cell: stateCell },
      { title: 'chosen', value: (e) => (e.chosen ? 1 : 0), cell: (e) => (e.chosen ? '✓' : '') },
      { title: 'saving', value: (e) => e.saving, cell: (e) => format.us(e.saving), numeric: true },
      { title: 'type', value: (e) => e.type, cell: (e) => e.type + (e.contiguous ? ', contiguous' : '') },
      { title: 'from → to', value: (e) => e.from + ' → ' + e.to, cell: (e) => e.from + ' → ' + e.to },
      { title: 'op', value: (e) => e.op, cell: (e) => e.op },
      { title: 'mapping', value: (e) => e.mapping, cell: (e) => el('code', { text: e.mapping || '' }) },
      { title: 'conflicts', value: (e) => (e.conflicts || []).join(' '), cell: (e) => (e.conflicts || []).join(' ') },
    ], { key: (e) => e.key, onClick: (e) => handlers.onSelect(e.key) });
  }

  function kernelTable(table, handlers) {
    return new SortableTable(table, [
      { title: '#', value: (k) => k.index, cell: (k) => k.index, numeric: true },
      { title: 'kernel', value: (k) => k.name, cell: (k) => k.name },
      { title: 'kind', value: (k) => (k.dataMovement ? 0 : 1), cell: (k) => (k.dataMovement ? 'data movement' : 'compute') },
      { title: 'ops', value: (k) => (k.ops || []).length, cell: (k) => (k.ops || []).length, numeric: true },
      { title: 'bytes', value: (k) => k.bytes, cell: (k) => format.bytes(k.bytes), numeric: true },
      { title: 'flops', value: (k) => k.flops, cell: (k) => format.count(k.flops), numeric: true },
      { title: 'time', value: (k) => k.seconds, cell: (k) => format.us(k.seconds), numeric: true },
    ], { key: (k) => k.key, onClick: (k) => handlers.onSelect(k.key) });
  }

  // Stacked bars of data movement and compute, baseline against optimised (VTC's Figure 2), in microseconds.
  class LatencyChart {
    constructor(canvas) {
      this.values = [0, 0, 0, 0];
      this.chart = new Chart(canvas.getContext('2d'), {
        type: 'bar',
        data: {
          labels: ['baseline', 'optimised'],
          datasets: [
            { label: 'data movement', data: [0, 0], backgroundColor: '#ffa94d', stack: 'latency' },
            { label: 'compute', data: [0, 0], backgroundColor: '#74c0fc', stack: 'latency' },
          ],
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: 'µs' } } },
          plugins: {
            title: { display: true, text: '' },
            tooltip: { callbacks: { label: (c) => c.dataset.label + ': ' + c.parsed.y.toFixed(2) + ' µs' } },
          },
        },
      });
    }

    update(latency) {
      const us = (s) => (typeof s === 'number' ? s * 1e6 : 0);
      const b = latency.baseline || {};
      const o = latency.optimized || {};
      this.values = [us(b.dataMovementSeconds), us(b.computeSeconds), us(o.dataMovementSeconds), us(o.computeSeconds)];
      const [dataMovement, compute] = this.chart.data.datasets;
      dataMovement.data = [this.values[0], this.values[2]];
      compute.data = [this.values[1], this.values[3]];
      this.chart.options.plugins.title.text = format.us(b.seconds) + ' → ' + format.us(o.seconds) + ', ' + latency.source;
      this.chart.options.scales.y.title.text = 'µs, ' + (latency.measured ? 'measured' : 'estimated');
      this.chart.update();
    }
  }


  // A key as a link that selects it.
  function keyLink(key, onSelect) {
    return el('a', { href: '#', class: 'key', text: key, onclick: (e) => { e.preventDefault(); onSelect(key); } });
  }

  function showDetails(container, details, onSelect) {
    // A field is [label, value] or [label, value, code]: code values (shapes, mappings) are set in monospace.
    const rows = (details.fields || []).map(([label, value, code]) => el('tr', {}, [
      el('th', { text: label }), el('td', {}, [code ? el('code', { text: String(value) }) : String(value)])]));
    if (details.kernel) rows.push(el('tr', {}, [el('th', { text: 'kernel' }), el('td', {}, [keyLink(details.kernel, onSelect)])]));
    if ((details.edges || []).length) {
      const links = [];
      details.edges.forEach((id, i) => { if (i) links.push(' '); links.push(keyLink('edge:' + id, onSelect)); });
      rows.push(el('tr', {}, [el('th', { text: 'VTOG edges' }), el('td', {}, links)]));
    }
    container.replaceChildren(
      el('h3', { text: details.title || details.key }),
      el('p', { class: 'hint', text: details.kind + ' · ' + details.key }),
      el('table', { class: 'fields' }, rows));
  }

  function showDetailsMessage(container, message) {
    container.replaceChildren(el('p', { class: 'hint', text: message }));
  }

  function showMatches(list, matches, onSelect) {
    list.replaceChildren(...matches.map((m) => el('li', {}, [
      keyLink(m.key, onSelect),
      m.shownAs && m.shownAs !== m.key ? el('span', { class: 'hint', text: ' in ' + m.shownAs }) : '',
    ])));
  }

  // docs/web.md names a candidate's time estimatedSeconds; the server sends estimatedMicros (and measuredMicros).
  function candidateSeconds(c, name) {
    if (typeof c[name + 'Seconds'] === 'number') return c[name + 'Seconds'];
    return typeof c[name + 'Micros'] === 'number' ? c[name + 'Micros'] * 1e-6 : null;
  }

  function showCandidates(table, result) {
    const candidates = (result && result.candidates) || [];
    table.hidden = false;
    const head = el('tr', {}, ['rank', 'estimated', 'measured', 'speedup', 'verdict', 'kernels'].map((t) => el('th', { text: t })));
    const rows = candidates.map((c) => el('tr', {}, [
      el('td', { class: 'num', text: c.rank }),
      el('td', { class: 'num', text: format.us(candidateSeconds(c, 'estimated')) }),
      el('td', { class: 'num', text: format.us(candidateSeconds(c, 'measured')) }),
      el('td', { class: 'num', text: typeof c.speedup === 'number' ? c.speedup.toFixed(2) + '×' : '—' }),
      el('td', { text: c.verdict }),
      el('td', { text: Array.isArray(c.kernels) ? c.kernels.join(', ') : String(c.kernels) }),
    ]));
    if (!rows.length) rows.push(el('tr', {}, [el('td', { colspan: 6, class: 'hint', text: 'no candidates found' })]));
    const counters = Object.entries((result && result.counters) || {}).map(([name, value]) => name + ' ' + value).join(' · ');
    const summary = [result && result.stop, counters].filter(Boolean).join(': ');
    table.replaceChildren(el('caption', { text: summary }), el('thead', {}, [head]), el('tbody', {}, rows));
  }

  tcx.panels = {
    strategyTable, kernelTable, LatencyChart, SourcePanel, showDetails, showDetailsMessage, showMatches, showCandidates,
  };
})(window.tcx);
