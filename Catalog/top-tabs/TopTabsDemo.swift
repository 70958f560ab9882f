#if os(iOS)
import SwiftUI

/// A messaging-app demo of ``TopTabs``: the standard look, and a custom uppercase look
/// switched with a toggle, each over content that follows the selected tab.
@available(iOS 17.0, *)
struct TopTabsDemo: View {
    private let titles = ["Chats", "Status", "Calls"]
    @State private var selection = 0
    @State private var usesCustomLabels = false

    var body: some View {
        NavigationStack {
            VStack(spacing: 0) {
                if usesCustomLabels {
                    TopTabs(titles, selection: $selection, tint: .green, indicatorInset: 12) { title, isSelected in
                        Text(title.uppercased())
                            .font(.footnote.weight(.bold))
                            .foregroundStyle(isSelected ? Color.green : Color.secondary)
                    }
                } else {
                    TopTabs(titles, selection: $selection)
                }

                List(1...12, id: \.self) { row in
                    Text("\(titles[TopTabsLogic.clampedIndex(selection, count: titles.count)]) \(row)")
                }
                .listStyle(.plain)
            }
            .navigationTitle("Messages")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                Toggle("Custom labels", isOn: $usesCustomLabels)
            }
        }
    }
}

@available(iOS 17.0, *)
#Preview("Top tabs") {
    TopTabsDemo()
}

@available(iOS 17.0, *)
#Preview("Top tabs, right to left") {
    TopTabsDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
