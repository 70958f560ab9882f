/// The HTML of the site's pages: the index with every block as a card, a search box and
/// filters, and one page per block. Pages are plain functions of what they show, so the
/// same catalog always gives the same bytes, and a block's page changes only when that
/// block does.
///
/// Every page has the same frame: a skip link, a header with the language switch, one
/// `main`, and a footer; links are relative and name `index.html`, so the site works from
/// `file://` and from any folder a mirror puts it in.
enum SitePages {
    /// A shipped file of a block, as its archives hold it (license header included).
    struct SourceFile: Sendable, Equatable {
        var path: String
        var role: BlockFile.Role
        var text: String
    }

    static func escape(_ text: String) -> String { HTMLEscaping.escape(text) }

    // MARK: - The frame

    static let generatorAttribute = escape(SiteBuilder.generator)

    static func page(title: SiteText, description: String, prefix: String, main: String) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="description" content="\(escape(description))">
            <meta name="generator" content="\(generatorAttribute)">
            <title data-en="\(escape(title.en))" data-es="\(escape(title.es))">\(escape(title.en))</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="\(prefix)\(SiteBuilder.stylesheetPath)">
            <script>\(SiteScript.head)</script>
            <script src="\(prefix)\(SiteBuilder.scriptPath)" defer></script>
            </head>
            <body>
            <a class="skip" href="#main">\(SiteText.skipToContent.html)</a>
            <header class="site-header">
            <a class="site-name" href="\(prefix)index.html">blocks</a>
            <div class="languages" role="group" \(SiteText.language.attribute("aria-label"))>
            <button type="button" data-set-lang="en" lang="en" aria-pressed="true">English</button>
            <button type="button" data-set-lang="es" lang="es" aria-pressed="false">Español</button>
            </div>
            </header>

            """
        html.reserveCapacity(html.utf8.count + main.utf8.count + 256)
        html += main
        html += """
            <footer class="site-footer">
            <p>\(SiteText.footer.html)</p>
            </footer>
            </body>
            </html>

            """
        return html
    }

    /// "iOS 18.0+", as `blocks list` prints it.
    static func platformText(_ manifest: BlockManifest) -> String { BlockSummary.platformText(manifest) }

    /// A copy button for the element `target`, and the status line that says it worked.
    static func copyButton(for target: String, label: String) -> String {
        """
        <button type="button" class="copy" data-copy="\(target)" aria-describedby="\(target)-label" \
        \(copyTexts)</button>\
        <span class="visually-hidden" id="\(target)-label">\(escape(label))</span>\
        <span class="copy-status" id="\(target)-status" role="status"></span>
        """
    }

    /// The same on every copy button, so made once.
    static let copyTexts = """
        data-copied-en="\(escape(SiteText.copied.en))" data-copied-es="\(escape(SiteText.copied.es))" \
        data-failed-en="\(escape(SiteText.copyFailed.en))" data-failed-es="\(escape(SiteText.copyFailed.es))">\(SiteText.copy.html)
        """

    static func tagList(_ tags: [String], lang: String, translated: Bool) -> String {
        var html = "<ul class=\"tags\(translated ? " t" : "")\" lang=\"\(lang)\">"
        for tag in tags { html += "<li>\(escape(tag))</li>" }
        return html + "</ul>"
    }

    // MARK: - The index

    /// How many cards the index page holds as HTML, and how many more each "Show more"
    /// adds. The cards of a larger catalog travel as HTML strings inside the search data
    /// and are parsed only when shown: 10,000 cards in the page's DOM cost Chromium
    /// seconds before the first paint.
    static let staticCards = 100

    /// The index page for manifests already sorted by name (the order of the search data).
    /// `tags` are the tag filter's options (`tagOptions`).
    static func index(_ manifests: [BlockManifest], tags: [(value: String, label: SiteText)]) -> String {
        var main = """
            <main id="main">
            <h1>\(SiteText.siteName.html)</h1>
            <p class="tagline">\(SiteText.tagline.html)</p>
            <form class="search" role="search" action="index.html" method="get">
            <label for="q">\(SiteText.search.html)</label>
            <input type="search" id="q" name="q" \(SiteText.searchPlaceholder.attribute("placeholder")) autocomplete="off" spellcheck="false">
            <fieldset class="filters">
            <legend>\(SiteText.filters.html)</legend>
            \(select(id: "platform", label: SiteText.runsOn, any: SiteText.anyPlatform, options: platformOptions(manifests)))
            \(select(id: "level", label: SiteText.level, any: SiteText.anyLevel, options: levelOptions(manifests)))
            \(select(id: "category", label: SiteText.category, any: SiteText.anyCategory, options: categoryOptions(manifests)))
            \(select(id: "tag", label: SiteText.tag, any: SiteText.anyTag, options: tags))
            </fieldset>
            </form>
            <h2 id="blocks-heading">\(SiteText.blocksList.html)</h2>
            \(status(count: manifests.count))
            <p id="suggestions" class="status" hidden>\(SiteText.didYouMean.html) <span id="suggestion-list"></span></p>
            <ul id="cards" class="cards" aria-labelledby="blocks-heading" data-page-size="\(staticCards)" data-total="\(manifests.count)" data-search="\(SiteBuilder.searchDataPath)">

