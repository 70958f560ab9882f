#if os(iOS)
import SwiftUI

/// A social-app demo of ``FloatingTabBar``: four tabs around a compose button, a badge
/// you can raise past 99, long lists that scroll clear of the bar, and a search field
/// that brings up the keyboard, which hides the bar.
@available(iOS 17.0, *)
struct FloatingTabBarDemo: View {
    enum Screen: Hashable {
        case home, search, inbox, profile
    }

    @State private var screen = Screen.home
    @State private var unread = 3
    @State private var isComposing = false

    var body: some View {
        FloatingTabBar(
            selection: $screen,
            tabs: [
                FloatingTab(value: Screen.home, title: "Home", systemImage: "house"),
                FloatingTab(value: Screen.search, title: "Search", systemImage: "magnifyingglass"),
                FloatingTab(value: Screen.inbox, title: "Inbox", systemImage: "tray", badge: .count(unread)),
                FloatingTab(value: Screen.profile, title: "Profile", systemImage: "person"),
            ],
            centerAction: FloatingTabAction(title: "Compose", systemImage: "plus") { isComposing = true },
            tint: .indigo
        ) { screen in
            DemoScreen(screen: screen, unread: $unread)
        }
        .sheet(isPresented: $isComposing) {
            Text("New post")
        }
    }
}

@available(iOS 17.0, *)
private struct DemoScreen: View {
    let screen: FloatingTabBarDemo.Screen
    @Binding var unread: Int
    @State private var query = ""

    var body: some View {
        NavigationStack {
            List {
                switch screen {
                case .search:
                    TextField("Search posts", text: $query)
                case .inbox:
                    Stepper("Unread: \(unread)", value: $unread, in: 0...150)
                case .home, .profile:
                    EmptyView()
                }
                ForEach(1..<41) { row in
                    Text("Row \(row)")
                }
            }
            .navigationTitle(title)
        }
    }

    private var title: LocalizedStringKey {
        switch screen {
        case .home: "Home"
        case .search: "Search"
        case .inbox: "Inbox"
        case .profile: "Profile"
        }
    }
}

@available(iOS 17.0, *)
#Preview("Floating tab bar") {
    FloatingTabBarDemo()
}

@available(iOS 17.0, *)
#Preview("Floating tab bar, right to left") {
    FloatingTabBarDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
