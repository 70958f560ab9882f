#if os(iOS)
import SwiftUI

/// A demo of ``SegmentedPill``: a short row of icon-and-text segments that fits, a long
/// row of cities that scrolls and keeps the selection in view, and the three sizes.
@available(iOS 18.0, *)
struct SegmentedPillDemo: View {
    enum Sort: Hashable, CaseIterable {
        case newest, popular, nearby

        var title: LocalizedStringKey {
            switch self {
            case .newest: "Newest"
            case .popular: "Popular"
            case .nearby: "Nearby"
            }
        }

        var symbol: String {
            switch self {
            case .newest: "clock"
            case .popular: "flame"
            case .nearby: "location"
            }
        }
    }

    @State private var sort = Sort.newest
    @State private var city = "Lisbon"
    @State private var size = SegmentedPillSize.regular

    private let cities = ["Amsterdam", "Berlin", "Cairo", "Dublin", "Lisbon", "Madrid", "Nairobi", "Oslo", "Paris", "Quito", "Rome", "Seoul"]

    var body: some View {
        NavigationStack {
            VStack(alignment: .leading, spacing: 24) {
                SegmentedPill(Sort.allCases, selection: $sort, title: "Sort", size: size) { sort, _ in
                    Label(sort.title, systemImage: sort.symbol)
                }
                SegmentedPill(cities, selection: $city, title: "City", size: size, tint: .orange) { city, _ in
                    Text(city)
                }
                Picker("Size", selection: $size) {
                    Text("Small").tag(SegmentedPillSize.small)
                    Text("Regular").tag(SegmentedPillSize.regular)
                    Text("Large").tag(SegmentedPillSize.large)
                }
                .pickerStyle(.segmented)
                Button("Select Seoul in code") { city = "Seoul" }
                Spacer()
            }
            .padding()
            .navigationTitle("Segments")
        }
    }
}

@available(iOS 18.0, *)
#Preview("Sliding segmented control") {
    SegmentedPillDemo()
}

@available(iOS 18.0, *)
#Preview("Sliding segmented control, right to left") {
    SegmentedPillDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