            """
        main.reserveCapacity(manifests.count * 1200)
        let shown = manifests.prefix(staticCards)
        for manifest in shown { main += card(manifest) + "\n" }
        main += "</ul>\n"
        main += "<p><button type=\"button\" id=\"more\" hidden>\(SiteText.showMore.html)</button></p>\n"
        // Without a script, every block is still two links away, through the list page: in
        // this page the list of 10,000 blocks was 1.9 MB that a browser running scripts
        // reads as text before the deferred script draws anything.
        main += "<noscript>\n<p>\(SiteText.noScript.html) <a href=\"\(SiteBuilder.blockListPath)\">\(SiteText.everyBlock.html)</a></p>\n"
        main += "</noscript>\n</main>\n"
        return page(title: SiteText("SwiftUI blocks · blocks", "Bloques de SwiftUI · blocks"), description: SiteText.tagline.en, prefix: "", main: main)
    }

    /// `all-blocks.html`: every block as a link with its title, for a browser without
    /// scripts (the index page's `<noscript>` points here) and for crawlers.
    static func blockList(_ manifests: [BlockManifest]) -> String {
        var main = """
            <main id="main">
            <nav class="breadcrumbs" \(breadcrumbLabel)><a href="index.html">\(SiteText.allBlocks.html)</a></nav>
            <h1>\(SiteText.everyBlock.html)</h1>
            <ul class="all-blocks">

