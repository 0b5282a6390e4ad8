// The explorer page: loads a model's views and panels from the API, keeps them in step (linked selection,
// strategy changes, jobs pushed over the WebSocket) and mirrors the state in the URL's hash so that a link
// reopens it. In a report (window.TCX_SNAPSHOT) the same code runs read-only against the recorded answers.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  const api = tcx.api;
  const $ = (id) => document.getElementById(id);
  const DEFAULT_VIEWS = ['computation', 'kernels', 'vtog', 'pointsto'];
  const VIEW_TITLES = { computation: 'computation', kernels: 'kernels', vtog: 'VTOG', pointsto: 'points-to' };

  const state = {
    readOnly: false,
    status: null,
    model: null,
    view: 'computation',
    side: false, // the points-to graph (or the VTOG, beside the points-to graph) in a second pane
    heat: true,
    plan: 'optimized',
    selection: null,
    details: null,
    lastError: null,
    views: {}, // name -> VIEW answer for the current strategy
    expanded: {}, // name -> 'all', 'none' or the expanded group keys the user chose; absent: the server's default
    transforms: {}, // name -> pan and zoom, kept when switching tabs
    strategy: null,
    latency: null,
    search: { view: null, matches: [] },
    job: null,
    chartValues: [0, 0, 0, 0],
    busy: 0,
    generation: 0, // bumped when the model or strategy changes, so that late answers are dropped
    revision: 0, // the server's revision of the session that the page shows
  };
  let panes;
  let panels;
  let jobs;
  let selectSeq = 0;
  let pendingChange = null; // the latest change pushed while the page was busy

  // ---- errors and busy state ----

  function showError(message) {
    state.lastError = message;
    $('error-text').textContent = message;
    $('error').hidden = false;
  }

  function clearError() {
    state.lastError = null;
    $('error').hidden = true;
  }

  // Runs an async step with the busy flag up (tests wait for data-busy to go away); errors go to the bar.
  async function busy(step) {
    state.busy++;
    document.body.dataset.busy = '1';
    try {
      return await step();
    } catch (e) {
      showError(e.message);
      return undefined;
    } finally {
      if (--state.busy === 0) {
        delete document.body.dataset.busy;
        applyChange();
      }
    }
  }

  // ---- URL hash: model, view, selection, constraints ----

  function readHash() {
    const p = new URLSearchParams(window.location.hash.slice(1));
    const list = (name) => (p.get(name) || '').split(',').filter(Boolean);
    return {
      model: p.get('model'), view: p.get('view'), sel: p.get('sel'), side: p.get('side') === '1',
      constraints: { accepted: list('accepted'), forced: list('forced'), forbidden: list('forbidden') },
    };
  }

  function writeHash() {
    const c = (state.strategy && state.strategy.constraints) || {};
    const pairs = [['view', state.view], ['sel', state.selection]];
    for (const name of ['accepted', 'forced', 'forbidden']) if ((c[name] || []).length) pairs.push([name, c[name].join(',')]);
    if (state.side) pairs.push(['side', '1']);
    if (state.model) pairs.push(['model', state.model.file]);
    // Keys and paths stay readable in the link: '/', ':' and ',' need no escaping in a fragment.
    const text = pairs.filter(([, v]) => v).map(([n, v]) => n + '=' + encodeURIComponent(v).replace(/%2F/g, '/')
      .replace(/%3A/g, ':').replace(/%2C/g, ',')).join('&');
    history.replaceState(null, '', '#' + text);
  }

  const sameList = (a, b) => JSON.stringify([...(a || [])].sort()) === JSON.stringify([...(b || [])].sort());

  // ---- views ----

  function partnerView() {
    return state.view === 'pointsto' ? 'vtog' : 'pointsto';
  }

  function paneView(pane) {
    return pane === panes.main ? state.view : partnerView();
  }

  async function loadView(name) {
    if (state.views[name]) return state.views[name];
    const generation = state.generation;
    const view = await api.view(name, state.expanded[name] || null);
    if (generation !== state.generation) throw new Error('superseded');
    state.views[name] = view;
    return view;
  }

  // Fills a pane with its view; `keep` keeps the pan and zoom (the same view redrawn).
  async function fillPane(pane, keep) {
    const name = paneView(pane);
    const label = pane === panes.main ? $('graph-label') : $('graph-side-label');
    label.textContent = 'loading ' + VIEW_TITLES[name] + '…';
    let view;
    try {
      view = await loadView(name);
    } catch (e) {
      if (e.message !== 'superseded') { label.textContent = ''; throw e; }
      return;
    }
    if (name !== paneView(pane)) return; // the user moved on meanwhile
    const same = keep && pane.shown === name;
    const saved = state.transforms[name];
    pane.setView(view, same || Boolean(saved));
    if (saved && !same) pane.setTransform(saved.x, saved.y, saved.k);
    pane.shown = name;
    label.textContent = VIEW_TITLES[name] + ' · ' + view.nodes.length + ' nodes · ' + view.layout + ' layout';
    if (pane === panes.main) $('view-title').textContent = view.title || '';
    markPane(pane);
  }

  async function fillPanes(keep) {
    const jobs = [fillPane(panes.main, keep)];
    if (state.side) jobs.push(fillPane(panes.side, keep));
    await Promise.all(jobs);
  }

  function rememberTransform(pane) {
    if (pane.shown) state.transforms[pane.shown] = { ...pane.t };
  }

  async function showView(name) {
    rememberTransform(panes.main);
    rememberTransform(panes.side);
    state.view = name;
    for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.view === name);
    writeHash();
    if (state.search.matches.length) runSearch(false);
    await busy(() => fillPanes(false));
  }

  async function setSide(on) {
    state.side = on;
    $('side-by-side').checked = on;
    $('side-pane').hidden = !on;
    writeHash();
    if (on) await busy(() => fillPane(panes.side, false));
  }

  // Double-click on a collapsed group or a cluster: the same view with that group expanded or collapsed.
  async function toggleGroup(pane, key) {
    if (api.isReport()) return showError('read-only report: expanding and collapsing groups needs tcx serve');
    const name = paneView(pane);
    const chosen = state.expanded[name];
    const shown = state.views[name];
    const current = Array.isArray(chosen) ? chosen : (shown && shown.expanded) || [];
    state.expanded[name] = current.includes(key) ? current.filter((k) => k !== key) : current.concat([key]);
    delete state.views[name];
    await busy(() => fillPanes(true));
  }

  // Every group of the current view expanded, or none.
  async function expandAll(on) {
    state.expanded[state.view] = on ? 'all' : 'none';
    delete state.views[state.view];
    await busy(() => fillPane(panes.main, false));
  }

  // ---- selection, linked across views and tables ----

  const edgeKey = (id) => (String(id).startsWith('edge:') ? id : 'edge:' + id);

  // What a pane should mark: the selection's counterpart there, and the search matches of its view.
  function markPane(pane) {
    const name = paneView(pane);
    const d = state.details;
    // The item itself where the view draws it (or the collapsed group hiding it), else the server's counterpart:
    // the server names counterparts at the default expansion, which the user may have changed.
    const counterpart = d && d.counterparts ? d.counterparts[name] : null;
    const selected = pane.drawnAs(state.selection) || pane.drawnAs(counterpart);
    const matches = state.search.view === name ? state.search.matches.map((m) => m.shownAs || m.key) : [];
    pane.setMarks([selected], matches);
    if (selected) pane.reveal(selected);
  }

  function markEverything() {
    markPane(panes.main);
    if (state.side) markPane(panes.side);
    const d = state.details;
    const key = state.selection;
    const kernel = (d && d.kernel) || (key && key.startsWith('kernel:') ? key : null);
    const edges = (d && d.edges ? d.edges.map(edgeKey) : []).concat(key && key.startsWith('edge:') ? [key] : []);
    panels.kernels.mark([kernel]);
    panels.strategy.mark(edges);
    panels.source.mark(kernel);
  }

  // The one entry point of selection: a node in any view, a table row, a search result or a link.
  async function select(key) {
    const seq = ++selectSeq;
    state.selection = key || null;
    writeHash();
    if (!key) {
      state.details = null;
      tcx.panels.showDetailsMessage($('details'), 'Click an item in any view or table.');
      markEverything();
      return;
    }
    let details = null;
    try {
      details = await api.details(key);
    } catch (e) {
      if (seq !== selectSeq) return;
      tcx.panels.showDetailsMessage($('details'), key + ': ' + e.message);
      if (!(e instanceof tcx.ApiError && e.status === 404 && api.isReport())) showError(e.message);
    }
    if (seq !== selectSeq) return;
    state.details = details;
    if (details) tcx.panels.showDetails($('details'), details, select);
    markEverything();
  }

  // ---- search ----

  // A report has no server to ask: match the drawn nodes' labels, keys and hidden items here.
  function searchLocally(view, q, mode) {
    let test;
    if (mode === 'regex') {
      const re = new RegExp(q, 'i');
      test = (text) => re.test(text);
    } else {
      const needle = q.toLowerCase();
      test = (text) => text.toLowerCase().includes(needle);
    }
    const matches = [];
    for (const node of view.nodes) {
      const hit = mode === 'optype' ? (node.opType || '').toLowerCase() === q.toLowerCase() : test(node.label) || test(node.key);
      if (hit) matches.push({ key: node.key, shownAs: node.key });
      if (mode !== 'optype') for (const hidden of node.hidden || []) if (test(hidden)) matches.push({ key: hidden, shownAs: node.key });
    }
    return matches;
  }

  // Searches the current view; `choose` selects the first match as well (Enter in the box).
  async function runSearch(choose) {
    const q = $('search').value.trim();
    const mode = $('search-mode').value;
    const view = state.view;
    if (!q || !state.model) {
      state.search = { view: null, matches: [] };
      $('search-panel').hidden = true;
      markEverything();
      return;
    }
    const matches = await busy(async () => {
      if (api.isReport()) return searchLocally(await loadView(view), q, mode);
      return (await api.search(view, q, mode, state.expanded[view] || null)).matches;
    });
    if (!matches || $('search').value.trim() !== q) return;
    state.search = { view, matches };
    $('search-panel').hidden = false;
    $('search-count').textContent = matches.length + ' in ' + VIEW_TITLES[view];
    tcx.panels.showMatches($('search-results'), matches, select);
    markEverything();
    if (choose && matches.length) await select(matches[0].key);
  }

  // ---- model, strategy, latency, kernels, source ----

  function showLatency(latency) {
    state.latency = latency;
    panels.chart.update(latency);
    state.chartValues = panels.chart.values;
    const label = $('latency-source');
    label.textContent = 'latency: ' + latency.source;
    label.classList.toggle('measured', Boolean(latency.measured));
    $('latency-label').textContent = latency.check ? latency.source + ' · ' + latency.check : latency.source;
  }

  function showStrategy(strategy) {
    state.strategy = strategy;
    if (typeof strategy.revision === 'number') state.revision = strategy.revision;
    panels.strategy.setRows(strategy.edges);
    const chosen = strategy.edges.filter((e) => e.chosen).length;
    $('strategy-summary').textContent = chosen + ' of ' + strategy.edges.length + ' edges chosen · savings ' + strategy.source;
  }

  async function refreshKernels() {
    const answer = await api.kernels(state.plan);
    panels.kernels.setRows(answer.kernels);
    $('kernels-label').textContent = answer.kernels.length + ' kernels · ' + answer.source;
  }

  async function refreshSource() {
    try {
      panels.source.show(await api.source(state.plan));
    } catch (e) {
      if (!(e instanceof tcx.ApiError) || e.status === 0) throw e;
      panels.source.showError(e.message); // no CUDA for this model is an answer, not a failure
    }
  }

  // Everything that depends on the strategy, after it changed; keeps pan and zoom.
  async function refreshStrategyDependents() {
    state.generation++;
    state.views = {};
    await Promise.all([fillPanes(true), refreshKernels(), refreshSource()]);
    await select(state.selection);
  }

  async function refreshAll() {
    const [strategy, latency] = await Promise.all([api.strategy(), api.latency()]);
    showStrategy(strategy);
    showLatency(latency);
    await refreshStrategyDependents();
  }

  function showModel(model) {
    state.model = model;
    $('model-name').textContent = model.name;
    $('model-name').title = model.file + ': ' + model.ops + ' ops, ' + model.tensors + ' tensors, ' + model.kernels +
      ' kernels, ' + model.vtogEdges + ' VTOG edges';
    const views = model.views && model.views.length ? model.views : DEFAULT_VIEWS;
    if (!views.includes(state.view)) state.view = views[0];
    $('tabs').replaceChildren(...views.map((name) => tcx.el('button', {
      type: 'button', role: 'tab', 'data-view': name, class: name === state.view ? 'active' : '',
      text: VIEW_TITLES[name] || name, onclick: () => showView(name),
    })));
  }

  // A model was opened here or elsewhere: forget everything about the previous one and load this one.
  async function loadModel() {
    state.generation++;
    Object.assign(state, { views: {}, expanded: {}, transforms: {}, selection: null, details: null });
    panes.main.shown = panes.side.shown = null;
    state.search = { view: null, matches: [] };
    $('search-panel').hidden = true;
    showModel(await api.model());
    if (!state.readOnly) jobs.loadPrograms();
    await refreshAll();
    writeHash();
  }

  async function openModel(opening) {
    await busy(async () => {
      await opening();
      clearError();
      await loadModel();
    });
  }

  // ---- strategy edits ----

  async function setEdgeState(id, next) {
    await busy(async () => {
      try {
        const answer = await api.setEdge(id, next);
        clearError();
        showStrategy(answer.strategy);
        showLatency(answer.latency);
        writeHash();
        await refreshStrategyDependents();
      } catch (e) {
        panels.strategy.render(); // the select goes back to the state the server kept
        throw e;
      }
    });
  }

  // The server says the strategy or latencies changed (another page, a profile).
  async function strategyPushed() {
    const [strategy, latency] = await Promise.all([api.strategy(), api.latency()]);
    showStrategy(strategy);
    showLatency(latency);
    writeHash();
    await refreshStrategyDependents();
  }

  // ---- pushes ----

  function pushed(message) {
    jobs.heard();
    if (message.type === 'job' && message.job) jobs.show(message.job);
    else if (message.type === 'model' || message.type === 'strategy') {
      pendingChange = message;
      if (!state.busy) applyChange();
    }
  }

  // A change pushed by the server is loaded once the page is not loading anything else, unless the page has it
  // already: its own changes are pushed too, and the revision it loaded says so.
  function applyChange() {
    const change = pendingChange;
    pendingChange = null;
    if (!change || (typeof change.revision === 'number' && change.revision <= state.revision)) return;
    if (change.type === 'model') busy(loadModel);
    else if (state.model) busy(strategyPushed);
  }

  // ---- export ----

  function download(blob, name) {
    const a = tcx.el('a', { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  function exportName(ext) {
    return (state.model ? state.model.name : 'tcx') + '-' + state.view + '.' + ext;
  }

  // ---- start ----

  function applyReadOnly() {
    $('readonly-label').hidden = !state.readOnly;
    for (const control of document.querySelectorAll('.writes input, .writes button, .writes select, button.writes')) control.disabled = state.readOnly;
    if (state.readOnly) $('job-progress').querySelector('.text').textContent = 'jobs need tcx serve';
  }

  // Opens what a link's hash names, unless it is open already, then sets its constraints, view and selection.
  async function applyHash(hash) {
    if (!state.readOnly && hash.model && (!state.model || state.model.file !== hash.model)) {
      const opened = await busy(async () => { await api.open(hash.model); return true; });
      if (opened) await busy(loadModel);
    }
    if (!state.model) return;
    if (hash.side !== state.side) await setSide(hash.side);
    // A link that names a model carries its whole strategy, constraints left empty included.
    const c = (state.strategy && state.strategy.constraints) || {};
    const wanted = hash.constraints;
    if (!state.readOnly && hash.model && ['accepted', 'forced', 'forbidden'].some((n) => !sameList(c[n], wanted[n]))) {
      await busy(async () => {
        const answer = await api.setConstraints(wanted);
        showStrategy(answer.strategy);
        showLatency(answer.latency);
        await refreshStrategyDependents();
      });
    }
    if (hash.view && hash.view !== state.view && document.querySelector('#tabs button[data-view="' + hash.view + '"]')) await showView(hash.view);
    if (hash.sel !== state.selection) await select(hash.sel);
    writeHash();
  }

  function wireControls() {
    $('error-close').onclick = clearError;
    $('open-form').onsubmit = (e) => {
      e.preventDefault();
      const path = $('open-path').value.trim();
      if (path) openModel(() => api.open(path));
    };
    $('upload').onchange = (e) => {
      const file = e.target.files[0];
      e.target.value = '';
      if (file) openModel(() => api.upload(file));
    };
    let typing = 0;
    $('search').oninput = () => { clearTimeout(typing); typing = setTimeout(() => runSearch(false), 250); };
    $('search-form').onsubmit = (e) => { e.preventDefault(); clearTimeout(typing); runSearch(true); };
    $('search-mode').onchange = () => runSearch(false);
    $('fit').onclick = () => { panes.main.fit(); if (state.side) panes.side.fit(); };
    $('zoom-in').onclick = () => panes.main.zoomBy(1.25);
    $('zoom-out').onclick = () => panes.main.zoomBy(0.8);
    $('expand-all').onclick = () => expandAll(true);
    $('collapse-all').onclick = () => expandAll(false);
    $('heat').onchange = (e) => { state.heat = e.target.checked; panes.main.setHeat(state.heat); panes.side.setHeat(state.heat); };
    $('side-by-side').onchange = (e) => setSide(e.target.checked);
    $('plan').onchange = (e) => {
      state.plan = e.target.value;
      busy(async () => { await Promise.all([refreshKernels(), refreshSource()]); markEverything(); });
    };
    $('export-svg').onclick = () => {
      const svg = panes.main.toSvg();
      if (svg) download(new Blob([svg], { type: 'image/svg+xml' }), exportName('svg'));
    };
    $('export-png').onclick = () => panes.main.toPng((blob) => blob && download(blob, exportName('png')));
    // The server writes the report (it holds the answers); an attachment, so the page stays.
    $('save-report').onclick = () => {
      if (!state.model) return showError('no model is open: nothing to report');
      window.location.href = 'api/report.html' + (api.token ? '?token=' + encodeURIComponent(api.token) : '');
    };
    window.addEventListener('hashchange', () => busy(() => applyHash(readHash())));
  }

  async function start() {
    const paneHandlers = (pane) => ({ onSelect: select, onToggle: (key) => toggleGroup(panes[pane], key) });
    panes = { main: new tcx.GraphView($('graph'), paneHandlers('main')), side: new tcx.GraphView($('graph-side'), paneHandlers('side')) };
    const readOnly = () => state.readOnly;
    panels = {
      strategy: tcx.panels.strategyTable($('strategy-table'), { onSelect: select, onState: setEdgeState, readOnly }),
      kernels: tcx.panels.kernelTable($('kernel-table'), { onSelect: select }),
      chart: new tcx.panels.LatencyChart($('latency-chart')),
      source: new tcx.panels.SourcePanel($('source'), $('source-label')),
    };
    jobs = new tcx.JobsPanel(api, state, { busy, showError });
    tcx.views = panes;
    wireControls();

    const report = api.isReport();
    state.status = await busy(api.status);
    if (!state.status) state.status = { model: report ? {} : null, gpu: { available: false, describe: 'unknown' }, readOnly: report, jobs: [] };
    state.readOnly = report || Boolean(state.status.readOnly);
    applyReadOnly();
    jobs.updateButtons();
    // Read before loading rewrites it. The server's model is shown unless the link names another.
    const hash = readHash();
    if (state.status.model && (state.readOnly || !hash.model || hash.model === state.status.model.file)) await busy(loadModel);
    await applyHash(hash);
    for (const job of state.status.jobs || []) jobs.show(job);
    if (!report) api.socket(pushed);
    document.body.dataset.ready = '1';
  }

  tcx.state = state;
  tcx.select = select;
  tcx.showView = showView;
  document.addEventListener('DOMContentLoaded', start);
})(window.tcx);
