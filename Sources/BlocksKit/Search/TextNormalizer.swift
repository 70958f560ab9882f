import Foundation

/// Folds text for matching: lowercase, accents removed (`pestañas` → `pestanas`),
/// split into words on anything that is not a letter or digit.
public enum TextNormalizer {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    public static func words(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
}
