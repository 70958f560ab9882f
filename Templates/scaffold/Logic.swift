/// The pure decisions of {{Type}}, kept free of SwiftUI so they can be unit-tested anywhere.
public enum {{Type}}Logic {
    /// Whether `item` is the selected one.
    public static func isSelected(_ item: String, selection: String) -> Bool {
        item == selection
    }
}
