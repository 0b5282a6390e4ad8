// The page's small helpers: elements from a description, and numbers as the panels print them.
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

  tcx.el = el;
  tcx.format = format;
})(window.tcx);
