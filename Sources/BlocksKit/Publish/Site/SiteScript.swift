/// The site's own script, `assets/site.js`, with no framework and no request: the
/// language switch, the copy buttons, and on the index page the search and filters.
///
/// The search repeats `SearchRanking` over `SiteSearchData`, whose words the build took
/// from `SearchWords`, so the page finds what `blocks search` finds. What the script
/// must do itself is fold the typed query (as `TextNormalizer` does: case folded, NFD,
/// accents dropped) and the filters' rules (`PlatformFilter.accepts`, level, category);
/// `docs/SITE.md` lists where it can differ from the command line.
enum SiteScript {
    /// The inline script in every page's head: applies the remembered language before
    /// the body is drawn, so a Spanish reader never sees the English text flash first.
    static let head =
        #"try{var l=localStorage.getItem("blocks-lang")||((navigator.language||"").slice(0,2)==="es"?"es":"en");if(l==="es"||l==="en")document.documentElement.lang=l}catch(e){}"#

    static let js = #"""
        // blocks site: language switch, copy buttons and the index page's search. No framework,
        // no request: everything it reads is in the page.
        (function () {
          "use strict";
          var root = document.documentElement;
          var storageKey = "blocks-lang";
          var swappedAttributes = ["placeholder", "aria-label", "title"];

          function current() { return root.lang === "es" ? "es" : "en"; }

          function setLanguage(lang, remember) {
            root.lang = lang;
            if (remember) { try { localStorage.setItem(storageKey, lang); } catch (e) { /* private mode */ } }
            var buttons = document.querySelectorAll("[data-set-lang]");
            for (var i = 0; i < buttons.length; i++) {
              buttons[i].setAttribute("aria-pressed", String(buttons[i].getAttribute("data-set-lang") === lang));
            }
            swappedAttributes.forEach(function (name) {
              var elements = document.querySelectorAll("[data-" + lang + "-" + name + "]");
              for (var j = 0; j < elements.length; j++) elements[j].setAttribute(name, elements[j].getAttribute("data-" + lang + "-" + name));
            });
            var texts = document.querySelectorAll("[data-" + lang + "-text]");
            for (var k = 0; k < texts.length; k++) texts[k].textContent = texts[k].getAttribute("data-" + lang + "-text");
            var title = document.querySelector("title[data-" + lang + "]");
            if (title) title.textContent = title.getAttribute("data-" + lang);
          }

          document.addEventListener("click", function (event) {
            var target = event.target instanceof Element ? event.target : null;
            var languageButton = target && target.closest("[data-set-lang]");
            if (languageButton) { setLanguage(languageButton.getAttribute("data-set-lang"), true); return; }
            var copyButton = target && target.closest("[data-copy]");
            if (copyButton) copy(copyButton);
          });

          function copyText(text) {
            if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
            return new Promise(function (resolve, reject) {
              var area = document.createElement("textarea");
              area.value = text;
              area.setAttribute("readonly", "");
              area.style.position = "fixed";
              area.style.opacity = "0";
              document.body.appendChild(area);
              area.select();
              var done = false;
              try { done = document.execCommand("copy"); } catch (e) { done = false; }
              document.body.removeChild(area);
              if (done) { resolve(); } else { reject(new Error("copy refused")); }
            });
          }

          function copy(button) {
            var source = document.getElementById(button.getAttribute("data-copy"));
            var status = document.getElementById(button.getAttribute("data-copy") + "-status");
            if (!source) return;
            function say(outcome) {
              if (!status) return;
              status.textContent = button.getAttribute("data-" + outcome + "-" + current());
              button.setAttribute("data-state", outcome);
              setTimeout(function () { status.textContent = ""; button.removeAttribute("data-state"); }, 2500);
            }
            copyText(source.textContent).then(function () { say("copied"); }, function () { say("failed"); });
          }

          setLanguage(current(), false);

          var cardList = document.getElementById("cards");
          if (cardList && cardList.hasAttribute("data-search")) startIndex(cardList);

          // The ranking over the page's search data (SiteSearchData).
          // `tagOptions`: the tag filter's folded values, which each block's `t` points into.
          function makeSearch(data, tagOptions) {
            var words = data.words, blocks = data.blocks, count = blocks.length;
            var weights = data.weights, fieldCount = weights.length;
            var functionWords = new Set(data.functionWords);
            var postingCache = new Array(words.length);
            var asciiOnly = /^[\x00-\x7f]*$/;
            var wordIsASCII = words.map(function (word) { return asciiOnly.test(word); });

            // TextNormalizer.fold: case folded where case folding changes a character (upper,
            // then lower, so ß gives ss), decomposed, and combining accents after a base dropped.
            var changesWhenCaseFolded = /\p{Changes_When_Casefolded}/u;
            var combiningDiacritic = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/;
            var separator = /[^\p{L}\p{N}\p{M}]+/u;
            function fold(text) {
              var cased = "";
              for (var character of text) cased += changesWhenCaseFolded.test(character) ? character.toUpperCase().toLowerCase() : character;
              var folded = "";
              for (var scalar of cased.normalize("NFD")) if (folded === "" || !combiningDiacritic.test(scalar)) folded += scalar;
              return folded;
            }
            function wordsOf(text) { return fold(text).split(separator).filter(function (word) { return word !== ""; }); }

            // SearchWords.splitIdentifier: a space at each camelCase, acronym and digit boundary.
            var upper = /\p{Lu}/u, lower = /\p{Ll}/u, number = /\p{N}/u;
            function splitIdentifier(identifier) {
              var characters = Array.from(identifier), result = "";
              for (var i = 0; i < characters.length; i++) {
                var character = characters[i];
                if (i > 0) {
                  var previous = characters[i - 1], next = i + 1 < characters.length ? characters[i + 1] : "";
                  var lowerToUpper = upper.test(character) && (lower.test(previous) || number.test(previous));
                  var endOfCapitals = upper.test(character) && upper.test(previous) && lower.test(next);
                  if (lowerToUpper || endOfCapitals || number.test(character) !== number.test(previous)) result += " ";
                }
                result += character;
              }
              return result;
            }

            // SearchRanking.queryWords: a word written as an identifier that no word of the
            // catalog matches, whole or with a typo, is looked for by its parts.
            function isKnown(word) {
              var quality = matcher(word);
              for (var index = 0; index < words.length; index++) if (quality(index) > 0) return true;
              return false;
            }
            function queryWordsOf(query) {
              var found = [];
              query.split(separator).forEach(function (token) {
                if (token === "") return;
                var whole = wordsOf(token), parts = wordsOf(splitIdentifier(token));
                var unknown = parts.length > whole.length && whole.every(function (word) { return !isKnown(word); });
                found = found.concat(unknown ? parts : whole);
              });
              return found;
            }

            // EditDistance.distance: optimal string alignment, stopping once past the limit.
            function distance(left, right, limit) {
              if (left.length === 0) return right.length;
              if (right.length === 0) return left.length;
              if (Math.abs(left.length - right.length) > limit) return limit + 1;
              var beforePrevious = new Array(right.length + 1).fill(0);
              var previous = [], current = new Array(right.length + 1).fill(0);
              for (var j = 0; j <= right.length; j++) previous.push(j);
              for (var i = 1; i <= left.length; i++) {
                current[0] = i;
                var rowMinimum = i;
                for (j = 1; j <= right.length; j++) {
                  var cost = left[i - 1] === right[j - 1] ? 0 : 1;
                  var value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
                  if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) value = Math.min(value, beforePrevious[j - 2] + 1);
                  current[j] = value;
                  if (value < rowMinimum) rowMinimum = value;
                }
                if (rowMinimum > limit) return limit + 1;
                var spare = beforePrevious; beforePrevious = previous; previous = current; current = spare;
              }
              return previous[right.length];
            }

            // SearchEngine.matchQuality: 1 exact, 0.8 prefix, 0.6 a typo, 0.45 a typo in a prefix.
            function matcher(query) {
              var queryScalars = Array.from(query);
              var queryIsASCII = asciiOnly.test(query);
              var length = queryScalars.length;
              var allowed = length >= 8 ? 2 : (length >= 4 ? 1 : 0);
              return function (index) {
                var word = words[index];
                if (word === query) return 1;
                if (length >= 2 && word.length > query.length && word.startsWith(query)) return 0.8;
                if (allowed === 0) return 0;
                var ascii = queryIsASCII && wordIsASCII[index];
                var wordScalars = ascii ? word : Array.from(word);
                var left = ascii ? query : queryScalars;
                if (wordScalars.length < length - allowed) return 0;
                if (wordScalars.length <= length + allowed) return distance(left, wordScalars, allowed) <= allowed ? 0.6 : 0;
                return distance(left, wordScalars.slice(0, length + allowed), allowed) <= allowed ? 0.45 : 0;
              };
            }

            // SearchRanking.idf over the blocks a word's postings reach (grouped by block).
            function rarityOf(list) {
              var blocksWithWord = 0, lastBlock = -1;
              for (var p = 0; p < list.length; p++) { if ((list[p] >> 3) !== lastBlock) { blocksWithWord++; lastBlock = list[p] >> 3; } }
              return 0.5 + Math.log(1 + (count - blocksWithWord + 0.5) / (blocksWithWord + 0.5));
            }

            function postings(index) {
              var cached = postingCache[index];
              if (cached) return cached;
              var deltas = data.postings[index].split(","), values = new Array(deltas.length), value = 0;
              for (var i = 0; i < deltas.length; i++) { value += parseInt(deltas[i], 36); values[i] = value; }
              postingCache[index] = values;
              return values;
            }

            // PlatformFilter.accepts: the block's minimum is at most the chosen version; an iOS
            // minimum counts for iPadOS.
            function versionParts(text) { return text.split(".").map(function (part) { var n = parseInt(part, 10); return isNaN(n) ? 0 : n; }); }
            function compareVersions(left, right) {
              for (var i = 0; i < Math.max(left.length, right.length); i++) {
                var a = i < left.length ? left[i] : 0, b = i < right.length ? right[i] : 0;
                if (a !== b) return a < b ? -1 : 1;
              }
              return 0;
            }
            function passes(block, filters) {
              if (filters.platform) {
                var minimum = block.p[filters.platform.name];
                if (minimum === undefined && filters.platform.name === "iPadOS") minimum = block.p.iOS;
                if (minimum === undefined || compareVersions(versionParts(minimum), filters.platform.version) > 0) return false;
              }
              if (filters.level && block.l.toLowerCase() !== filters.level.toLowerCase()) return false;
              if (filters.category && block.c !== fold(filters.category)) return false;
              if (filters.tag && block.t.indexOf(tagOptions.indexOf(fold(filters.tag))) < 0) return false;
              return true;
            }

            // SearchRanking.rank, step by step.
            function rank(query, filters) {
              var queryWords = queryWordsOf(query);
              var required = queryWords.map(function (word) { return !functionWords.has(word); });
              if (required.indexOf(true) < 0) required = queryWords.map(function () { return true; });
              var requiredCount = required.filter(Boolean).length;
              var filtered = filters.platform || filters.level || filters.category || filters.tag;
              var allowed = new Uint8Array(count);
              for (var b = 0; b < count; b++) allowed[b] = !filtered || passes(blocks[b], filters) ? 1 : 0;
              if (queryWords.length === 0) {
                var all = [];
                for (b = 0; b < count; b++) if (allowed[b]) all.push(b);
                return { blocks: all, partial: false };
              }
              var scores = new Float64Array(count), matched = new Int32Array(count), scored = new Uint8Array(count);
              // Step 4's phrase: two adjacent words a field has as one word (`tab change` in
              // `ontabchange`) add that word's best score in each block the words reached.
              function addPhrase(first, second) {
                if (functionWords.has(first) || functionWords.has(second)) return;
                var needle = first + second, gained = new Map();
                for (var word = 0; word < words.length; word++) {
                  if (words[word].indexOf(needle) < 0) continue;
                  var quality = words[word] === needle ? 1 : 0.8, list = postings(word), rarity = rarityOf(list);
                  for (var p = 0; p < list.length; p++) {
                    var block = list[p] >> 3;
                    if (!allowed[block] || !scored[block]) continue;
                    var score = quality * weights[list[p] & 7] * rarity;
                    if (!(gained.get(block) >= score)) gained.set(block, score);
                  }
                }
                gained.forEach(function (score, block) { scores[block] += score; });
              }
              var best = new Float64Array(count * fieldCount), previous = new Float64Array(count * fieldCount);
              var previousTouched = [], isTouched = new Uint8Array(count);
              queryWords.forEach(function (queryWord, position) {
                var quality = matcher(queryWord);
                var touched = [];
                for (var word = 0; word < words.length; word++) {
                  var q = quality(word);
                  if (q <= 0) continue;
                  var list = postings(word), rarity = rarityOf(list);
                  for (var p = 0; p < list.length; p++) {
                    var block = list[p] >> 3, field = list[p] & 7;
                    if (!allowed[block]) continue;
                    var score = q * weights[field] * rarity;
                    var slot = block * fieldCount + field;
                    if (score > best[slot]) {
                      if (!isTouched[block]) { isTouched[block] = 1; touched.push(block); }
                      best[slot] = score;
                    }
                  }
                }
                touched.forEach(function (block) {
                  var start = block * fieldCount, ordered = [], adjacency = 0;
                  for (var s = start; s < start + fieldCount; s++) if (best[s] > 0) ordered.push(best[s]);
                  ordered.sort(function (x, y) { return y - x; });
                  if (position > 0) {
                    for (s = start; s < start + fieldCount; s++) if (previous[s] > 0) adjacency = Math.max(adjacency, Math.min(previous[s], best[s]));
                  }
                  var rest = 0;
                  for (var o = 1; o < ordered.length; o++) rest += ordered[o];
                  scores[block] += ordered[0] + data.otherFieldsShare * rest + data.adjacencyShare * adjacency;
                  if (required[position]) matched[block]++;
                  scored[block] = 1;
                  isTouched[block] = 0;
                });
                previousTouched.forEach(function (block) {
                  for (var s = block * fieldCount; s < (block + 1) * fieldCount; s++) previous[s] = 0;
                });
                var swap = best; best = previous; previous = swap;
                previousTouched = touched;
                if (position > 0) addPhrase(queryWords[position - 1], queryWord);
              });
              var joined = queryWords.join("-"), folded = fold(query);
              for (b = 0; b < count; b++) {
                if (!allowed[b]) continue;
                var name = blocks[b].n;
                if (name === joined || name === folded) { scores[b] += 10000; matched[b] = requiredCount; scored[b] = 1; }
                else if (name.startsWith(joined)) { scores[b] += 2000; scored[b] = 1; }
              }
              var candidates = [], complete = [];
              for (b = 0; b < count; b++) if (scored[b]) { candidates.push(b); if (matched[b] === requiredCount) complete.push(b); }
              var partial = complete.length === 0;
              var ranked = (partial ? candidates : complete).sort(function (x, y) {
                if (matched[x] !== matched[y]) return matched[y] - matched[x];
                if (scores[x] !== scores[y]) return scores[y] - scores[x];
                return x - y;
              });
              return { blocks: ranked, partial: partial && ranked.length > 0 };
            }

            function parseFilters(given) {
              var chosen = {};
              if (given.platform) { var parts = given.platform.split(" "); chosen.platform = { name: parts[0], version: versionParts(parts[1] || "0") }; }
              if (given.level) chosen.level = given.level;
              if (given.category) chosen.category = given.category;
              if (given.tag) chosen.tag = given.tag;
              return chosen;
            }

            // SearchRanking.suggestions: names near the folded query, else vocabulary words near
            // its first word (WordMatcher.suggestions: lowercased, within max(2, length / 3)
            // edits, nearest first, then in code-point order, three at most).
            function near(word, candidates) {
              var lowered = word.toLowerCase(), scalars = Array.from(lowered);
              var limit = Math.max(2, Math.floor(Array.from(word).length / 3)), close = [];
              candidates.forEach(function (candidate) {
                var d = distance(scalars, Array.from(candidate.toLowerCase()), limit);
                if (d <= limit) close.push([candidate, d]);
              });
              close.sort(function (x, y) { return x[1] !== y[1] ? x[1] - y[1] : (x[0] < y[0] ? -1 : (x[0] > y[0] ? 1 : 0)); });
              return close.slice(0, 3).map(function (pair) { return pair[0]; });
            }
            function suggestions(query) {
              var found = near(fold(query), blocks.map(function (block) { return block.n; }));
              var first = wordsOf(query)[0];
              if (found.length === 0 && first !== undefined) found = near(first, words);
              return found;
            }

            return {
              count: count,
              suggestions: suggestions,
              name: function (block) { return blocks[block].n; },
              // The HTML of a card the page does not hold (SitePages.card).
              cardHTML: function (block) { return data.cards[block - data.staticCards]; },
              rank: function (query, filters) { return rank(query, parseFilters(filters || {})); }
            };
          }

          // The index page: cards, search box, filters, status line and "Show more". The search
          // data (assets/search-data.js) is loaded once the first cards are on screen.
          function startIndex(list) {
            var more = document.getElementById("more");
            var input = document.getElementById("q");
            var selects = { platform: document.getElementById("platform"), level: document.getElementById("level"), category: document.getElementById("category"), tag: document.getElementById("tag") };
            var suggestionLine = document.getElementById("suggestions"), suggestionList = document.getElementById("suggestion-list");
            var status = document.getElementById("status");
            var pageSize = Math.max(1, parseInt(list.getAttribute("data-page-size"), 10) || 100);
            var total = parseInt(list.getAttribute("data-total"), 10) || list.children.length;
            var cards = Array.prototype.slice.call(list.children);
            var search = null, current = null, limit = pageSize, waiting = [];

            function engine() {
              if (!search && window.blocksSearchData) {
                var tagOptions = Array.prototype.slice.call(selects.tag.options, 1).map(function (option) { return option.value; });
                search = makeSearch(window.blocksSearchData, tagOptions);
              }
              return search;
            }

            // Runs now when the data is here, else as soon as it is.
            function withEngine(task) {
              if (engine()) { task(); } else { waiting.push(task); }
            }

            function filters() {
              return { platform: selects.platform.value, level: selects.level.value, category: selects.category.value, tag: selects.tag.value };
            }

            // "Did you mean" under a search that found nothing: each suggestion a button that
            // searches for it.
            function suggest(query) {
              var names = query.trim() === "" ? [] : engine().suggestions(query);
              suggestionList.replaceChildren();
              names.forEach(function (name, position) {
                var button = document.createElement("button");
                button.type = "button";
                button.className = "suggestion";
                button.setAttribute("data-suggest", name);
                button.textContent = name;
                if (position > 0) suggestionList.appendChild(document.createTextNode(" "));
                suggestionList.appendChild(button);
              });
              suggestionLine.hidden = names.length === 0;
            }
            suggestionList.addEventListener("click", function (event) {
              var button = event.target instanceof Element ? event.target.closest("[data-suggest]") : null;
              if (!button) return;
              input.value = button.getAttribute("data-suggest");
              update();
              input.focus();
            });

            function say(key, number) {
              var spans = status.querySelectorAll("[lang]");
              for (var i = 0; i < spans.length; i++) {
                var lang = spans[i].getAttribute("lang");
                var text = status.getAttribute("data-" + key + "-" + lang) || "";
                spans[i].textContent = text.replace("{n}", String(number));
              }
            }

            // Cards not in the page yet are made from their HTML, all in one parse.
            function ensureCards(ids) {
              var missing = ids.filter(function (id) { return !cards[id]; });
              if (missing.length === 0) return;
              var template = document.createElement("template");
              template.innerHTML = missing.map(function (id) { return engine().cardHTML(id); }).join("");
              var made = template.content.children;
              for (var i = 0; i < missing.length; i++) cards[missing[i]] = made[i];
            }

            function show(outcome) {
              current = outcome;
              var ids = outcome.blocks.slice(0, limit);
              ensureCards(ids);
              var fragment = document.createDocumentFragment();
              ids.forEach(function (id) { fragment.appendChild(cards[id]); });
              list.replaceChildren(fragment);
              more.hidden = outcome.blocks.length <= ids.length;
              var found = outcome.blocks.length;
              suggest(found === 0 ? input.value : "");
              if (found === 0) say("none", 0);
              else if (outcome.partial) say("partial", found);
              else say(found === 1 ? "one" : "many", found);
            }

            function update() {
              limit = pageSize;
              show(engine().rank(input.value, filters()));
            }

            // The page's own search, for tests and for anyone scripting the page: block names, best first.
            window.blocksSearch = function (query, given) {
              var search = engine();
              if (!search) return null;
              var outcome = search.rank(query, given);
              return { names: outcome.blocks.map(search.name), partial: outcome.partial, suggestions: outcome.blocks.length === 0 ? search.suggestions(query) : [] };
            };

            function later() { withEngine(update); }
            input.addEventListener("input", later);
            Object.keys(selects).forEach(function (key) { selects[key].addEventListener("change", later); });
            input.form.addEventListener("submit", function (event) { event.preventDefault(); later(); });
            more.addEventListener("click", function () {
              withEngine(function () {
                limit += pageSize;
                show(current || engine().rank("", {}));
              });
            });

            var parameters = new URLSearchParams(window.location.search);
            var asked = false;
            if (parameters.has("q")) { input.value = parameters.get("q"); asked = true; }
            Object.keys(selects).forEach(function (key) {
              if (parameters.has(key)) { selects[key].value = parameters.get(key); asked = true; }
            });
            if (asked) {
              later();
            } else {
              // Every block in name order: the page already shows the first of them.
              more.hidden = total <= cards.length;
              if (window.performance && performance.mark) performance.mark("blocks-first-results");
            }
            var loader = document.createElement("script");
            loader.src = list.getAttribute("data-search");
            loader.onload = function () {
              var tasks = waiting;
              waiting = [];
              tasks.forEach(function (task) { task(); });
              if (window.performance && performance.mark) {
                if (asked) performance.mark("blocks-first-results");
                performance.mark("blocks-search-ready");
              }
            };
            document.body.appendChild(loader);
          }
        })();

        """#
}
