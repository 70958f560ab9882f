#if os(iOS)
import SwiftUI

/// A segmented control with a sliding pill, for icons, text or both, that takes more
/// segments than fit: the row scrolls, and keeps the selected segment in view.
///
/// ```swift
/// enum Sort: Hashable, CaseIterable { case newest, popular, nearby, price }
///
/// @State private var sort = Sort.newest
///
/// SegmentedPill(Sort.allCases, selection: $sort, title: "Sort") { sort, isSelected in
///     Label(sort.title, systemImage: sort.symbol)
/// }
/// ```
///
/// - **Options.** Any `Hashable` values. The label closure draws each segment
///   and is told whether it is selected; the block colors it white on the pill and primary
///   elsewhere. A repeated option is shown once. A selection that is not among the options
///   becomes the first; when the selected option is removed, the one that takes its place
///   is selected.
/// - **Size.** `.small`, `.regular` or `.large` pills. Every segment's touch target is at
///   least 44 × 44 points; the smaller sizes only draw a smaller pill inside it.
/// - **Overflow.** When the segments are wider than the row, it scrolls sideways. Selecting
///   a segment that is cut off, by tap, keyboard or code, scrolls it to the middle; one
///   already in full view leaves the row still. The selection is in view on first
///   appearance too.
/// - **Keyboard and pointer.** On iPad with a keyboard, the left and right arrow keys move
///   the selection (they stop at the ends), following the segments as drawn in either
///   layout direction. A pointer highlights the segment under it.
/// - **VoiceOver.** Each segment is a button, read with its label and, on the selected
///   one, "selected", inside a group named by `title`. Buttons, not one adjustable
///   element, because the label closure can draw anything: a button reads whatever its
///   label says, icons' names included, with no second text to keep in step, and
///   VoiceOver scrolls a cut-off segment into view when it reaches it.
/// - **Reduce Motion.** The pill jumps instead of sliding, and the row jumps instead of
///   scrolling smoothly.
@available(iOS 18.0, *)
public struct SegmentedPill<Option: Hashable, Label: View>: View {
    private let options: [Option]
    @Binding private var selection: Option
    private let title: LocalizedStringKey
    private let size: SegmentedPillSize
    private let tint: Color
    private let label: (Option, Bool) -> Label

    @State private var position: ScrollPosition
    @State private var viewportWidth: CGFloat = 0
    /// Each segment's frame in the visible part of the row, as last measured.
    @State private var segmentFrames: [Option: CGRect] = [:]
    /// Counts the taps and key presses that changed the selection; the haptic follows it.
    @State private var userSelections = 0
    @Namespace private var pill
    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @Environment(\.layoutDirection) private var layoutDirection

    /// Creates a sliding segmented control.
    ///
    /// - Parameters:
    ///   - options: The options, in order.
    ///   - selection: The selected option.
    ///   - title: What the control chooses, read by VoiceOver, such as "Sort".
    ///   - size: How big the pills are drawn. Defaults to `.regular`.
    ///   - tint: The pill's color, under white labels. Defaults to the accent color.
    ///   - label: The label of an option; the second argument is true when it is selected.
    public init(
        _ options: [Option],
        selection: Binding<Option>,
        title: LocalizedStringKey,
        size: SegmentedPillSize = .regular,
        tint: Color = .accentColor,
        @ViewBuilder label: @escaping (_ option: Option, _ isSelected: Bool) -> Label
    ) {
        self.options = options
        self._selection = selection
        self.title = title
        self.size = size
        self.tint = tint
        self.label = label
        // Segments are scroll targets by position, which is Sendable whatever Option is.
        let start = SegmentedPillLogic.uniqueOptions(options).firstIndex(of: selection.wrappedValue) ?? 0
        self._position = State(initialValue: ScrollPosition(id: start, anchor: .center))
    }

