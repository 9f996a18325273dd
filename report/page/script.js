// Sortable tables: a click on a column heading sorts the rows by it (numbers by
// their data-v value), a second click reverses. The page says everything without it.
(function () {
  "use strict";
  function key(cell) {
    if (!cell) return "";
    var v = cell.getAttribute("data-v");
    if (v !== null && v !== "" && !isNaN(v)) return Number(v);
    return cell.textContent.trim().toLowerCase();
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var body = table.tBodies[0];
    if (!body || body.rows.length < 2) return;
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, col) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "sort";
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      b.addEventListener("click", function () {
        var desc = th.getAttribute("aria-sort") !== "descending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", desc ? "descending" : "ascending");
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (x, y) {
          var a = key(x.cells[col]), c = key(y.cells[col]);
          if (typeof a !== typeof c) { a = String(a); c = String(c); }
          return (a < c ? -1 : a > c ? 1 : 0) * (desc ? -1 : 1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
