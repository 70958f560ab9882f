#if os(iOS)
import SwiftUI

/// A music-app demo of ``SearchTabView``: three tabs and a search tab, a long list that
/// minimizes the tab bar as it scrolls, and a mini player accessory that shrinks to a
/// title and a play button inline with the minimized bar.
@available(iOS 26.0, *)
struct SearchTabViewDemo: View {
    enum Section: Hashable {
        case listenNow, library, radio, search

        var title: LocalizedStringKey {
            switch self {
            case .listenNow: "Listen Now"
            case .library: "Library"
            case .radio: "Radio"
            case .search: "Search"
            }
        }
    }

    @State private var section = Section.listenNow
    @State private var query = ""
    @State private var isPlaying = false
    @State private var newSongs = 120

    var body: some View {
        SearchTabView(
            selection: $section,
            searchText: $query,
            tabs: [
                SearchTab(value: Section.listenNow, title: "Listen Now", systemImage: "play.circle"),
                SearchTab(value: Section.library, title: "Library", systemImage: "square.stack", badge: .count(newSongs)),
                SearchTab(value: Section.radio, title: "Radio", systemImage: "dot.radiowaves.left.and.right"),
            ],
            search: Section.search,
            searchPrompt: "Artists, songs, lyrics"
        ) { section in
            List(1..<61, id: \.self) { row in
                Text("\(Text(section.title)) item \(row)")
            }
            .navigationTitle(section.title)
        } searchContent: { query in
            List {
                if query.isEmpty {
                    Text("Recent searches")
                } else {
                    Text("Results for \(query)")
                }
            }
            .navigationTitle("Search")
        } accessory: { style in
            MiniPlayer(style: style, isPlaying: $isPlaying)
        }
    }
}

@available(iOS 26.0, *)
private struct MiniPlayer: View {
    let style: SearchTabAccessoryStyle
    @Binding var isPlaying: Bool

    var body: some View {
        HStack(spacing: 12) {
            if style == .full {
                RoundedRectangle(cornerRadius: 6)
                    .fill(.pink)
                    .frame(width: 32, height: 32)
                    .accessibilityHidden(true)
            }
            VStack(alignment: .leading) {
                Text("A Song Title")
                    .font(.subheadline.weight(.semibold))
                    .lineLimit(1)
                if style == .full {
                    Text("An Artist")
                        .font(.caption)
                        .foregroundStyle(.secondary)
                        .lineLimit(1)
                }
            }
            Spacer(minLength: 0)
            Button {
                isPlaying.toggle()
            } label: {
                Image(systemName: isPlaying ? "pause.fill" : "play.fill")
            }
            .accessibilityLabel(isPlaying ? Text("Pause") : Text("Play"))
            if style == .full {
                Button {
                    isPlaying = true
                } label: {
                    Image(systemName: "forward.fill")
                }
                .accessibilityLabel(Text("Next"))
            }
        }
        .padding(.horizontal)
    }
}

@available(iOS 26.0, *)
#Preview("Tab view with search and accessory") {
    SearchTabViewDemo()
}

@available(iOS 26.0, *)
#Preview("Tab view with search and accessory, right to left") {
    SearchTabViewDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
