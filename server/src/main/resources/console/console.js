// The live tail of /console/activity: new attempts arrive as server-sent events and are put on top
// of the table. Plain DOM (textContent only: nothing received is parsed as HTML).
(function () {
  "use strict";
  var table = document.getElementById("tail");
  if (!table || !window.EventSource) return;
  var body = table.tBodies[0];
  var status = document.getElementById("tail-status");
  var MAX_ROWS = 200;

  function cell(row, text, sub, href) {
    var td = row.insertCell(-1);
    if (href) {
      var a = document.createElement("a");
      a.href = href;
      a.textContent = text;
      td.appendChild(a);
    } else {
      td.textContent = text;
    }
    if (sub) {
      var s = document.createElement("span");
      s.className = "sub";
      s.textContent = sub;
      td.appendChild(s);
    }
    return td;
  }

  function add(a) {
    if (body.querySelector('tr[data-attempt="' + a.attempt_id + '"]')) return;
    var row = body.insertRow(0);
    row.dataset.attempt = a.attempt_id;
    row.className = "fresh";
    cell(row, a.attempted_at);
    var name = cell(row, "", "delivery " + a.delivery_id + " · attempt " + a.attempt);
    var code = document.createElement("code");
    code.textContent = a.name;
    name.insertBefore(code, name.firstChild);
    cell(row, "#" + a.callback_id, a.uri, "/console/callbacks/" + a.callback_id + "/deliveries");
    var result = row.insertCell(-1);
    var badge = document.createElement("span");
    badge.className = "badge " + a.outcome.replace("_", "-");
    badge.textContent = a.result;
    result.appendChild(badge);
    cell(row, a.duration_ms + " ms");
    while (body.rows.length > MAX_ROWS) body.deleteRow(-1);
    var empty = document.getElementById("tail-empty");
    if (empty) empty.remove();
  }

  var source = new EventSource(table.dataset.stream);
  source.addEventListener("open", function () { status.textContent = "Live: new attempts appear at the top."; });
  source.addEventListener("error", function () { status.textContent = "Disconnected; reconnecting…"; });
  source.addEventListener("signed-out", function () { source.close(); status.textContent = "Signed out: reload the page to sign in again."; });
  source.addEventListener("attempt", function (e) { add(JSON.parse(e.data)); });
})();
