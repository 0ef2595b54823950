/**
 * The matrix page's only script (admitted by its hash in the page's Content-Security-Policy): the
 * filters. Without it every row shows, so the page reads the same with scripts off and in print.
 * It reads and writes only the page's own attributes, never text from a bundle as markup.
 */
export const MATRIX_SCRIPT = `
(function () {
  document.documentElement.classList.add('js');
  var table = document.getElementById('matrix-table');
  if (!table) return;
  var rows = Array.prototype.slice.call(table.querySelectorAll('tr.req-row'));
  var groups = Array.prototype.slice.call(table.querySelectorAll('tbody.area-group'));
  var scope = document.querySelectorAll('button[data-scope]');
  var mustOnly = document.getElementById('must-only');
  var area = document.getElementById('area-filter');
  var shown = document.getElementById('shown-count');
  var empty = document.getElementById('empty-result');
  var state = { scope: table.getAttribute('data-initial-scope') || 'all' };
  function apply() {
    var count = 0;
    rows.forEach(function (row) {
      var visible = (state.scope !== 'failing' || row.getAttribute('data-failing') === 'true') &&
        (!mustOnly.checked || row.getAttribute('data-level') === 'MUST') &&
        (area.value === '' || row.getAttribute('data-area') === area.value);
      row.hidden = !visible;
      if (visible) count += 1;
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector('tr.req-row:not([hidden])');
    });
    scope.forEach(function (button) {
      button.setAttribute('aria-pressed', String(button.getAttribute('data-scope') === state.scope));
    });
    shown.textContent = count + ' of ' + rows.length + ' requirements shown';
    empty.hidden = count !== 0;
  }
  scope.forEach(function (button) {
    button.addEventListener('click', function () {
      state.scope = button.getAttribute('data-scope');
      apply();
    });
  });
  mustOnly.addEventListener('change', apply);
  area.addEventListener('change', apply);
  // A link to a row or to evidence shows it, whatever the filters hide.
  document.addEventListener('click', function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href^="#row-"]') : null;
    if (!link) return;
    state.scope = 'all';
    mustOnly.checked = false;
    area.value = '';
    apply();
  });
  apply();
})();
`;
