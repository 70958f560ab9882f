/// The pure decisions behind ``PickerPages``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs.
///
/// You rarely call these yourself: `PickerPages` asks them which side a page enters
/// from and whether the selection needs repairing after the options change.
@available(iOS 27.0, *)
public enum PickerPagesLogic {
    /// The horizontal side a page enters from. Leading and trailing follow the layout
    /// direction, so right-to-left languages get mirrored motion for free.
    public enum Edge: Sendable, Equatable {
        case leading
        case trailing

        /// The side the outgoing page leaves through.
        public var opposite: Edge {
            switch self {
            case .leading: .trailing
            case .trailing: .leading
            }
        }
    }

    /// The position of `option` in `options`. An option that is not in the list counts
    /// as the first, so a stale selection never produces a surprising direction.
    public static func index<Option: Equatable>(of option: Option, in options: [Option]) -> Int {
        options.firstIndex(of: option) ?? 0
    }

    /// The side the page for `new` slides in from when the selection moves from `old`.
    ///
    /// Moving forward through the options brings the page in from the trailing edge, the
    /// side its tab is on; moving back brings it in from the leading edge. Staying on the
    /// same position counts as forward.
    public static func insertionEdge<Option: Equatable>(from old: Option, to new: Option, in options: [Option]) -> Edge {
        index(of: new, in: options) >= index(of: old, in: options) ? .trailing : .leading
    }

    /// The option the selection should become so that the picker always shows a selected
    /// tab: the selection itself when it is listed, otherwise the first option. With no
    /// options there is nothing to select, and the answer is `nil`.
    public static func repairedSelection<Option: Equatable>(_ selection: Option, in options: [Option]) -> Option? {
        if options.contains(selection) { return selection }
        return options.first
    }

    /// The page shown first: the selection, or the option it will be repaired to, so an
    /// invalid starting selection never slides a page in.
    public static func firstPage<Option: Equatable>(_ selection: Option, in options: [Option]) -> Option {
        repairedSelection(selection, in: options) ?? selection
    }

    /// What happens when the selection becomes `new` while the page for `shown` is on screen.
    public enum SelectionChange<Option: Equatable>: Equatable {
        /// `new` is not one of the options: select this option instead, and show nothing
        /// for the stale value.
        case repair(Option)
        /// Slide the page for the option in from the edge.
        case show(Option, from: Edge)
        /// The page on screen already is the selection: nothing moves.
        case unchanged
    }

    /// The answer for a selection change, see ``SelectionChange``. With no options there
    /// is nothing to repair to, so the new page is shown as it is.
    public static func selectionChange<Option: Equatable>(to new: Option, shown: Option, in options: [Option]) -> SelectionChange<Option> {
        if let repaired = repairedSelection(new, in: options), repaired != new { return .repair(repaired) }
        if new == shown { return .unchanged }
        return .show(new, from: insertionEdge(from: shown, to: new, in: options))
    }
}
