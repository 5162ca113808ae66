// Sorts a table by the column whose header is clicked: by number when both cells start
// with one (`97.5%`, `67/69`), else by text; a second click reverses.
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th.sortable').forEach(function (th, column) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute('data-order') !== 'up';
      th.setAttribute('data-order', up ? 'up' : 'down');
      rows.sort(function (a, b) {
        var x = a.cells[column].textContent, y = b.cells[column].textContent;
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
