/**
 * The report's only script: filters, search, copy buttons, print. It reads the page (data attributes),
 * never data injected into script text, so nothing from the target reaches a script context. The page's
 * Content-Security-Policy admits this script by its hash and nothing else.
 */
export const CLIENT_SCRIPT = `(function () {
  'use strict';
  var doc = document;
  doc.documentElement.classList.add('js');
  var requirements = Array.prototype.slice.call(doc.querySelectorAll('article.req'));
  var areas = Array.prototype.slice.call(doc.querySelectorAll('section.area'));
  var buttons = Array.prototype.slice.call(doc.querySelectorAll('button.filter'));
  var search = doc.getElementById('requirement-search');
  var shown = doc.getElementById('shown-count');
  var empty = doc.getElementById('empty-result');
  var FILTERS = { failed: ['fail', 'deviation'], warnings: ['warn'], advisories: ['advisory'] };
  var group = doc.querySelector('.filters');
  var filter = (group && group.getAttribute('data-initial')) || 'all';
  if (!FILTERS[filter]) filter = 'all';

  function apply() {
    var query = search ? search.value.trim().toLowerCase() : '';
    var visible = 0;
    requirements.forEach(function (el) {
      var verdict = el.getAttribute('data-verdict');
      var byFilter = filter === 'all' || FILTERS[filter].indexOf(verdict) >= 0;
      var bySearch = !query || (el.getAttribute('data-search') || '').indexOf(query) >= 0;
      el.hidden = !(byFilter && bySearch);
      if (!el.hidden) visible += 1;
    });
    areas.forEach(function (area) { area.hidden = !area.querySelector('article.req:not([hidden])'); });
    if (shown) shown.textContent = visible + ' of ' + requirements.length + ' shown';
    if (empty) empty.hidden = visible > 0;
  }

  function setFilter(name) {
    filter = FILTERS[name] ? name : 'all';
    buttons.forEach(function (b) { b.setAttribute('aria-pressed', String(b.getAttribute('data-filter') === filter)); });
    apply();
  }

  buttons.forEach(function (b) {
    b.addEventListener('click', function () { setFilter(b.getAttribute('data-filter')); });
  });
  if (search) search.addEventListener('input', apply);

  // A link to a requirement the filters hide shows everything again.
  function reveal() {
    var target = location.hash ? doc.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target && target.hidden) {
      if (search) search.value = '';
      setFilter('all');
      target.scrollIntoView();
    }
  }
  window.addEventListener('hashchange', reveal);

  function fallbackCopy(text) {
    var area = doc.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    doc.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = doc.execCommand('copy'); } catch (e) { ok = false; }
    doc.body.removeChild(area);
    return ok;
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return fallbackCopy(text); });
    }
    return Promise.resolve(fallbackCopy(text));
  }

  doc.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('button.copy') : null;
    if (!button) return;
    var source = button.parentNode.querySelector('.copy-text');
    copy(source ? source.textContent : '').then(function (ok) {
      button.textContent = ok ? 'Copied' : 'Press Ctrl+C';
      if (!ok && source) {
        var range = doc.createRange();
        range.selectNodeContents(source);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setTimeout(function () { button.textContent = 'Copy'; }, 1600);
    });
  });

  // Printing shows everything: every requirement, every folded list.
  var opened = [];
  window.addEventListener('beforeprint', function () {
    doc.querySelectorAll('details:not([open])').forEach(function (d) { d.open = true; opened.push(d); });
  });
  window.addEventListener('afterprint', function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });

  apply();
  reveal();
})();
`;
