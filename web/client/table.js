// A table whose header sorts it. A long one keeps only the rows in and near its scrolled window in the page: laying
// out a 22-layer Llama's 800 VTOG edges (a select each) cost a second of the model's open time, on every layout of
// the page, and a 10,000-op model has ten times as many.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  const { el } = tcx;

  const ALL_ROWS_UP_TO = 300; // a table this short is drawn whole
  const EXTRA_ROWS = 40; // drawn above and below the window, so that a short scroll shows no blank
  const ASSUMED_ROW_PX = 21; // until a drawn row has been measured

  // Scrolls a container (not the page) so that the band [top, top + height) of its content is visible.
  function scrollWithin(container, top, height) {
    if (top < container.scrollTop || top + height > container.scrollTop + container.clientHeight)
      container.scrollTop = Math.max(0, top - container.clientHeight / 3);
  }

  // columns: [{title, value(row) for sorting, cell(row) -> text or node, numeric}]; options: {key(row), onClick(row)}.
  // Rows carry data-key so linked selection can mark them.
  class SortableTable {
    constructor(table, columns, options) {
      this.table = table;
      this.columns = columns;
      this.options = options;
      this.rows = [];
      this.order = []; // the rows as sorted
      this.sort = { column: -1, descending: false };
      this.marked = new Set();
      this.body = null;
      this.drawn = null; // [first, end) of this.order in the page
      this.rowPx = 0;
      this.scroller = table.closest('.scroll');
      let pending = 0;
      if (this.scroller) this.scroller.addEventListener('scroll', () => {
        if (!pending) pending = requestAnimationFrame(() => { pending = 0; this.drawWindow(); });
      });
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

    get windowed() {
      return this.order.length > ALL_ROWS_UP_TO && Boolean(this.scroller);
    }

    render() {
      this.order = this.ordered();
      const head = el('tr', {}, this.columns.map((c, i) => el('th', {
        class: this.sort.column === i ? (this.sort.descending ? 'sorted desc' : 'sorted asc') : '',
        title: 'sort by ' + c.title, text: c.title, onclick: () => this.sortBy(i),
      })));
      this.body = el('tbody');
      this.table.replaceChildren(el('thead', {}, [head]), this.body);
      this.drawn = null;
      this.drawWindow();
      this.mark([...this.marked]);
    }

    rowElement(row) {
      const key = this.options.key(row);
      return el('tr', {
        'data-key': key,
        class: this.marked.has(key) ? 'selected' : '',
        onclick: (e) => { if (!e.target.closest('select')) this.options.onClick(row); },
      }, this.columns.map((c) => {
        const cell = c.cell(row);
        return el('td', { class: c.numeric ? 'num' : '' }, [cell instanceof Node ? cell : String(cell)]);
      }));
    }

    get headPx() {
      return this.table.tHead ? this.table.tHead.offsetHeight : 0;
    }

    // The rows to draw: all of a short table; of a long one, those in the scrolled window and EXTRA_ROWS beside.
    range() {
      if (!this.windowed) return [0, this.order.length];
      const px = this.rowPx || ASSUMED_ROW_PX;
      const count = Math.ceil(this.scroller.clientHeight / px) + 2 * EXTRA_ROWS;
      const wanted = Math.floor((this.scroller.scrollTop - this.headPx) / px) - EXTRA_ROWS;
      const first = Math.max(0, Math.min(wanted, this.order.length - count));
      return [first, Math.min(this.order.length, first + count)];
    }

    drawWindow() {
      if (!this.body) return;
      const [first, end] = this.range();
      if (this.drawn && this.drawn[0] === first && this.drawn[1] === end) return;
      this.drawn = [first, end];
      const px = this.rowPx || ASSUMED_ROW_PX;
      const filler = (rows) => el('tr', { class: 'filler', 'aria-hidden': 'true' }, [
        el('td', { colspan: this.columns.length, style: 'height: ' + rows * px + 'px' })]);
      const drawn = this.order.slice(first, end).map((row) => this.rowElement(row));
      this.body.replaceChildren(...(first > 0 ? [filler(first)] : []), ...drawn,
        ...(end < this.order.length ? [filler(this.order.length - end)] : []));
      // Rows are as tall as their tallest cell (a select): measured once the table is shown, then the window is
      // placed again with the true height.
      if (this.windowed && !this.rowPx && drawn.length && drawn[0].offsetHeight) {
        this.rowPx = drawn[0].offsetHeight;
        if (this.rowPx !== px) { this.drawn = null; this.drawWindow(); }
      }
    }

    // Marks the rows of `keys` and scrolls the first into view.
    mark(keys) {
      this.marked = new Set(keys.filter(Boolean));
      if (!this.body) return;
      for (const tr of this.body.rows) tr.classList.toggle('selected', this.marked.has(tr.dataset.key));
      const index = this.marked.size ? this.order.findIndex((row) => this.marked.has(this.options.key(row))) : -1;
      if (index < 0 || !this.scroller) return;
      const px = this.rowPx || ASSUMED_ROW_PX;
      const tr = this.windowed ? null : this.body.rows[index];
      if (tr) scrollWithin(this.scroller, tr.offsetTop - this.scroller.offsetTop, tr.offsetHeight);
      else scrollWithin(this.scroller, this.headPx + index * px, px);
      this.drawWindow();
    }
  }

  tcx.SortableTable = SortableTable;
})(window.tcx);
