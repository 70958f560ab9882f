/// Fills the scaffold templates for a block name.
enum Scaffold {
    /// `segmented-tabs` → `SegmentedTabs`.
    static func typeName(_ name: String) -> String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func files(name: String) -> [String: String] {
        let type = typeName(name)
        let title = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        let values = ["name": name, "Type": type, "Title": title]
        return [
            "block.json": TemplateText.fill(TemplateText.named("scaffold/block.json"), values),
            "\(type).swift": TemplateText.fill(TemplateText.named("scaffold/Component.swift"), values),
            "\(type)Logic.swift": TemplateText.fill(TemplateText.named("scaffold/Logic.swift"), values),
            "\(type)Demo.swift": TemplateText.fill(TemplateText.named("scaffold/Demo.swift"), values),
        ]
    }
}
