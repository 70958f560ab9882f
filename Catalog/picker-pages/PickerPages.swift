#if os(iOS)
import SwiftUI

/// A row of tabs over a page that changes with them, built on the system `Picker` with the
/// tabs picker style that iOS 27 added. An iPhone draws it much like a segmented control.
///
/// ```swift
/// enum Period: String, CaseIterable { case day, week, month }
///
/// @State private var period = Period.week
///
/// PickerPages(options: Period.allCases, selection: $period) { period in
///     Text(period.rawValue.capitalized)
/// } page: { period in
///     ChartView(period: period)
/// }
/// ```
///
/// The new page slides in from the side its tab is on: from the trailing edge when you
/// move forward through the options, from the leading edge when you move back, so in
/// right-to-left languages, where the first tab is on the right, the motion is mirrored.
/// With Reduce Motion on, pages cross-fade instead. VoiceOver, Full Keyboard Access and the
/// large content viewer are the system picker's, which announces each option as a tab.
///
/// If the selection is not one of the options, at the start or when you set it later,
/// the block selects the first option, so the picker always shows a selected tab; the
/// page that was never valid is never shown, and nothing slides.
@available(iOS 27.0, *)
public struct PickerPages<Option: Hashable, Label: View, Page: View>: View {
    private let options: [Option]
    @Binding private var selection: Option
    private let title: LocalizedStringKey
    private let label: (Option) -> Label
    private let page: (Option) -> Page

    /// The page on screen. It trails `selection` by one update, so that the page about to
    /// leave is redrawn with the edge it will leave through before it is removed.
    @State private var shownOption: Option
    /// The edge the page on screen came in from.
    @State private var insertionEdge = PickerPagesLogic.Edge.trailing
    @Environment(\.accessibilityReduceMotion) private var reduceMotion

    /// Creates tabs over pages.
    ///
    /// - Parameters:
    ///   - options: The tabs, in order. Each one appears once.
    ///   - selection: The selected option.
    ///   - title: The picker's accessibility label, read before the tabs and looked up in
    ///     your strings catalog. Defaults to "Section".
    ///   - label: The tab for an option, usually a `Text` or a `Label`.
    ///   - page: The page for an option.
    public init(
        options: [Option],
        selection: Binding<Option>,
        title: LocalizedStringKey = "Section",
        @ViewBuilder label: @escaping (Option) -> Label,
        @ViewBuilder page: @escaping (Option) -> Page
    ) {
        self.options = options
        self._selection = selection
        self.title = title
        self.label = label
        self.page = page
        self._shownOption = State(initialValue: PickerPagesLogic.firstPage(selection.wrappedValue, in: options))
    }

    public var body: some View {
        VStack(spacing: 12) {
            Picker(title, selection: $selection) {
                ForEach(options, id: \.self) { option in
                    label(option).tag(option)
                }
            }
            .pickerStyle(.tabs)
            .padding(.horizontal)

            ZStack {
                page(shownOption)
                    .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
                    .id(shownOption)
                    .transition(pageTransition(entering: currentEdge))
            }
            .clipped()
        }
        .onChange(of: selection) { _, newValue in
            switch PickerPagesLogic.selectionChange(to: newValue, shown: shownOption, in: options) {
            case .repair(let option):
                selection = option
            case .show(let option, let edge):
                insertionEdge = edge
                withAnimation(pageAnimation) {
                    shownOption = option
                }
            case .unchanged:
                break
            }
        }
        .onChange(of: options, initial: true) { _, newOptions in
            if let repaired = PickerPagesLogic.repairedSelection(selection, in: newOptions), repaired != selection {
                selection = repaired
            }
        }
    }

    /// While a new selection waits to be shown, the edge its page will enter from; the
    /// page on screen then leaves through the opposite one.
    private var currentEdge: PickerPagesLogic.Edge {
        guard selection != shownOption else { return insertionEdge }
        return PickerPagesLogic.insertionEdge(from: shownOption, to: selection, in: options)
    }

    private var pageAnimation: Animation {
        reduceMotion ? .easeInOut(duration: 0.2) : .smooth(duration: 0.35)
    }

    private func pageTransition(entering edge: PickerPagesLogic.Edge) -> AnyTransition {
        if reduceMotion { return .opacity }
        return .asymmetric(
            insertion: .move(edge: edge.horizontalEdge).combined(with: .opacity),
            removal: .move(edge: edge.opposite.horizontalEdge).combined(with: .opacity)
        )
    }
}

@available(iOS 27.0, *)
extension PickerPagesLogic.Edge {
    fileprivate var horizontalEdge: SwiftUI.Edge {
        switch self {
        case .leading: .leading
        case .trailing: .trailing
        }
    }
}
#endif
