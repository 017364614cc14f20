/* rulekb: small progressive enhancements. Every page reads and works without this file. */
(function () {
  "use strict";

  /* Term tooltips: a term links to its definition on the page (#term-...); with script,
     hovering, focusing or tapping it shows that definition beside it instead. */
  var tip = null, tipOwner = null;

  function hideTip() {
    if (tip) { tip.remove(); tip = null; }
    if (tipOwner) { tipOwner.removeAttribute("aria-expanded"); tipOwner = null; }
  }

  function showTip(link) {
    if (tipOwner === link) return;
    hideTip();
    var id = (link.getAttribute("href") || "").slice(1);
    var def = id && document.getElementById(id);
    if (!def) return;
    tip = document.createElement("div");
    tip.className = "tooltip";
    tip.setAttribute("role", "tooltip");
    tip.id = "tooltip-live";
    var dt = def.querySelector("dt"), dd = def.querySelector("dd");
    var head = document.createElement("span");
    head.className = "tt-term";
    head.textContent = dt ? dt.textContent : link.textContent;
    tip.appendChild(head);
    if (dd) { tip.appendChild(dd.cloneNode(true)); }
    document.body.appendChild(tip);
    var r = link.getBoundingClientRect();
    var width = tip.offsetWidth;
    var left = Math.max(8, Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - width - 8));
    var top = window.scrollY + r.bottom + 6;
    if (r.bottom + tip.offsetHeight + 12 > window.innerHeight && r.top > tip.offsetHeight + 12) {
      top = window.scrollY + r.top - tip.offsetHeight - 6;
    }
    tip.style.left = left + "px";
    tip.style.top = top + "px";
    tipOwner = link;
    link.setAttribute("aria-expanded", "true");
    tip.addEventListener("mouseleave", function (e) { if (e.relatedTarget !== tipOwner) hideTip(); });
  }

  function termOf(el) { return el && el.closest ? el.closest("a.term") : null; }

  document.addEventListener("mouseover", function (e) { var t = termOf(e.target); if (t) showTip(t); });
  document.addEventListener("mouseout", function (e) {
    var t = termOf(e.target);
    if (t && tip && e.relatedTarget !== tip && !(tip.contains(e.relatedTarget))) hideTip();
  });
  document.addEventListener("focusin", function (e) {
    var t = termOf(e.target);
    if (t) showTip(t); else if (!(tip && tip.contains(e.target))) hideTip();
  });
  document.addEventListener("click", function (e) {
    var t = termOf(e.target);
    if (t) { e.preventDefault(); showTip(t); return; }
    if (tip && !tip.contains(e.target)) hideTip();
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && tip) { var owner = tipOwner; hideTip(); if (owner) owner.focus(); }
  });

  /* Copy buttons: the page's permanent link, or a citation. */
  function copyText(text, button) {
    var status = button.parentNode.querySelector(".copied");
    function done(msg) { if (status) { status.textContent = msg; setTimeout(function () { status.textContent = ""; }, 2500); } }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done("Copied"); }, function () { fallback(); });
    } else { fallback(); }
    function fallback() {
      var area = document.createElement("textarea");
      area.value = text; area.setAttribute("readonly", ""); area.className = "vh";
      document.body.appendChild(area); area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
      area.remove();
      done(ok ? "Copied" : text);
    }
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-copy]"), function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      if (b.getAttribute("data-copy") === "link") {
        var a = document.querySelector("[data-permalink]");
        copyText(a ? a.href : location.href, b);
      } else {
        copyText(b.getAttribute("data-text") || "", b);
      }
    });
  });

  /* Contents: expand or collapse every section at once. */
  Array.prototype.forEach.call(document.querySelectorAll("[data-toggle-all]"), function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      var open = b.getAttribute("data-toggle-all") === "open";
      Array.prototype.forEach.call(document.querySelectorAll(".toc details"), function (d) { d.open = open; });
    });
  });

  Array.prototype.forEach.call(document.querySelectorAll(".keys.js-only"), function (k) { k.hidden = false; });

  /* Keyboard stepping (timing explorer): ← / → or j / k follow the previous / next links. */
  var stepper = document.querySelector("[data-stepper]");
  if (stepper) {
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var tag = (e.target.tagName || "").toLowerCase();
      if (tag === "input" || tag === "textarea" || tag === "select" || e.target.isContentEditable) return;
      var rel = null;
      if (e.key === "ArrowRight" || e.key === "j") rel = "next";
      if (e.key === "ArrowLeft" || e.key === "k") rel = "prev";
      if (e.key === "Home") rel = "first";
      if (e.key === "End") rel = "last";
      if (!rel) return;
      var control = stepper.querySelector("[data-step=" + rel + "]");
      if (!control) return;
      e.preventDefault();
      if (control.href) location.assign(control.href); else control.click();
    });
  }
})();
