// Sorts a table by the column whose header is clicked: by number when both keys are
// numbers, else by text; a second click reverses. The keys are the cells' data-key.
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th.sortable').forEach(function (th, column) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute('data-order') !== 'up';
      th.setAttribute('data-order', up ? 'up' : 'down');
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute('data-key'), y = b.cells[column].getAttribute('data-key');
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
