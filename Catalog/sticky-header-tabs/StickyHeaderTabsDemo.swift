#if os(iOS)
import SwiftUI

/// A profile-page demo of ``StickyHeaderTabs``: a header that fades and shrinks as it
/// scrolls away, three tabs of different lengths (Likes is short, to show that switching
/// to it never pulls the header back), and pull to refresh.
@available(iOS 18.0, *)
struct StickyHeaderTabsDemo: View {
    enum Section: Hashable, CaseIterable {
        case posts, replies, likes

        var title: LocalizedStringKey {
            switch self {
            case .posts: "Posts"
            case .replies: "Replies"
            case .likes: "Likes"
            }
        }

        var rowCount: Int {
            switch self {
            case .posts: 40
            case .replies: 25
            case .likes: 2
            }
        }
    }

    @State private var section = Section.posts
    @State private var refreshes = 0

    var body: some View {
        NavigationStack {
            StickyHeaderTabs(Section.allCases, selection: $section) { section in
                Text(section.title)
            } header: { progress in
                ProfileHeader(refreshes: refreshes, progress: progress)
            } content: { section in
                LazyVStack(alignment: .leading, spacing: 0) {
                    ForEach(0..<section.rowCount) { row in
                        Text("\(row + 1). Something from \(Text(section.title))")
                            .padding()
                        Divider()
                    }
                }
            }
            .onRefresh {
                try? await Task.sleep(for: .seconds(1))
                await MainActor.run { refreshes += 1 }
            }
            .navigationTitle("Profile")
            .navigationBarTitleDisplayMode(.inline)
        }
    }
}

@available(iOS 18.0, *)
private struct ProfileHeader: View {
    let refreshes: Int
    let progress: Double

    var body: some View {
        VStack(spacing: 8) {
            Circle()
                .fill(.orange)
                .frame(width: 88, height: 88)
                .overlay {
                    Image(systemName: "person.fill")
                        .font(.largeTitle)
                        .foregroundStyle(.white)
                }
                .accessibilityHidden(true)
            Text("Ada Example")
                .font(.title2.bold())
            Text("Refreshed \(refreshes) times")
                .font(.subheadline)
                .foregroundStyle(.secondary)
        }
        .frame(maxWidth: .infinity)
        .padding(.vertical, 24)
    }
}

@available(iOS 18.0, *)
#Preview("Sticky header tabs") {
    StickyHeaderTabsDemo()
}

@available(iOS 18.0, *)
#Preview("Sticky header tabs, right to left") {
    StickyHeaderTabsDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