            """
        main.reserveCapacity(manifests.count * 160)
        for manifest in manifests {
            let title = SiteText(manifest.title, in: manifest).html
            main += "<li><a href=\"\(SiteBuilder.pagePath(manifest.name))\">\(title)</a> <code>\(escape(manifest.name))</code></li>\n"
        }
        main += "</ul>\n</main>\n"
        return page(title: SiteText("Every block · blocks", "Todos los bloques · blocks"), description: SiteText.tagline.en, prefix: "", main: main)
    }

    /// `assets/search-data.js`: the search data (`SiteSearchData`) as one assignment, with
    /// the HTML of the cards the index page does not hold. A script file of its own, so the
    /// index page stays small and draws its first cards at once; the page loads it after
    /// that (a `file://` page may load a script, though not fetch a JSON file). The blocks
    /// carry the names in their code, which the page searches too, and their tags as places
    /// in the tag filter's options (`tagOptions`), so no tag's raw text is in the file.
    static func searchData(_ blocks: [SearchableBlock], tags: [(value: String, label: SiteText)]) -> Data {
        let later = ConcurrentMap.map(blocks.dropFirst(staticCards).map(\.manifest), card)
        let data = SiteSearchData.json(sortedBlocks: blocks, tagOptions: tags.map(\.value), staticCards: min(staticCards, blocks.count), laterCards: later)
        var bytes = Data("window.blocksSearchData = ".utf8)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: ";\n".utf8)
        return bytes
    }

    /// The live line over the cards. The script fills it from the `data-` texts, in both
    /// languages; `{n}` stands for the number.
    static func status(count: Int) -> String {
        let many = SiteText("{n} blocks", "{n} bloques")
        let one = SiteText("1 block", "1 bloque")
        let shown = count == 1 ? one : SiteText(many.en.replacing("{n}", with: String(count)), many.es.replacing("{n}", with: String(count)))
        let texts: [(String, SiteText)] = [
            ("many", many), ("one", one), ("none", SiteText.noResults),
            ("partial", SiteText("{n}: " + SiteText.partialResults.en, "{n}: " + SiteText.partialResults.es)),
        ]
        var attributes = ""
        for (key, text) in texts { attributes += " data-\(key)-en=\"\(escape(text.en))\" data-\(key)-es=\"\(escape(text.es))\"" }
        return
            "<p id=\"status\" class=\"status\" role=\"status\"\(attributes)><span class=\"t\" lang=\"en\">\(escape(shown.en))</span><span class=\"t\" lang=\"es\">\(escape(shown.es))</span></p>"
    }

    static func select(id: String, label: SiteText, any: SiteText, options: [(value: String, label: SiteText)]) -> String {
        var html = "<label>\(label.html)<select id=\"\(id)\" name=\"\(id)\">"
        html += "<option value=\"\" data-en-text=\"\(escape(any.en))\" data-es-text=\"\(escape(any.es))\">\(escape(any.en))</option>"
        for option in options {
            html +=
                "<option value=\"\(escape(option.value))\" data-en-text=\"\(escape(option.label.en))\" data-es-text=\"\(escape(option.label.es))\">\(escape(option.label.en))</option>"
        }
        return html + "</select></label>"
    }

    /// One option per platform and minimum version in the catalog, as `--platform` takes
    /// it ("iOS 18"): choosing it keeps the blocks that run there.
    static func platformOptions(_ manifests: [BlockManifest]) -> [(value: String, label: SiteText)] {
        var seen: Set<String> = []
        var options: [(platform: String, version: [Int], text: String)] = []
        for manifest in manifests {
            for (platform, minimum) in manifest.platforms {
                var parts = PlatformFilter.parse(minimum)
                while parts.count > 1, parts.last == 0 { parts.removeLast() }
                let text = parts.map(String.init).joined(separator: ".")
                guard seen.insert("\(platform) \(text)").inserted else { continue }
                options.append((platform, parts, text))
            }
        }
        options.sort { $0.platform != $1.platform ? $0.platform < $1.platform : PlatformFilter.compare($0.version, $1.version) < 0 }
        return options.map { ("\($0.platform) \($0.text)", SiteText("\($0.platform) \($0.text)", "\($0.platform) \($0.text)")) }
    }

    static func levelOptions(_ manifests: [BlockManifest]) -> [(value: String, label: SiteText)] {
        let present = Set(manifests.map { $0.level.lowercased() })
        let known = ManifestValidator.levels.filter(present.contains)
        let others = present.subtracting(known).sorted()
        return (known + others).map { ($0, SiteText.level($0)) }
    }

    static func categoryOptions(_ manifests: [BlockManifest]) -> [(value: String, label: SiteText)] {
        var labels: [String: String] = [:]
        for manifest in manifests where labels[TextNormalizer.fold(manifest.category)] == nil {
            labels[TextNormalizer.fold(manifest.category)] = manifest.category
        }
        return labels.keys.sorted().map { ($0, SiteText(labels[$0]!, labels[$0]!)) }
    }

    /// How many tags the tag filter offers: a catalog of thousands of blocks has thousands
    /// of tags, and a menu that long helps no one.
    static let tagOptionLimit = 100

    /// The tags of every language, as `--tag` takes them (folded, so `Pestañas` and
    /// `pestanas` are one), the `tagOptionLimit` most used, in folded order.
    static func tagOptions(_ manifests: [BlockManifest]) -> [(value: String, label: SiteText)] {
        var uses: [String: (label: String, count: Int)] = [:]
        for manifest in manifests {
            var seen: Set<String> = []
            for tag in manifest.tags.keys.sorted().flatMap({ manifest.tags[$0] ?? [] }) {
                let folded = TextNormalizer.fold(tag)
                guard seen.insert(folded).inserted else { continue }
                uses[folded, default: (tag, 0)].count += 1
            }
        }
        let chosen = uses.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }.prefix(tagOptionLimit)
        return chosen.map(\.key).sorted().map { ($0, SiteText(uses[$0]!.label, uses[$0]!.label)) }
    }

    static func card(_ manifest: BlockManifest) -> String {
        let name = escape(manifest.name)
        var html = "<li class=\"card\" id=\"block-\(name)\">"
        html += "<h3><a href=\"\(SiteBuilder.pagePath(manifest.name))\">\(SiteText(manifest.title, in: manifest).html)</a></h3>"
        html += "<p class=\"summary\">\(SiteText(manifest.summary, in: manifest).html)</p>"
        html +=
            "<ul class=\"meta\"><li class=\"badge\">\(escape(platformText(manifest)))</li><li class=\"level\">\(SiteText.level(manifest.level).html)</li><li class=\"level\"><code>\(name)</code></li></ul>"
        html += tagList(manifest.tags["en"] ?? [], lang: "en", translated: true)
        html += tagList(manifest.tags["es"] ?? manifest.tags["en"] ?? [], lang: "es", translated: true)
        return html + "</li>"
    }

    // MARK: - A block's page

    static let breadcrumbLabel = SiteText("Breadcrumb", "Ruta").attribute("aria-label")

    static func block(_ entry: RegistryEntry, versions: [PublishedVersion], files: [SourceFile]) -> String {
        let manifest = entry.manifest
        let prefix = "../../"
        let title = SiteText(manifest.title, in: manifest)
        var main = """
            <main id="main" class="block">
            <nav class="breadcrumbs" \(breadcrumbLabel)><a href="\(prefix)index.html">\(SiteText.allBlocks.html)</a></nav>
            <article>
            <h1>\(title.html)</h1>
            <p class="lede">\(SiteText(manifest.summary, in: manifest).html)</p>
            <ul class="meta"><li class="badge">\(escape(platformText(manifest)))</li><li class="level">\(SiteText.level(manifest.level).html)</li><li class="level">\(SiteText.version.html) \(escape(manifest.version))</li></ul>

