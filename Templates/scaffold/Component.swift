import SwiftUI

/// {{Title}}: describe what the block does and how to use it.
///
///     {{Type}}(items: ["One", "Two"], selection: $selection)
@available(iOS 18.0, *)
public struct {{Type}}: View {
    public var items: [String]
    @Binding public var selection: String

    public init(items: [String], selection: Binding<String>) {
        self.items = items
        self._selection = selection
    }

    public var body: some View {
        HStack {
            ForEach(items, id: \.self) { item in
                Button(item) { selection = item }
                    .accessibilityAddTraits({{Type}}Logic.isSelected(item, selection: selection) ? .isSelected : [])
            }
        }
    }
}
