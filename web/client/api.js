// The explorer's requests (docs/web.md), in one place. Every request string is built canonically, parameters in
// the fixed order each function documents, because a report answers GETs by exact match against the strings
// recorded in window.TCX_SNAPSHOT ("GET /api/view?name=vtog"): the report writer and this file must agree.
// Values appear raw in the snapshot key (item=node:/model/MatMul) and percent-encoded on the wire.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  const token = new URLSearchParams(window.location.search).get('token');

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  // "/api/x" plus [name, value] pairs in the given order; null and undefined values are left out.
  function target(path, pairs) {
    const kept = (pairs || []).filter(([, value]) => value !== null && value !== undefined);
    const join = (encode) => kept.map(([name, value]) => name + '=' + encode(String(value))).join('&');
    const raw = kept.length ? path + '?' + join((v) => v) : path;
    const wire = kept.length ? path + '?' + join(encodeURIComponent) : path;
    return { raw, wire };
  }

  function snapshot() {
    return window.TCX_SNAPSHOT || null;
  }

  // A report answers from its snapshot; the raw form is canonical, the encoded one is accepted too.
  function fromSnapshot(method, where) {
    if (method !== 'GET') throw new ApiError(403, 'read-only report: ' + method + ' ' + where.raw + ' needs tcx serve');
    const recorded = snapshot();
    const answer = recorded[method + ' ' + where.raw] || recorded[method + ' ' + where.wire];
    if (answer === undefined) throw new ApiError(404, 'not recorded in this report: ' + method + ' ' + where.raw);
    // A recorded refusal (a model without CUDA) keeps its status.
    if (answer && typeof answer === 'object' && typeof answer.error === 'string') throw new ApiError(answer.status || 422, answer.error);
    return answer;
  }

  // One request; resolves to the answer's JSON, rejects with ApiError carrying the server's `error` message.
  async function request(method, path, pairs, body) {
    const where = target(path, pairs);
    if (snapshot()) return fromSnapshot(method, where);
    const headers = {};
    if (token) headers.Authorization = 'Bearer ' + token;
    let payload;
    if (body instanceof Blob) {
      payload = body;
      headers['Content-Type'] = 'application/octet-stream';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    let response;
    try {
      response = await fetch(where.wire, { method, headers, body: payload });
    } catch (e) {
      throw new ApiError(0, 'no answer from the server (' + e.message + ')');
    }
    let answer = null;
    try {
      answer = await response.json();
    } catch (e) {
      if (response.ok) throw new ApiError(response.status, 'the server answered something that is not JSON');
    }
    if (!response.ok) {
      const why = answer && answer.error ? answer.error : response.status + ' ' + response.statusText;
      throw new ApiError(response.status, why);
    }
    return answer;
  }

  const get = (path, pairs) => request('GET', path, pairs);
  const post = (path, body, pairs) => request('POST', path, pairs, body === undefined ? {} : body);

  // View parameters, in order: name, expansion, expand (each key), plan. `expansion` is null for the server's
  // default (the only form a report records), 'all' or 'none', or the exact list of expanded group keys.
  function viewPairs(expansion, plan) {
    const pairs = [];
    if (Array.isArray(expansion)) {
      pairs.push(['expansion', expansion.length ? 'list' : 'none']);
      for (const key of expansion) pairs.push(['expand', key]);
    } else if (expansion) {
      pairs.push(['expansion', expansion]);
    }
    if (plan) pairs.push(['plan', plan]);
    return pairs;
  }

  tcx.ApiError = ApiError;
  tcx.api = {
    isReport: () => snapshot() !== null,
    status: () => get('/api/status'),
    model: () => get('/api/model'),
    open: (path) => post('/api/open', { path }),
    upload: (file) => post('/api/upload', file, [['name', file.name]]),
    view: (name, expansion, plan) => get('/api/view', [['name', name]].concat(viewPairs(expansion, plan))),
    strategy: () => get('/api/strategy'),
    setEdge: (edge, state) => post('/api/constraints', { edge, state }),
    setConstraints: (constraints) => post('/api/constraints', constraints),
    latency: () => get('/api/latency'),
    // Parameter: plan.
    kernels: (plan) => get('/api/kernels', [['plan', plan]]),
    source: (plan) => get('/api/source', [['plan', plan]]),
    // Parameter: item.
    details: (key) => get('/api/details', [['item', key]]),
    // Parameters, in order: view, q, mode, then the view's expansion as for view().
    search: (view, q, mode, expansion) => get('/api/search', [['view', view], ['q', q], ['mode', mode]].concat(viewPairs(expansion))),
    programs: () => get('/api/superopt/programs'),
    jobs: () => get('/api/jobs'),
    startJob: (job) => post('/api/jobs', job),
    cancelJob: (id) => post('/api/jobs/' + encodeURIComponent(id) + '/cancel'),
    // Pushes from the server, for the page's lifetime: reconnects after a drop (the server may restart).
    socket(onMessage) {
      let delay = 500;
      const open = () => {
        const scheme = window.location.protocol === 'https:' ? 'wss://' : 'ws://';
        const query = token ? '?token=' + encodeURIComponent(token) : '';
        const ws = new WebSocket(scheme + window.location.host + '/ws' + query);
        ws.onopen = () => { delay = 500; };
        ws.onmessage = (event) => {
          let message;
          try { message = JSON.parse(event.data); } catch (e) { return; }
          onMessage(message);
        };
        ws.onclose = () => {
          setTimeout(open, delay);
          delay = Math.min(delay * 2, 10000);
        };
      };
      open();
    },
  };
})(window.tcx);
