/* rulekb service worker: the rules browser keeps working without a network.

   - Pages are fetched from the network first and kept; offline, the kept copy answers.
   - The site's frame (styles, scripts, home, the offline pages) is kept at install.
   - "Keep offline" (the /offline page) keeps every page of the editions a judge picks: the
     contents, the glossary and each section page; offline, a rule's own address
     (/riftbound/1.4/337.1.a, /riftbound/337.1a) opens the section page that shows it, at the
     rule; an address not kept opens the offline page, saying so.
   - Offline, a search is answered in the browser (/search-offline, offline-search.js) from
     the kept search index of the edition.
   Served from the site root (/sw.js), so its scope is the whole site. */
"use strict";

var VERSION = "rulekb-offline-1";
var SHELL = VERSION + "-shell";     // the site's frame
var PAGES = VERSION + "-pages";     // pages visited or kept
var META = VERSION + "-meta";       // which editions are kept, and their page lists
var BASE = new URL(self.registration.scope);

function at(path) { return new URL(path, BASE).href; }

var SHELL_FILES = ["", "offline", "search-offline", "static/site.css", "static/site.js",
                   "static/favicon.svg", "static/offline.js", "static/offline-search-data.js",
                   "static/offline-search.js", "manifest.webmanifest"].map(at);

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(SHELL_FILES); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("rulekb-") === 0 && n.indexOf(VERSION) !== 0; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function inScope(url) { return url.origin === BASE.origin && url.pathname.indexOf(BASE.pathname) === 0; }
function sitePath(url) { return url.pathname.slice(BASE.pathname.length); }

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (!inScope(url) || sitePath(url).indexOf("api/") === 0) return;
  var path = sitePath(url);
  if (path.indexOf("static/") === 0) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" || (request.headers.get("accept") || "").indexOf("text/html") >= 0) {
    event.respondWith(page(request, url));
  } else {
    event.respondWith(networkFirst(request));
  }
});

function cacheFirst(request) {
  return caches.match(request).then(function (hit) {
    var fresh = fetch(request).then(function (response) {
      if (response.ok) { var copy = response.clone(); caches.open(SHELL).then(function (c) { c.put(request, copy); }); }
      return response;
    });
    return hit || fresh;
  });
}

function networkFirst(request) {
  return fetch(request).then(function (response) {
    if (response.ok) { var copy = response.clone(); caches.open(PAGES).then(function (c) { c.put(request, copy); }); }
    return response;
  }).catch(function () {
    return caches.match(request).then(function (hit) { return hit || Response.error(); });
  });
}

/* A page: the network, else the kept copy, else what offline can still offer. */
function page(request, url) {
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      caches.open(PAGES).then(function (c) { c.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request).then(function (hit) { return hit || offlineAnswer(url); });
  });
}

/* Offline, what a page that was not kept can still be: a rule's address in a kept edition
   (/riftbound/1.4/337.1a, or the newest kept one: /riftbound/337.1a; the number written
   loosely or not) opens the kept section page at the rule; any other address goes to the
   offline page, which says it was not kept (served at its own address, so its links hold). */
function offlineAnswer(url) {
  var path = sitePath(url);
  if (path === "search") return caches.match(at("search-offline"));
  if (path === "offline") return caches.match(at("offline")).then(function (hit) { return hit || notKept(); });
  var parts = path.split("/").map(function (p) { try { return decodeURIComponent(p); } catch (e) { return p; } });
  var kept = parts.length === 3 && parts[2] ? keptEdition(parts[0], parts[1])
           : parts.length === 2 && parts[1] ? newestKept(parts[0], parts[1]) : Promise.resolve(null);
  return kept.then(function (list) {
    var target = list && keptPage(list, parts[parts.length - 1]);
    if (target) return Response.redirect(new URL(target, url.origin).href, 302);
    return Response.redirect(at("offline") + "?missing=" + encodeURIComponent(path), 302);
  });
}

function notKept() {
  return new Response("You are offline and this page was not kept.", {status: 503, headers: {"Content-Type": "text/plain"}});
}

/* A rule number as the site's addresses take it, one segment per part: "337.1a", "337.1.a"
   and "rule 337.1.a." all read 337.1.a, Magic's "116.3d" and "116.3.d" both 116.3.d. */
function ruleKey(text) {
  var t = String(text).toLowerCase().replace(/^\s*(rule|cr)\s+/, "").replace(/[.\s]+$/, "");
  return t.replace(/(\d)([a-z])/g, "$1.$2").replace(/([a-z])(\d)/g, "$1.$2").replace(/\.+/g, ".");
}

