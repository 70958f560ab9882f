#if os(iOS)
import SwiftUI

/// A mail-style demo of ``AdaptiveTabs``: two main tabs with a count badge, a Mailboxes
/// section with a text badge, and a Browse tab. Run it on iPad and change the window
/// width to see the selection and the Browse path follow the size class.
@available(iOS 18.0, *)
struct AdaptiveTabsDemo: View {
    enum Destination: Hashable {
        case home, inbox, browse, favorites, drafts, archive

        var title: LocalizedStringKey {
            switch self {
            case .home: "Home"
            case .inbox: "Inbox"
            case .browse: "Browse"
            case .favorites: "Favorites"
            case .drafts: "Drafts"
            case .archive: "Archive"
            }
        }
    }

    @State private var destination = Destination.inbox
    @State private var unread = 3

    var body: some View {
        AdaptiveTabs(
            selection: $destination,
            tabs: mainTabs,
            sections: [mailboxes],
            browse: browse,
            customizationKey: "AdaptiveTabsDemo.customization"
        ) { destination in
            DestinationPage(destination: destination, unread: $unread) { self.destination = $0 }
        }
    }

    private var mainTabs: [AdaptiveTab<Destination>] {
        [
            AdaptiveTab(id: "home", title: "Home", systemImage: "house", value: Destination.home, customization: .pinned),
            AdaptiveTab(id: "inbox", title: "Inbox", systemImage: "tray", value: Destination.inbox, badge: .count(unread)),
        ]
    }

    private var mailboxes: AdaptiveTabGroup<Destination> {
        AdaptiveTabGroup(id: "mailboxes", title: "Mailboxes", tabs: [
            AdaptiveTab(id: "favorites", title: "Favorites", systemImage: "star", value: Destination.favorites),
            AdaptiveTab(id: "drafts", title: "Drafts", systemImage: "doc", value: Destination.drafts, badge: .text("New")),
            AdaptiveTab(
                id: "archive", title: "Archive", systemImage: "archivebox", value: Destination.archive,
                customization: .reorderOnly),
        ])
    }

    private var browse: AdaptiveTab<Destination> {
        AdaptiveTab(id: "browse", title: "Browse", systemImage: "square.grid.2x2", value: Destination.browse)
    }
}

@available(iOS 18.0, *)
private struct DestinationPage: View {
    let destination: AdaptiveTabsDemo.Destination
    @Binding var unread: Int
    let select: @MainActor (AdaptiveTabsDemo.Destination) -> Void

    var body: some View {
        List {
            Section("Badge") {
                Stepper("Unread: \(unread)", value: $unread, in: 0...150)
            }
            Section("Go to, in code") {
                Button("Drafts") { select(.drafts) }
                Button("Inbox") { select(.inbox) }
            }
        }
        .navigationTitle(destination.title)
    }
}

@available(iOS 18.0, *)
#Preview("Adaptive tabs") {
    AdaptiveTabsDemo()
}

@available(iOS 18.0, *)
#Preview("Adaptive tabs, right to left") {
    AdaptiveTabsDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
