/* rulekb: register the service worker (static/sw.js, served at /sw.js) so visited pages stay
   readable offline, and drive the "keep offline" page (/offline). Without this file, or
   without service workers, the site works as before. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var link = document.querySelector("link[rel=manifest]");
  var sw = document.querySelector("meta[name=rulekb-sw]");
  if (!sw) return;
  navigator.serviceWorker.register(sw.getAttribute("content"), {scope: sw.getAttribute("data-scope")})
    .catch(function () { /* a browser that refuses (private mode, file://) keeps the site online-only */ });

  // The service worker sends an address it could not answer offline here: say which.
  var missing = new URLSearchParams(location.search).get("missing");
  var notice = document.querySelector("[data-offline-missing]");
  if (missing !== null && notice) {
    notice.textContent = "You are offline, and /" + missing + " was not kept on this device. " +
      "Back online, keep its edition below; kept editions open any of their rules' addresses.";
    notice.hidden = false;
  }

  var box = document.querySelector("[data-offline-editions]");
  if (!box || !link) return;
  box.hidden = false;
  var status = document.querySelector("[data-offline-status]");
  function say(text) { if (status) status.textContent = text; }
  function row(rs, ed) { return box.querySelector('[data-ruleset="' + rs + '"][data-edition="' + ed + '"]'); }
  function mark(rs, ed, text, kept) {
    var r = row(rs, ed);
    if (!r) return;
    r.querySelector(".kept").textContent = text;
    var input = r.querySelector("input");
    if (kept !== undefined) { input.checked = kept; input.setAttribute("data-kept", kept ? "1" : ""); }
  }
  navigator.serviceWorker.addEventListener("message", function (e) {
    var m = e.data || {};
    if (m.type === "status") m.kept.forEach(function (k) { mark(k.ruleset, k.edition, "kept offline", true); });
    if (m.type === "progress") mark(m.ruleset, m.edition, "keeping… " + m.done + " of " + m.total + " pages");
    if (m.type === "kept") { mark(m.ruleset, m.edition, "kept offline (" + m.pages + " pages)", true); say("Edition " + m.edition + " of " + m.ruleset + " is kept offline."); }
    if (m.type === "dropped") { mark(m.ruleset, m.edition, "", false); say("Edition " + m.edition + " of " + m.ruleset + " is no longer kept."); }
    if (m.type === "failed") { mark(m.ruleset, m.edition, "failed: " + m.message); say("Keeping failed: " + m.message); }
  });
  navigator.serviceWorker.ready.then(function (reg) {
    reg.active.postMessage({type: "status"});
    var form = box.closest("form");
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      Array.prototype.forEach.call(box.querySelectorAll("[data-ruleset]"), function (r) {
        var input = r.querySelector("input"), was = !!input.getAttribute("data-kept");
        var msg = {ruleset: r.getAttribute("data-ruleset"), edition: r.getAttribute("data-edition")};
        if (input.checked && !was) { msg.type = "keep"; mark(msg.ruleset, msg.edition, "keeping…"); reg.active.postMessage(msg); }
        if (!input.checked && was) { msg.type = "drop"; reg.active.postMessage(msg); }
      });
    });
  });
})();