            """
        main += section(
            "install", SiteText.install,
            """
            <p>\(SiteText.installNote.html)</p>
            <div class="command"><code id="add-command">blocks add \(escape(manifest.name))</code>\(copyButton(for: "add-command", label: "blocks add \(manifest.name)"))</div>
            """)
        main += section(
            "details", SiteText.details,
            facts([
                (SiteText.version, escape(manifest.version)),
                (SiteText.platforms, escape(platformText(manifest))),
                (SiteText.level, SiteText.level(manifest.level).html),
                (SiteText.category, escape(manifest.category)),
                (SiteText.license, escape(manifest.license)),
                (SiteText.authors, escape(manifest.authors.joined(separator: ", "))),
                (SiteText.origin, escape(manifest.origin)),
            ]))
        var tags = ""
        for language in manifest.tags.keys.sorted() {
            let heading = language == "en" ? SiteText.englishTags : language == "es" ? SiteText.spanishTags : SiteText(language, language)
            tags += "<h3>\(heading.html)</h3>\n" + tagList(manifest.tags[language] ?? [], lang: language, translated: false) + "\n"
        }
        main += section("tags", SiteText.tags, tags)
        if !manifest.accessibility.isEmpty {
            let notes = manifest.accessibility.keys.sorted().map { key in
                (SiteText.accessibilityKey(key), "<span lang=\"en\">\(escape(manifest.accessibility[key] ?? ""))</span>")
            }
            main += section("accessibility", SiteText.accessibility, facts(notes))
        }
        main += section("api", SiteText.api, apiTable(manifest.api))
        main += section("downloads", SiteText.downloads, downloads(entry.archives, prefix: prefix))
        main += section("versions", SiteText.versions, versionTable(versions, prefix: prefix))
        var code = ""
        for (position, file) in files.enumerated() {
            let id = "file-\(position + 1)"
            code += """
                <div class="file">
                <div class="file-head"><h3 id="\(id)-title">\(escape(file.path)) <span class="role">\(SiteText.role(file.role).html)</span></h3>\(copyButton(for: id, label: file.path))</div>
                <pre class="code" tabindex="0" aria-labelledby="\(id)-title"><code id="\(id)">\(SwiftHighlighter.html(file.text))</code></pre>
                </div>

