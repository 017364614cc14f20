/* rulekb offline search: its data, generated from the Python search it ports (kb/search,
   kb/numbers, kb/limits, web/site/pages.py) by web/search_port.py. Do not edit by hand:
   regenerate with `.venv/bin/cog -r web/static/offline-search-data.js`; the tests
   (tests/test_offline_port.py) fail while it differs from what the Python says.
[[[cog from web.search_port import data_script; cog.outl(data_script()) ]]] */
(function (root, data) {
  if (typeof module !== "undefined" && module.exports) module.exports = data;
  else root.rulekbOfflineSearchData = data;
})(typeof window !== "undefined" ? window : this,
{
 "schema": {
  "word": {"source": "[\\p{L}\\p{N}_]+(?:\\.[\\p{L}\\p{N}_]+)*", "flags": "u"},
  "stop_words": ["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it", "its", "of", "on", "or", "s", "so", "such", "t", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "was", "were", "which", "with"]
 },
 "numbers": {
  "prefix": {"source": "^\\s*(?:(?:comprehensive\\s+)?rules?|cr|r\\.?|§)?\\s*", "flags": "ui"},
  "body": {"source": "^(\\p{Nd}{1,3})((?:\\.(?:\\p{Nd}{1,3}|[a-z]{1,2})|(?<=\\p{Nd})[a-z]{1,2}|(?<=[a-z])\\p{Nd}{1,3})*)\\.?\\s*$", "flags": "ui"},
  "segment": {"source": "\\p{Nd}+|[a-z]+", "flags": "ui"},
  "paren_segment": {"source": "\\s*\\.?\\s*\\(\\s*(\\p{Nd}{1,3}|[a-z]{1,2})\\s*\\)", "flags": "ui"},
  "spaced_letter": {"source": "^(.*\\p{Nd})\\s+([a-z])\\.?$", "flags": "ui"},
  "long_head": {"source": "^(\\p{Nd}{4,12})((?:\\.(?:\\p{Nd}{1,3}|[a-z]{1,2})|(?<=\\p{Nd})[a-z]{1,2}|(?<=[a-z])\\p{Nd}{1,3})*)\\.?\\s*$", "flags": "ui"},
  "loose_token": {"source": "([0-9]+)|([a-z]+)|([ \\t\\n\\r\\f\\v.,]+)|(.)", "flags": "is"},
  "redot_max_characters": 16,
  "range_most": 60
 },
 "references": {
  "mention": {"source": "(?:(?:(?<![\\p{L}\\p{N}_])|(?<=[²³¹⁰ⁱ⁲⁳⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎₏ₐₑₒₓₔₕₖₗₘₙₚₛₜ₝₞₟]))(?<word>[Rr]ules?|RULES?|[Ss]ections?)|(?:(?<![\\p{L}\\p{N}_.])|(?<=[²³¹⁰ⁱ⁲⁳⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎₏ₐₑₒₓₔₕₖₗₘₙₚₛₜ₝₞₟]))(?<cr>CR))\\s{1,8}(?<list>(?<first>\\p{Nd}{1,3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){0,7}(?!\\.\\p{Nd}))(?:(?:\\s?[\\u2013\\u2014]\\s?|-|\\s+through\\s+)(?:\\p{Nd}{1,3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){0,7}(?!\\.\\p{Nd})|[a-z])(?![\\p{L}\\p{N}_]))?(?:(?:\\s*,\\s*[“\"][^”\"\\n]{1,80},[”\"]\\s+(?:and\\s+|or\\s+)?|\\s*,\\s*(?:and\\s+|or\\s+)?|\\s+(?:and|or)\\s+)\\p{Nd}{1,3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){0,7}(?!\\.\\p{Nd})(?:(?:\\s?[\\u2013\\u2014]\\s?|-|\\s+through\\s+)(?:\\p{Nd}{1,3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){0,7}(?!\\.\\p{Nd})|[a-z])(?![\\p{L}\\p{N}_]))?)*)", "flags": "u"},
  "bare": {"source": "(?<![\\p{L}\\p{N}_.$/])(?<list>\\p{Nd}{3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){1,7}(?!\\.\\p{Nd})(?:(?:\\s?[\\u2013\\u2014]\\s?|-|\\s+through\\s+)(?:\\p{Nd}{1,3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){0,7}(?!\\.\\p{Nd})|[a-z])(?![\\p{L}\\p{N}_]))?(?:(?:\\s*,\\s*[“\"][^”\"\\n]{1,80},[”\"]\\s+(?:and\\s+|or\\s+)?|\\s*,\\s*(?:and\\s+|or\\s+)?|\\s+(?:and|or)\\s+)\\p{Nd}{3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){1,7}(?!\\.\\p{Nd})(?:(?:\\s?[\\u2013\\u2014]\\s?|-|\\s+through\\s+)(?:\\p{Nd}{1,3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){0,7}(?!\\.\\p{Nd})|[a-z])(?![\\p{L}\\p{N}_]))?)*)|(?:(?<![\\p{L}\\p{N}_])(?=[\\p{L}\\p{N}_])|(?<=[\\p{L}\\p{N}_])(?![\\p{L}\\p{N}_]))[Ss]ee\\s(?<single>\\p{Nd}{3})(?!\\p{Nd})(?=,\\s?[“\"]|\\s+for\\s)", "flags": "u"},
  "item": {"source": "(?<n>\\p{Nd}{1,3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){0,7}(?!\\.\\p{Nd}))(?:(?:\\s?[\\u2013\\u2014]\\s?|-|\\s+through\\s+)(?:(?<end>\\p{Nd}{1,3}(?!\\p{Nd})(?:\\.(?:\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?|[a-z])(?:(?<=[a-z])\\p{Nd}{1,3}(?!\\p{Nd})[a-z]?)?(?![A-Za-z])){0,7}(?!\\.\\p{Nd}))|(?<tail>[a-z]))(?![\\p{L}\\p{N}_]))?", "flags": "u"},
  "quoted": {"source": "[“\"][^”\"\\n]*[”\"]", "flags": "u"}
 },
 "numbers_asked": {
  "max_chars": 200,
  "numbers_only": {"source": "^\\s*(?:(?:[Rr]ules?|RULES?|[Cc][Rr]|[Rr]\\.?|§)\\s*)?\\p{Nd}[\\p{L}\\p{N}_.]*(?:\\s*(?:[-–—,;&]|and)\\s*[\\p{L}\\p{N}_.]+)*\\s*$", "flags": "u"},
  "excluding": {"source": "\\s-\\S", "flags": "u"},
  "spaced_dash": {"source": "\\s*([-–—])\\s*", "flags": "u"},
  "citing": {"source": "^\\s*(?:[Rr]ules?|RULES?|[Cc][Rr]|[Rr]\\.?|§)(?![\\p{L}\\p{N}_.])|^\\s*(?:[Rr]ules?|RULES?|[Cc][Rr]|[Rr]\\.?|§)\\s*\\p{Nd}", "flags": "u"},
  "between": {"source": "^(?:\\s|,|;|&|and|(?:[Rr]ules?|RULES?|[Cc][Rr]|[Rr]\\.?|§))*$", "flags": "u"},
  "range_asked": {"source": "^\\s*(?:(?:[Rr]ules?|RULES?|[Cc][Rr]|[Rr]\\.?|§)\\s*)?([0-9]+(?:\\.(?:[0-9]+|[a-z]))*)\\s*[-–—]\\s*([0-9]+(?:\\.(?:[0-9]+|[a-z]))*)\\s*$", "flags": "u"}
 },
 "rulings": {
  "word": {"source": "[\\p{L}\\p{N}_][\\p{L}\\p{N}_]+", "flags": "u"},
  "stop_words": ["a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with"],
  "limit": 100
 },
 "query": {
  "max_chars": 500,
  "max_atoms": 32,
  "question_words": ["define", "definition", "did", "do", "does", "explain", "happen", "happens", "how", "i", "me", "mean", "meaning", "means", "my", "our", "we", "what", "whats", "who", "whom", "why"],
  "leading_words": ["are", "can", "could", "did", "do", "does", "how", "i", "is", "may", "must", "should", "we", "what", "whats", "when", "where", "which", "who", "whose", "why", "will", "would", "you"],
  "filter_keys": {"in": "section", "section": "section", "within": "section", "ruleset": "ruleset", "edition": "edition"},
  "operators": ["AND", "OR", "NOT"],
  "unread_fields": ["answers", "examples", "number", "path", "players", "terms", "text", "title"],
  "unread_syntax": {"boost": "^ (a weight)", "fuzzy": "~ (fuzzy or near)", "field": "{key}: (a field)", "range": "[ TO ] (a range)"},
  "quotes": {"\"": "\"", "“": "”", "„": "”", "«": "»"},
  "closing": ["\"", "»", "”"],
  "number_like": {"source": "^\\p{Nd}{1,4}(?:\\.(?:\\p{Nd}{1,4}|[a-z]{1,2}))*[a-z]?\\.?$", "flags": "ui"},
  "rule_words": ["cr", "r", "rule", "rules", "§"],
  "edge_punct": "()[]{},;:!?.…–—",
  "filter_examples": {"section": "in:337", "ruleset": "ruleset:mtg", "edition": "edition:1.4"},
  "messages": {"too_many_atoms": "too many words and phrases ({count}; at most {max_atoms})", "only_filters": "nothing to search for: add words or a rule number to the filter", "only_common_words": "nothing to search for: {dropped!r} has only words too common to search; add a word from the rules", "empty": "the query is empty: type words, a phrase in quotes or a rule number", "nothing_searchable": "nothing to search for in {typed!r} (left out: {ignored}): type words, a phrase in quotes or a rule number", "only_left_out": "NOT and '-' only leave rules out: add a word to search for", "not_text": "the query must be text", "too_long": "the query is too long ({length} characters; at most {max_chars})", "control_character": "control character U+{code} at position {position}: queries are plain text", "invalid_character": "invalid character at position {position}", "quote_never_closed": "unbalanced quote: the {quote} at position {position} is never closed", "quote_holds_no_words": "the quotes at position {position} hold no words", "quote_closes_nothing": "unbalanced quote: the {quote} at position {position} closes nothing", "filter_needs_value": "{key}: needs a value, e.g. {example}", "filter_needs_number": "{key}: needs a rule number, e.g. in:337 (got {value!r})", "two_rulesets": "the query names two rulesets", "two_editions": "the query names two editions", "star_inside_word": "'*' at position {position} is only allowed at the end of a word (prio*)", "star_needs_letters": "'*' at position {position} needs at least two letters of one word before it (prio*)", "not_needs_word": "NOT at position {position} needs a word after it", "operator_needs_words": "{operator} at position {position} needs a word on each side (it has {before} before it)", "or_needs_words": "OR at position {position} needs a word on each side (it has {after} after it)", "or_cannot_join": "OR at position {position} cannot join a left-out or required word; use parentheses-free forms like a OR b", "and_needs_words": "AND at position {position} needs a word on each side (it has {after} after it)", "limit_out_of_range": "limit must be between 1 and {max_limit}", "offset_out_of_range": "offset must be between 0 and {max_offset}", "section_needs_number": "a section filter needs a rule number, e.g. in:337 (got {value!r})", "no_section": "there is no rule {number} to search in ({ruleset} {edition})"},
  "ignored_kinds": {"emoji": "emoji", "symbol": "symbols", "punctuation": "punctuation", "other": "other characters", "space": "spaces"},
  "emoji_ranges": [[9728, 10175], [11008, 11263], [126976, 129791]],
  "shown_chars": 40
 },
 "spelling": {
  "abbreviation": {"source": "[A-Z]{2,5}s?", "flags": "u"},
  "split": {"min_letters": 6, "part": 3}
 },
 "understand": {
  "max_term_words": 4,
  "quote_words": 4,
  "name_max_rules": 2
 },
 "search": {
  "max_limit": 100,
  "max_offset": 5000,
  "max_prefix_words": 64,
  "number_words": {"0": "zero", "1": "on", "10": "ten", "11": "eleven", "12": "twelv", "13": "thirteen", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "eight": "8", "eleven": "11", "five": "5", "four": "4", "nine": "9", "on": "1", "seven": "7", "six": "6", "ten": "10", "thirteen": "13", "three": "3", "twelv": "12", "two": "2", "zero": "0"},
  "excerpt_chars": 240,
  "kinds": {"r": "rule", "s": "section", "c": "chapter"},
  "reasons": {"timing_model": "in the timing model: ", "section": "its rules between them hold: ", "definition": "as the keyword's definition says: ", "defining": "the definition of ", "lifted": "in its rule {number}: ", "definition_shown": 0.1, "definition_words_shown": 5, "summary_joiner": " · "}
 },
 "page": {
  "size": 20,
  "max_page": 50
 }
});
/* [[[end]]] */
