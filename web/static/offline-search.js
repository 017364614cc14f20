/* rulekb offline search: the server's search (kb/search) in the browser, over an index
   written by `rulekb export` (kb/export/search_index.py). No server, no external assets.

   The same query language (words, "phrases", rule numbers in any loose form, in:337,
   word*, -word, +word, a AND b, a OR b, ruleset:/edition:), the same ranking (numbers
   first, then the defining rules of a named term, then BM25F from the server's own
   per-word impacts, with the coordination and word-pair bonuses), the same typo
   correction and excerpts. Each function names the Python function it mirrors.

   This file holds the algorithms only. What is data (the word pattern, stop words,
   operators, quotes, filter keys, question words, the rule-number patterns, the limits,
   the spelled-out numbers, paging) comes from offline-search-data.js, which is generated
   from the Python (web/search_port.py) and loaded first; the stems of an edition's words
   come with its index (stem_of), so the Porter port below only stems a word the edition
   never uses.

   In a page: reads ?q=&ruleset=&edition=&in=&page= and the catalog the exporter wrote into
   search.html, loads search/<ruleset>/<edition>.js, shows the results. In node:
   require("offline-search.js") gives the functions (bench/export.py compares them with the
   server). */
(function (root) {
  "use strict";

  var D = typeof module !== "undefined" && module.exports ? require("./offline-search-data.js")
    : root.rulekbOfflineSearchData;
  if (!D) throw new Error("offline-search-data.js must be loaded before offline-search.js");
  function pattern(p, extra) { return new RegExp(p.source, p.flags + (extra || "")); }
  function table(obj) { return Object.assign(Object.create(null), obj); }

  // -- words (kb/search/schema.py) ---------------------------------------------------
  function wordRe() { return pattern(D.schema.word, "g"); }
  var STOP_WORDS = toSet(D.schema.stop_words);

  function toSet(list) { var s = Object.create(null); list.forEach(function (w) { s[w] = true; }); return s; }
  function has(set, key) { return Object.prototype.hasOwnProperty.call(set, key); }
  function words(text) { return text.match(wordRe()) || []; }

  /* Porter stemmer exactly as whoosh.lang.porter.stem (including its anchored matches). */
  var STEP2 = {ational: "ate", tional: "tion", enci: "ence", anci: "ance", izer: "ize", bli: "ble",
    alli: "al", entli: "ent", eli: "e", ousli: "ous", ization: "ize", ation: "ate", ator: "ate",
    alism: "al", iveness: "ive", fulness: "ful", ousness: "ous", aliti: "al", iviti: "ive",
    biliti: "ble", logi: "log"};
  var STEP3 = {icate: "ic", ative: "", alize: "al", iciti: "ic", ical: "ic", ful: "", ness: ""};
  var C = "[^aeiouy]+", V = "[aeiou]+";
  var MGR0 = new RegExp("^(" + C + ")?" + V + C);
  var MEQ1 = new RegExp("^(" + C + ")?" + V + C + "(" + V + ")?$");
  var MGR1 = new RegExp("^(" + C + ")?" + V + C + V + C);
  var S_V = new RegExp("^(" + C + ")?[aeiouy]");
  var C_V = new RegExp("^" + C + "[aeiouy][^aeiouwxy]$");
  var ED_ING = /^(.*)(ed|ing)$/;
  var AT_BL_IZ = /^(at|bl|iz)$/;
  var STEP1B = /^([^aeiouylsz])\1$/;
  var STEP2_RE = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
  var STEP3_RE = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
  var STEP4_1 = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
  var STEP4_2 = /^(.+?)(s|t)(ion)$/;
  var STEP5 = /^(.+?)e$/;

  function porter(w) {
    if (w.length < 3) return w;
    var firstY = w[0] === "y", m, st;
    if (firstY) w = "Y" + w.slice(1);
    if (w.endsWith("s")) {
      if (w.endsWith("sses")) w = w.slice(0, -2);
      else if (w.endsWith("ies")) w = w.slice(0, -2);
      else if (w[w.length - 2] !== "s") w = w.slice(0, -1);
    }
    if (w.endsWith("eed")) {
      if (MGR0.test(w.slice(0, -3))) w = w.slice(0, -1);
    } else if ((m = ED_ING.exec(w))) {
      st = m[1];
      if (S_V.test(st)) {
        w = st;
        if (AT_BL_IZ.test(w)) w += "e";
        else if (STEP1B.test(w)) w = w.slice(0, -1);
        else if (C_V.test(w)) w += "e";
      }
    }
    if (w.endsWith("y")) { st = w.slice(0, -1); if (S_V.test(st)) w = st + "i"; }
    if ((m = STEP2_RE.exec(w)) && MGR0.test(m[1])) w = m[1] + STEP2[m[2]];
    if ((m = STEP3_RE.exec(w)) && MGR0.test(m[1])) w = m[1] + STEP3[m[2]];
    if ((m = STEP4_1.exec(w))) { if (MGR1.test(m[1])) w = m[1]; }
    else if ((m = STEP4_2.exec(w))) { st = m[1] + m[2]; if (MGR1.test(st)) w = st; }
    if ((m = STEP5.exec(w))) {
      st = m[1];
      if (MGR1.test(st) || (MEQ1.test(st) && !C_V.test(st))) w = st;
    }
    if (w.endsWith("ll") && MGR1.test(w)) w = w.slice(0, -1);
    if (firstY) w = "y" + w.slice(1);
    return w;
  }

  /* Word → stem: the stems the Python analyser gave every word of a loaded edition
     (addStems, from its index), then the port's own for any other word. */
  var stemCache = Object.create(null);
  function addStems(stemOf) { Object.keys(stemOf || {}).forEach(function (w) { stemCache[w] = stemOf[w]; }); }
  /* analyse(): tokenise, lower-case, drop stop words, stem. */
  function analyse(text) {
    var out = [];
    words(text).forEach(function (t) {
      t = t.toLowerCase();
      if (has(STOP_WORDS, t)) return;
      var s = stemCache[t];
      if (s === undefined) { s = stemCache[t] = porter(t); }
      out.push(s);
    });
    return out;
  }
  /* stem(): the index form of one word ("" for a stop word). */
  function stem(word) { var a = analyse(word); return a.length ? a[0] : ""; }

  // -- rule numbers (kb/numbers.py) --------------------------------------------------
  var PREFIX = pattern(D.numbers.prefix), BODY = pattern(D.numbers.body);

  function NumberError(message) { this.message = message; }

  function parseNumber(text) {
    if (text.length > 64) throw new NumberError("a rule number is at most 64 characters");
    var body = text.trim().replace(/^[\[\]()]+|[\[\]()]+$/g, "").replace(PREFIX, "").trim();
    var m = BODY.exec(body);
    if (!m) throw new NumberError("not a rule number: " + pyRepr(text.trim().slice(0, 40)));
    var segs = [m[1]].concat(m[2].match(pattern(D.numbers.segment, "g")) || []);
    return segs.map(function (s) { return s.toLowerCase(); });
  }
  function tryParseNumber(text) { try { return parseNumber(text); } catch (e) { if (e instanceof NumberError) return null; throw e; } }
  function isAlpha(s) { return /^\p{L}+$/u.test(s); }
  function formatNumber(segs, style) {
    if (style === "dotted") return segs.join(".");
    var out = segs[0];
    for (var i = 1; i < segs.length; i++) {
      out += (/^[a-z]+$/i.test(segs[i]) && !/^[a-z]+$/i.test(segs[i - 1])) ? segs[i] : "." + segs[i];
    }
    return out;
  }
  function keyOf(segs) { return segs.map(function (s) { return /^\d+$/.test(s) ? "0:" + parseInt(s, 10) : "1:" + s; }).join("|"); }
  function compareSegs(a, b) {
    for (var i = 0; i < Math.min(a.length, b.length); i++) {
      var x = a[i], y = b[i], xd = /^\d+$/.test(x), yd = /^\d+$/.test(y);
      if (xd !== yd) return xd ? -1 : 1;
      if (xd) { var d = parseInt(x, 10) - parseInt(y, 10); if (d) return d; }
      else if (x !== y) return x < y ? -1 : 1;
    }
    return a.length - b.length;
  }
  function sameSeg(x, y) { return keyOf([x]) === keyOf([y]); }

  /* repr() of a str as Python writes it: single quotes, unless it holds one and no double quote. */
  function pyRepr(s) {
    s = s.replace(/\\/g, "\\\\");
    if (s.indexOf("'") >= 0 && s.indexOf('"') < 0) return '"' + s + '"';
    return "'" + s.replace(/'/g, "\\'") + "'";
  }

  // -- the query language (kb/search/query.py) ---------------------------------------
  var Q = D.query, MAX_QUERY_CHARS = Q.max_chars, MAX_ATOMS = Q.max_atoms;
  var QUESTION_WORDS = toSet(Q.question_words), LEADING_WORDS = toSet(Q.leading_words);
  var FILTER_KEYS = table(Q.filter_keys), OPERATORS = toSet(Q.operators);
  var QUOTES = table(Q.quotes), CLOSING = toSet(Q.closing);
  var NUMBER_LIKE = pattern(Q.number_like), RULE_WORDS = toSet(Q.rule_words), EDGE_PUNCT = Q.edge_punct;

  function SearchError(message, detail, status) {
    this.message = message; this.detail = detail || {}; this.status = status || 400;
  }
  /* say: the message kb.search.query.MESSAGES ``name``, filled ({key}, {key!r} quoted as
     repr() quotes). */
  function say(name, values) {
    return Q.messages[name].replace(/\{(\w+)(!r)?\}/g, function (_, key, quoted) {
      var value = String((values || {})[key]);
      return quoted ? pyRepr(value) : value;
    });
  }
  /* syntax_error: that message as a query that cannot be read, at character position ``at``. */
  function syntaxError(name, at, values) {
    return new SearchError(say(name, values), {position: at === undefined ? null : at}, 400);
  }
  function isSpace(ch) { return /\s/.test(ch); }
  function strip(s, chars) {
    var a = 0, b = s.length;
    while (a < b && chars.indexOf(s[a]) >= 0) a++;
    while (b > a && chars.indexOf(s[b - 1]) >= 0) b--;
    return s.slice(a, b);
  }
  function rstrip(s, chars) { var b = s.length; while (b > 0 && chars.indexOf(s[b - 1]) >= 0) b--; return s.slice(0, b); }
  function lowerWords(text) { return words(text).map(function (w) { return w.toLowerCase(); }); }

  function checkCharacters(text) {
    if (typeof text !== "string") throw syntaxError("not_text");
    if (text.length > MAX_QUERY_CHARS) {
      throw syntaxError("too_long", MAX_QUERY_CHARS, {length: text.length, max_chars: MAX_QUERY_CHARS});
    }
    for (var i = 0; i < text.length; i++) {
      var ch = text[i];
      if (ch === "\t" || ch === "\n" || ch === "\r") continue;
      if (/\p{Cc}/u.test(ch)) {
        var hex = ch.charCodeAt(0).toString(16).toUpperCase();
        throw syntaxError("control_character", i, {code: "0000".slice(hex.length) + hex, position: i});
      }
      var code = text.charCodeAt(i);
      if (code >= 0xD800 && code <= 0xDBFF && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xDC00 && text.charCodeAt(i + 1) <= 0xDFFF) { i++; continue; }
      if (code >= 0xD800 && code <= 0xDFFF) throw syntaxError("invalid_character", i, {position: i});
    }
    text = text.replace(/\p{Cf}/gu, "").normalize("NFC");
    return text.replace(/\s/g, " ");
  }

  function Atom(kind, text, ws, segments, start, end) {
    this.kind = kind; this.text = text; this.words = ws || []; this.segments = segments || [];
    this.start = start || 0; this.end = end || 0;
  }

  function parseQuery(text) {
    text = checkCharacters(text);
    var query = {text: text, clauses: [], sections: [], ruleset: null, edition: null, dropped: [], unread: []};
    var tokens = tokenize(text, query);
    query.clauses = clausesOf(tokens);
    dropQuestionWords(query);
    query.cut = [];
    if (allAtoms(query).length > MAX_ATOMS && isPlain(query)) {
      // A pasted question: its first MAX_ATOMS words and phrases are searched, the rest said.
      query.cut = query.clauses.slice(MAX_ATOMS).map(function (c) { return strip(c.atoms[0].text, EDGE_PUNCT); });
      query.clauses = query.clauses.slice(0, MAX_ATOMS);
    }
    var atoms = allAtoms(query);
    if (atoms.length > MAX_ATOMS) throw syntaxError("too_many_atoms", null, {count: atoms.length, max_atoms: MAX_ATOMS});
    if (!query.clauses.length) {
      if (query.sections.length || query.ruleset || query.edition) throw syntaxError("only_filters");
      if (query.dropped.length) {
        throw syntaxError("only_common_words", null, {dropped: query.dropped.join(" ")});
      }
      if (!text) throw syntaxError("empty");
      throw nothingSearchable(text);
    }
    if (query.clauses.every(function (c) { return c.mode === "not"; })) throw syntaxError("only_left_out", 0);
    return query;
  }

  /* ignored_kinds and nothing_searchable: a query with no word or number in it, what was typed
     (its first SHOWN_CHARS code points) and what search left out of it. */
  var IGNORED_KINDS = Q.ignored_kinds, EMOJI_RANGES = Q.emoji_ranges, SHOWN_CHARS = Q.shown_chars;
  function ignoredKinds(text) {
    var found = Object.create(null);
    Array.from(text).forEach(function (ch) {
      var cp = ch.codePointAt(0);
      if (ch === " ") found.space = true;
      else if (/\p{S}/u.test(ch)) {
        found[EMOJI_RANGES.some(function (r) { return r[0] <= cp && cp <= r[1]; }) ? "emoji" : "symbol"] = true;
      } else if (/\p{P}/u.test(ch)) found.punctuation = true;
      else found.other = true;
    });
    var kinds = ["emoji", "symbol", "punctuation"].filter(function (k) { return found[k]; });
    if (!kinds.length) kinds = ["other", "space"].filter(function (k) { return found[k]; }).slice(0, 1);
    return kinds.map(function (k) { return IGNORED_KINDS[k]; }).join(", ");
  }
  function nothingSearchable(text) {
    var shown = Array.from(strip(text, " ") || text);
    shown = shown.length > SHOWN_CHARS ? shown.slice(0, SHOWN_CHARS).join("") + "\u2026" : shown.join("");
    return syntaxError("nothing_searchable", null, {typed: shown, ignored: ignoredKinds(text)});
  }

  function allAtoms(q) { var out = []; q.clauses.forEach(function (c) { out.push.apply(out, c.atoms); }); return out; }
  function numberAtoms(q) {
    var out = [];
    q.clauses.forEach(function (c) { if (c.mode !== "not") c.atoms.forEach(function (a) { if (a.kind === "number") out.push(a); }); });
    return out;
  }
  function onlyNumbers(q) { return q.clauses.length > 0 && allAtoms(q).every(function (a) { return a.kind === "number"; }); }
  function isPlain(q) {
    return q.clauses.length > 0 && q.clauses.every(function (c) {
      return c.mode === "should" && c.atoms.length === 1 && (c.atoms[0].kind === "word" || c.atoms[0].kind === "phrase");
    });
  }

  function tokenize(text, query) {
    var tokens = [], i = 0, n = text.length;
    while (i < n) {
      var ch = text[i];
      if (isSpace(ch)) { i++; continue; }
      var modifier = "";
      if ((ch === "+" || ch === "-") && i + 1 < n && (has(QUOTES, text[i + 1]) || isAlpha(text[i + 1]))) {
        modifier = ch; i += 1; ch = text[i];
      }
      if (has(QUOTES, ch)) {
        var close = -1;
        [QUOTES[ch], '"', "\u201d"].forEach(function (q) {
          var p = text.indexOf(q, i + 1);
          if (p >= 0 && (close < 0 || p < close)) close = p;
        });
        if (close < 0) throw syntaxError("quote_never_closed", i, {quote: ch, position: i});
        var inner = text.slice(i + 1, close);
        var ws = lowerWords(inner);
        if (!ws.length) throw syntaxError("quote_holds_no_words", i, {position: i});
        var atom = new Atom(ws.length > 1 ? "phrase" : "word", inner, ws, [], i, close + 1);
        tokens.push({kind: "atom", text: text.slice(i, close + 1), start: i, end: close + 1, atom: atom, modifier: modifier});
        i = close + 1;
        continue;
      }
      if (has(CLOSING, ch)) throw syntaxError("quote_closes_nothing", i, {quote: ch, position: i});
      var j = i;
      while (j < n && !isSpace(text[j]) && !has(QUOTES, text[j]) && !has(CLOSING, text[j])) j++;
      var token = readToken(text.slice(i, j), i, query, modifier);
      if (token) tokens.push(token);
      i = j;
    }
    return joinRuleWords(tokens);
  }

  function readToken(raw, start, query, modifier) {
    var end = start + raw.length;
    if (has(OPERATORS, raw) && !modifier) return {kind: "op", text: raw, start: start, end: end, atom: null, modifier: ""};
    var colon = raw.indexOf(":");
    if (colon >= 0 && has(FILTER_KEYS, raw.slice(0, colon).toLowerCase()) && !modifier) {
      readFilter(FILTER_KEYS[raw.slice(0, colon).toLowerCase()], raw.slice(0, colon), raw.slice(colon + 1), start, query);
      return null;
    }
    raw = withoutUnread(raw, query);
    if (raw.indexOf("*") >= 0) return {kind: "atom", text: raw, start: start, end: end, atom: readPrefix(raw, start), modifier: modifier};
    var bare = strip(raw, EDGE_PUNCT + "'\"\u2019");
    var bareTrim = rstrip(bare, ".");
    if (NUMBER_LIKE.test(bare) && (bareTrim.indexOf(".") >= 0 || bareTrim.length >= 3)) {
      var segs = tryParseNumber(bare);
      if (segs && segs.length) {
        return {kind: "atom", text: raw, start: start, end: end, atom: new Atom("number", bareTrim, [], segs, start, end), modifier: modifier};
      }
    }
    var ws = lowerWords(raw);
    if (!ws.length) return null;
    return {kind: "atom", text: raw, start: start, end: end, modifier: modifier,
            atom: new Atom(ws.length > 1 ? "phrase" : "word", raw, ws, [], start, end)};
  }

  // Other search languages' syntax left out, each kind said once (query.py's _without_unread).
  var UNREAD_FIELDS = toSet(Q.unread_fields);
  function withoutUnread(raw, query) {
    function said(kind, key) {
      var note = Q.unread_syntax[kind].replace("{key}", key || "");
      query.unread = query.unread || [];
      if (query.unread.indexOf(note) < 0) query.unread.push(note);
    }
    var core = raw.replace(/[0-9.]+$/, "");
    var last = core.slice(-1);
    if (last === "^" || last === "~") {
      said(last === "^" ? "boost" : "fuzzy");
      raw = core.slice(0, -1);
    }
    if (raw.charAt(0) === "~") { said("fuzzy"); raw = raw.slice(1); }
    var colon = raw.indexOf(":");
    if (colon >= 0 && colon + 1 < raw.length && has(UNREAD_FIELDS, raw.slice(0, colon).toLowerCase())) {
      said("field", raw.slice(0, colon).toLowerCase());
      raw = raw.slice(colon + 1);
    }
    // Only a range's square brackets: braces are mana symbols, "[follow-up to: …]" a context.
    if (query.text.indexOf(" TO ") >= 0 && (raw.charAt(0) === "[" || raw.slice(-1) === "]")) {
      said("range");
      raw = raw.replace(/^[\[\]]+|[\[\]]+$/g, "");
    }
    return raw;
  }

  function readFilter(kind, key, value, start, query) {
    value = value.trim();
    var where = start + key.length + 1;
    if (!value) {
      throw syntaxError("filter_needs_value", where, {key: key, example: Q.filter_examples[kind]});
    }
    if (kind === "section") {
      var segs = tryParseNumber(value);
      if (!segs) throw syntaxError("filter_needs_number", where, {key: key, value: value.slice(0, 40)});
      query.sections.push([rstrip(value, "."), segs]);
    } else if (kind === "ruleset") {
      if (query.ruleset && query.ruleset !== value) throw syntaxError("two_rulesets", start);
      query.ruleset = value;
    } else {
      if (query.edition && query.edition !== value) throw syntaxError("two_editions", start);
      query.edition = value;
    }
  }

  function readPrefix(raw, start) {
    var body = rstrip(raw, "*"), star = raw.indexOf("*");
    if (body.indexOf("*") >= 0) throw syntaxError("star_inside_word", start + star, {position: start + star});
    var ws = words(body);
    if (ws.length !== 1 || ws[0].length < 2 || ws[0] !== strip(body, EDGE_PUNCT)) {
      throw syntaxError("star_needs_letters", start + star, {position: start + star});
    }
    return new Atom("prefix", raw, [ws[0].toLowerCase()], [], start, start + raw.length);
  }

  function joinRuleWords(tokens) {
    var out = [];
    tokens.forEach(function (tok) {
      var prev = out.length ? out[out.length - 1] : null;
      if (tok.atom && tok.atom.kind === "number" && prev && prev.atom && !prev.modifier &&
          prev.atom.kind === "word" && has(RULE_WORDS, prev.atom.words[0])) {
        out.pop();
        tok.modifier = prev.modifier || tok.modifier;
      }
      out.push(tok);
    });
    return out;
  }

  function clausesOf(tokens) {
    var clauses = [], i = 0, n = tokens.length, mustNext = false;
    while (i < n) {
      var tok = tokens[i], negate = false;
      if (tok.kind === "op" && tok.text === "NOT") {
        if (i + 1 >= n || tokens[i + 1].kind === "op") throw syntaxError("not_needs_word", tok.start, {position: tok.start});
        negate = true; i += 1; tok = tokens[i];
      } else if (tok.kind === "op") {
        var before = i ? tokens[i - 1].text : "";
        throw syntaxError("operator_needs_words", tok.start, {operator: tok.text, position: tok.start, before: before || "nothing"});
      }
      var mode = negate || tok.modifier === "-" ? "not" : tok.modifier === "+" ? "must" : "should";
      var clause = {atoms: [tok.atom], mode: mode};
      i += 1;
      while (i < n && tokens[i].kind === "op" && tokens[i].text === "OR") {
        var nxt = i + 1 < n ? tokens[i + 1] : null;
        if (!nxt || nxt.kind === "op") {
          throw syntaxError("or_needs_words", tokens[i].start, {position: tokens[i].start, after: nxt ? nxt.text : "nothing"});
        }
        if (nxt.modifier || mode === "not") {
          throw syntaxError("or_cannot_join", tokens[i].start, {position: tokens[i].start});
        }
        clause.atoms.push(nxt.atom);
        i += 2;
      }
      if (mustNext && mode === "should") clause.mode = "must";
      mustNext = false;
      if (i < n && tokens[i].kind === "op" && tokens[i].text === "AND") {
        var after = i + 1 < n ? tokens[i + 1] : null;
        if (!after || (after.kind === "op" && after.text !== "NOT")) {
          throw syntaxError("and_needs_words", tokens[i].start, {position: tokens[i].start, after: after ? after.text : "nothing"});
        }
        if (clause.mode === "should") clause.mode = "must";
        mustNext = true;
        i += 1;
      }
      clauses.push(clause);
    }
    return clauses;
  }

  function dropQuestionWords(query) {
    function searchable(a) { return a.kind !== "word" || !!stem(a.words[0]); }
    var kept = [];
    query.clauses.forEach(function (c) {
      var atoms = c.atoms.filter(searchable);
      c.atoms.forEach(function (a) { if (!searchable(a)) query.dropped.push(a.text); });
      if (atoms.length) kept.push({atoms: atoms, mode: c.mode});
    });
    function plainWord(c, set) { return c.mode === "should" && c.atoms.length === 1 && c.atoms[0].kind === "word" && has(set, c.atoms[0].words[0]); }
    var questions = kept.filter(function (c) { return plainWord(c, QUESTION_WORDS); });
    for (var i = 0; i < kept.length; i++) {
      if (!plainWord(kept[i], LEADING_WORDS)) break;
      if (questions.indexOf(kept[i]) < 0) questions.push(kept[i]);
    }
    if (questions.length < kept.filter(function (c) { return c.mode !== "not"; }).length) {
      questions.forEach(function (c) { query.dropped.push(c.atoms[0].text); });
      kept = kept.filter(function (c) { return questions.indexOf(c) < 0; });
    }
    query.clauses = kept;
  }

  // -- typo tolerance (kb/search/spelling.py) ------------------------------------------
  /* Damerau-Levenshtein distance with unrestricted transpositions (rapidfuzz's
     DamerauLevenshtein.distance), on code points. */
  function damerau(a, b) {
    a = Array.from(a); b = Array.from(b);
    var la = a.length, lb = b.length, INF = la + lb, da = Object.create(null), i, j;
    var d = [];
    for (i = 0; i <= la + 1; i++) d.push(new Array(lb + 2).fill(0));
    d[0][0] = INF;
    for (i = 0; i <= la; i++) { d[i + 1][0] = INF; d[i + 1][1] = i; }
    for (j = 0; j <= lb; j++) { d[0][j + 1] = INF; d[1][j + 1] = j; }
    for (i = 1; i <= la; i++) {
      var db = 0;
      for (j = 1; j <= lb; j++) {
        var i1 = da[b[j - 1]] || 0, j1 = db, cost = 1;
        if (a[i - 1] === b[j - 1]) { cost = 0; db = j; }
        d[i + 1][j + 1] = Math.min(d[i][j] + cost, d[i + 1][j] + 1, d[i][j + 1] + 1,
                                   d[i1][j1] + (i - i1 - 1) + 1 + (j - j1 - 1));
      }
      da[a[i - 1]] = i;
    }
    return d[la + 1][lb + 1];
  }

  /* english: the ordinary English words it leaves alone ("work" is not "word"); lemmas: those
     it reads as the word of the rules they are a form of ("drew" → "draw"). */
  function Speller(wordsList, counts, known, english, lemmas, closedUp) {
    this.closedUp = closedUp || {};  /* the rules' hyphenated words by their letters: "quickdraw" → "quick-draw" */
    this.words = wordsList;
    this.counts = Object.create(null);
    for (var i = 0; i < wordsList.length; i++) this.counts[wordsList[i]] = counts[i];
    this.known = toSet(known);
    this.english = toSet(english || []);
    this.lemmas = lemmas || {};
  }
  Speller.prototype.isKnown = function (word) {
    var s = stem(word);
    return !s || has(this.known, s) || !isAlpha(word);
  };
  Speller.prototype.suggest = function (word) {
    var len = Array.from(word).length;
    if (len < 3 || this.isKnown(word)) return null;
    if (has(this.lemmas, word)) return this.lemmas[word];
    if (has(this.english, word)) return null;
    var allowed = len <= 6 ? 1 : 2, found = [];
    for (var i = 0; i < this.words.length; i++) {
      var w = this.words[i];
      if (Math.abs(Array.from(w).length - len) > allowed) continue;
      var dist = damerau(word, w);
      if (dist <= allowed) found.push([w, dist, i]);
    }
    found.sort(function (x, y) { return x[1] - y[1] || x[2] - y[2]; });
    found = found.slice(0, 20).filter(function (f) { return f[1] <= 1 || f[0][0] === word[0]; });
    if (!found.length) return null;
    var self = this;
    found.sort(function (x, y) {
      return x[1] - y[1] || (self.counts[y[0]] || 0) - (self.counts[x[0]] || 0) || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0);
    });
    return found[0][0];
  };

  /* Speller.splits: a word no rule uses read as a closed-up compound of the rules' words, the
     likeliest first: their hyphenated word with its letters, then each cut into two of their words
     (the one whose rarer word they use most first, then the earlier cut). */
  var SPLIT = D.spelling.split;
  Speller.prototype.splits = function (word) {
    if (Array.from(word).length < SPLIT.min_letters || !isAlpha(word) || this.isKnown(word)) return [];
    var out = [], counts = this.counts, cuts = [];
    if (has(this.closedUp, word)) out.push(this.closedUp[word].split("-"));
    for (var i = SPLIT.part; i <= word.length - SPLIT.part; i++) {
      var a = word.slice(0, i), b = word.slice(i);
      if (has(counts, a) && has(counts, b)) cuts.push([Math.min(counts[a], counts[b]), i]);
    }
    cuts.sort(function (x, y) { return y[0] - x[0] || x[1] - y[1]; });
    cuts.forEach(function (c) {
      var a = word.slice(0, c[1]), b = word.slice(c[1]);
      if (!out.some(function (o) { return o.length === 2 && o[0] === a && o[1] === b; })) out.push([a, b]);
    });
    return out;
  };

  // -- excerpts (kb/search/excerpt.py) ---------------------------------------------
  var EXCERPT_CHARS = D.search.excerpt_chars;
  function matcher(stems, prefixes) {
    return function (word) {
      var low = word.toLowerCase();
      if (has(stems, stem(low))) return true;
      for (var i = 0; i < prefixes.length; i++) if (low.startsWith(prefixes[i])) return true;
      return false;
    };
  }
  function countMatches(text, matches) { return words(text).filter(matches).length; }
  function escapeHtml(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }
  /* The excerpt as pieces [{text, mark}] (the page builds DOM nodes from them). */
  function excerptParts(text, matches, width) {
    width = width || EXCERPT_CHARS;
    var spans = [], re = wordRe(), m;
    while ((m = re.exec(text))) if (matches(m[0])) spans.push([m.index, m.index + m[0].length]);
    var start = 0, end = text.length;
    if (text.length > width) {
      var first = spans.length ? spans[0][0] : 0;
      start = Math.max(0, first - Math.floor(width / 4));
      if (start) { var sp = text.indexOf(" ", start); start = (sp >= 0 && sp < first) ? sp + 1 : start; }
      end = Math.min(text.length, start + width);
      if (end < text.length) { var sp2 = text.lastIndexOf(" ", end - 1); end = (sp2 >= start && sp2 > start) ? sp2 : end; }
    }
    var out = [{text: start ? "…" : "", mark: false}], pos = start;
    spans.forEach(function (s) {
      if (s[0] < start || s[1] > end) return;
      out.push({text: text.slice(pos, s[0]), mark: false});
      out.push({text: text.slice(s[0], s[1]), mark: true});
      pos = s[1];
    });
    out.push({text: text.slice(pos, end), mark: false});
    out.push({text: end < text.length ? "…" : "", mark: false});
    return out.filter(function (p) { return p.text; });
  }
  function excerpt(text, matches, width) {
    return excerptParts(text, matches, width).map(function (p) {
      return p.mark ? "<mark>" + escapeHtml(p.text) + "</mark>" : escapeHtml(p.text);
    }).join("");
  }

  // -- reading a question (kb/search/understand.py) ----------------------------------
  var MAX_TERM_WORDS = D.understand.max_term_words, NAME_MAX_RULES = D.understand.name_max_rules,
    QUOTE_WORDS = D.understand.quote_words;
  function origin(c) { return c.origin || "typed"; }
  function clause(atoms, extra) {
    return Object.assign({mode: "should", atoms: atoms, weight: 1, origin: "typed", label: "", alternative_weight: 1}, extra || {});
  }
  function isUpper(ch) { return !!ch && ch.toUpperCase() === ch && ch.toLowerCase() !== ch; }
  function lstrip(s, chars) { var a = 0; while (a < s.length && chars.indexOf(s[a]) >= 0) a++; return s.slice(a); }
  function capitalised(a) {
    var first = Array.from(lstrip(a.text, "\"'\u201c\u2018("))[0];
    return isUpper(first) && ["I", "I'm", "I\u2019m"].indexOf(a.text) < 0;
  }
  function sentenceStart(text, start) {
    var before = rstrip(text.slice(0, start), " \"'\u201c\u2018(");
    return !before || ".?!:]".indexOf(before[before.length - 1]) >= 0;
  }
  function joinAtom(text, atoms) {
    var ws = [];
    atoms.forEach(function (a) { ws.push.apply(ws, a.words); });
    var first = atoms[0], last = atoms[atoms.length - 1];
    return new Atom(ws.length > 1 ? "phrase" : "word", text.slice(first.start, last.end), ws, [], first.start, last.end);
  }
  /* questionVerb (kb.search.understand.question_verb): where the verb of a yes/no question
     opened by an auxiliary, its subject no pronoun, starts: the word before the first clause
     word after the subject ("Does playing a unit to a battlefield count as …"); or -1. */
  function questionVerb(text, start, vocab) {
    var re = wordRe(), m, ws = [];
    re.lastIndex = start;
    while ((m = re.exec(text)) !== null) ws.push(m);
    var aux = toSet(vocab.auxiliaries || []), subjects = toSet(vocab.subjects || []), clauseWords = toSet(vocab.clause_words || []);
    if (ws.length < 4 || !has(aux, ws[0][0].toLowerCase()) || has(subjects, ws[1][0].toLowerCase())) return -1;
    for (var k = 3; k < ws.length; k++) if (has(clauseWords, ws[k][0].toLowerCase())) return ws[k - 1].index;
    return -1;
  }
  /* termAt: the longest term starting at atom i, never one of several atoms ending on the
     question's verb (at text offset verb). */
  function termAt(atoms, i, terms, verb) {
    for (var j = Math.min(atoms.length, i + MAX_TERM_WORDS); j > i; j--) {
      if (verb !== undefined && verb >= 0 && j - i > 1 && atoms[j - 1].start === verb) continue;
      var ws = [];
      atoms.slice(i, j).forEach(function (a) { ws.push.apply(ws, a.words); });
      var joined = ws.join(" "), t = terms.get(joined);
      if (!t && j - i === 1 && ws[ws.length - 1].endsWith("s")) t = terms.get(joined.slice(0, -1));
      if (t) return [j, t];
    }
    return null;
  }
  function entryAt(stems, i, vocab) {
    if (!stems[i].length) return null;
    for (var e = 0; e < vocab.entries.length; e++) {
      var entry = vocab.entries[e];
      if (entry.players[0] !== stems[i][0]) continue;
      var flat = [], j = i;
      while (j < stems.length && flat.length < entry.players.length) { flat.push.apply(flat, stems[j]); j++; }
      if (flat.join(" ") === entry.players.join(" ") && flat.length === entry.players.length) return [entry, j];
    }
    return null;
  }
  /* understand: the concepts of a plain query (names out, terms weighted, players' words
     with the rules' words as alternatives, question words dropped, the shape's words). */
  /* is_players_phrase: an atom's words are, whole, the players' phrase of an entry. */
  function isPlayersPhrase(a, vocab) {
    var st = analyse(a.words.join(" ")).join(" ");
    return !!st && vocab.entries.some(function (e) { return e.players.join(" ") === st; });
  }
  /* understand.in_sense: a term the question names (its stems) is read as the term unless the
     vocabulary gives it a sense, and then only beside one of that sense's stems. */
  function inSense(term, senses, asked) {
    function find(key) {
      for (var n = 0; n < senses.length; n++) if (senses[n].term.join(" ") === key.join(" ")) return senses[n].with;
      return null;
    }
    var need = find(term), last = term.length ? term[term.length - 1] : "";
    if (need === null && /s$/.test(last)) need = find(term.slice(0, -1).concat([last.slice(0, -1)]));
    return need === null || need.some(function (st) { return asked.has(st) && term.indexOf(st) < 0; });
  }
  /* understand.is_participant: an atom naming a question's participant, whole ("opponent"). */
  function isParticipant(a, vocab) {
    var stems = analyse(a.words.join(" ")), who = vocab.participants || [];
    return stems.length > 0 && stems.every(function (s) { return who.indexOf(s) >= 0; });
  }
  /* understand.named_once_only: a rules' word a players' word or the shape brings in that the
     question names itself is left out of its alternatives (a shape left with none is dropped). */
  function namedOnceOnly(clauses) {
    var own = new Set();
    clauses.forEach(function (c) {
      if ((origin(c) === "typed" || origin(c) === "term") && c.mode !== "not") own.add(analyse(c.atoms[0].words.join(" ")).join(" "));
    });
    var out = [];
    clauses.forEach(function (c) {
      var o = origin(c);
      if (o === "vocabulary" || o === "shape") {
        var first = o === "vocabulary" ? c.atoms.slice(0, 1) : [];
        var rest = c.atoms.slice(first.length).filter(function (a) { return !own.has(analyse(a.words.join(" ")).join(" ")); });
        if (first.length + rest.length < c.atoms.length) {
          if (!first.length && !rest.length) return;
          c = Object.assign({}, c, {atoms: first.concat(rest)});
        }
      }
      out.push(c);
    });
    return out;
  }
  /* understand._idioms: the English idioms of the question (longest first, then left to right):
     its words as typed, next to each other (stop words too), from after on, over kept atoms only
     (one at least, none of a name or a quotation); each idiom's atoms leave keep, and it becomes
     one concept of the rules' words for it (its own words as a phrase beside them), or is left out. */
  function idiomsOf(atoms, keep, text, vocab, synonymWeight, after) {
    var re = wordRe(), m, tokens = [], found = [];
    re.lastIndex = after || 0;
    while ((m = re.exec(text)) !== null) tokens.push([m.index, m.index + m[0].length, m[0].toLowerCase()]);
    (vocab.idioms || []).forEach(function (idiom) {
      var said = idiom.words, n = said.length;
      for (var i = 0; i + n <= tokens.length; i++) {
        var ok = true;
        for (var j = 0; ok && j < n; j++) {
          ok = tokens[i + j][2] === said[j] && (j === 0 || !text.slice(tokens[i + j - 1][1], tokens[i + j][0]).trim());
        }
        if (!ok) continue;
        var begin = tokens[i][0], end = tokens[i + n - 1][1];
        if (found.some(function (f) { return begin < f[1] && f[0] < end; })) continue;
        var inside = [];
        atoms.forEach(function (a, k) { if (a.start < end && begin < a.end) inside.push(k); });
        // An atom may end on punctuation after the idiom ("right away, can I …").
        if (inside.length && inside.every(function (k) {
          return keep[k] && atoms[k].kind === "word" && begin <= atoms[k].start && !words(text.slice(end, Math.max(end, atoms[k].end))).length;
        })) {
          found.push([begin, end, idiom, inside]);
        }
      }
    });
    var clauses = [], dropped = [];
    found.sort(function (x, y) { return x[0] - y[0]; }).forEach(function (f) {
      f[3].forEach(function (k) { keep[k] = false; });
      var typed = text.slice(f[0], f[1]);
      if (f[2].rules.length) {
        var atom = new Atom("phrase", typed, f[2].words.slice(), [], f[0], f[1]);
        var rules = f[2].rules.map(function (x) { return new Atom(x.words.length > 1 ? "phrase" : "word", x.text, x.words, [], 0, 0); });
        clauses.push(clause([atom].concat(rules), {origin: "vocabulary", label: strip(typed, " ,.?!;:"), alternative_weight: synonymWeight}));
      } else {
        dropped.push(typed);
      }
    });
    return [clauses, dropped];
  }
  function understand(parsed, vocab, rulesWith, terms, r) {
    // One word or phrase alone is read as typed, unless it is a players' phrase of the
    // vocabulary and no term of the edition ("the stack", "ETB").
    if (!isPlain(parsed) || (parsed.clauses.length < 2 && !(
        isPlayersPhrase(parsed.clauses[0].atoms[0], vocab) && !terms.has(parsed.clauses[0].atoms[0].words.join(" "))))) return parsed;
    var text = parsed.text, atoms = [], quotes = [];
    // A bracketed earlier question before this one (kb.search.understand.CONTEXT): its label
    // ("[follow-up to:") is left out, its words weigh r.context_weight.
    var context = /^\s*(\[[^\]:]*:?)[^\]]*\]/.exec(text);
    var labelEnd = context ? context.index + context[0].indexOf(context[1]) + context[1].length : 0;
    var contextEnd = context ? context.index + context[0].length : 0;
    parsed.clauses.forEach(function (c) {
      var a = c.atoms[0];
      if (!(r.quote_weight && a.kind === "phrase" && a.words.length >= QUOTE_WORDS)) {
        if (!(context && a.start < labelEnd)) atoms.push(a);
        return;
      }
      var at = text.indexOf(a.text, a.start), re = wordRe(), m;  // the atom starts at its opening quote
      if (at < 0) at = a.start;
      quotes.push([at, at + a.text.length]);
      while ((m = re.exec(a.text)) !== null) {
        if (stem(m[0].toLowerCase())) atoms.push(new Atom("word", m[0], [m[0].toLowerCase()], [], at + m.index, at + m.index + m[0].length));
      }
    });
    var names = [], keep = atoms.map(function () { return true; }), i = 0, k;
    function nameWord(a) {
      return a.words.some(function (w) { var s = stem(w); return isAlpha(w) && !!s && rulesWith(s) <= NAME_MAX_RULES; });
    }
    // A players' word of the vocabulary ("ETBs") is no name.
    var players = atoms.map(function (a) { return isPlayersPhrase(a, vocab); });
    while (i < atoms.length) {
      if (players[i] || !(capitalised(atoms[i]) && !sentenceStart(text, atoms[i].start))) { i++; continue; }
      var j = i;
      while (j + 1 < atoms.length && !players[j + 1] && capitalised(atoms[j + 1]) &&
             !strip(text.slice(atoms[j].end, atoms[j + 1].start), " ,'\u2019")) j++;
      if (atoms.slice(i, j + 1).some(nameWord)) {
        names.push(strip(text.slice(atoms[i].start, atoms[j].end), " ,.?!:;'\u2019\"\u201c\u201d"));
        for (k = i; k <= j; k++) keep[k] = false;
      }
      i = j + 1;
    }
    // A question word inside one of the edition's terms ("its might") is the term; an entry
    // that only points to another ("If: See …") or is obsolete ("During (Obsolete)"), its
    // referral flag, is no term of its own.
    // A term of several words never ends on the verb of a yes/no question.
    // English idioms ("right away"): one unit each, read before the terms and question words.
    var idiomed = idiomsOf(atoms, keep, text, vocab, r.synonym_weight, labelEnd), idiomClauses = idiomed[0], dropped = idiomed[1];
    var verb = questionVerb(text, contextEnd, vocab);
    var at = [], run = [], inTerms = new Set(), own = new Map();
    terms.forEach(function (t, w) { if (!t.referral) own.set(w, t); });
    atoms.forEach(function (a, n) { if (keep[n]) { at.push(n); run.push(a); } });
    for (i = 0; i < run.length;) {
      var inside = termAt(run, i, own, verb);
      if (!inside) { i++; continue; }
      for (k = i; k < inside[0]; k++) inTerms.add(at[k]);
      i = inside[0];
    }
    var qw = toSet(vocab.question_words);
    atoms.forEach(function (a, n) {
      // A question word alone, or contracted ("what's", "I'm": Vocabulary.is_question_word).
      var contracted = a.kind === "phrase" && a.words.length === 2 && (vocab.contractions || []).indexOf(a.words[1]) >= 0;
      if (keep[n] && !inTerms.has(n) && (a.kind === "word" || contracted) && has(qw, a.words[0])) { keep[n] = false; dropped.push(a.text); }
    });
    var kept = atoms.filter(function (_, n) { return keep[n]; });
    if (!kept.length && !idiomClauses.length) return parsed;
    var stems = kept.map(function (a) { return analyse(a.words.join(" ")); });
    var asked = new Set();  // every stem the question holds (understand: asked)
    stems.forEach(function (row) { row.forEach(function (st) { asked.add(st); }); });
    var clauses = [];
    i = 0;
    while (i < kept.length) {
      var found = termAt(kept, i, own, verb);  // an obsolete entry or a referral is no term
      // A term that is also a plain word is the term only beside a word of its sense (in_sense).
      if (found && !inSense([].concat.apply([], stems.slice(i, found[0])), vocab.senses || [], asked)) found = null;
      if (found) {
        var ta = joinAtom(text, kept.slice(i, found[0]));
        // A term the question words hold ("might") weighs as a word does.
        var common = ta.words.every(function (w) { return has(qw, w); });
        clauses.push(clause([ta], {weight: common ? 1.0 : r.term_weight, origin: "term",
                                   label: strip(ta.text, " ,.?!;:") + " (" + (found[1].kind || "term") + ")"}));
        i = found[0];
        continue;
      }
      var entry = entryAt(stems, i, vocab);
      // A players' word in another sense than the entry's ("my unit lands there": Entry.only_with).
      if (entry && (entry[0].only_with || []).length && !entry[0].only_with.some(function (st) { return asked.has(st); })) entry = null;
      // Another thing's word right before it ("my rune deck is out": Entry.not_after).
      if (entry && i > 0 && (entry[0].not_after || []).some(function (st) { return stems[i - 1].indexOf(st) >= 0; })) entry = null;
      if (entry) {
        var va = joinAtom(text, kept.slice(i, entry[1]));
        var rules = entry[0].rules.map(function (x) { return new Atom(x.words.length > 1 ? "phrase" : "word", x.text, x.words, [], 0, 0); });
        clauses.push(clause([va].concat(rules), {origin: "vocabulary", label: strip(va.text, " ,.?!;:"),
                                                  alternative_weight: r.synonym_weight}));
        i = entry[1];
        continue;
      }
      clauses.push(clause([kept[i]]));
      i++;
    }
    if (idiomClauses.length) {  // in the question's order
      clauses = clauses.concat(idiomClauses).sort(function (x, y) { return x.atoms[0].start - y.atoms[0].start; });
    }
    clauses.forEach(function (c) {
      var start = c.atoms[0].start;
      if (contextEnd && start < contextEnd) c.weight *= r.context_weight;
      else if (origin(c) !== "shape" && quotes.some(function (q) { return q[0] <= start && start < q[1]; })) c.weight *= r.quote_weight;
      // A concept naming a participant ("my opponent") weighs r.participant_weight (understand.is_participant).
      if (r.participant_weight !== undefined && r.participant_weight !== 1 && isParticipant(c.atoms[0], vocab)) c.weight *= r.participant_weight;
    });
    var body = text.replace(/^\s*\[[^\]]*\]\s*/, ""), shape = null;
    for (k = 0; k < vocab.shapes.length; k++) {
      if (new RegExp(vocab.shapes[k].pattern, "i").test(body)) { shape = vocab.shapes[k]; break; }
    }
    if (shape && shape.rules.length) {
      clauses.push(clause(shape.rules.map(function (x) { return new Atom(x.words.length > 1 ? "phrase" : "word", x.text, x.words, [], 0, 0); }),
                          {weight: r.shape_weight, origin: "shape", label: "'" + shape.name + "'"}));
    }
    // Situations told without their name (understand: vocab.situations), each one that matches.
    (r.situation_weight ? vocab.situations || [] : []).forEach(function (sit) {
      if (!new RegExp(sit.pattern, "i").test(body)) return;
      clauses.push(clause(sit.rules.map(function (x) { return new Atom(x.words.length > 1 ? "phrase" : "word", x.text, x.words, [], 0, 0); }),
                          {weight: r.situation_weight, origin: "shape", label: "'" + sit.name + "'"}));
    });
    if (r.named_once) clauses = namedOnceOnly(clauses);
    return Object.assign({}, parsed, {clauses: clauses, dropped: parsed.dropped.concat(dropped), names: names,
                                      shape: shape ? shape.name : null, question: true});
  }
  function labelOf(c) {
    return c.label || strip(c.atoms.map(function (a) { return a.text; }).join(" "), " ,.?!;:");
  }
  function matchedOf(parts, d) {
    if (d === undefined) return [];
    var out = [];
    parts.forEach(function (p) {
      var c = p[0], alts = p[1];
      if (origin(c) === "typed") { if (alts.some(function (m) { return m.has(d); })) out.push(labelOf(c)); return; }
      var found = c.atoms.filter(function (_, n) { return alts[n].has(d); });
      if (!found.length) return;
      var texts = found.map(function (a) { return a.text; }).join(", ");
      if (origin(c) === "vocabulary" && found[0] !== c.atoms[0]) out.push(labelOf(c) + " \u2192 " + texts);
      else if (origin(c) === "shape" || (origin(c) === "kind" && found[0] !== c.atoms[0])) out.push(c.label + " \u2192 " + texts);
      else out.push(labelOf(c));
    });
    return out;
  }

  // -- one edition's search (kb/search/searcher.py, kb/search/scoring.py) -------------
  var NUMBER_WORDS = table(D.search.number_words);  /* a digit's stem ↔ its spelled-out word's */
  var MAX_LIMIT = D.search.max_limit, MAX_OFFSET = D.search.max_offset, MAX_PREFIX_WORDS = D.search.max_prefix_words;
  var KINDS = table(D.search.kinds);
  var REASONS = D.search.reasons;  /* kb.search.searcher: TIMING_MODEL_REASON, SECTION_REASON, SUMMARY_JOINER, DEFINITION_REASON */

  function Edition(data) {
    addStems(data.stem_of);
    this.data = data;
    this.ruleset = data.ruleset; this.edition = data.edition; this.style = data.style;
    this.ranking = data.ranking;
    this.kindLists = table(data.kind_lists || {});  /* kinds_of: a kind's stems → its headings */
    this.referring = [];  /* the rules that refer to any (EditionSearcher._referring) */
    (data.refers || []).forEach(function (targets, d) { if (targets.length) this.referring.push(d); }, this);
    this.permits = new Set(data.permissions || []);  /* model_permissions: the rules legality checks cite */
    this.definingCache = new Map();  /* EditionSearcher._defining_docs, by term */
    this.numbers = data.numbers;
    this.parents = data.parents;
    this.children = data.numbers.map(function () { return []; });
    this.keys = new Map();
    this.sortedKeys = [];
    for (var d = 0; d < data.numbers.length; d++) {
      if (data.parents[d] >= 0) this.children[data.parents[d]].push(d);
      var segs = parseNumber(data.numbers[d]);
      this.keys.set(keyOf(segs), d);
      this.sortedKeys.push(segs);
    }
    this.sortedKeys.sort(compareSegs);
    this.docOf = new Map(data.numbers.map(function (n, i) { return [n, i]; }));
    this.stemId = new Map(data.stems.map(function (s, i) { return [s, i]; }));
    this.cache = new Map();
    this.speller = new Speller(data.words, data.counts, data.known, data.english, data.lemmas, data.closed_up);
    this.terms = new Map();
    var self = this;
    data.terms.forEach(function (t) { self.terms.set(t.match, t); });
    /* EditionSearcher.keyword_definitions: a keyword → its definition's [stem, word] pairs */
    this.definitions = new Map(Object.entries(data.keyword_definitions || {}));
    this.vocab = data.vocabulary || {question_words: [], entries: [], shapes: []};
  }

  /* Impacts.word: BM25F score of every rule with this stem (a Map doc → score). */
  Edition.prototype.word = function (s) {
    var found = this.cache.get(s);
    if (found) return found;
    found = new Map();
    var id = this.stemId.get(s);
    if (id !== undefined) {
      var p = this.data.postings[id], half = p.length / 2, d = 0;
      for (var i = 0; i < half; i++) { d += p[i]; found.set(d, p[half + i]); }
    }
    this.cache.set(s, found);
    return found;
  };
  /* Impacts.prefix: the best score per rule of any stem starting so (64 at most). */
  Edition.prototype.prefix = function (prefix) {
    var ws = [], seen = Object.create(null), stems = this.data.stems, bits = this.data.stem_fields;
    for (var f = 0; f < this.data.fields.length; f++) {
      for (var i = 0; i < stems.length; i++) {
        if (!(bits[i] & (1 << f)) || !stems[i].startsWith(prefix)) continue;
        if (!has(seen, stems[i])) { seen[stems[i]] = true; ws.push(stems[i]); }
        if (ws.length >= MAX_PREFIX_WORDS) break;
      }
    }
    var out = new Map(), self = this;
    ws.forEach(function (w) {
      self.word(w).forEach(function (s, d) { if (s > (out.get(d) || 0)) out.set(d, s); });
    });
    return out;
  };
  Edition.prototype.tokens = function (d) { return this.data.tokens[d]; };
  Edition.prototype.idOf = function (s) { var id = this.stemId.get(s); return id === undefined ? -3 : id; };
  /* Impacts.phrase: rules with these stems next to each other. */
  Edition.prototype.phrase = function (stems) {
    var self = this, parts = stems.map(function (s) { return self.word(s); });
    if (!parts.length || parts.some(function (p) { return !p.size; })) return new Map();
    var smallest = parts[0];
    parts.forEach(function (p) { if (p.size < smallest.size) smallest = p; });
    var ids = stems.map(function (s) { return self.idOf(s); }), out = new Map();
    smallest.forEach(function (_, d) {
      if (!parts.every(function (p) { return p.has(d); })) return;
      if (!contains(self.tokens(d), ids)) return;
      var sum = 0;
      parts.forEach(function (p) { sum += p.get(d); });
      out.set(d, sum);
    });
    return out;
  };
  function contains(tokens, ids) {
    outer: for (var i = 0; i <= tokens.length - ids.length; i++) {
      for (var k = 0; k < ids.length; k++) if (tokens[i + k] !== ids[k]) continue outer;
      return true;
    }
    return false;
  }
  function near(tokens, a, b, slop) {
    var lastA = -1e6;
    for (var i = 0; i < tokens.length; i++) {
      if (tokens[i] === a) lastA = i;
      else if (tokens[i] === b && i - lastA > 0 && i - lastA <= slop) return true;
    }
    return false;
  }
  function union(parts) {
    var out = new Map();
    parts.forEach(function (p) { p.forEach(function (s, d) { out.set(d, (out.get(d) || 0) + s); }); });
    return out;
  }
  function bestOf(a, b) {
    var out = new Map(a);
    b.forEach(function (s, d) { if (s > (out.get(d) || 0)) out.set(d, s); });
    return out;
  }
  /* heapq.nlargest over (score, -doc): best score first, lower document number on ties. */
  function largest(entries, n) {
    entries.sort(function (x, y) { return y[1] - x[1] || x[0] - y[0]; });
    return entries.slice(0, n);
  }

  Edition.prototype.find = function (segs) { var d = this.keys.get(keyOf(segs)); return d === undefined ? null : this.numbers[d]; };
  Edition.prototype.ancestors = function (number) {
    var out = [], p = this.parents[this.docOf.get(number)];
    while (p >= 0) { out.push(this.numbers[p]); p = this.parents[p]; }
    return out.reverse();
  };
  Edition.prototype.subtree = function (number) {
    var out = [], self = this;
    (function walk(d) { out.push(self.numbers[d]); self.children[d].forEach(walk); })(this.docOf.get(number));
    return out;
  };
  Edition.prototype.nearest = function (segs, limit) {
    limit = limit || 5;
    var keys = this.sortedKeys, lo = 0, hi = keys.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (compareSegs(keys[mid], segs) < 0) lo = mid + 1; else hi = mid; }
    var i = lo, window = [];
    for (var k = Math.max(0, i - limit); k < Math.min(keys.length, i + limit); k++) window.push(k);
    function common(a) { var n = 0; while (n < a.length && n < segs.length && sameSeg(a[n], segs[n])) n++; return n; }
    window.sort(function (x, y) { return common(keys[y]) - common(keys[x]) || Math.abs(x - i) - Math.abs(y - i); });
    var self = this;
    return window.slice(0, limit).map(function (k) { return self.find(keys[k]); });
  };
  Edition.prototype.inside = function (number, within) {
    if (!within.length) return true;
    var chain = this.ancestors(number).concat([number]);
    return within.some(function (w) { return chain.indexOf(w) >= 0; });
  };
  Edition.prototype.docsWithin = function (within) {
    var docs = new Set(), self = this;
    within.forEach(function (w) { self.subtree(w).forEach(function (n) { docs.add(self.docOf.get(n)); }); });
    return docs;
  };

  /* EditionSearcher.search: the API's search answer for a parsed query. */
  Edition.prototype.search = function (parsed, options) {
    options = options || {};
    var limit = options.limit === undefined ? 10 : options.limit, offset = options.offset || 0;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new SearchError(say("limit_out_of_range", {max_limit: MAX_LIMIT}), {limit: limit});
    if (!(offset >= 0 && offset <= MAX_OFFSET)) throw new SearchError(say("offset_out_of_range", {max_offset: MAX_OFFSET}), {offset: offset});
    var self = this;
    var within = this.sectionsOf(parsed.sections.concat((options.sections || []).map(function (s) { return [s, null]; })));
    var split = this.splitCompounds(parsed);
    parsed = split[0];
    if (this.ranking.understand) {
      parsed = understand(parsed, this.vocab, function (s) { return self.word(s).size; }, this.terms, this.ranking);
    }
    var fixed = this.correct(parsed, split[1]), corrected = fixed[0], understood = null;
    if (this.ranking.kind_weight && corrected.question) corrected = this.withKinds(corrected);
    if (parsed.clauses.some(function (c) { return origin(c) !== "typed"; }) || (parsed.names || []).length || parsed.shape ||
        (parsed.cut || []).length || (parsed.unread || []).length) {
      // The pack ships no card list (cards are the user's own, kept in the data home): no cards.
      understood = {names: parsed.names || [], cards: [], shape: parsed.shape || null,
                    concepts: corrected.clauses.filter(function (c) { return c.mode !== "not"; }).map(labelOf),
                    cut: parsed.cut || [], unread: parsed.unread || []};
    }
    var out = {query: parsed.text, ruleset: this.ruleset, edition: this.edition, total: 0, offset: offset,
               limit: limit, did_you_mean: fixed[1], jump: null, term: null, understood: understood, results: []};
    var found = [], missing = [];
    numberAtoms(corrected).forEach(function (a) {
      var n = self.find(a.segments);
      if (n === null) missing.push(a); else if (found.indexOf(n) < 0) found.push(n);
    });
    if (onlyNumbers(corrected)) {
      if (missing.length && !found.length) {
        // The numbers its digits and letters re-dot into first (3.3.7.1.a → 337.1.a), as the lookup's nearest.
        out.did_you_mean = this.numbers.length ? (redottedNumbers(missing[0].segments, this.find.bind(this), 1)[0] ||
                                                  (this.lastRuleBefore(missing[0].segments) === null
                                                    ? this.nearest(missing[0].segments, 1)[0] : null) || null) : null;
        return out;
      }
      var listing = (found.length === 1 ? this.subtree(found[0]) : found).filter(function (n) { return self.inside(n, within); });
      out.jump = found.length === 1 ? found[0] : null;
      out.total = listing.length;
      out.results = listing.slice(offset, offset + limit).map(function (n) { return self.result(n, 0, "number", null); });
      return out;
    }
    var term = this.ranking.pin_terms ? this.termOf(corrected) : null;
    if (term) out.term = {term: term.name, kind: term.kind, definition: term.definition, defined_by: term.defined_by};
    var referred = new Map(), together = new Map(), gathered = new Map(), defined = [];
    var scored = this.scores(corrected, missing, within, referred, together, gathered, defined), scores = scored[0], parts = scored[1];
    // The server's search with its rulings (KnowledgeBase.search, rulings=True); rulings false: the rules alone.
    var ruled = options.rulings === false ? new Map() : this.evidence(this.rulingEvidence(corrected), scores, within, corrected);
    var wanted = offset + limit + found.length + (term ? term.defined_by.length : 0);
    var best = largest(Array.from(scores.entries()), wanted);
    var hits = best.map(function (e) { return [self.numbers[e[0]], e[1]]; });
    var score = new Map(hits), top = hits.length ? hits[0][1] : 0;
    var pinnedNumbers = found.filter(function (n) { return self.inside(n, within); });
    var pinnedTerms = (term ? term.defined_by : []).filter(function (n) { return self.inside(n, within); });
    pinnedTerms.sort(function (a, b) { return self.docOf.get(a) - self.docOf.get(b); });
    var ranked = [], seen = new Set();
    pinnedNumbers.map(function (n) { return [n, "number"]; }).concat(pinnedTerms.map(function (n) { return [n, "term"]; }))
      .forEach(function (p) {
        if (!seen.has(p[0])) { ranked.push([p[0], Math.max(top, score.get(p[0]) || 0), p[1]]); seen.add(p[0]); }
      });
    var extra = 0;
    seen.forEach(function (n) { if (!scores.has(self.docOf.get(n))) extra++; });
    hits.forEach(function (h) { if (!seen.has(h[0])) { ranked.push([h[0], h[1], "words"]); seen.add(h[0]); } });
    var marks = this.marks(corrected), prior = this.shapePrior(corrected);
    var permission = this.ranking.permission_weight && prior === "permission";
    var defining = this.ranking.defining_weight && prior === "definition" ? this.defining(corrected) : new Map();
    out.total = scores.size + extra;
    var told = new Set();  // the timing model's summaries a hit above already said
    out.results = ranked.slice(offset, offset + limit).map(function (r) {
      var d = self.docOf.get(r[0]), matched = self.conceptsHeld(parts, d, scores);
      if (referred.has(d) && scores.has(d)) matched.push("referred to by " + self.numbers[referred.get(d)]);
      if (ruled.has(d)) matched.push.apply(matched, ruled.get(d));
      if (permission && self.permits.has(d) && scores.has(d)) {
        matched.push("'" + corrected.shape + "' \u2192 says when a player may act (a legality check of the timing model cites it)");
      }
      if (defining.has(d) && scores.has(d)) matched.push("'" + corrected.shape + "' \u2192 " + REASONS.defining + defining.get(d).join(", "));
      if (together.has(d) && scores.has(d)) matched.push("one statement holds: " + together.get(d).join(", "));
      if (gathered.has(d) && scores.has(d)) matched.push(REASONS.section + gathered.get(d).join(", "));
      var said = defined.length && scores.has(d) ? self.definitionReason(defined, d) : null;
      if (said) matched.push(said);
      return self.result(r[0], r[1], r[2], marks, matched, told);
    });
    return out;
  };

  // -- earlier rulings as evidence (kb/records/search.py, kb/export/rulings.py) -------------
  var RULINGS = D.rulings, RULING_STOP = toSet(RULINGS.stop_words);

  /* kb.records.search.words: a text's terms as the ruling index holds them (whoosh's stemmer). */
  function rulingWords(text) {
    return (text.toLowerCase().match(pattern(RULINGS.word, "g")) || [])
      .filter(function (w) { return !has(RULING_STOP, w); }).map(porter);
  }

  /* kb.records.search.asked_words: the words typed, the player's words the rules have words
     for and the terms named, not the words excluded nor those a shape or a card brought in. */
  function askedWords(parsed) {
    var out = [];
    parsed.clauses.forEach(function (c) {
      var o = origin(c);
      if (c.mode === "not" || (o !== "typed" && o !== "term" && o !== "vocabulary")) return;
      (o === "typed" ? c.atoms : c.atoms.slice(0, 1)).forEach(function (a) { out.push.apply(out, a.words); });
    });
    return out.join(" ");
  }

  /* kb.records.search.ruling_evidence for the edition's index: the rules the best rulings for the
     question cite, each [number, strength, reason], a rule several cite keeping its strongest.
     A ruling's BM25 score is the sum, in the question's order, of its terms' float32 scores. */
  Edition.prototype.rulingEvidence = function (parsed) {
    var rulings = this.data.rulings, query = askedWords(parsed);
    if (!rulings || !rulings.length || !query.trim() || query.length > MAX_QUERY_CHARS) return [];
    var terms = rulingWords(query);
    if (!terms.length) return [];
    var hits = [];
    rulings.forEach(function (r, i) {
      var score = 0;
      terms.forEach(function (t) { if (has(r.terms, t)) score = Math.fround(score + r.terms[t]); });
      if (score > 0) hits.push([i, Number(score.toFixed(4))]);
    });
    hits.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    var found = new Map();
    hits.slice(0, RULINGS.limit).forEach(function (h) {
      var r = rulings[h[0]], strength = r.own ? Math.min(1, h[1] / r.own) : 0;
      if (strength <= 0) return;
      r.cited.forEach(function (n) {
        if (!found.has(n) || found.get(n)[1] < strength) found.set(n, [n, strength, r.reason]);
      });
    });
    return Array.from(found.values());
  };

  /* EditionSearcher._evidence: rank up the rules an evidence source names (in scores) and say
     why, per document; a query requiring or excluding words, or quoting a phrase, keeps its
     word: evidence then only ranks up rules that already match it. */
  Edition.prototype.evidence = function (found, scores, within, parsed) {
    var top = 0, self = this, reasons = new Map();
    scores.forEach(function (s) { top = Math.max(top, s); });
    top = scores.size ? (top || 1) : 1;
    var allowed = within.length ? this.docsWithin(within) : null;
    var strict = parsed.clauses.some(function (c) {
      return c.mode === "must" || c.mode === "not" || c.atoms.some(function (a) { return a.kind === "phrase"; });
    });
    found.forEach(function (e) {
      var d = self.docOf.get(e[0]);
      if (d === undefined || (allowed !== null && !allowed.has(d)) || (strict && !scores.has(d))) return;
      var strength = Math.min(1, Math.max(0, e[1]));
      scores.set(d, (scores.get(d) || 0) + self.ranking.evidence_weight * strength * top);
      if (!reasons.has(d)) reasons.set(d, []);
      reasons.get(d).push(e[2]);
    });
    return reasons;
  };

  /* EditionSearcher._concepts_held: a hit's concepts; for one holding none itself (lifted by the
     roll-up), those its best matching child holds (highest score, first in document order). */
  Edition.prototype.conceptsHeld = function (parts, d, scores) {
    var own = matchedOf(parts, d);
    if (own.length || d === undefined || !scores.has(d)) return own;
    var best = null;
    this.children[d].forEach(function (c) {
      if (scores.has(c) && (best === null || scores.get(c) > best[0])) {
        var held = matchedOf(parts, c);
        if (held.length) best = [scores.get(c), c, held];
      }
    });
    if (best === null) return own;
    return [REASONS.lifted.replace("{number}", this.numbers[best[1]]) + best[2].join(", ")];
  };

  Edition.prototype.sectionsOf = function (wanted) {
    var self = this;
    return wanted.map(function (w) {
      var segs = w[1];
      if (!segs || !segs.length) {
        segs = tryParseNumber(w[0]);
        if (!segs) throw new SearchError(say("section_needs_number", {value: w[0].slice(0, 40)}), {section: w[0].slice(0, 64)});
      }
      var n = self.find(segs);
      if (n === null) {
        var number = formatNumber(segs, self.style);
        throw new SearchError(say("no_section", {number: number, ruleset: self.ruleset, edition: self.edition}),
                              {section: number, nearest: self.nearest(segs)}, 404);
      }
      return n;
    });
  };

  Edition.prototype.termOf = function (parsed) {
    var cs = parsed.clauses.filter(function (c) { return origin(c) !== "shape"; });
    if (!cs.length || !cs.every(function (c) {
      return c.mode === "should" && (c.atoms[0].kind === "word" || c.atoms[0].kind === "phrase") &&
        (c.atoms.length === 1 || origin(c) === "vocabulary" || origin(c) === "kind");
    })) return null;
    var ws = [];
    cs.forEach(function (c) { ws.push.apply(ws, c.atoms[0].words); });
    ws = ws.join(" ").split(/\s+/).filter(Boolean);
    var candidates = [ws];
    if (ws.length && ws[ws.length - 1].endsWith("s")) candidates.push(ws.slice(0, -1).concat([ws[ws.length - 1].slice(0, -1)]));
    candidates.push(ws.length ? ws.slice(0, -1).concat([ws[ws.length - 1] + "s"]) : []);
    // A players' phrase alone ("the stack") is the term its rules' words name ("chain").
    if (cs.length === 1 && origin(cs[0]) === "vocabulary") {
      cs[0].atoms.slice(1).forEach(function (a) { candidates.push(a.words); });
    }
    for (var i = 0; i < candidates.length; i++) {
      var t = this.terms.get(candidates[i].join(" "));
      if (t && t.see) t = this.terms.get(t.see) || t;  // a plain alias ("if"): the entry it sends to
      if (t && t.defined_by.length) return t;
    }
    return null;
  };

  function sameCase(original, fixed) {
    if (fixed === undefined || fixed === null) return original;
    var upper = original.toUpperCase() === original && original.toLowerCase() !== original;
    if (upper && Array.from(original).length > 1) return fixed.toUpperCase();
    var first = original.slice(0, 1);
    if (first.toUpperCase() === first && first.toLowerCase() !== first) return fixed.slice(0, 1).toUpperCase() + fixed.slice(1);
    return fixed;
  }

  /* kb.search.spelling.abbreviations: the words typed as abbreviations ("ETB"), lower case. */
  var ABBREVIATION = new RegExp("^(?:" + D.spelling.abbreviation.source + ")$", D.spelling.abbreviation.flags);
  function abbreviations(typed) {
    var out = Object.create(null);
    words(typed).forEach(function (w) { if (ABBREVIATION.test(w)) out[w.toLowerCase()] = true; });
    return out;
  }

  /* EditionSearcher._split_compounds: a typed word no rule uses that is a closed-up compound of
     the rules' words reads as those words ("quickdraw" as quick-draw, "doublestrike" as the
     keyword double strike), before the question is read; [query, each split's [start, end, shown]]. */
  Edition.prototype.splitCompounds = function (parsed) {
    var self = this, spans = [];
    var clauses = parsed.clauses.map(function (c) {
      var changed = false, atoms = c.atoms.map(function (a) {
        if (c.mode === "not" || origin(c) !== "typed" || a.kind !== "word" || a.words.length !== 1 ||
            has(abbreviations(a.text), a.words[0])) return a;
        var found = self.compound(a.words[0]);
        if (!found) return a;
        changed = true;
        spans.push([a.start, a.end, found[1]]);
        return new Atom("phrase", a.text, found[0], a.segments, a.start, a.end);
      });
      return changed ? Object.assign({}, c, {atoms: atoms}) : c;
    });
    if (!spans.length) return [parsed, spans];
    return [Object.assign({}, parsed, {clauses: clauses}), spans];
  };
  /* EditionSearcher._compound: the rules' hyphenated word with its letters, else the first cut
     into two words naming a term or keyword: [words, as the rules write them], or null. */
  Edition.prototype.compound = function (word) {
    var hyphenated = has(this.speller.closedUp, word) ? this.speller.closedUp[word] : null, readings = this.speller.splits(word);
    for (var i = 0; i < readings.length; i++) {
      var words = readings[i];
      if (hyphenated !== null && words.join("-") === hyphenated) return [words, hyphenated];
      if (this.terms.has(words.join(" "))) return [words, words.join(" ")];
    }
    return null;
  };

  Edition.prototype.correct = function (parsed, splits) {
    var fixes = Object.create(null), any = false, self = this, kept = [];
    parsed.clauses.forEach(function (c) {
      if (c.mode === "not" || origin(c) !== "typed") return;
      c.atoms.forEach(function (a) {
        if (a.kind !== "word" && a.kind !== "phrase") return;
        var short = abbreviations(a.text), found = Object.create(null), some = false;  // "ETB" is no slip of "ETC"
        a.words.forEach(function (w) {
          if (has(short, w)) return;
          var s = self.speller.suggest(w);
          if (s && s !== w) { found[w] = s; some = true; }
        });
        if (!some) return;
        // A correction is offered only when it finds a rule (EditionSearcher._correct).
        var fixed = a.words.map(function (w) { return has(found, w) ? found[w] : w; });
        if (!self.atomScores(new Atom(a.kind, a.text, fixed, a.segments, a.start, a.end)).size) { kept.push(a); return; }
        Object.keys(found).forEach(function (w) { fixes[w] = found[w]; });
        any = true;
      });
    });
    if (!any && !(splits || []).length) return [parsed, null];
    function touched(a) { return kept.indexOf(a) < 0 && a.words.some(function (w) { return has(fixes, w); }); }
    function fixedText(t) {
      return t.replace(wordRe(), function (m) { var low = m.toLowerCase(); return sameCase(m, has(fixes, low) ? fixes[low] : null); });
    }
    var clauses = parsed.clauses.map(function (c) {
      var changed = false, atoms = c.atoms.map(function (a) {
        if (touched(a) && (a.kind === "word" || a.kind === "phrase") && origin(c) === "typed") {
          changed = true;
          return new Atom(a.kind, a.text, a.words.map(function (w) { return has(fixes, w) ? fixes[w] : w; }), a.segments, a.start, a.end);
        }
        return a;
      });
      var label = c.label;
      if (changed && !label) {  // "priority (read from 'priorty')", as EditionSearcher._correct says it
        label = strip(c.atoms.map(function (a) { return fixedText(a.text); }).join(" "), " ,.?!;:") +
          " (read from '" + labelOf(c) + "')";
      }
      return Object.assign({}, c, {atoms: atoms, label: label});
    });
    var text = parsed.text, edits = (splits || []).map(function (sp) { return [sp[0], sp[1], sameCase(text.slice(sp[0], sp[1]), sp[2])]; });
    parsed.clauses.forEach(function (c) {
      if (origin(c) !== "typed") return;
      c.atoms.forEach(function (a) {
        if ((a.kind === "word" || a.kind === "phrase") && touched(a)) {
          edits.push([a.start, a.end, text.slice(a.start, a.end).replace(wordRe(), function (m) {
            var low = m.toLowerCase();
            return sameCase(m, has(fixes, low) ? fixes[low] : null);
          })]);
        }
      });
    });
    edits.sort(function (x, y) { return y[0] - x[0]; }).forEach(function (e) { text = text.slice(0, e[0]) + e[2] + text.slice(e[1]); });
    var copy = Object.assign({}, parsed, {clauses: clauses});
    return [copy, text];
  };

  /* EditionSearcher._with_kinds: a concept the rules list as one kind of a heading
     (kinds_of: "Banishments" under "Non-Board Zones") also matches the heading's words. */
  Edition.prototype.withKinds = function (parsed) {
    var kinds = this.kindLists, w = this.ranking.kind_weight;
    var clauses = parsed.clauses.map(function (c) {
      var a = c.atoms[0];
      if (c.mode !== "should" || c.atoms.length !== 1 || (origin(c) !== "typed" && origin(c) !== "term") ||
          (a.kind !== "word" && a.kind !== "phrase")) return c;
      var key = analyse(a.words.join(" ")).join(" ");
      if (!has(kinds, key)) return c;
      var atoms = kinds[key].map(function (x) { return new Atom(x.words.length > 1 ? "phrase" : "word", x.text, x.words, [], 0, 0); });
      return Object.assign({}, c, {atoms: [a].concat(atoms), origin: "kind", label: labelOf(c), alternative_weight: w});
    });
    return Object.assign({}, parsed, {clauses: clauses});
  };

  Edition.prototype.atomScores = function (a) {
    if (a.kind === "prefix") return this.prefix(a.words[0]);
    var ws = a.kind === "number" ? [formatNumber(a.segments, this.style)] : a.words, stems = [];
    ws.forEach(function (w) { stems.push.apply(stems, analyse(w)); });
    if (!stems.length) return new Map();
    if (stems.length === 1) {
      var other = NUMBER_WORDS[stems[0]];
      if (other === undefined) return this.word(stems[0]);
      return bestOf(this.word(stems[0]), this.word(other));
    }
    return this.phrase(stems);
  };

  /* EditionSearcher._scores: BM25F after AND, NOT, coordination, word pairs, sections. */
  Edition.prototype.scores = function (parsed, missing, within, referred, together, gathered, defined) {
    var should = [], must = [], nots = [], shouldStems = [], self = this, r = this.ranking, weights = [], parts = [], concepts = [], labels = [];
    var count = Math.max(1, this.numbers.length);
    parsed.clauses.forEach(function (c) {
      var alts = c.atoms.filter(function (a) { return a.kind !== "number" || missing.indexOf(a) >= 0; })
        .map(function (a) { return self.atomScores(a); });
      if (!alts.length) return;
      var part, weight = c.weight === undefined ? 1 : c.weight;
      if (origin(c) === "typed") part = alts.length === 1 ? alts[0] : union(alts);
      else {
        part = new Map(alts[0]);
        alts.slice(1).forEach(function (alt) {
          alt.forEach(function (sc, d) { sc *= c.alternative_weight; if (sc > (part.get(d) || 0)) part.set(d, sc); });
        });
      }
      if (weight !== 1) {
        var scaled = new Map();
        part.forEach(function (sc, d) { scaled.set(d, sc * weight); });
        part = scaled;
      }
      if (c.mode !== "not") parts.push([c, alts]);
      ({should: should, must: must, not: nots})[c.mode].push(part);
      if (c.mode === "should") {
        weights.push(r.idf_coverage ? weight * power(part.size ? Math.log(1 + count / part.size) : 0, r.idf_power) : 1);
        concepts.push(c.atoms.filter(function (a) { return a.kind === "word" || a.kind === "phrase"; })
          .map(function (a) { var out = []; a.words.forEach(function (w) { out.push.apply(out, analyse(w)); }); return out; }));
        labels.push(labelOf(c));
      }
      if (c.mode === "should" && c.atoms.length === 1 && c.atoms[0].kind === "word") shouldStems.push(stem(c.atoms[0].words[0]));
    });
    var total = new Map();
    if (must.length) {
      var smallest = must[0];
      must.forEach(function (p) { if (p.size < smallest.size) smallest = p; });
      smallest.forEach(function (_, d) {
        if (!must.every(function (p) { return p.has(d); })) return;
        var sum = 0;
        must.forEach(function (p) { sum += p.get(d); });
        total.set(d, sum);
      });
      should.forEach(function (p) { p.forEach(function (s, d) { if (total.has(d)) total.set(d, total.get(d) + s); }); });
    } else if (should.length) {
      var hits = new Map(), whole = 0;
      should.forEach(function (p, n) {
        p.forEach(function (s, d) { total.set(d, (total.get(d) || 0) + s); hits.set(d, (hits.get(d) || 0) + weights[n]); });
      });
      weights.forEach(function (w) { whole += w; });
      // A long question's coordination is softer (Ranking.coord_long): no rule has all its concepts.
      var coord = parsed.question && should.length >= r.long_question ? r.coord_long : r.coord;
      if (should.length > 1 && coord && whole > 0) {
        total.forEach(function (s, d) { total.set(d, s * Math.pow(hits.get(d) / whole, coord)); });
      }
    }
    // A section whose rules between them hold more of the concepts than one alone (Ranking.from_section).
    var sections = new Map();
    if (r.from_section && parsed.question && total.size && should.length > 1 && !must.length) sections = this.sectionEvidence(should, weights, hits, coord);
    // A rule whose statement holds the question's concepts together (Ranking.statement_weight).
    if (r.statement_weight && parsed.question && total.size && concepts.length > 1) total = this.withStatements(total, concepts, weights, labels, together || new Map());
    // A "can I … when" question: the rules that say when a player may act (Ranking.permission_weight).
    var prior = this.shapePrior(parsed);
    if (r.permission_weight && total.size && prior === "permission") {
      var gain = 1 + r.permission_weight, permits = this.permits;
      total.forEach(function (s, d) { if (permits.has(d)) total.set(d, s * gain); });
    }
    // A question asking what a term means: the rules defining the terms it names (Ranking.defining_weight).
    if (r.defining_weight && total.size && prior === "definition") {
      var more = 1 + r.defining_weight, defining = this.defining(parsed);
      total.forEach(function (s, d) { if (defining.has(d)) total.set(d, s * more); });
    }
    // The words of the definition of a keyword the question names (Ranking.definition_weight).
    if (r.definition_weight && parsed.question && total.size) total = this.withDefinitions(total, parsed, defined || []);
    if ((r.from_parent || r.from_children) && parsed.question && total.size) total = this.rollUp(total);
    sections.forEach(function (e, p) {
      var sc = e[0] * r.from_section;
      if (sc > (total.get(p) || 0)) {
        total.set(p, sc);
        if (gathered) gathered.set(p, e[1].map(function (i) { return labels[i]; }));
      }
    });
    if (r.from_referrers && parsed.question && total.size) total = this.followReferences(total, referred || new Map());
    nots.forEach(function (p) { p.forEach(function (_, d) { total.delete(d); }); });
    if (within.length) {
      var allowed = this.docsWithin(within);
      total.forEach(function (_, d) { if (!allowed.has(d)) total.delete(d); });
    }
    if (r.term_scope && total.size) {
      var scope = this.termScope(parsed);
      if (scope.size) total.forEach(function (s, d) { if (scope.has(d)) total.set(d, s * (1 + r.term_scope)); });
    }
    var pairs = [];
    for (var i = 0; i + 1 < shouldStems.length; i++) {
      if (shouldStems[i] && shouldStems[i + 1]) pairs.push([this.idOf(shouldStems[i]), this.idOf(shouldStems[i + 1])]);
    }
    if (r.pair_boost && pairs.length && total.size) {
      var order = Array.from(total.entries());
      order.sort(function (x, y) { return y[1] - x[1]; });  // stable: ties keep their order
      order.slice(0, r.rerank).forEach(function (e) {
        var tokens = self.tokens(e[0]), close = 0;
        pairs.forEach(function (p) { if (near(tokens, p[0], p[1], r.pair_slop)) close++; });
        if (close) total.set(e[0], total.get(e[0]) * (1 + r.pair_boost * close / pairs.length));
      });
    }
    return [total, parts];
  };

  /* searcher._power: the same floats as the server for the small whole powers. */
  function power(x, p) {
    if (p === 1) return x;
    if (p === 2) return x * x;
    if (p === 3) return x * x * x;
    return Math.pow(x, p);
  }

  /* EditionSearcher._with_definitions: each matching rule gains definition_weight × the
     keyword's weight × the mean of its scores on the words of the definition of each keyword
     the question names (not the question's own words); defined gets each keyword applied. */
  Edition.prototype.withDefinitions = function (total, parsed, defined) {
    var out = new Map(total), self = this, asked = new Set();
    parsed.clauses.forEach(function (c) {
      c.atoms.forEach(function (a) {
        (a.words || []).forEach(function (w) { analyse(w).forEach(function (s) { asked.add(s); }); });
      });
    });
    parsed.clauses.forEach(function (c) {
      if (origin(c) !== "term" || c.mode !== "should") return;
      var match = c.atoms[0].words.join(" ");
      if (!self.definitions.has(match) && match.endsWith("s")) match = match.slice(0, -1);
      var found = self.definitions.get(match) || [];
      var said = found.filter(function (p) { return !asked.has(p[0]); });
      if (!said.length) return;
      var weight = c.weight === undefined ? 1 : c.weight;
      var share = self.ranking.definition_weight * weight / said.length, sums = self.definitionSums(match);
      // The question's own words in the definition are taken off the definition's sum.
      var minus = found.filter(function (p) { return asked.has(p[0]); }).map(function (p) { return self.word(p[0]); });
      function add(d) {
        var v = sums.get(d);
        minus.forEach(function (m) { v -= m.get(d) || 0; });
        out.set(d, out.get(d) + share * v);
      }
      if (total.size < sums.size) total.forEach(function (_, d) { if (sums.has(d)) add(d); });
      else sums.forEach(function (_, d) { if (out.has(d)) add(d); });
      defined.push([c, said, share, total]);
    });
    return out;
  };
  /* EditionSearcher._definition_sums: each rule's summed score on a keyword's definition's words. */
  Edition.prototype.definitionSums = function (match) {
    if (!this.definitionScores) this.definitionScores = new Map();
    var found = this.definitionScores.get(match), self = this;
    if (!found) {
      found = new Map();
      (this.definitions.get(match) || []).forEach(function (p) {
        self.word(p[0]).forEach(function (sc, d) { found.set(d, (found.get(d) || 0) + sc); });
      });
      this.definitionScores.set(match, found);
    }
    return found;
  };
  /* EditionSearcher._definition_reason: each keyword that gave the hit DEFINITION_SHOWN of its
     score, with the words of its definition that gave the most. */
  Edition.prototype.definitionReason = function (defined, d) {
    var labels = [], self = this;
    defined.forEach(function (e) {
      var c = e[0], said = e[1], share = e[2], before = e[3];
      if (!before.has(d)) return;
      var gains = [];
      said.forEach(function (p, k) { var sc = self.word(p[0]).get(d); if (sc !== undefined) gains.push([-share * sc, k, p[1]]); });
      if (!gains.length) return;
      gains.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
      var sum = 0;
      gains.forEach(function (g) { sum += g[0]; });
      if (-sum < REASONS.definition_shown * before.get(d)) return;
      labels.push(labelOf(c) + ": " + gains.slice(0, REASONS.definition_words_shown).map(function (g) { return g[2]; }).join(", "));
    });
    return labels.length ? REASONS.definition + labels.join("; ") : null;
  };

  /* EditionSearcher._with_statements: a rule whose statement in players' words or timing
     summary holds a share of the question's concepts together scores × (1 + w × that share). */
  Edition.prototype.withStatements = function (total, concepts, weights, labels, together) {
    var whole = 0;
    weights.forEach(function (w) { whole += w; });
    if (whole <= 0) return total;
    if (!this.statements) {  /* searcher._statement_index: made once, with each rule's first summary */
      var statements = this.statements = new Map(), firsts = this.firstSummary = new Map();
      var data = this.data, self = this, seen = Object.create(null);
      Object.keys(data.players || {}).concat(Object.keys(data.answers || {})).forEach(function (n) {
        if (seen[n] || !self.docOf.has(n)) return;
        seen[n] = true;
        var players = (data.players || {})[n] || [], said = players.concat((data.answers || {})[n] || []);
        statements.set(self.docOf.get(n), said.map(function (x) { return new Set(analyse(x)); }));
        firsts.set(self.docOf.get(n), players.length);
      });
    }
    var gain = this.ranking.statement_weight, out = new Map(total), held = this.statements;
    var firstSummary = this.firstSummary, shares = this.data.model_shares || {}, modelWords = this.ranking.model_words;
    // searcher._model_shares: each alternative's least share in a timing summary, once per query.
    var least = concepts.map(function (alternatives) {
      return alternatives.map(function (a) {
        var m = 1;
        if (modelWords) a.forEach(function (w) { m = Math.min(m, shares[w] === undefined ? 1 : shares[w]); });
        return m;
      });
    });
    total.forEach(function (s, d) {
      var sets = held.get(d);
      if (!sets) return;
      var best = 0, bestHeld = [];
      var players = firstSummary.get(d);
      sets.forEach(function (words, k) {
        var sum = 0, heldHere = [];
        concepts.forEach(function (alternatives, i) {
          // In a timing summary, a concept keeps its best alternative's share; in players' words, all of it.
          var share = -1;
          alternatives.forEach(function (a, j) {
            if (!a.length || !a.every(function (w) { return words.has(w); })) return;
            share = Math.max(share, k >= players ? least[i][j] : 1);
          });
          if (share >= 0) {
            sum += weights[i] * share;
            heldHere.push(i);
          }
        });
        // searcher.STATEMENT_TIE: statements holding weights this close hold as much (the first is said).
        if (sum > best + 1e-9) { best = sum; bestHeld = heldHere; }
      });
      if (best) {
        out.set(d, s * (1 + gain * best / whole));
        var named = [];
        bestHeld.forEach(function (i) { if (named.indexOf(labels[i]) < 0) named.push(labels[i]); });
        if (named.length > 1) together.set(d, named);
      }
    });
    return out;
  };

  /* EditionSearcher._roll_up: a rule's evidence shared with its parent and children. */
  /* EditionSearcher._shape_prior: "permission" (the question's shape asks whether a player may
     act), "definition" (what a term means) or "". */
  Edition.prototype.shapePrior = function (parsed) {
    if (!parsed.question) return "";
    var shape = this.vocab.shapes.find(function (s) { return s.name === parsed.shape; });
    return shape && shape.prior ? shape.prior : "";
  };

  /* EditionSearcher._defining: each document defining a term the question names (not the
     words its shape or a card brought in) → the terms' names. */
  Edition.prototype.defining = function (parsed) {
    var out = new Map(), self = this;
    var own = parsed.clauses.filter(function (c) { var o = origin(c); return o !== "shape" && o !== "card"; });
    this.namedTerms(own).forEach(function (t) {
      if (t.referral) return;
      self.definingDocs(t).forEach(function (d) {
        var names = out.get(d);
        if (!names) out.set(d, names = []);
        if (names.indexOf(t.name) < 0) names.push(t.name);
      });
    });
    return out;
  };

  /* EditionSearcher._defining_docs: a term's defining rules and the rules right under them, in
     document order, without a defining rule that only names the term (a heading). */
  Edition.prototype.definingDocs = function (t) {
    var found = this.definingCache.get(t.match);
    if (found) return found;
    var self = this, defining = new Set(), docs = new Set(), named = analyse(t.name).join(" ");
    t.defined_by.forEach(function (n) { if (self.docOf.has(n)) defining.add(self.docOf.get(n)); });
    defining.forEach(function (p) {
      self.children[p].forEach(function (c) { docs.add(c); });
      if (analyse(self.data.texts[p][0]).join(" ") !== named) docs.add(p);
    });
    found = Array.from(docs).sort(function (a, b) { return a - b; });
    this.definingCache.set(t.match, found);
    return found;
  };

  /* EditionSearcher._follow_references: a rule gains from_referrers of the best score among
     the rules that refer to it; referred gets that rule (on a tie, the first in document order). */
  Edition.prototype.followReferences = function (total, referred) {
    var share = this.ranking.from_referrers, refers = this.data.refers, out = new Map(total), best = new Map();
    this.referring.forEach(function (d) {  /* the few rules that refer to any, in document order */
      if (!total.has(d)) return;
      var gain = share * total.get(d);
      refers[d].forEach(function (t) {
        if (gain > (best.get(t) || 0) || (referred.has(t) && gain === best.get(t) && d < referred.get(t))) {
          best.set(t, gain);
          referred.set(t, d);
        }
      });
    });
    best.forEach(function (gain, t) { out.set(t, (total.get(t) || 0) + gain); });
    return out;
  };

  /* EditionSearcher._section_evidence: each section (a rule and its children) whose rules
     between them hold more of the question's concepts than any one of them alone: the sum of
     each concept's best score in it × (the weight it holds / the question's) ** coord. own:
     the weight of the concepts each matching rule holds (the coordination's hits). */
  Edition.prototype.sectionEvidence = function (should, weights, own, coord) {
    var parents = this.parents, members = new Map(), out = new Map(), whole = 0;
    own.forEach(function (_, d) { var p = parents[d]; if (p >= 0) members.set(p, (members.get(p) || 0) + 1); });
    members.forEach(function (n, d) { if (own.has(d)) members.set(d, n + 1); });
    var sections = new Set();
    members.forEach(function (n, p) { if (n >= 2) sections.add(p); });
    weights.forEach(function (w) { whole += w; });
    if (!sections.size || whole <= 0) return out;
    var best = new Map(), alone = new Map();
    should.forEach(function (part, i) {
      part.forEach(function (s, d) {
        [d, parents[d]].forEach(function (p) {
          if (!sections.has(p)) return;
          var row = best.get(p);
          if (!row) { row = new Map(); best.set(p, row); }
          if (s > (row.get(i) || 0)) row.set(i, s);
        });
      });
    });
    own.forEach(function (held, d) {
      [d, parents[d]].forEach(function (p) { if (sections.has(p) && held > (alone.get(p) || 0)) alone.set(p, held); });
    });
    best.forEach(function (row, p) {
      var held = 0, score = 0, which = [];
      row.forEach(function (_, i) { held += weights[i]; which.push(i); });
      if (!(held > (alone.get(p) || 0) + 1e-9)) return;
      row.forEach(function (s) { score += s; });
      out.set(p, [score * power(held / whole, coord), which]);
    });
    return out;
  };

  Edition.prototype.rollUp = function (total) {
    var r = this.ranking, parents = this.parents, out = new Map(total), bestChild = new Map();
    total.forEach(function (s, d) {
      var p = parents[d];
      if (p >= 0 && s > (bestChild.get(p) || 0)) bestChild.set(p, s);
    });
    if (r.from_children) bestChild.forEach(function (s, p) { out.set(p, (out.get(p) || 0) + r.from_children * s); });
    if (r.from_parent) {
      total.forEach(function (s, d) {
        var p = parents[d];
        if (p >= 0 && total.has(p)) out.set(d, out.get(d) + r.from_parent * total.get(p));
      });
    }
    return out;
  };

  Edition.prototype.termScope = function (parsed) {
    var docs = new Set(), self = this;
    this.namedTerms(parsed.clauses).forEach(function (t) {
      self.docsWithin(t.defined_by).forEach(function (d) { docs.add(d); });
    });
    return docs;
  };

  /* EditionSearcher._named_terms: the terms consecutive words of the clauses name (up to four
     words, the longest first; a plural read as its singular), in the order named. */
  Edition.prototype.namedTerms = function (clauses) {
    var ws = [], out = [], self = this;
    clauses.forEach(function (c) {
      if (c.mode === "not") return;
      c.atoms.forEach(function (a) { if (a.kind === "word" || a.kind === "phrase") ws.push.apply(ws, a.words); });
    });
    if (!this.termStems) {
      this.termStems = new Map();
      this.terms.forEach(function (t, match) {
        var stems = analyse(match).join(" ");
        if (stems && !self.termStems.has(stems)) self.termStems.set(stems, t);
      });
    }
    for (var i = 0; i < ws.length; i++) {
      for (var j = Math.min(ws.length, i + 4); j > i; j--) {
        var t = this.terms.get(ws.slice(i, j).join(" "));
        if (!t && j - i === 1 && ws[i].endsWith("s")) t = this.terms.get(ws[i].slice(0, -1));
        if (!t) t = this.termStems.get(analyse(ws.slice(i, j).join(" ")).join(" "));
        if (t) { out.push(t); break; }
      }
    }
    return out;
  };

  Edition.prototype.marks = function (parsed) {
    var stems = Object.create(null), prefixes = [];
    parsed.clauses.forEach(function (c) {
      if (c.mode === "not") return;
      c.atoms.forEach(function (a) {
        if (a.kind === "prefix") prefixes.push(a.words[0]);
        else a.words.forEach(function (w) { var s = stem(w); if (s) stems[s] = true; });
      });
    });
    return matcher(stems, prefixes);
  };

  Edition.prototype.breadcrumbs = function (number) {
    var self = this;
    return this.ancestors(number).map(function (a) { return {number: a, title: self.data.labels[self.docOf.get(a)]}; });
  };

  Edition.prototype.result = function (number, score, how, marks, matched, said) {
    var d = this.docOf.get(number), parts = this.data.texts[d].filter(Boolean);
    var text = parts.length ? parts[0] : "";
    if (marks && parts.length > 1 && !countMatches(text, marks)) {
      var bestCount = -1;
      parts.forEach(function (p) { var c = countMatches(p, marks); if (c > bestCount) { bestCount = c; text = p; } });
    }
    var m = marks || function () { return false; }, why = (matched || []).slice();
    if (marks) {  // the rule's statement in players' words, when the question's words are in it
      var players = this.data.players || {};
      (has(players, number) ? players[number] : []).forEach(function (p) {
        if (countMatches(p, marks)) why.push("in players' words: " + p);
      });
      var answers = this.data.answers || {};  // the timing model's summaries that matched too, as one reason
      // A summary a hit above already said (said) is not said again.
      var told = (has(answers, number) ? answers[number] : []).filter(function (a) {
        return countMatches(a, marks) && !(said && said.has(a));
      });
      if (said) told.forEach(function (a) { said.add(a); });
      if (told.length) why.push(REASONS.timing_model + told.join(REASONS.summary_joiner));
    }
    return {number: number, title: this.data.labels[d], excerpt: excerpt(text, m),
            excerpt_parts: excerptParts(text, m), score: Math.round(score * 10000) / 10000,
            breadcrumbs: this.breadcrumbs(number), kind: KINDS[this.data.kinds[d]] || "rule",
            match: how, matched: why, page: this.data.pages[d]};
  };

  // -- rule numbers as judges type them (kb/numbers.py, kb/references.py, kb/query.py) --------
  var N = D.numbers, REFS = D.references, ASKED = D.numbers_asked;

  /* kb.numbers.parse_lookup_number: what a lookup reads beyond parse_number. */
  function parseLookupNumber(text) {
    var refused;
    try { return parseNumber(text); } catch (e) { if (!(e instanceof NumberError)) throw e; refused = e; }
    var loose = text.trim().replace(pattern(N.paren_segment, "g"), ".$1");
    var spaced = pattern(N.spaced_letter).exec(loose);
    if (spaced) loose = spaced[1] + "." + spaced[2];
    var segs = loose !== text.trim() ? tryParseNumber(loose) : null;
    if (segs !== null) return segs;
    var long = pattern(N.long_head).exec(loose.replace(/^[\[\]()]+|[\[\]()]+$/g, "").replace(PREFIX, "").trim());
    if (!long) throw refused;
    return [long[1]].concat(long[2].match(pattern(N.segment, "g")) || []).map(function (s) { return s.toLowerCase(); });
  }

  function tryParseLookupNumber(text) {
    try { return parseLookupNumber(text); } catch (e) { if (e instanceof NumberError) return null; throw e; }
  }

  /* kb.numbers.loose_segments: a number typed with stray separators (3371a, 337..1a), or null. */
  function looseSegments(text) {
    if (text.length > 64) return null;
    var body = text.trim().replace(/^[\[\]()]+|[\[\]()]+$/g, "").replace(PREFIX, "").trim();
    var tokens = Array.from(body.matchAll(pattern(N.loose_token, "g")));
    if (!tokens.length || !tokens[0][1]) return null;
    var segs = [], spaced = false;
    for (var i = 0; i < tokens.length; i++) {
      var t = tokens[i];
      if (t[4]) return null;
      if (t[1]) segs.push(t[1]);
      else if (t[2]) {
        if (t[2].length > 2 || (t[2].length === 2 && spaced)) return null;
        segs.push(t[2].toLowerCase());
      }
      spaced = !!t[3] && t[3].trim() === "";
    }
    return segs;
  }

  /* kb.numbers.redotted_numbers: the edition's numbers these digits and letters re-dot into. */
  function redottedNumbers(segs, find, limit) {
    limit = limit === undefined ? 5 : limit;
    var chars = segs.join("").toLowerCase();
    if (!chars || chars.length > N.redot_max_characters || limit < 1) return [];
    var typed = new Set(), sum = 0;
    segs.slice(0, -1).forEach(function (s) { sum += s.length; typed.add(sum); });
    var natural = new Set();
    for (var c = 1; c < chars.length; c++) if (/\d/.test(chars[c]) !== /\d/.test(chars[c - 1])) natural.add(c);
    var found = new Map();
    function pieces(run, head) {
      var longest = /\d/.test(run[0]) ? 3 : 2, out = [];
      for (var n = 1; n <= Math.min(longest, run.length); n++) {
        if (n === 1 || head || run[0] !== "0") out.push(run.slice(0, n));
      }
      return out;
    }
    function walk(at, prefix, breaks) {
      if (at === chars.length) {
        var moved = 0;
        breaks.forEach(function (b) { if (!typed.has(b) && !natural.has(b)) moved++; });
        typed.forEach(function (b) { if (!breaks.has(b) && !natural.has(b)) moved++; });
        var number = find(prefix);
        if (number !== null && (!found.has(number) || moved < found.get(number)[0])) found.set(number, [moved, prefix]);
        return;
      }
      var digit = /\d/.test(chars[at]), end = at;
      while (end < chars.length && /\d/.test(chars[end]) === digit) end++;
      pieces(chars.slice(at, end), !prefix.length).forEach(function (piece) {
        var longer = prefix.concat([piece]);
        if (find(longer) === null) return;
        var next = at + piece.length, more = new Set(breaks);
        if (next < chars.length) more.add(next);
        walk(next, longer, more);
      });
    }
    walk(0, [], new Set());
    return Array.from(found.keys()).sort(function (a, b) {
      var x = found.get(a), y = found.get(b);
      return x[0] - y[0] || compareSegs(x[1], y[1]);
    }).slice(0, limit);
  }

  /* kb.numbers.typed_number: a text typed as one rule number (any form the lookup reads, or
     one with its dots misplaced that re-dots into a rule of the edition), or null. */
  function typedNumber(text, find) {
    var segs = tryParseLookupNumber(text);
    if (segs !== null) return segs;
    var loose = looseSegments(text);
    return loose && loose.length && redottedNumbers(loose, find, 1).length ? loose : null;
  }

  /* kb.numbers.expand_range: 601.2a–f, 119.7–8; [] when not well formed. */
  function expandRange(first, lastTail) {
    var start = first[first.length - 1], head = first.slice(0, -1), out = [];
    if (/^\d+$/.test(start) && /^\d+$/.test(lastTail)) {
      var lo = parseInt(start, 10), hi = parseInt(lastTail, 10);
      if (!(lo <= hi) || hi - lo > N.range_most) return [];
      var width = start.startsWith("0") ? start.length : 0;
      for (var n = lo; n <= hi; n++) out.push(head.concat([String(n).padStart(width, "0")]));
      return out;
    }
    if (isAlpha(start) && isAlpha(lastTail) && start.length === 1 && lastTail.length === 1) {
      var a = start.toLowerCase().charCodeAt(0), b = lastTail.toLowerCase().charCodeAt(0);
      if (!(a <= b)) return [];
      for (var c = a; c <= b; c++) out.push(head.concat([String.fromCharCode(c)]));
      return out;
    }
    return [];
  }
  function rangeEnd(first, written) {
    if (!written) return null;
    var end = /\d/.test(written[0]) ? parseNumber(written) : [written];
    return end.length >= first.length ? end : first.slice(0, first.length - end.length).concat(end);
  }
  function sameList(a, b) { return a.length === b.length && a.every(function (s, i) { return s === b[i]; }); }

  /* kb.references._items: the items of one phrase's list, each {start, end, first, last, numbers}. */
  function itemsOf(written, listStart) {
    var items = [];
    var masked = written.replace(pattern(REFS.quoted, "g"), function (q) { return " ".repeat(q.length); });
    var found = Array.from(masked.matchAll(pattern(REFS.item, "g")));
    for (var i = 0; i < found.length; i++) {
      var m = found[i], first = parseNumber(m.groups.n);
      if (items.length && first[0].length !== items[0].first[0].length) break;
      var last = rangeEnd(first, m.groups.end || m.groups.tail), numbers;
      if (last === null) numbers = [first];
      else if (sameList(first.slice(0, -1), last.slice(0, -1))) {
        numbers = expandRange(first, last[last.length - 1]);
        if (!numbers.length) numbers = [first, last];
      } else numbers = [first, last];
      items.push({start: listStart + m.index, end: listStart + m.index + m[0].length, first: first, last: last, numbers: numbers});
    }
    return items;
  }

  /* kb.references.find_mentions(text, sections=False): the rule mentions, each {start, end, items}. */
  function ruleMentions(text) {
    var mentions = [];
    Array.from(text.matchAll(pattern(REFS.mention, "g"))).forEach(function (m) {
      var word = m.groups.word || m.groups.cr || "";
      if (/^[Ss]/.test(word)) return;  // a section's phrase
      var end = m.index + m[0].length, written = m.groups.list;
      var items = written.length === m.groups.first.length
        ? [{start: end - written.length, end: end, first: parseNumber(written), last: null, numbers: [parseNumber(written)]}]
        : itemsOf(written, end - written.length);
      if (items.length) mentions.push({start: m.index, end: items[items.length - 1].end, items: items});
    });
    var keyed = mentions.slice();
    Array.from(text.matchAll(pattern(REFS.bare, "g"))).forEach(function (m) {
      var mEnd = m.index + m[0].length;
      if (keyed.some(function (k) { return k.start < mEnd && m.index < k.end; })) return;
      var written = m.groups.list || m.groups.single;
      var start = m.groups.list ? m.index : mEnd - written.length;
      var items = itemsOf(written, start);
      if (items.length) mentions.push({start: start, end: items[items.length - 1].end, items: items});
    });
    return mentions.sort(function (a, b) { return a.start - b.start; });
  }

  /* kb.query._rules_between: the rules from first to last at their depth, in document order. */
  Edition.prototype.rulesBetween = function (first, last) {
    if (first.length !== last.length || compareWide(first.slice(0, -1), last.slice(0, -1)) !== 0) {
      return [this.find(first), this.find(last)].filter(function (n) { return n !== null; });
    }
    return numbersFromTo(this.rulesAtLevel(first), first, last);
  };

  /* kb.query._rules_at_level: the rules at the level of segs, as [number, segments]: as deep,
     under the same parent (its parts compared as numbers), in document order. */
  Edition.prototype.rulesAtLevel = function (segs) {
    var head = segs.slice(0, -1), level = [];
    this.numbers.forEach(function (n) {
      var s = parseNumber(n);
      if (s.length === segs.length && compareWide(s.slice(0, -1), head) === 0) level.push([n, s]);
    });
    return level;
  };

  /* kb.query._numbers_from_to: the numbers of a level's rules from first to last. */
  function numbersFromTo(level, first, last) {
    return level.filter(function (r) { return compareWide(first, r[1]) <= 0 && compareWide(r[1], last) <= 0; })
      .map(function (r) { return r[0]; });
  }

  /* kb.numbers.sort_key on numbers of any length: digits compared as whole numbers (as
     Python's int, with no float's rounding: "1000000000000000001"), before letters. */
  function digitsKey(s) { return s.replace(/^0+(?=.)/, ""); }
  function compareWide(a, b) {
    for (var i = 0; i < Math.min(a.length, b.length); i++) {
      var x = a[i], y = b[i], xd = /^[0-9]+$/.test(x), yd = /^[0-9]+$/.test(y);
      if (xd !== yd) return xd ? -1 : 1;
      if (xd) {
        x = digitsKey(x); y = digitsKey(y);
        if (x.length !== y.length) return x.length - y.length;
      }
      if (x !== y) return x < y ? -1 : 1;
    }
    return a.length - b.length;
  }

  /* kb.query.range_asked: a query that is one range of numbers ending in digits, read at any
     size and either way round: [the rules at that level inside it, clamped or null], or null. */
  Edition.prototype.rangeAsked = function (query) {
    if (query.length > ASKED.max_chars || pattern(ASKED.excluding).test(query)) return null;
    var m = pattern(ASKED.range_asked).exec(query);
    if (!m) return null;
    var first = m[1].split("."), last = m[2].split(".");
    if (last.length < first.length) last = first.slice(0, first.length - last.length).concat(last);
    var digits = /^[0-9]+$/;
    if (first.length !== last.length || !digits.test(first[first.length - 1]) || !digits.test(last[last.length - 1]) ||
        compareWide(first.slice(0, -1), last.slice(0, -1)) !== 0) return null;
    var backwards = compareWide(last, first) < 0, lo = backwards ? last : first, hi = backwards ? first : last;
    // A range ending in digits reads its level's numbered rules (as range_asked says why).
    var level = this.rulesAtLevel(first).filter(function (r) { return digits.test(r[1][r[1].length - 1]); });
    var numbers = numbersFromTo(level, lo, hi);
    var extent = level.slice().sort(function (a, b) { return compareWide(a[1], b[1]); });
    var beyond = !extent.length || compareWide(lo, extent[0][1]) < 0 || compareWide(extent[extent.length - 1][1], hi) < 0;
    if (!backwards && !beyond) return [numbers, null];
    var asked = m[1] + "-" + m[2], read = lo.join(".") + "-" + hi.join(".");
    var where = this.ruleset + " " + this.edition, said = "Rules " + asked + (backwards ? " read as " + read : ""), message;
    if (numbers.length && beyond) {
      message = said + (backwards ? "," : "") + " clamped to " + numbers[0] + "-" + numbers[numbers.length - 1] +
        ", the rules " + where + " has in that range (" + numbers.length + ").";
    } else if (numbers.length) {
      message = said + " (" + numbers.length + " rules of " + where + ").";
    } else if (extent.length) {
      message = said + ": " + where + " has no rule in that range (its rules at that level run from " +
        extent[0][0] + " to " + extent[extent.length - 1][0] + ").";
    } else {
      message = said + ": " + where + " has no rule in that range.";
    }
    return [numbers, {asked: asked, read: read, first: numbers.length ? numbers[0] : null,
                      last: numbers.length ? numbers[numbers.length - 1] : null, message: message}];
  };

  /* kb.query.numbers_asked: the rules a query of rule numbers only names, in the order written
     (one number: its canonical number), or null. */
  Edition.prototype.numbersAsked = function (query) {
    if (query.length > ASKED.max_chars) return null;
    var one = tryParseLookupNumber(query), self = this;
    if (one !== null) { var found = this.find(one); return found ? [found] : null; }
    if (!pattern(ASKED.numbers_only).test(query) || pattern(ASKED.excluding).test(query)) return null;
    var ranged = this.rangeAsked(query);
    if (ranged !== null) return ranged[0].length ? ranged[0] : null;
    var closed = query.trim().replace(pattern(ASKED.spaced_dash, "g"), "$1");
    var probe = pattern(ASKED.citing).test(closed) ? closed : "rules " + closed;
    var mentions = ruleMentions(probe), rest = [], at = 0;
    mentions.forEach(function (m) { rest.push(probe.slice(at, m.start)); at = m.end; });
    rest.push(probe.slice(at));
    if (!mentions.length || !pattern(ASKED.between).test(rest.join(""))) return null;
    var numbers = [];
    mentions.forEach(function (m) {
      m.items.forEach(function (item) {
        if (item.last !== null && item.numbers.length === 2 && sameList(item.numbers[0], item.first) &&
            sameList(item.numbers[1], item.last)) {
          numbers.push.apply(numbers, self.rulesBetween(item.first, item.last));
        } else {
          item.numbers.forEach(function (s) { var n = self.find(s); if (n !== null) numbers.push(n); });
        }
      });
    });
    numbers = numbers.filter(function (n, i) { return numbers.indexOf(n) === i; });
    return numbers.length ? numbers : null;
  };

  /* kb.query.numbers_listed: one page of several rules, each hit as a typed number's. */
  Edition.prototype.numbersListed = function (numbers, limit, offset) {
    var self = this, out = this.search(parseQuery(numbers.slice(0, 2).join(" ")), {limit: 1});
    out.total = numbers.length; out.offset = offset; out.limit = limit;
    out.results = numbers.slice(offset, offset + limit).map(function (n) { return self.result(n, 0, "number", null); });
    return out;
  };

  /* kb.loaded.LoadedEditions.find_rule, answered rather than raised: null when the edition
     has the rule, else the 404's {number, message, nearest} (the re-dotted numbers first). */
  Edition.prototype.missingRule = function (typed) {
    var segs, wanted, message, self = this;
    try {
      segs = parseLookupNumber(typed);
      wanted = formatNumber(segs, this.style);
    } catch (e) {
      if (!(e instanceof NumberError)) throw e;
      segs = looseSegments(typed);
      if (segs === null) return null;
      wanted = typed.trim();
      message = "no rule of " + this.ruleset + " " + this.edition + " is numbered " + pyRepr(wanted);
    }
    if (message === undefined) {
      if (this.find(segs) !== null) return null;
      message = "rule " + wanted + " does not exist in " + this.ruleset + " " + this.edition;
    }
    var find = function (s) { return self.find(s); };
    var redotted = redottedNumbers(segs, find);
    if (redotted.length) message += "; did you mean " + redotted.join(" or ") + "?";
    var last = redotted.length ? null : this.lastRuleBefore(segs);
    if (last !== null) {  // past the last rule: said instead of the document's last subrules
      message = (message + ": it is beyond the last rule, " + last + " " + (this.data.labels[this.docOf.get(last)] || "")).trim();
      return {number: wanted, message: message, nearest: []};
    }
    var nearest = redotted.concat(this.nearest(segs).filter(function (n) { return redotted.indexOf(n) < 0; }))
      .slice(0, Math.max(5, redotted.length));
    return {number: wanted, message: message, nearest: nearest};
  };

  /* kb.loaded.last_rule_before: the last top-level rule when segs number past it, else null. */
  Edition.prototype.lastRuleBefore = function (segs) {
    if (!segs.length || !/^[0-9]+$/.test(segs[0])) return null;
    var highest = -1;
    this.sortedKeys.forEach(function (k) { if (/^[0-9]+$/.test(k[0])) highest = Math.max(highest, parseInt(k[0], 10)); });
    if (highest < 0 || parseInt(segs[0], 10) <= highest) return null;
    return this.find([String(highest)]) || this.nearest([String(highest)], 1)[0];
  };

  /* KnowledgeBase.search after the edition is chosen: a query of numbers only is read as a
     lookup reads it, a list or range lists its rules, a number the edition lacks is said
     (no_such_rule: its nearest numbers; the pack carries no other edition's history, so
     elsewhere is always null). */
  Edition.prototype.answer = function (query, parsed, options) {
    options = options || {};
    var sectioned = (options.sections || []).length > 0;
    var asked = sectioned ? null : this.numbersAsked(query), out;
    var typed = asked || sectioned ? null : typedNumber(query, this.find.bind(this));
    // A number only the lookup reads (9999.9, rule 9999): the number alone is searched.
    var alone = typed && tryParseNumber(query) === null && tryParseLookupNumber(query) !== null
      ? formatNumber(typed, this.style) : null;
    if (asked && asked.length > 1) {
      var limit = options.limit === undefined ? 10 : options.limit;
      out = this.numbersListed(asked, limit, options.offset || 0);
    } else {
      out = this.search(asked || alone ? parseQuery(asked ? asked[0] : alone) : parsed, options);
    }
    if (asked || alone) out.query = parsed.text;
    var ranged = sectioned ? null : this.rangeAsked(query);
    out.clamped = ranged ? ranged[1] : null;
    out.no_such_rule = null;
    if (typed) {  // a number the edition lacks, in any form the lookup reads (and 3371a, re-dotted)
      var missing = this.missingRule(query);
      if (missing) out.no_such_rule = {number: missing.number, message: missing.message, nearest: missing.nearest, elsewhere: null};
    }
    return out;
  };

  /* KnowledgeBase.search: read the query, pick the edition, answer. ``editions`` maps
     "ruleset/edition" to a loaded Edition; ``newest`` maps a ruleset to its newest. */
  function search(editions, newest, query, ruleset, edition, options) {
    options = options || {};
    var parsed = parseQuery(query);
    var rs = parsed.ruleset || ruleset, ed = parsed.edition || edition || newest[rs];
    var found = editions[rs + "/" + ed];
    if (!found) throw new SearchError("edition " + ed + " of " + rs + " is not in this offline copy", {}, 404);
    var out = found.answer(query, parsed, options);
    // KnowledgeBase.search: an empty answer (or a number the edition lacks) names the other
    // rulesets whose default edition matches (options.others false: not looked for).
    out.other_rulesets = [];
    if (options.others !== false && (out.no_such_rule || !out.total) && !(options.sections || []).length && !options.offset) {
      out.other_rulesets = otherRulesets(editions, newest, query, out.ruleset, options.titles || {}, options.rulings);
    }
    return out;
  }

  /* KnowledgeBase._other_rulesets_matching: each other ruleset (by name) whose default edition,
     loaded here, matches the query: its name, edition, title and how many rules match there. */
  function otherRulesets(editions, newest, query, searched, titles, rulings) {
    var out = [];
    Object.keys(newest).sort().forEach(function (name) {
      if (name === searched || !editions[name + "/" + newest[name]]) return;
      var there;
      try {
        there = search(editions, newest, query, name, null, {limit: 1, others: false, rulings: rulings});
      } catch (e) {
        if (e instanceof SearchError) return;  // a query this ruleset's language refuses
        throw e;
      }
      if (there.total && !there.no_such_rule) out.push({ruleset: name, edition: there.edition, title: titles[name] || name, total: there.total});
    });
    return out;
  }

  var api = {porter: porter, analyse: analyse, stem: stem, parseNumber: parseNumber, tryParseNumber: tryParseNumber,
             formatNumber: formatNumber, parseQuery: parseQuery, understand: understand, Edition: Edition, SearchError: SearchError,
             damerau: damerau, excerpt: excerpt, search: search, otherRulesets: otherRulesets, parseLookupNumber: parseLookupNumber,
             looseSegments: looseSegments};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; return; }
  root.rulekbOfflineSearch = api;

  // -- the search page ---------------------------------------------------------------
  var PAGE_SIZE = D.page.size, MAX_PAGE = D.page.max_page;
  var loaded = Object.create(null), waiting = Object.create(null);

  root.rulekbSearchIndex = function (data) {
    var key = data.ruleset + "/" + data.edition;
    loaded[key] = new Edition(data);
    (waiting[key] || []).forEach(function (fn) { fn(); });
    delete waiting[key];
  };

  function load(catalog, key, done, fail) {
    if (loaded[key]) { done(); return; }
    var src = catalog.indexes[key];
    if (!src) { fail(); return; }
    (waiting[key] = waiting[key] || []).push(done);
    if (waiting[key].length > 1) return;
    var s = document.createElement("script");
    s.src = src;
    s.onerror = fail;
    document.head.appendChild(s);
  }

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }

  var searchPage = "search.html", currentCatalog = null;
  function searchHref(q, rs, ed, section, page) {
    var p = new URLSearchParams();
    p.set("q", q); p.set("ruleset", rs); p.set("edition", ed);
    if (section) p.set("in", section);
    if (page > 1) p.set("page", String(page));
    return searchPage + "?" + p.toString();
  }

  function start() {
    var node = document.getElementById("rulekb-offline-catalog");
    if (!node) return;
    var catalog = currentCatalog = JSON.parse(node.textContent);
    searchPage = catalog.search_page || searchPage;
    var newest = {}, titles = {};
    // each ruleset's default edition: the newest full one exported (an older pack's catalog: its last)
    catalog.rulesets.forEach(function (r) { newest[r.name] = r["default"] || r.editions[r.editions.length - 1]; titles[r.name] = r.title; });
    var params = new URLSearchParams(location.search);
    var q = (params.get("q") || "").slice(0, 5000), section = params.get("in") || "";
    var ruleset = params.get("ruleset") || catalog.default_ruleset;
    if (!newest[ruleset]) ruleset = catalog.default_ruleset;
    var edition = params.get("edition") || newest[ruleset];
    var page = parseInt(params.get("page") || "1", 10);
    var form = document.querySelector("form.filters");
    var main = document.querySelector("main");
    var out = el("div", {"class": "offline-results", "aria-live": "polite"});
    if (form) form.parentNode.insertBefore(out, form.nextSibling); else main.appendChild(out);

    if (form) {
      var qInput = form.querySelector("[name=q]"), rsSelect = form.querySelector("select[name=ruleset]");
      var edSelect = form.querySelector("select[name=edition]"), inInput = form.querySelector("[name=in]");
      if (qInput) qInput.value = q;
      if (inInput) inInput.value = section;
      var fillEditions = function (rs, chosen) {
        if (!edSelect) return;
        while (edSelect.firstChild) edSelect.removeChild(edSelect.firstChild);
        var eds = (catalog.rulesets.filter(function (r) { return r.name === rs; })[0] || {editions: []}).editions.slice().reverse();
        eds.forEach(function (e) { edSelect.appendChild(el("option", {value: e, selected: e === chosen ? "" : null}, [e])); });
      };
      if (rsSelect) {
        while (rsSelect.firstChild) rsSelect.removeChild(rsSelect.firstChild);
        catalog.rulesets.forEach(function (r) { rsSelect.appendChild(el("option", {value: r.name, selected: r.name === ruleset ? "" : null}, [r.title])); });
        rsSelect.addEventListener("change", function () { fillEditions(rsSelect.value, newest[rsSelect.value]); });
      }
      fillEditions(ruleset, edition);
    }
    if (!q) return;  // spaces only are said to hold nothing to search for, as on the site
    // The page's help goes once a query runs; the note on what this copy leaves out stays.
    Array.prototype.forEach.call(main.querySelectorAll(":scope > p.meta:not(.offline-leaves-out)"), function (p) { p.hidden = true; });
    document.title = "\u201c" + q + "\u201d \u00b7 Search \u00b7 rulekb";

    // The site's way (web/site/pages.py: as_sentence): the message alone, as one sentence.
    function asSentence(message) {
      var text = String(message).trim();
      if (!text) return text;
      var first = text.charAt(0);
      if (first === first.toLowerCase() && first !== first.toUpperCase() && !/^[a-z]+:/.test(text)) {
        text = first.toUpperCase() + text.slice(1);
      }
      return /[.!?]$/.test(text) ? text : text + ".";
    }
    function problem(message) {
      out.appendChild(el("p", {"class": "note", role: "alert"}, [asSentence(message)]));
    }
    var parsed;
    try { parsed = parseQuery(q); } catch (e) { if (e instanceof SearchError) { problem(e.message); return; } throw e; }
    var rs = parsed.ruleset || ruleset, ed = parsed.edition || (parsed.ruleset && parsed.ruleset !== ruleset ? newest[rs] : edition);
    var key = rs + "/" + ed;
    if (!catalog.indexes[key]) {
      problem("edition " + ed + " of " + rs + " is not in this offline copy (it holds: " + Object.keys(catalog.indexes).join(", ") + ")");
      return;
    }
    if (!(page >= 1 && page <= MAX_PAGE)) { problem("page must be between 1 and " + MAX_PAGE); return; }
    out.appendChild(el("p", {"class": "meta", role: "status"}, ["Searching " + (titles[rs] || rs) + " " + ed + "…"]));
    load(catalog, key, function () {
      var result;
      try {
        result = loaded[key].answer(q, parsed, {limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, sections: section ? [section] : []});
      } catch (e) {
        if (e instanceof SearchError) { out.textContent = ""; problem(e.message); return; }
        throw e;
      }
      if (result.jump && page === 1 && tryParseNumber(q)) {
        location.replace(loaded[key].data.pages[loaded[key].docOf.get(result.jump)]);
        return;
      }
      show(out, result, loaded[key], q, section, page, titles[rs] || rs);
      if ((result.no_such_rule || !result.total) && !section && page === 1) showOthers(out, q, rs);
    }, function () {
      out.textContent = "";
      problem("the search index " + catalog.indexes[key] + " could not be loaded");
    });
  }

  /* Nothing here: the other rulesets whose default edition matches, each a link to the search
     there, as the server's page says it (web/templates/search.html, others), once their
     indexes are loaded; before the status line. */
  function showOthers(out, q, rs) {
    var catalog = currentCatalog, newest = {}, titles = {}, keys = [];
    catalog.rulesets.forEach(function (r) {
      var ed = r["default"] || r.editions[r.editions.length - 1];
      titles[r.name] = r.title;
      if (r.name !== rs && catalog.indexes[r.name + "/" + ed]) { newest[r.name] = ed; keys.push(r.name + "/" + ed); }
    });
    var left = keys.length;
    if (!left) return;
    function done() {
      if (--left) return;
      var others = otherRulesets(loaded, newest, q, rs, titles);
      if (!others.length) return;
      var parts = [];
      others.forEach(function (o, i) {
        if (i) parts.push("; ");
        parts.push(el("a", {href: searchHref(q, o.ruleset, o.edition, "", 1)},
                      [el("strong", {}, [o.total + " match" + (o.total !== 1 ? "es" : "")]), " in " + o.title + " " + o.edition]));
      });
      parts.push(".");
      var status = out.querySelector("p.meta[role=status]");
      out.insertBefore(el("p", {"class": "didyoumean other-rulesets"}, parts), status);
    }
    keys.forEach(function (key) { load(catalog, key, done, done); });
  }

  function show(out, result, ed, q, section, page, title) {
    out.textContent = "";
    var rs = result.ruleset, edn = result.edition;
    var missing = result.no_such_rule;
    if (missing) {  // as the server's page says it (web/templates/search.html)
      var near = [];
      missing.nearest.forEach(function (n, i) {
        if (i) near.push(", ");
        near.push(el("a", {href: ed.data.pages[ed.docOf.get(n)]}, [n]));
      });
      out.appendChild(el("p", {"class": "didyoumean no-such-rule"}, ["No rule " + missing.number + " in " + title + " " + edn]
        .concat(near.length ? ["; the nearest: "].concat(near) : [], ["."])));
    } else if (result.did_you_mean) {
      out.appendChild(el("p", {"class": "didyoumean"}, ["Did you mean ",
        el("a", {href: searchHref(result.did_you_mean, rs, edn, section, 1)}, [el("strong", {}, [result.did_you_mean])]), "?"]));
    }
    if (result.term) {
      var t = result.term, by = [];
      t.defined_by.forEach(function (n, i) {
        if (i) by.push(", ");
        by.push(el("a", {href: ed.data.pages[ed.docOf.get(n)]}, [n]));
      });
      out.appendChild(el("section", {"class": "card", "aria-label": "Defined term"}, [
        el("h2", {}, [t.term + " ", el("span", {"class": "tag"}, [t.kind])]),
        el("p", {}, [t.definition + " "].concat(by.length ? [el("span", {"class": "src"}, ["Defined in rule "].concat(by, ["."]))] : []))]));
    }
    // A range of numbers past the edition's rules, or written high to low: what it was read as.
    if (result.clamped) out.appendChild(el("p", {"class": "meta clamped"}, [result.clamped.message]));
    // How the question was read, as the server's page says it (web/templates/search.html); a
    // name may be a card of the server's card list, which this copy does not carry.
    var u = result.understood;
    if (u) {
      (u.cards || []).forEach(function (c) { out.appendChild(el("p", {"class": "meta understood card-known"}, ["Card: " + c])); });
      if (u.names && u.names.length) {
        out.appendChild(el("p", {"class": "meta understood"}, ["Left out as names (not words of the rules): " +
          u.names.join(", ") + " · a card’s name is known only to the server’s card list"]));
      }
      if (u.concepts && u.concepts.length) out.appendChild(el("p", {"class": "meta understood"}, ["Read as: " + u.concepts.join(", ")]));
      if (u.unread && u.unread.length) {
        out.appendChild(el("p", {"class": "meta understood unread"}, ["Not read as search syntax (its words searched): " + u.unread.join(", ")]));
      }
      if (u.cut && u.cut.length) {
        out.appendChild(el("p", {"class": "meta understood cut"}, ["Not searched (too many words and phrases): " + u.cut.join(" ")]));
      }
    }
    var first = result.results.length ? (page - 1) * PAGE_SIZE + 1 : 0, last = (page - 1) * PAGE_SIZE + result.results.length;
    out.appendChild(el("p", {"class": "meta", role: "status"}, [result.total
      ? first + "\u2013" + last + " of " + result.total + " rule" + (result.total !== 1 ? "s" : "") + " in " + title + " " + edn
      : "No rule of " + title + " " + edn + " matches."]));
    var list = el("ol", {"class": "results", start: String(first || 1)});
    result.results.forEach(function (hit) {
      var li = el("li");
      if (hit.breadcrumbs.length) {
        li.appendChild(el("div", {"class": "path"}, hit.breadcrumbs.map(function (b) {
          var label = b.title.length > 40 ? b.title.slice(0, 39) + "…" : b.title;
          return el("span", {}, [b.number + " " + label]);
        })));
      }
      li.appendChild(el("a", {"class": "hit-title", href: hit.page}, [el("span", {"class": "num"}, [hit.number])]
        .concat(hit.kind !== "rule" ? [" " + hit.title] : [])));
      if (hit.excerpt_parts.length) {
        li.appendChild(el("p", {"class": "excerpt"}, hit.excerpt_parts.map(function (p) { return p.mark ? el("mark", {}, [p.text]) : p.text; })));
      }
      if (hit.matched && hit.matched.length) li.appendChild(el("p", {"class": "matched meta"}, ["matched: " + hit.matched.join(", ")]));
      list.appendChild(li);
    });
    out.appendChild(list);
    var pages = Math.min(MAX_PAGE, Math.ceil(result.total / PAGE_SIZE));
    if (pages > 1) {
      var nav = el("nav", {"class": "pager", "aria-label": "Result pages"});
      if (page > 1) nav.appendChild(el("a", {rel: "prev", href: searchHref(q, rs, edn, section, page - 1)}, ["\u2190 Previous"]));
      for (var p = Math.max(1, page - 4); p <= Math.min(pages, page + 4); p++) {
        nav.appendChild(p === page ? el("span", {"aria-current": "page"}, [String(p)]) : el("a", {href: searchHref(q, rs, edn, section, p)}, [String(p)]));
      }
      if (page < pages) nav.appendChild(el("a", {rel: "next", href: searchHref(q, rs, edn, section, page + 1)}, ["Next \u2192"]));
      out.appendChild(nav);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})(typeof window !== "undefined" ? window : this);
