// The panels beside the graph: strategy table, kernel table, latency chart, CUDA source, details, search results
// and superoptimizer candidates. Each renders an answer of the API and reports clicks through callbacks; none
// fetches anything itself, so app.js decides when data is stale.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === 'text') node.textContent = value;
      else if (name === 'class') node.className = value;
      else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value === true ? '' : value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  // Times in microseconds, sizes in binary units, counts with SI prefixes; "—" where there is no number.
  const format = {
    us(seconds) {
      return typeof seconds === 'number' ? (seconds * 1e6).toFixed(seconds * 1e6 < 10 ? 2 : 1) + ' µs' : '—';
    },
    bytes(n) {
      if (typeof n !== 'number') return '—';
      const units = ['B', 'KiB', 'MiB', 'GiB'];
      let i = 0;
      while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
      return (i ? n.toFixed(1) : String(n)) + ' ' + units[i];
    },
    count(n) {
      if (typeof n !== 'number') return '—';
      const units = ['', 'K', 'M', 'G', 'T'];
      let i = 0;
      while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
      return (i ? n.toFixed(2) : String(n)) + units[i];
    },
  };

  // A table whose header sorts it: columns [{title, value(row) for sorting, cell(row) -> text or node}].
  // Rows carry data-key so linked selection can mark them.
  class SortableTable {
    constructor(table, columns, options) {
      this.table = table;
      this.columns = columns;
      this.options = options; // {key(row), onClick(row)}
      this.rows = [];
      this.sort = { column: -1, descending: false };
      this.marked = new Set();
    }

    setRows(rows) {
      this.rows = rows;
      this.render();
    }

    sortBy(column) {
      this.sort = { column, descending: this.sort.column === column ? !this.sort.descending : false };
      this.render();
    }

    ordered() {
      const { column, descending } = this.sort;
      if (column < 0) return this.rows;
      const value = this.columns[column].value;
      const sign = descending ? -1 : 1;
      return this.rows.slice().sort((a, b) => {
        const x = value(a);
        const y = value(b);
        if (x === y) return 0;
        if (x === null || x === undefined) return 1; // blanks last either way
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : 1) * sign;
      });
    }

    render() {
      const head = el('tr', {}, this.columns.map((c, i) => el('th', {
        class: this.sort.column === i ? (this.sort.descending ? 'sorted desc' : 'sorted asc') : '',
        title: 'sort by ' + c.title, text: c.title, onclick: () => this.sortBy(i),
      })));
      const body = this.ordered().map((row) => el('tr', {
        'data-key': this.options.key(row),
        onclick: (e) => { if (!e.target.closest('select')) this.options.onClick(row); },
      }, this.columns.map((c) => {
        const cell = c.cell(row);
        return el('td', { class: c.numeric ? 'num' : '' }, [cell instanceof Node ? cell : String(cell)]);
      })));
      this.table.replaceChildren(el('thead', {}, [head]), el('tbody', {}, body));
      this.mark([...this.marked]);
    }

    // Marks the rows of `keys` and scrolls the first into view.
    mark(keys) {
      this.marked = new Set(keys.filter(Boolean));
      let first = null;
      for (const tr of this.table.querySelectorAll('tbody tr')) {
        const on = this.marked.has(tr.dataset.key);
        tr.classList.toggle('selected', on);
        if (on && !first) first = tr;
      }
      if (first) scrollWithin(first.closest('.scroll'), first);
    }
  }

  // Scrolls a container (not the page) so that `child` is visible.
  function scrollWithin(container, child) {
    if (!container) return;
    const top = child.offsetTop - container.offsetTop;
    if (top < container.scrollTop || top + child.offsetHeight > container.scrollTop + container.clientHeight)
      container.scrollTop = Math.max(0, top - container.clientHeight / 3);
  }

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

  // Above this much CUDA, SourcePanel highlights only the marked kernel's lines.
  const LAZY_HIGHLIGHT_CHARS = 100000;

  function escapeHtml(text) {
    return text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
  }

  // CUDA as highlighted HTML; highlight.js 9 (Debian) takes (language, code), 11 takes (code, options).
  function highlightCuda(code) {
    if (!window.hljs) return escapeHtml(code);
    const major = parseInt(hljs.versionString || '9', 10);
    return major >= 11 ? hljs.highlight(code, { language: 'cpp', ignoreIllegals: true }).value
      : hljs.highlight('cpp', code, true).value;
  }

  // Splits highlighted HTML into lines, closing the spans still open at each line's end and reopening them on
  // the next, so that every line is a well-formed element that can be marked on its own.
  function htmlLines(html) {
    const lines = [];
    const open = [];
    let current = '';
    for (const token of html.split(/(<span[^>]*>|<\/span>|\n)/)) {
      if (token === '\n') {
        lines.push(current + '</span>'.repeat(open.length));
        current = open.join('');
      } else {
        if (token.startsWith('<span')) open.push(token);
        else if (token === '</span>') open.pop();
        current += token;
      }
    }
    lines.push(current + '</span>'.repeat(open.length));
    return lines;
  }

  class SourcePanel {
    constructor(pre, label) {
      this.pre = pre;
      this.label = label;
      this.spans = {};
    }

    // A large model's CUDA (Swin-T: 350 KB, 10,000 lines) is shown plain and only the marked kernel's lines are
    // highlighted: highlighting and inserting all of it took seconds of the model's open time.
    show(answer) {
      this.spans = answer.spans || {};
      const code = answer.code || '';
      this.lazy = code.length > LAZY_HIGHLIGHT_CHARS;
      this.plain = code.split('\n');
      const lines = this.lazy ? this.plain.map(escapeHtml) : htmlLines(highlightCuda(code));
      this.pre.innerHTML = lines.map((line, i) => '<span class="line" data-line="' + (i + 1) + '">' + (line || ' ') + '</span>').join('');
      this.pre.classList.remove('unavailable');
      this.label.textContent = answer.plan ? answer.plan + ' plan, ' + lines.length + ' lines' : '';
    }

    // What the server said instead of code (a 422: why there is no CUDA for this model).
    showError(message) {
      this.spans = {};
      this.pre.textContent = message;
      this.pre.classList.add('unavailable');
      this.label.textContent = 'no CUDA';
    }

    // Marks the lines of kernel `key` and scrolls to them.
    mark(key) {
      for (const line of this.pre.querySelectorAll('.line.marked')) line.classList.remove('marked');
      const span = key && this.spans[key];
      if (!span) return;
      const [first, last] = span;
      const lines = this.pre.querySelectorAll('.line');
      if (this.lazy && !lines[first - 1].dataset.highlighted) {
        const html = htmlLines(highlightCuda(this.plain.slice(first - 1, last).join('\n')));
        for (let i = first; i <= last && i <= lines.length; i++) {
          lines[i - 1].innerHTML = html[i - first] || ' ';
          lines[i - 1].dataset.highlighted = '1';
        }
      }
      for (let i = first; i <= last && i <= lines.length; i++) lines[i - 1].classList.add('marked');
      const container = this.pre.closest('.scroll');
      if (lines[first - 1] && container) container.scrollTop = Math.max(0, lines[first - 1].offsetTop - this.pre.offsetTop - 8);
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

  tcx.el = el;
  tcx.format = format;
  tcx.panels = {
    strategyTable, kernelTable, LatencyChart, SourcePanel, showDetails, showDetailsMessage, showMatches, showCandidates,
  };
})(window.tcx);
