#if os(iOS)
import SwiftUI

/// A demo of ``Pager`` that exercises what sets it apart: topics that arrive after a
/// short load, a preset selection, reorder and removal that keep the selection, per-page
/// state kept by id, a swipe switch, both bar layouts, and the tab-change callback.
@available(iOS 17.0, *)
struct PagerDemo: View {
    struct Topic: Identifiable, Equatable {
        let id: String
        var name: String
    }

    @State private var topics: [Topic] = []
    @State private var selection: Topic.ID? = "science"
    @State private var isSwipeDisabled = false
    @State private var isScrollable = false
    @State private var lastChange = "None yet"
    /// The number of the next added topic; it only grows, so ids never repeat.
    @State private var nextTopicNumber = 1

    var body: some View {
        NavigationStack {
            Pager(topics, selection: $selection) { topic in
                TopicPage(topic: topic)
            } label: { topic, state in
                Text(topic.name)
                    .font(.subheadline.weight(.semibold))
                    .foregroundStyle(Color.primary.opacity(0.45 + 0.55 * state.selectionProgress))
                    .scaleEffect(1 + 0.06 * state.selectionProgress)
            }
            .tabBarLayout(isScrollable ? .scrollable : .fixed)
            .tabIndicator(height: 3, color: .orange, cornerRadius: 1.5, horizontalInset: isScrollable ? 0 : 12)
            .tabBarSeparator()
            .swipeDisabled(isSwipeDisabled)
            .onTabChange { topic, reason in
                lastChange = "\(topic.name) (\(reason))"
            }
            .overlay {
                if topics.isEmpty {
                    ProgressView("Loading topics…")
                }
            }
            .safeAreaInset(edge: .bottom) {
                Text("Last change: \(lastChange)")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                    .padding(8)
            }
            .navigationTitle("Topics")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                Menu("Options", systemImage: "slider.horizontal.3") {
                    Toggle("Disable swipe", isOn: $isSwipeDisabled)
                    Toggle("Scrollable tabs", isOn: $isScrollable)
                    Button("Shuffle topics") { topics.shuffle() }
                    Button("Remove selected topic", role: .destructive) {
                        topics.removeAll { $0.id == selection }
                    }
                    Button("Add a topic") {
                        topics.append(Topic(id: "topic-\(nextTopicNumber)", name: "Topic \(nextTopicNumber)"))
                        nextTopicNumber += 1
                    }
                }
            }
            .task {
                // Pretend the topics come from the network; the preset "science" is kept.
                try? await Task.sleep(for: .milliseconds(600))
                topics = [
                    Topic(id: "top", name: "Top"),
                    Topic(id: "world", name: "World"),
                    Topic(id: "science", name: "Science"),
                    Topic(id: "sport", name: "Sport"),
                    Topic(id: "culture", name: "Culture"),
                ]
            }
        }
    }
}

/// A page with its own state, to show that each page keeps it by id through swipes,
/// reorders and removals of other pages.
@available(iOS 17.0, *)
private struct TopicPage: View {
    let topic: PagerDemo.Topic
    @State private var likes = 0
    @State private var note = ""

    var body: some View {
        List {
            Section {
                Stepper("Likes: \(likes)", value: $likes, in: 0...99)
                TextField("Note about \(topic.name)", text: $note)
            }
            Section("Stories") {
                ForEach(1...15, id: \.self) { number in
                    Text("\(topic.name) story \(number)")
                }
            }
        }
    }
}

@available(iOS 17.0, *)
#Preview("Pager") {
    PagerDemo()
}

@available(iOS 17.0, *)
#Preview("Pager, right to left") {
    PagerDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
