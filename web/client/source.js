// The generated CUDA of a plan, with the selected kernel's lines marked. The code sits in chunks of lines that
// the browser lays out only when scrolled into view (content-visibility): a 22-layer Llama's 12,000 lines laid out
// whole cost a second of the model's open time, on every layout of the page.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  // Above this much CUDA, SourcePanel highlights only the marked kernel's lines.
  const LAZY_HIGHLIGHT_CHARS = 100000;
  const CHUNK_LINES = 200;
  const LINE_PX = 17; // #source's line height (12px/1.4), the height a chunk is assumed to have until laid out


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
      this.slots = {};
      this.lines = [];
      this.summary = '';
    }

    // A large model's CUDA (Swin-T: 350 KB, 10,000 lines) is shown plain and only the marked kernel's lines are
    // highlighted: highlighting and inserting all of it took seconds of the model's open time.
    show(answer) {
      this.spans = answer.spans || {};
      this.slots = answer.slots || {};
      const code = answer.code || '';
      this.lazy = code.length > LAZY_HIGHLIGHT_CHARS;
      this.plain = code.split('\n');
      const lines = this.lazy ? this.plain.map(escapeHtml) : htmlLines(highlightCuda(code));
      const chunks = [];
      for (let first = 0; first < lines.length; first += CHUNK_LINES) {
        const part = lines.slice(first, first + CHUNK_LINES);
        chunks.push('<div class="chunk" style="contain-intrinsic-block-size: auto ' + part.length * LINE_PX + 'px">' +
          part.map((line, i) => '<span class="line" data-line="' + (first + i + 1) + '">' + (line || ' ') + '</span>').join('') +
          '</div>');
      }
      this.pre.innerHTML = chunks.join('');
      this.lines = this.pre.getElementsByClassName('line');
      this.pre.classList.remove('unavailable');
      this.summary = answer.plan ? answer.plan + ' plan, ' + lines.length + ' lines' : '';
      this.label.textContent = this.summary;
    }

    // What the server said instead of code (a 422: why there is no CUDA for this model).
    showError(message) {
      this.spans = {};
      this.slots = {};
      this.lines = [];
      this.pre.textContent = message;
      this.pre.classList.add('unavailable');
      this.label.textContent = 'no CUDA';
    }

    // Marks the lines of kernel `key`, says what its code's b.p[...] hold (a kernel takes the buffers its launch
    // binds, so layers that differ only in their buffers share code) and scrolls to them.
    mark(key) {
      for (const line of [...this.pre.getElementsByClassName('marked')]) line.classList.remove('marked');
      const span = key && this.spans[key];
      const slots = (key && this.slots[key]) || [];
      if (this.summary) this.label.textContent = this.summary + (slots.length ? ' · ' + slots.join(', ') : '');
      if (!span) return;
      const lines = this.lines;
      const first = span[0];
      const last = Math.min(span[1], lines.length);
      if (this.lazy && !lines[first - 1].dataset.highlighted) {
        const html = htmlLines(highlightCuda(this.plain.slice(first - 1, last).join('\n')));
        for (let i = first; i <= last; i++) {
          lines[i - 1].innerHTML = html[i - first] || ' ';
          lines[i - 1].dataset.highlighted = '1';
        }
      }
      for (let i = first; i <= last; i++) lines[i - 1].classList.add('marked');
      // Measured from the rectangles: a chunk's layout containment may make it the line's offsetParent.
      const container = this.pre.closest('.scroll');
      if (!container || !lines[first - 1]) return;
      const offset = lines[first - 1].getBoundingClientRect().top - container.getBoundingClientRect().top;
      container.scrollTop = Math.max(0, container.scrollTop + offset - 8);
    }
  }

  tcx.SourcePanel = SourcePanel;
})(window.tcx);
