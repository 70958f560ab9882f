/// The site's own words in English and Spanish. Both languages are written into every
/// page, each in an element with its `lang`, and the stylesheet shows the chosen one
/// (`SiteStylesheet`), so switching needs no second page and no request.
struct SiteText: Sendable, Equatable {
    let en: String
    let es: String
    /// Both languages as `<span class="t" lang="…">`, or the text alone when they are the
    /// same. Made once: the site's own texts appear on 10,000 pages.
    let html: String

    init(_ en: String, _ es: String) {
        self.en = en
        self.es = es
        html =
            en == es
            ? HTMLEscaping.escape(en)
            : "<span class=\"t\" lang=\"en\">\(HTMLEscaping.escape(en))</span><span class=\"t\" lang=\"es\">\(HTMLEscaping.escape(es))</span>"
    }

    /// A catalog field by language (`title`, `summary`), English where Spanish is missing,
    /// as `BlockManifest.localized` reads it.
    init(_ field: [String: String], in manifest: BlockManifest) {
        self.init(manifest.localized(field, language: "en"), manifest.localized(field, language: "es"))
    }

    /// For attributes (a placeholder, a label): the English value, and the Spanish one in
    /// `data-es-<name>` for the script to swap in.
    func attribute(_ name: String) -> String {
        "\(name)=\"\(HTMLEscaping.escape(en))\" data-en-\(name)=\"\(HTMLEscaping.escape(en))\" data-es-\(name)=\"\(HTMLEscaping.escape(es))\""
    }

    static let siteName = SiteText("blocks: SwiftUI blocks", "blocks: bloques de SwiftUI")
    static let tagline = SiteText(
        "Small, well-made SwiftUI components to copy into your app and then own.",
        "Componentes pequeños y cuidados de SwiftUI para copiar en tu app y hacerlos tuyos.")
    static let skipToContent = SiteText("Skip to content", "Saltar al contenido")
    static let language = SiteText("Language", "Idioma")
    static let search = SiteText("Search blocks", "Buscar bloques")
    static let searchPlaceholder = SiteText("tabs, pestañas, pager…", "pestañas, tabs, paginador…")
    static let filters = SiteText("Filters", "Filtros")
    static let platform = SiteText("Platform", "Plataforma")
    static let anyPlatform = SiteText("Any platform", "Cualquier plataforma")
    static let runsOn = SiteText("Runs on", "Funciona en")
    static let level = SiteText("Level", "Nivel")
    static let anyLevel = SiteText("Any level", "Cualquier nivel")
    static let category = SiteText("Category", "Categoría")
    static let anyCategory = SiteText("Any category", "Cualquier categoría")
    static let tag = SiteText("Tag", "Etiqueta")
    static let anyTag = SiteText("Any tag", "Cualquier etiqueta")
    static let didYouMean = SiteText("Did you mean:", "¿Quisiste decir:")
    static let blocksList = SiteText("Blocks", "Bloques")
    static let allBlocks = SiteText("All blocks", "Todos los bloques")
    static let noResults = SiteText("No block matches. Try fewer words or other filters.", "Ningún bloque coincide. Prueba con menos palabras u otros filtros.")
    static let partialResults = SiteText("No block has every word; these have the most.", "Ningún bloque tiene todas las palabras; estos tienen más.")
    static let noScript = SiteText("Search and filters need JavaScript.", "La búsqueda y los filtros necesitan JavaScript.")
    static let everyBlock = SiteText("Every block, on one page", "Todos los bloques, en una página")
    static let showMore = SiteText("Show more blocks", "Mostrar más bloques")
    static let tags = SiteText("Tags", "Etiquetas")
    static let englishTags = SiteText("Tags in English", "Etiquetas en inglés")
    static let spanishTags = SiteText("Tags in Spanish", "Etiquetas en español")
    static let details = SiteText("Details", "Detalles")
    static let version = SiteText("Version", "Versión")
    static let platforms = SiteText("Platforms", "Plataformas")
    static let license = SiteText("License", "Licencia")
    static let authors = SiteText("Authors", "Autores")
    static let origin = SiteText("Origin", "Origen")
    static let install = SiteText("Add it to your project", "Añádelo a tu proyecto")
    static let installNote = SiteText(
        "Run this in your app's folder: it copies the files with an MIT header and records them in blocks.lock.",
        "Ejecútalo en la carpeta de tu app: copia los archivos con una cabecera MIT y los anota en blocks.lock.")
    static let copy = SiteText("Copy", "Copiar")
    static let copied = SiteText("Copied", "Copiado")
    static let copyFailed = SiteText("Select the text and copy it", "Selecciona el texto y cópialo")
    static let downloads = SiteText("Downloads", "Descargas")
    static let accessibility = SiteText("Accessibility", "Accesibilidad")
    static let api = SiteText("API", "API")
    static let apiCaption = SiteText("Parameters and modifiers", "Parámetros y modificadores")
    static let parameter = SiteText("Parameter", "Parámetro")
    static let type = SiteText("Type", "Tipo")
    static let defaultValue = SiteText("Default", "Valor por defecto")
    static let description = SiteText("Description", "Descripción")
    static let noDefault = SiteText("none", "ninguno")
    static let files = SiteText("Files", "Archivos")
    static let versions = SiteText("Published versions", "Versiones publicadas")
    static let published = SiteText("Published", "Publicada")
    static let archives = SiteText("Archives", "Archivos comprimidos")
    static let unknownDate = SiteText("before dates were recorded", "antes de registrar fechas")
    static let bytes = SiteText("bytes", "bytes")
    static let footer = SiteText(
        "Built by blocks build --site. Every page works offline, from a mirror or from file://.",
        "Generado por blocks build --site. Cada página funciona sin conexión, desde un espejo o desde file://.")

    /// The levels a manifest may name; the known ones made once, as they appear on every page.
    static func level(_ level: String) -> SiteText {
        switch level {
        case "beginner": return beginner
        case "intermediate": return intermediate
        case "advanced": return advanced
        default: return SiteText(level, level)
        }
    }

    static let beginner = SiteText("Beginner", "Principiante")
    static let intermediate = SiteText("Intermediate", "Intermedio")
    static let advanced = SiteText("Advanced", "Avanzado")

    /// File roles, as `BlockFile.Role` names them.
    static func role(_ role: BlockFile.Role) -> SiteText {
        switch role {
        case .component: return component
        case .logic: return logic
        case .demo: return demo
        }
    }

    static let component = SiteText("component", "componente")
    static let logic = SiteText("logic", "lógica")
    static let demo = SiteText("demo", "demostración")

    /// The accessibility concepts `SearchWords.accessibilityConcepts` knows.
    static func accessibilityKey(_ key: String) -> SiteText {
        switch key {
        case "voiceOver": return SiteText("VoiceOver", "VoiceOver")
        case "dynamicType": return SiteText("Dynamic Type", "Dynamic Type (tamaño del texto)")
        case "reduceMotion": return SiteText("Reduce Motion", "Reducir movimiento")
        default: return SiteText(key, key)
        }
    }
}