                """
        }
        main += section("files", SiteText.files, code)
        main += "</article>\n</main>\n"
        return page(title: SiteText(title.en + " · blocks", title.es + " · blocks"), description: manifest.englishSummary, prefix: prefix, main: main)
    }

    static func section(_ id: String, _ heading: SiteText, _ body: String) -> String {
        "<section aria-labelledby=\"\(id)\">\n<h2 id=\"\(id)\">\(heading.html)</h2>\n\(body)\n</section>\n"
    }

    static func facts(_ rows: [(SiteText, String)]) -> String {
        var html = "<dl class=\"facts\">"
        for (term, value) in rows { html += "<dt>\(term.html)</dt><dd>\(value)</dd>" }
        return html + "</dl>"
    }

    static func apiTable(_ parameters: [APIParameter]) -> String {
        var html = """
            <div class="table-wrap"><table>
            <caption>\(SiteText.apiCaption.html)</caption>
            <thead><tr><th scope="col">\(SiteText.parameter.html)</th><th scope="col">\(SiteText.type.html)</th><th scope="col">\(SiteText.defaultValue.html)</th><th scope="col">\(SiteText.description.html)</th></tr></thead>
            <tbody>

            """
        for parameter in parameters {
            let value = parameter.default.map { "<code>\(escape($0))</code>" } ?? SiteText.noDefault.html
            html +=
                "<tr><th scope=\"row\"><code>\(escape(parameter.name))</code></th><td><code>\(escape(parameter.type))</code></td><td>\(value)</td><td lang=\"en\">\(escape(parameter.description))</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>"
    }

    /// A link to a registry file from a block's page; `path` is relative to the registry root.
    static func link(_ path: String, prefix: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "<a href=\"\(escape(prefix + path))\" download>\(escape(name))</a>"
    }

    static func downloads(_ archives: [String: RegistryArchive], prefix: String) -> String {
        var html = "<ul class=\"downloads\">"
        for format in archives.keys.sorted() {
            guard let archive = archives[format] else { continue }
            html +=
                "<li>\(link(archive.path, prefix: prefix)) (\(archive.size) \(SiteText.bytes.html))<br>SHA-256 <code class=\"sha\">\(escape(archive.sha256))</code></li>"
        }
        return html + "</ul>"
    }

    static func versionTable(_ versions: [PublishedVersion], prefix: String) -> String {
        var html = """
            <div class="table-wrap"><table>
            <thead><tr><th scope="col">\(SiteText.version.html)</th><th scope="col">\(SiteText.published.html)</th><th scope="col">\(SiteText.archives.html)</th></tr></thead>
            <tbody>

            """
        for version in versions {
            let date = version.published.map { "<time datetime=\"\(escape($0))\">\(escape(String($0.prefix(10))))</time>" } ?? SiteText.unknownDate.html
            let links = version.archives.keys.sorted().compactMap { version.archives[$0] }.map { link($0.path, prefix: prefix) }.joined(separator: " ")
            html += "<tr><th scope=\"row\">\(escape(version.version))</th><td>\(date)</td><td>\(links)</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>"
    }
}