/* Where a kept edition shows NAME: its contents (NAME is the edition), its glossary, or the
   section page of the rule NAME, at the rule. */
function keptPage(list, name) {
  if (name === list.edition) return list.pages[0];
  if (name === "glossary") return list.pages[1];
  if (list.rules[name]) return list.rules[name];
  var key = ruleKey(name);
  for (var number in list.rules) { if (ruleKey(number) === key) return list.rules[number]; }
  return null;
}

/* The kept edition of RULESET that a ruleset address (/riftbound/NAME) means: the edition
   NAME itself when it is kept, else the newest kept full edition (by its date), as the site's
   default edition is; the newest kept excerpt only when every kept edition is one. */
function newestKept(ruleset, name) {
  return status().then(function (kept) {
    var mine = kept.filter(function (k) { return k.ruleset === ruleset; });
    return Promise.all(mine.map(function (k) { return keptEdition(k.ruleset, k.edition); }));
  }).then(function (lists) {
    lists = lists.filter(Boolean);
    var named = lists.filter(function (l) { return l.edition === name; });
    if (named.length) return named[0];
    lists.sort(function (a, b) {  // excerpts first, then by date: the last is the default
      return (b.partial ? 1 : 0) - (a.partial ? 1 : 0) || String(a.date || "").localeCompare(String(b.date || ""));
    });
    return lists.length ? lists[lists.length - 1] : null;
  });
}

function keptEdition(ruleset, edition) {
  return caches.open(META).then(function (c) { return c.match(at("offline/editions/" + ruleset + "/" + edition + ".json")); })
    .then(function (hit) { return hit ? hit.json() : null; });
}

/* Keep or drop editions, on request of the /offline page. */
self.addEventListener("message", function (event) {
  var data = event.data || {}, source = event.source;
  function tell(message) { if (source) source.postMessage(message); }
  if (data.type === "keep") {
    event.waitUntil(keep(data.ruleset, data.edition, tell).catch(function (err) {
      tell({type: "failed", ruleset: data.ruleset, edition: data.edition, message: String(err && err.message || err)});
    }));
  } else if (data.type === "drop") {
    event.waitUntil(drop(data.ruleset, data.edition).then(function () { tell({type: "dropped", ruleset: data.ruleset, edition: data.edition}); }));
  } else if (data.type === "status") {
    event.waitUntil(status().then(function (kept) { tell({type: "status", kept: kept}); }));
  }
});

function keep(ruleset, edition, tell) {
  var listUrl = at("offline/editions/" + encodeURIComponent(ruleset) + "/" + encodeURIComponent(edition) + ".json");
  return fetch(listUrl).then(function (response) {
    if (!response.ok) throw new Error("the server has no edition " + edition + " of " + ruleset);
    return response.clone().json().then(function (list) {
      var urls = list.pages.map(function (p) { return new URL(p, BASE.origin).href; });
      urls.push(new URL(list.search_index, BASE.origin).href);
      var done = 0, total = urls.length;
      return caches.open(PAGES).then(function (cache) {
        var queue = urls.slice();
        function worker() {
          var next = queue.shift();
          if (!next) return Promise.resolve();
          return fetch(next).then(function (r) {
            if (!r.ok) throw new Error("could not fetch " + next + " (HTTP " + r.status + ")");
            return cache.put(next, r);
          }).then(function () {
            done += 1;
            if (done % 10 === 0 || done === total) tell({type: "progress", ruleset: ruleset, edition: edition, done: done, total: total});
            return worker();
          });
        }
        return Promise.all([worker(), worker(), worker(), worker()]);
      }).then(function () {
        return caches.open(META).then(function (m) { return m.put(listUrl, response); });
      }).then(function () {
        tell({type: "kept", ruleset: ruleset, edition: edition, pages: total});
      });
    });
  });
}

function drop(ruleset, edition) {
  return keptEdition(ruleset, edition).then(function (list) {
    if (!list) return null;
    return caches.open(PAGES).then(function (cache) {
      return Promise.all(list.pages.concat([list.search_index]).map(function (p) { return cache.delete(new URL(p, BASE.origin).href); }));
    }).then(function () {
      return caches.open(META).then(function (m) { return m.delete(at("offline/editions/" + ruleset + "/" + edition + ".json")); });
    });
  });
}

function status() {
  return caches.open(META).then(function (m) { return m.keys(); }).then(function (requests) {
    return requests.map(function (r) {
      var m = /offline\/editions\/([^/]+)\/(.+)\.json$/.exec(new URL(r.url).pathname);
      return m ? {ruleset: decodeURIComponent(m[1]), edition: decodeURIComponent(m[2])} : null;
    }).filter(Boolean);
  });
}