    public var body: some View {
        let shown = SegmentedPillLogic.uniqueOptions(options)
        let metrics = SegmentedPillLogic.metrics(for: size)
        ScrollView(.horizontal) {
            HStack(spacing: 2) {
                ForEach(shown.indices, id: \.self) { index in
                    segment(shown[index], metrics: metrics)
                }
            }
            .padding(.horizontal, 4)
            .background {
                Capsule()
                    .fill(.quaternary)
                    .frame(height: metrics.pillHeight + 8)
            }
            .scrollTargetLayout()
        }
        .scrollIndicators(.hidden)
        .scrollPosition($position)
        .onScrollGeometryChange(for: CGFloat.self) { geometry in
            geometry.containerSize.width
        } action: { _, width in
            viewportWidth = width
        }
        .focusable()
        .onKeyPress(.leftArrow) { move(.left, in: shown) }
        .onKeyPress(.rightArrow) { move(.right, in: shown) }
        .onChange(of: selection) { _, newSelection in
            reveal(newSelection, in: shown)
        }
        .onChange(of: shown, initial: true) { previousOptions, newOptions in
            segmentFrames = segmentFrames.filter { newOptions.contains($0.key) }
            let resolved = SegmentedPillLogic.resolvedSelection(selection, previousOptions: previousOptions, options: newOptions)
            if let resolved, resolved != selection {
                selection = resolved
            }
        }
        .animation(reduceMotion ? nil : .snappy(duration: 0.25), value: selection)
        .sensoryFeedback(.selection, trigger: userSelections)
        .accessibilityElement(children: .contain)
        .accessibilityLabel(Text(title))
    }

    private func segment(_ option: Option, metrics: SegmentedPillLogic.Metrics) -> some View {
        let isSelected = option == selection
        return Button {
            select(option)
        } label: {
            label(option, isSelected)
                .font(font)
                .lineLimit(1)
                .padding(.horizontal, metrics.horizontalPadding)
                .frame(minWidth: metrics.touchTarget, minHeight: metrics.pillHeight)
                .foregroundStyle(isSelected ? Color.white : Color.primary)
                .background {
                    if isSelected {
                        Capsule()
                            .fill(tint)
                            .matchedGeometryEffect(id: "pill", in: pill)
                    }
                }
                .frame(minHeight: metrics.touchTarget)
                .contentShape(Rectangle())
        }
        .buttonStyle(.plain)
        .hoverEffect(.highlight)
        .accessibilityAddTraits(isSelected ? .isSelected : [])
        .onGeometryChange(for: CGRect.self) { proxy in
            proxy.frame(in: .scrollView(axis: .horizontal))
        } action: { frame in
            segmentFrames[option] = frame
        }
    }

    private var font: Font {
        switch size {
        case .small: .footnote.weight(.semibold)
        case .regular: .subheadline.weight(.semibold)
        case .large: .body.weight(.semibold)
        }
    }

    /// A tap or an arrow key: selects the option and, when that changed the selection,
    /// plays the haptic.
    private func select(_ option: Option) {
        guard option != selection else { return }
        selection = option
        // A binding that keeps its value (a constant, say) changed nothing: stay silent.
        if selection == option { userSelections += 1 }
    }

    private func move(_ key: SegmentedPillLogic.ArrowKey, in shown: [Option]) -> KeyPress.Result {
        let direction: SegmentedPillLogic.Direction = layoutDirection == .rightToLeft ? .rightToLeft : .leftToRight
        let index = shown.firstIndex(of: selection) ?? 0
        let step = SegmentedPillLogic.step(for: key, direction: direction)
        guard let target = SegmentedPillLogic.movedIndex(from: index, by: step, count: shown.count) else { return .ignored }
        select(shown[target])
        return .handled
    }

    /// Scrolls a cut-off selected segment to the middle of the row; leaves the row still
    /// when the segment is already in full view.
    private func reveal(_ option: Option, in shown: [Option]) {
        guard let index = shown.firstIndex(of: option) else { return }
        if let frame = segmentFrames[option],
           SegmentedPillLogic.isFullyVisible(minX: frame.minX, maxX: frame.maxX, viewportWidth: viewportWidth) {
            return
        }
        withAnimation(reduceMotion ? nil : .smooth(duration: 0.3)) {
            position.scrollTo(id: index, anchor: .center)
        }
    }
}
#endif
