#if os(iOS)
import SwiftUI

/// A news-reader demo of ``ScrollingStrip``: a strip of categories over a list that
/// follows it, with a button that adds and removes a category to show selection repair.
@available(iOS 18.0, *)
struct ScrollingStripDemo: View {
    @State private var categories = ["Top", "World", "Business", "Technology", "Science", "Health", "Sport", "Culture", "Travel"]
    @State private var category = "Science"

    var body: some View {
        NavigationStack {
            List(1...20, id: \.self) { number in
                Text("\(category) story \(number)")
            }
            .safeAreaInset(edge: .top, spacing: 0) {
                ScrollingStrip(tabs: categories, selection: $category, tint: .pink)
                    .background(.bar)
            }
            .navigationTitle("News")
            .toolbar {
                Button(categories.contains("Local") ? "Remove Local" : "Add Local") {
                    if let index = categories.firstIndex(of: "Local") {
                        categories.remove(at: index)
                    } else {
                        categories.insert("Local", at: 1)
                        category = "Local"
                    }
                }
            }
        }
    }
}

@available(iOS 18.0, *)
#Preview("Scrolling strip") {
    ScrollingStripDemo()
}

@available(iOS 18.0, *)
#Preview("Scrolling strip, right to left") {
    ScrollingStripDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
