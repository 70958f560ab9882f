// A declaration stub of the part of SwiftUI that the catalog's blocks use, so that their
// views can be type-checked on Linux, where SwiftUI does not exist. It is a test fixture
// under Tests/: never shipped, never linked into anything, never run.
//
// It repeats our reading of Apple's documentation (developer.apple.com, the current SDK):
// the same names, argument labels, generic constraints, result builders, `@MainActor`,
// `nonisolated`, `@Sendable` and `sending` annotations, and `@available` introductions.
// It proves nothing about behaviour. Every body is a dummy. Where our reading is wrong,
// the check is wrong in the same way; where a block needs a declaration that is missing
// here, the check fails and names it, so add it from Apple's page, not from memory.
//
// Only iOS introductions are written (`@available(iOS N, *)`): the blocks' views are
// compiled for iOS only (`#if os(iOS)`). The view check (ViewTypeCheck.stubVariant in
// Sources/BlocksKit/Catalog/ViewTypeCheck.swift) turns every introduction later than a
// block's minimum into `@available(*, unavailable, message: "introduced in iOS N")`, one
// variant of this file per minimum, so a block that uses a newer API fails to build. Keep
// each `@available` on a line of its own above its declaration, in one of four forms:
// `@available(iOS N, *)`; `@available(iOS, deprecated: N, message: "…")`, which becomes a
// deprecation from minimum N on; `@available(*, deprecated, message: "…")`; and
// `@available(*, unavailable)`.
//
// Warnings fail the check, so deprecations and `Sendable` matter as much as signatures.
// The non-obvious declarations, and the Apple documentation page each comes from
// (developer.apple.com/documentation/…):
//
// - `LocalizedStringKey` is not `Sendable` (swiftui/localizedstringkey): the iOS 26.2 SDK's
//   interface declares `@available(*, unavailable) extension LocalizedStringKey : Sendable`
//   (the iOS 27 SDK `~Sendable`), as checked in issue 31. So a `Sendable` type that
//   holds a key is an error in Swift 6 mode and a warning in Swift 5 mode, as in Xcode.
// - `LocalizedStringKey.StringInterpolation.appendInterpolation<T>(_:)`, deprecated
//   (swiftui/localizedstringkey/stringinterpolation): the overload a value without one of
//   its own resolves to, a `LocalizedStringKey` included, which interpolates a debug
//   description instead of the localized text. Interpolate `Text(key)` instead.
// - `onChange(of:perform:)` (swiftui/view/onchange(of:perform:)): iOS 14, deprecated in
//   iOS 17 ("Use `onChange` with a two or zero parameter action closure instead."), so it
//   warns at a minimum of 17 or later. `NavigationView` and `foregroundColor(_:)` are left
//   out: no block uses them, and their deprecation was not checked against their pages;
//   a block that uses one fails here as a missing declaration until it is added.
// - `Sendable` elsewhere: the value types the blocks pass around (`Text`, `Image`, `Color`,
//   `Font`, `Animation`, the layout values) keep the conformances written here from their
//   pages' "Conforms To" sections; `Binding` and `State` are `Sendable` only when their
//   value is. Issue 31 found `LocalizedStringKey` the only one the blocks meet that differs.
//
// Underscored attributes are not shown in the documentation; the one written here is
// `@_inheritActorContext` on `task`'s action, which is what runs a `.task { }` closure on
// the main actor, as Apple's `task` does.
//
// Simplifications that do not change what type-checks: most modifiers return `some View`
// built from `self`; Apple's `@ContentBuilder` parameters are written as `@ViewBuilder`;
// unused overloads, and deprecated ones no plausible block would reach, are left out.

@_exported import CoreGraphics
@_exported import FoundationEssentials
@_exported import FoundationInternationalization

// MARK: - Foundation names in SwiftUI's signatures that FoundationEssentials lacks on Linux

/// Foundation's bundle type, named by `Text`'s localized initializer.
public final class Bundle: Sendable {
    public static let main = Bundle()
}

/// Foundation's user defaults, named by `AppStorage`.
public final class UserDefaults: @unchecked Sendable {
    public static let standard = UserDefaults()
}

// MARK: - View and its builder

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { return fatalError() }
}

@frozen nonisolated public struct EmptyView: View {
    public init() {}
    public var body: Never { return fatalError() }
}

@frozen nonisolated public struct AnyView: View {
    public init<V: View>(_ view: V) {}
    public init<V: View>(erasing view: V) {}
    public var body: Never { return fatalError() }
}

@frozen nonisolated public struct TupleView<T>: View {
    public var value: T
    public init(_ value: T) { self.value = value }
    public var body: Never { return fatalError() }
}

@frozen nonisolated public struct _ConditionalContent<TrueContent, FalseContent> {
    init() {}
}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
    public var body: Never { return fatalError() }
}

extension Optional: View where Wrapped: View {
    public var body: Never { return fatalError() }
}

@resultBuilder public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent()
    }
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent()
    }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

// MARK: - Geometry and layout values

@frozen public enum LayoutDirection: Hashable, CaseIterable, Sendable {
    case leftToRight
    case rightToLeft
}

@frozen public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing

    @frozen public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public init(_ edge: Edge) { rawValue = 1 << edge.rawValue }
        public static let top = Set(.top)
        public static let leading = Set(.leading)
        public static let bottom = Set(.bottom)
        public static let trailing = Set(.trailing)
        public static let all: Set = [.top, .leading, .bottom, .trailing]
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
    }
}

@available(iOS 15.0, *)
@frozen public enum VerticalEdge: Int8, Hashable, CaseIterable, Sendable {
    case top, bottom
}

@frozen public enum Axis: Int8, CaseIterable, Sendable {
    case horizontal, vertical

    @frozen public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
    }
}

@frozen public struct HorizontalAlignment: Equatable, Sendable {
    let id: Int
    public static let leading = HorizontalAlignment(id: 0)
    public static let center = HorizontalAlignment(id: 1)
    public static let trailing = HorizontalAlignment(id: 2)
}

@frozen public struct VerticalAlignment: Equatable, Sendable {
    let id: Int
    public static let top = VerticalAlignment(id: 0)
    public static let center = VerticalAlignment(id: 1)
    public static let bottom = VerticalAlignment(id: 2)
    public static let firstTextBaseline = VerticalAlignment(id: 3)
    public static let lastTextBaseline = VerticalAlignment(id: 4)
}

@frozen public struct Alignment: Equatable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

@frozen public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public init() {
        x = 0
        y = 0
    }
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
    public static let zero = UnitPoint(x: 0, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

@frozen public struct EdgeInsets: Equatable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }
}

@available(iOS 16.0, *)
@frozen public struct ProposedViewSize: Equatable, Sendable {
    public var width: CGFloat?
    public var height: CGFloat?
    public init(width: CGFloat?, height: CGFloat?) {
        self.width = width
        self.height = height
    }
    public static let zero = ProposedViewSize(width: 0, height: 0)
    public static let unspecified = ProposedViewSize(width: nil, height: nil)
    public static let infinity = ProposedViewSize(width: .infinity, height: .infinity)
}

// MARK: - Coordinate spaces and geometry

public enum CoordinateSpace: Hashable {
    case global
    case local
    case named(AnyHashable)
}

@available(iOS 17.0, *)
public protocol CoordinateSpaceProtocol: Sendable {
    var coordinateSpace: CoordinateSpace { get }
}

@available(iOS 17.0, *)
public struct NamedCoordinateSpace: CoordinateSpaceProtocol, Equatable {
    public var coordinateSpace: CoordinateSpace { .local }
}

@available(iOS 17.0, *)
public struct LocalCoordinateSpace: CoordinateSpaceProtocol {
    public init() {}
    public var coordinateSpace: CoordinateSpace { .local }
}

@available(iOS 17.0, *)
public struct GlobalCoordinateSpace: CoordinateSpaceProtocol {
    public init() {}
    public var coordinateSpace: CoordinateSpace { .global }
}

@available(iOS 17.0, *)
extension CoordinateSpaceProtocol where Self == NamedCoordinateSpace {
    public static func named(_ name: some Hashable) -> NamedCoordinateSpace { NamedCoordinateSpace() }
    public static var scrollView: NamedCoordinateSpace { NamedCoordinateSpace() }
    public static func scrollView(axis: Axis) -> NamedCoordinateSpace { NamedCoordinateSpace() }
}

@available(iOS 17.0, *)
extension CoordinateSpaceProtocol where Self == LocalCoordinateSpace {
    public static var local: LocalCoordinateSpace { LocalCoordinateSpace() }
}

@available(iOS 17.0, *)
extension CoordinateSpaceProtocol where Self == GlobalCoordinateSpace {
    public static var global: GlobalCoordinateSpace { GlobalCoordinateSpace() }
}

public struct GeometryProxy {
    public var size: CGSize { .zero }
    public var safeAreaInsets: EdgeInsets { EdgeInsets() }
    public func frame(in coordinateSpace: CoordinateSpace) -> CGRect { .zero }
    @available(iOS 17.0, *)
    public func frame(in coordinateSpace: some CoordinateSpaceProtocol) -> CGRect { .zero }
}

@frozen nonisolated public struct GeometryReader<Content: View>: View {
    public var content: (GeometryProxy) -> Content
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }
    public var body: Never { return fatalError() }
}

// MARK: - Stacks and simple views

@frozen nonisolated public struct VStack<Content: View>: View {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { return fatalError() }
}

@frozen nonisolated public struct HStack<Content: View>: View {
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { return fatalError() }
}

@frozen nonisolated public struct ZStack<Content: View>: View {
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {}
    public var body: Never { return fatalError() }
}

@available(iOS 14.0, *)
@frozen public struct PinnedScrollableViews: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let sectionHeaders = PinnedScrollableViews(rawValue: 1)
    public static let sectionFooters = PinnedScrollableViews(rawValue: 2)
}

@available(iOS 14.0, *)
@frozen nonisolated public struct LazyVStack<Content: View>: View {
    public init(
        alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, pinnedViews: PinnedScrollableViews = .init(),
        @ViewBuilder content: () -> Content
    ) {}
    public var body: Never { return fatalError() }
}

nonisolated public struct Divider: View {
    public init() {}
    public var body: Never { return fatalError() }
}

nonisolated public struct Spacer: View {
    public init(minLength: CGFloat? = nil) {}
    public var body: Never { return fatalError() }
}

// MARK: - Text, fonts and localized strings

/// The argument types `LocalizedStringKey` interpolates with a format specifier.
public protocol _FormatSpecifiable: Equatable {}
extension Int: _FormatSpecifiable {}
extension Int8: _FormatSpecifiable {}
extension Int16: _FormatSpecifiable {}
extension Int32: _FormatSpecifiable {}
extension Int64: _FormatSpecifiable {}
extension UInt: _FormatSpecifiable {}
extension UInt8: _FormatSpecifiable {}
extension UInt16: _FormatSpecifiable {}
extension UInt32: _FormatSpecifiable {}
extension UInt64: _FormatSpecifiable {}
extension Float: _FormatSpecifiable {}
extension Double: _FormatSpecifiable {}
extension CGFloat: _FormatSpecifiable {}

@frozen public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation {
    let key: String
    public init(_ value: String) { key = value }
    public init(stringLiteral value: String) { key = value }
    public init(stringInterpolation: StringInterpolation) { key = "" }

    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        public mutating func appendInterpolation(_ string: String) {}
        public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T) {}
        public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T, specifier: String) {}
        public mutating func appendInterpolation(_ text: Text) {}
        public mutating func appendInterpolation(_ image: Image) {}
        @available(iOS 15.0, *)
        public mutating func appendInterpolation<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatInput: Equatable, F.FormatOutput == String {}
        // Any other value: a `LocalizedStringKey` among them, which has no overload of its own.
        @available(*, deprecated, message: "Localized string interpolation produces an unlocalized, debug description for this type of value. Use a localized representation instead.")
        public mutating func appendInterpolation<T>(_ value: T) {}
    }
}

// Not Sendable: the iOS 26 SDK makes the conformance unavailable (the iOS 27 SDK writes
// `~Sendable`), so a Sendable type cannot hold a key, in Swift 6 mode an error.
@available(*, unavailable)
extension LocalizedStringKey: Sendable {}

@frozen public struct Font: Hashable, Sendable {
    let name: String

    public static let largeTitle = Font(name: "largeTitle")
    public static let title = Font(name: "title")
    public static let title2 = Font(name: "title2")
    public static let title3 = Font(name: "title3")
    public static let headline = Font(name: "headline")
    public static let subheadline = Font(name: "subheadline")
    public static let body = Font(name: "body")
    public static let callout = Font(name: "callout")
    public static let footnote = Font(name: "footnote")
    public static let caption = Font(name: "caption")
    public static let caption2 = Font(name: "caption2")

    public func weight(_ weight: Weight) -> Font { self }
    public func bold() -> Font { self }

    @frozen public struct Weight: Hashable, Sendable {
        let value: Double
        public static let ultraLight = Weight(value: -0.8)
        public static let thin = Weight(value: -0.6)
        public static let light = Weight(value: -0.4)
        public static let regular = Weight(value: 0)
        public static let medium = Weight(value: 0.23)
        public static let semibold = Weight(value: 0.3)
        public static let bold = Weight(value: 0.4)
        public static let heavy = Weight(value: 0.56)
        public static let black = Weight(value: 0.62)
    }
}

@frozen nonisolated public struct Text: View, Equatable, Sendable {
    let storage: String

    public init(verbatim content: String) { storage = content }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) { storage = "" }
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
        storage = key.key
    }
    @available(iOS 15.0, *)
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatInput: Equatable, F.FormatOutput == String {
        storage = ""
    }

    public func font(_ font: Font?) -> Text { self }
    public func fontWeight(_ weight: Font.Weight?) -> Text { self }
    public func bold() -> Text { self }
    @available(iOS 17.0, *)
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text { self }

    public var body: Never { return fatalError() }
}

nonisolated public struct Image: View, Equatable, Sendable {
    let name: String
    public init(systemName: String) { name = systemName }
    public init(_ name: String) { self.name = name }
    public var body: Never { return fatalError() }
}

@available(iOS 14.0, *)
nonisolated public struct Label<Title: View, Icon: View>: View {
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {}
    public var body: Never { return fatalError() }
}

@available(iOS 14.0, *)
extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
}

// MARK: - Colors and shape styles

public protocol ShapeStyle: Sendable {}

@frozen nonisolated public struct Color: Hashable, Sendable, ShapeStyle, View {
    let name: String
    public static let black = Color(name: "black")
    public static let white = Color(name: "white")
    public static let gray = Color(name: "gray")
    public static let red = Color(name: "red")
    public static let orange = Color(name: "orange")
    public static let yellow = Color(name: "yellow")
    public static let green = Color(name: "green")
    public static let mint = Color(name: "mint")
    public static let teal = Color(name: "teal")
    public static let cyan = Color(name: "cyan")
    public static let blue = Color(name: "blue")
    public static let indigo = Color(name: "indigo")
    public static let purple = Color(name: "purple")
    public static let pink = Color(name: "pink")
    public static let brown = Color(name: "brown")
    public static let clear = Color(name: "clear")
    public static let primary = Color(name: "primary")
    public static let secondary = Color(name: "secondary")
    public static var accentColor: Color { Color(name: "accentColor") }
    public func opacity(_ opacity: Double) -> Color { self }
    public var body: Never { return fatalError() }
}

@available(iOS 15.0, *)
@frozen public struct HierarchicalShapeStyle: ShapeStyle {
    let level: Int
    public static let primary = HierarchicalShapeStyle(level: 0)
    public static let secondary = HierarchicalShapeStyle(level: 1)
    public static let tertiary = HierarchicalShapeStyle(level: 2)
    public static let quaternary = HierarchicalShapeStyle(level: 3)
}

@available(iOS 15.0, *)
extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { .primary }
    public static var secondary: HierarchicalShapeStyle { .secondary }
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
}

@available(iOS 15.0, *)
@frozen public struct ForegroundStyle: ShapeStyle {
    public init() {}
}

@available(iOS 15.0, *)
extension ShapeStyle where Self == ForegroundStyle {
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

@available(iOS 15.0, *)
extension ShapeStyle where Self == Color {
    public static var accentColor: Color { Color.accentColor }
    public static var pink: Color { Color.pink }
    public static var green: Color { Color.green }
    public static var orange: Color { Color.orange }
    public static var clear: Color { Color.clear }
    public static var red: Color { Color.red }
    public static var white: Color { Color.white }
}

@available(iOS 15.0, *)
@frozen public struct AnyShapeStyle: ShapeStyle {
    public init<S: ShapeStyle>(_ style: S) {}
}

@available(iOS 15.0, *)
public struct Material: ShapeStyle {
    let name: String
    public static let ultraThin = Material(name: "ultraThin")
    public static let thin = Material(name: "thin")
    public static let regular = Material(name: "regular")
    public static let thick = Material(name: "thick")
    public static let ultraThick = Material(name: "ultraThick")
    public static let bar = Material(name: "bar")
}

@available(iOS 15.0, *)
extension ShapeStyle where Self == Material {
    public static var bar: Material { Material.bar }
    public static var regularMaterial: Material { Material.regular }
}

@available(iOS 17.0, *)
@frozen public struct SeparatorShapeStyle: ShapeStyle {
    public init() {}
}

@available(iOS 17.0, *)
extension ShapeStyle where Self == SeparatorShapeStyle {
    public static var separator: SeparatorShapeStyle { SeparatorShapeStyle() }
}

// MARK: - Shapes

public protocol VectorArithmetic: AdditiveArithmetic {}
extension Double: VectorArithmetic {}
extension CGFloat: VectorArithmetic {}

@frozen public struct EmptyAnimatableData: VectorArithmetic, Sendable {
    public init() {}
    public static var zero: EmptyAnimatableData { EmptyAnimatableData() }
    public static func + (lhs: EmptyAnimatableData, rhs: EmptyAnimatableData) -> EmptyAnimatableData { lhs }
    public static func - (lhs: EmptyAnimatableData, rhs: EmptyAnimatableData) -> EmptyAnimatableData { lhs }
}

public protocol Animatable {
    associatedtype AnimatableData: VectorArithmetic
    nonisolated var animatableData: AnimatableData { get set }
}

extension Animatable where AnimatableData == EmptyAnimatableData {
    nonisolated public var animatableData: EmptyAnimatableData {
        get { EmptyAnimatableData() }
        set {}
    }
}

@frozen nonisolated public struct Path: Equatable, Sendable, Shape {
    public init() {}
    public init(_ rect: CGRect) {}
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {}
    public init(ellipseIn rect: CGRect) {}
    nonisolated public func path(in rect: CGRect) -> Path { self }
}

@frozen public enum RoundedCornerStyle: Equatable, Hashable, Sendable {
    case circular
    case continuous
}

@frozen public struct FillStyle: Equatable, Sendable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}

public protocol Shape: Sendable, Animatable, View {
    nonisolated func path(in rect: CGRect) -> Path
    @available(iOS 16.0, *)
    nonisolated func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize
}

extension Shape {
    @available(iOS 16.0, *)
    nonisolated public func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize { .zero }

    nonisolated public func fill<S: ShapeStyle>(_ content: S = .foreground, style: FillStyle = FillStyle()) -> some View {
        _ShapeView(shape: self, style: content)
    }

    nonisolated public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> some View {
        _ShapeView(shape: self, style: content)
    }
}

extension Shape where Body == _ShapeView<Self, ForegroundStyle> {
    public var body: _ShapeView<Self, ForegroundStyle> { _ShapeView(shape: self, style: ForegroundStyle()) }
}

@frozen nonisolated public struct _ShapeView<Content: Shape, Style: ShapeStyle>: View {
    public var shape: Content
    public var style: Style
    public init(shape: Content, style: Style) {
        self.shape = shape
        self.style = style
    }
    public var body: Never { return fatalError() }
}

@frozen nonisolated public struct Rectangle: Shape {
    public init() {}
    nonisolated public func path(in rect: CGRect) -> Path { Path(rect) }
}

@frozen nonisolated public struct Capsule: Shape {
    public var style: RoundedCornerStyle
    public init(style: RoundedCornerStyle = .continuous) { self.style = style }
    nonisolated public func path(in rect: CGRect) -> Path { Path(rect) }
}

@frozen nonisolated public struct Circle: Shape {
    public init() {}
    nonisolated public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
}

@frozen nonisolated public struct RoundedRectangle: Shape {
    public var cornerSize: CGSize
    public var style: RoundedCornerStyle
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        cornerSize = CGSize(width: cornerRadius, height: cornerRadius)
        self.style = style
    }
    nonisolated public func path(in rect: CGRect) -> Path { Path(rect) }
}

// MARK: - State and data flow

public protocol DynamicProperty {}

@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
    var value: Value
    public init(wrappedValue value: Value) { self.value = value }
    public init(initialValue value: Value) { self.value = value }
    public var wrappedValue: Value {
        get { value }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { Binding(get: { self.value }, set: { _ in }) }
}

extension State: Sendable where Value: Sendable {}

extension State where Value: ExpressibleByNilLiteral {
    public init() { value = nil }
}

@frozen @propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    let getValue: () -> Value

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { getValue = get }
    public init(projectedValue: Binding<Value>) { getValue = projectedValue.getValue }
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    public var wrappedValue: Value {
        get { getValue() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { fatalError() }, set: { _ in })
    }
}

extension Binding: @unchecked Sendable where Value: Sendable {}

@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { fatalError() }
}

@available(iOS 15.0, *)
public enum DynamicTypeSize: Hashable, Comparable, CaseIterable, Sendable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5
}

public enum UserInterfaceSizeClass: Hashable, Sendable {
    case compact
    case regular
}

public struct EnvironmentValues {
    public init() {}
    public var accessibilityReduceMotion: Bool { false }
    @available(iOS 16.0, *)
    public var isScrollEnabled: Bool {
        get { true }
        set {}
    }
    public var horizontalSizeClass: UserInterfaceSizeClass? {
        get { nil }
        set {}
    }
    public var verticalSizeClass: UserInterfaceSizeClass? {
        get { nil }
        set {}
    }
    public var layoutDirection: LayoutDirection {
        get { .leftToRight }
        set {}
    }
    public var displayScale: CGFloat {
        get { 1 }
        set {}
    }
    public var locale: Locale {
        get { Locale(identifier: "en") }
        set {}
    }
    @available(iOS 26.0, *)
    public var tabViewBottomAccessoryPlacement: TabViewBottomAccessoryPlacement? { nil }
}

@available(iOS 14.0, *)
@frozen @propertyWrapper public struct AppStorage<Value>: DynamicProperty {
    let key: String
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { fatalError() }
}

@available(iOS 14.0, *)
extension AppStorage {
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Bool { self.key = key }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Int { self.key = key }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Double { self.key = key }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == String { self.key = key }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value: RawRepresentable, Value.RawValue == String { self.key = key }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value: RawRepresentable, Value.RawValue == Int { self.key = key }
}

@available(iOS 18.0, *)
extension AppStorage where Value == TabViewCustomization {
    public init(wrappedValue: Value = TabViewCustomization(), _ key: String, store: UserDefaults? = nil) { self.key = key }
}

@available(iOS 14.0, *)
@frozen @propertyWrapper public struct Namespace: DynamicProperty {
    public init() {}
    public var wrappedValue: Namespace.ID { ID() }

    @frozen public struct ID: Hashable, Sendable {}
}

// MARK: - Animation and transactions

public struct Animation: Equatable, Sendable {
    let name: String
    public static let `default` = Animation(name: "default")
    public static let linear = Animation(name: "linear")
    public static let easeInOut = Animation(name: "easeInOut")
    public static func easeInOut(duration: Double) -> Animation { .easeInOut }
    public static func linear(duration: Double) -> Animation { .linear }
    @available(iOS 17.0, *)
    public static var smooth: Animation { .default }
    @available(iOS 17.0, *)
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0.0) -> Animation { .default }
    @available(iOS 17.0, *)
    public static var snappy: Animation { .default }
    @available(iOS 17.0, *)
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0.0) -> Animation { .default }
}

public struct Transaction {
    public init() {}
    public init(animation: Animation?) { self.animation = animation }
    public var animation: Animation?
    public var disablesAnimations: Bool = false
}

public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

public func withTransaction<Result>(_ transaction: Transaction, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

public struct AnyTransition: Sendable {
    let name: String
    public static let identity = AnyTransition(name: "identity")
    public static let opacity = AnyTransition(name: "opacity")
    public static let scale = AnyTransition(name: "scale")
    public static func move(edge: Edge) -> AnyTransition { AnyTransition(name: "move") }
    public static func asymmetric(insertion: AnyTransition, removal: AnyTransition) -> AnyTransition { insertion }
    public func combined(with other: AnyTransition) -> AnyTransition { self }
}

@available(iOS 17.0, *)
public struct SensoryFeedback: Equatable, Sendable {
    let name: String
    public static let selection = SensoryFeedback(name: "selection")
    public static let success = SensoryFeedback(name: "success")
    public static let impact = SensoryFeedback(name: "impact")
}

// MARK: - Accessibility

public struct AccessibilityTraits: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static let isButton = AccessibilityTraits(rawValue: 1)
    public static let isHeader = AccessibilityTraits(rawValue: 2)
    public static let isSelected = AccessibilityTraits(rawValue: 4)
    public static let isLink = AccessibilityTraits(rawValue: 8)
    public static let isImage = AccessibilityTraits(rawValue: 16)
    public static let isStaticText = AccessibilityTraits(rawValue: 32)
    @available(iOS 17.0, *)
    public static let isTabBar = AccessibilityTraits(rawValue: 64)
    @available(iOS 17.0, *)
    public static let isToggle = AccessibilityTraits(rawValue: 128)
}

public struct AccessibilityChildBehavior: Hashable, Sendable {
    let name: String
    public static let ignore = AccessibilityChildBehavior(name: "ignore")
    public static let contain = AccessibilityChildBehavior(name: "contain")
    public static let combine = AccessibilityChildBehavior(name: "combine")
}

// MARK: - Controls

@available(iOS 15.0, *)
public struct ButtonRole: Equatable, Sendable {
    let name: String
    public static let destructive = ButtonRole(name: "destructive")
    public static let cancel = ButtonRole(name: "cancel")
}

nonisolated public struct Button<Label: View>: View {
    @preconcurrency public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    @available(iOS 15.0, *)
    @preconcurrency public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { return fatalError() }
}

extension Button where Label == Text {
    @preconcurrency public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
    @_disfavoredOverload
    @preconcurrency public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
    @available(iOS 15.0, *)
    @preconcurrency public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
}

public protocol PrimitiveButtonStyle {}

public struct PlainButtonStyle: PrimitiveButtonStyle {
    public init() {}
}

public struct BorderlessButtonStyle: PrimitiveButtonStyle {
    public init() {}
}

@available(iOS 15.0, *)
extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    public static var plain: PlainButtonStyle { PlainButtonStyle() }
}

@available(iOS 15.0, *)
extension PrimitiveButtonStyle where Self == BorderlessButtonStyle {
    public static var borderless: BorderlessButtonStyle { BorderlessButtonStyle() }
}

nonisolated public struct Toggle<Label: View>: View {
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {}
    public var body: Never { return fatalError() }
}

extension Toggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

nonisolated public struct Stepper<Label: View>: View {
    public var body: Never { return fatalError() }
}

extension Stepper where Label == Text {
    public init<V: Strideable>(
        _ titleKey: LocalizedStringKey, value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) {}
    public init<V: Strideable>(
        _ titleKey: LocalizedStringKey, value: Binding<V>, step: V.Stride = 1,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) {}
}

nonisolated public struct TextField<Label: View>: View {
    public var body: Never { return fatalError() }
}

extension TextField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

@available(iOS 16.0, *)
nonisolated public struct LabeledContent<Label: View, Content: View>: View {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {}
    public var body: Never { return fatalError() }
}

@available(iOS 16.0, *)
extension LabeledContent where Label == Text, Content == Text {
    public init<S: StringProtocol>(_ titleKey: LocalizedStringKey, value: S) {}
}

@available(iOS 14.0, *)
nonisolated public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public var body: Never { return fatalError() }
}

@available(iOS 14.0, *)
extension ProgressView where CurrentValueLabel == EmptyView {
    public init() where Label == EmptyView {}
    public init(_ titleKey: LocalizedStringKey) where Label == Text {}
}

@available(iOS 14.0, *)
nonisolated public struct Menu<Label: View, Content: View>: View {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {}
    public var body: Never { return fatalError() }
}

@available(iOS 14.0, *)
extension Menu where Label == SwiftUI.Label<Text, Image> {
    public init(_ titleKey: LocalizedStringKey, systemImage: String, @ViewBuilder content: () -> Content) {}
}

@available(iOS 14.0, *)
extension Menu where Label == Text {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {}
}

nonisolated public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View {
    public init(selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {}
    public var body: Never { return fatalError() }
}

extension Picker where Label == Text {
    public init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
}

public protocol PickerStyle {}

public struct DefaultPickerStyle: PickerStyle {
    public init() {}
}

public struct SegmentedPickerStyle: PickerStyle {
    public init() {}
}

@available(iOS 27.0, *)
public struct TabsPickerStyle: PickerStyle {
    public init() {}
}

extension PickerStyle where Self == DefaultPickerStyle {
    public static var automatic: DefaultPickerStyle { DefaultPickerStyle() }
}

extension PickerStyle where Self == SegmentedPickerStyle {
    public static var segmented: SegmentedPickerStyle { SegmentedPickerStyle() }
}

@available(iOS 27.0, *)
extension PickerStyle where Self == TabsPickerStyle {
    public static var tabs: TabsPickerStyle { TabsPickerStyle() }
}

// MARK: - Lists and navigation

nonisolated public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public var data: Data
    public var content: (Data.Element) -> Content
}

extension ForEach: View where Content: View {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) where ID == Data.Element.ID, Data.Element: Identifiable {
        self.data = data
        self.content = content
    }
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
    public var body: Never { return fatalError() }
}

extension ForEach where Data == Range<Int>, ID == Int, Content: View {
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data
        self.content = content
    }
}

nonisolated public struct List<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { return fatalError() }
}

extension List where SelectionValue == Never {
    public init(@ViewBuilder content: () -> Content) {}
    public init<Data: RandomAccessCollection, ID: Hashable, RowContent: View>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, ID, RowContent> {}
    public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {}
}

public protocol ListStyle {}

public struct PlainListStyle: ListStyle {
    public init() {}
}

public struct InsetGroupedListStyle: ListStyle {
    public init() {}
}

extension ListStyle where Self == PlainListStyle {
    public static var plain: PlainListStyle { PlainListStyle() }
}

extension ListStyle where Self == InsetGroupedListStyle {
    public static var insetGrouped: InsetGroupedListStyle { InsetGroupedListStyle() }
}

nonisolated public struct Section<Parent: View, Content: View, Footer: View>: View {
    public var body: Never { return fatalError() }
}

extension Section where Parent: View, Content: View, Footer: View {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer) {}
}

extension Section where Parent: View, Content: View, Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {}
}

extension Section where Parent == EmptyView, Content: View, Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content) {}
}

extension Section where Parent == Text, Content: View, Footer == EmptyView {
    @available(iOS 15.0, *)
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {}
    @available(iOS 15.0, *)
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {}
}

nonisolated public struct ScrollView<Content: View>: View {
    public init(_ axes: Axis.Set = .vertical, @ViewBuilder content: () -> Content) {}
    public var body: Never { return fatalError() }
}

@available(iOS 14.0, *)
public struct ScrollViewProxy {
    public func scrollTo<ID: Hashable>(_ id: ID, anchor: UnitPoint? = nil) {}
}

@available(iOS 14.0, *)
@frozen nonisolated public struct ScrollViewReader<Content: View>: View {
    public init(@ViewBuilder content: @escaping (ScrollViewProxy) -> Content) {}
    public var body: Never { return fatalError() }
}

@available(iOS 16.0, *)
nonisolated public struct NavigationStack<Data, Root: View>: View {
    public init(@ViewBuilder root: () -> Root) where Data == NavigationPath {}
    public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
    where Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection, Data.Element: Hashable {}
    public var body: Never { return fatalError() }
}

@available(iOS 16.0, *)
public struct NavigationPath: Equatable {
    public init() {}
    public var count: Int { 0 }
}

nonisolated public struct NavigationLink<Label: View, Destination: View>: View {
    public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {}
    public var body: Never { return fatalError() }
}

extension NavigationLink where Destination == Never {
    @available(iOS 16.0, *)
    public init<P: Hashable>(value: P?, @ViewBuilder label: () -> Label) {}
    @available(iOS 16.0, *)
    public init<P: Hashable>(_ titleKey: LocalizedStringKey, value: P?) where Label == Text {}
}

public enum NavigationBarItem {
    public enum TitleDisplayMode: Sendable {
        case automatic
        case inline
        case large
    }
}

// MARK: - Tab views and tabs

nonisolated public struct TabView<SelectionValue: Hashable, Content: View>: View {
    public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {}
    public var body: Never { return fatalError() }
}

extension TabView where SelectionValue == Int {
    public init(@ViewBuilder content: () -> Content) {}
}

@available(iOS 18.0, *)
extension TabView {
    public init<C: TabContent>(selection: Binding<SelectionValue>, @TabContentBuilder<SelectionValue> content: () -> C)
    where Content == TabContentBuilder<SelectionValue>.Content<C> {}
}

@available(iOS 18.0, *)
extension TabView where SelectionValue == Never {
    public init<C: TabContent>(@TabContentBuilder<Never> content: () -> C) where Content == TabContentBuilder<Never>.Content<C> {}
}

@available(iOS 18.0, *)
@MainActor @preconcurrency public protocol TabContent<TabValue> {
    associatedtype TabValue: Hashable
    associatedtype Body: TabContent
    @TabContentBuilder<Self.TabValue> @MainActor var body: Self.Body { get }
}

@available(iOS 18.0, *)
extension Never: TabContent {
    public typealias TabValue = Never
}

@available(iOS 18.0, *)
@resultBuilder public struct TabContentBuilder<TabValue: Hashable> {
    public static func buildExpression<C: TabContent>(_ content: C) -> C where C.TabValue == TabValue { content }
    // Apple declares fixed-arity `buildBlock` overloads; pairwise accumulation accepts the
    // same bodies (a pack cannot carry the same-type requirement on each element).
    public static func buildPartialBlock<C: TabContent>(first content: C) -> C where C.TabValue == TabValue { content }
    public static func buildPartialBlock<Accumulated: TabContent, Next: TabContent>(
        accumulated: Accumulated, next: Next
    )
        -> TupleTabContent<TabValue, (Accumulated, Next)> where Accumulated.TabValue == TabValue, Next.TabValue == TabValue
    {
        TupleTabContent()
    }
    public static func buildIf<C: TabContent>(_ content: C?) -> C? where C.TabValue == TabValue { content }
    public static func buildEither<T: TabContent, F: TabContent>(first: T) -> _ConditionalContent<T, F>
    where T.TabValue == TabValue, F.TabValue == TabValue {
        _ConditionalContent()
    }
    public static func buildEither<T: TabContent, F: TabContent>(second: F) -> _ConditionalContent<T, F>
    where T.TabValue == TabValue, F.TabValue == TabValue {
        _ConditionalContent()
    }

    /// The view a tab view shows for its tabs.
    nonisolated public struct Content<C: TabContent>: View where C.TabValue == TabValue {
        public var body: Never { return fatalError() }
    }
}

@available(iOS 18.0, *)
nonisolated public struct TupleTabContent<TabValue: Hashable, T>: TabContent {
    public var body: Never { return fatalError() }
}

@available(iOS 18.0, *)
extension Optional: TabContent where Wrapped: TabContent {
    public typealias TabValue = Wrapped.TabValue
    public var body: Never { return fatalError() }
}

@available(iOS 18.0, *)
extension _ConditionalContent: TabContent where TrueContent: TabContent, FalseContent: TabContent, TrueContent.TabValue == FalseContent.TabValue {
    public typealias TabValue = TrueContent.TabValue
    public var body: Never { return fatalError() }
}

@available(iOS 18.0, *)
extension ForEach: TabContent where Content: TabContent {
    public typealias TabValue = Content.TabValue
    public var body: Never { return fatalError() }
    public init<V: Hashable>(_ data: Data, @TabContentBuilder<V> content: @escaping (Data.Element) -> Content)
    where ID == Data.Element.ID, V == Content.TabValue, Data.Element: Identifiable {
        self.data = data
        self.content = content
    }
    public init<V: Hashable>(_ data: Data, id: KeyPath<Data.Element, ID>, @TabContentBuilder<V> content: @escaping (Data.Element) -> Content)
    where V == Content.TabValue {
        self.data = data
        self.content = content
    }
}

@available(iOS 18.0, *)
nonisolated public struct DefaultTabLabel: View {
    public var body: Never { return fatalError() }
}

@available(iOS 18.0, *)
nonisolated public struct Tab<Value: Hashable, Content: View, Label: View>: TabContent {
    public typealias TabValue = Value
    public var body: Never { return fatalError() }
}

@available(iOS 18.0, *)
extension Tab {
    public init(value: Value, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {}
    public init(_ titleKey: LocalizedStringKey, systemImage: String, value: Value, @ViewBuilder content: () -> Content)
    where Label == DefaultTabLabel {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage: String, value: Value, @ViewBuilder content: () -> Content)
    where Label == DefaultTabLabel {}
    public init(_ titleKey: LocalizedStringKey, image: String, value: Value, @ViewBuilder content: () -> Content)
    where Label == DefaultTabLabel {}
    public init(value: Value, role: TabRole?, @ViewBuilder content: () -> Content) where Label == DefaultTabLabel {}
}

@available(iOS 18.0, *)
nonisolated public struct TabSection<Header: View, Content: TabContent, Footer: View, SelectionValue: Hashable>: TabContent
where Content.TabValue == SelectionValue {
    public typealias TabValue = SelectionValue
    public var body: Never { return fatalError() }
}

@available(iOS 18.0, *)
extension TabSection where Header == Text, Footer == EmptyView {
    public init(_ titleKey: LocalizedStringKey, @TabContentBuilder<SelectionValue> content: () -> Content) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @TabContentBuilder<SelectionValue> content: () -> Content) {}
}

@available(iOS 18.0, *)
extension TabSection where Header == EmptyView, Footer == EmptyView {
    public init(@TabContentBuilder<SelectionValue> content: () -> Content) {}
}

@available(iOS 18.0, *)
public struct TabRole: Hashable, Sendable {
    let name: String
    public static var search: TabRole { TabRole(name: "search") }
}

@available(iOS 26.0, *)
public struct TabBarMinimizeBehavior: Sendable {
    let name: String
    public static let automatic = TabBarMinimizeBehavior(name: "automatic")
    public static let onScrollDown = TabBarMinimizeBehavior(name: "onScrollDown")
    public static let onScrollUp = TabBarMinimizeBehavior(name: "onScrollUp")
    public static let never = TabBarMinimizeBehavior(name: "never")
}

@available(iOS 26.0, *)
public enum TabViewBottomAccessoryPlacement: Hashable, Sendable {
    case inline
    case expanded
}

@available(iOS 26.0, *)
public struct TabSearchActivation: Hashable, Sendable {
    let name: String
    public static var automatic: TabSearchActivation { TabSearchActivation(name: "automatic") }
    public static var searchTabSelection: TabSearchActivation { TabSearchActivation(name: "searchTabSelection") }
}

@available(iOS 15.0, *)
public struct SearchFieldPlacement: Sendable {
    let name: String
    public static let automatic = SearchFieldPlacement(name: "automatic")
}

@available(iOS 18.0, *)
public struct TabViewCustomization: Equatable, Codable, Sendable {
    public init() {}
}

@available(iOS 18.0, *)
public struct TabCustomizationBehavior: Equatable, Sendable {
    let name: String
    public static let automatic = TabCustomizationBehavior(name: "automatic")
    public static let reorderable = TabCustomizationBehavior(name: "reorderable")
    public static let disabled = TabCustomizationBehavior(name: "disabled")
}

@available(iOS 18.0, *)
public struct AdaptableTabBarPlacement: Hashable, Sendable {
    let name: String
    public static let automatic = AdaptableTabBarPlacement(name: "automatic")
    public static let tabBar = AdaptableTabBarPlacement(name: "tabBar")
    public static let sidebar = AdaptableTabBarPlacement(name: "sidebar")
}

@available(iOS 15.0, *)
@frozen public enum Visibility: Hashable, CaseIterable, Sendable {
    case automatic
    case visible
    case hidden
}

@available(iOS 18.0, *)
extension TabContent {
    nonisolated public func badge(_ count: Int) -> some TabContent<Self.TabValue> { self }
    nonisolated public func badge(_ label: Text?) -> some TabContent<Self.TabValue> { self }
    nonisolated public func badge(_ key: LocalizedStringKey) -> some TabContent<Self.TabValue> { self }
    nonisolated public func customizationID(_ id: String) -> some TabContent<Self.TabValue> { self }
    nonisolated public func customizationBehavior(
        _ behavior: TabCustomizationBehavior, for placements: AdaptableTabBarPlacement...
    ) -> some TabContent<Self.TabValue> {
        self
    }
    nonisolated public func defaultVisibility(_ visibility: Visibility, for placements: AdaptableTabBarPlacement...) -> some TabContent<Self.TabValue> {
        self
    }
    nonisolated public func hidden(_ hidden: Bool = true) -> some TabContent<Self.TabValue> { self }
}

public protocol TabViewStyle {}

public struct DefaultTabViewStyle: TabViewStyle {
    public init() {}
}

@available(iOS 14.0, *)
public struct PageTabViewStyle: TabViewStyle {
    public init() {}
}

@available(iOS 18.0, *)
public struct SidebarAdaptableTabViewStyle: TabViewStyle {
    public init() {}
}

extension TabViewStyle where Self == DefaultTabViewStyle {
    public static var automatic: DefaultTabViewStyle { DefaultTabViewStyle() }
}

@available(iOS 14.0, *)
extension TabViewStyle where Self == PageTabViewStyle {
    public static var page: PageTabViewStyle { PageTabViewStyle() }
}

@available(iOS 18.0, *)
extension TabViewStyle where Self == SidebarAdaptableTabViewStyle {
    public static var sidebarAdaptable: SidebarAdaptableTabViewStyle { SidebarAdaptableTabViewStyle() }
}

// MARK: - Scrolling

@available(iOS 16.0, *)
public struct ScrollIndicatorVisibility: Equatable, Sendable {
    let name: String
    public static let automatic = ScrollIndicatorVisibility(name: "automatic")
    public static let visible = ScrollIndicatorVisibility(name: "visible")
    public static let hidden = ScrollIndicatorVisibility(name: "hidden")
    public static let never = ScrollIndicatorVisibility(name: "never")
}

@available(iOS 16.4, *)
public struct ScrollBounceBehavior: Sendable {
    let name: String
    public static let automatic = ScrollBounceBehavior(name: "automatic")
    public static let always = ScrollBounceBehavior(name: "always")
    public static let basedOnSize = ScrollBounceBehavior(name: "basedOnSize")
}

@available(iOS 17.0, *)
public protocol ScrollTargetBehavior {}

@available(iOS 17.0, *)
public struct PagingScrollTargetBehavior: ScrollTargetBehavior {
    public init() {}
}

@available(iOS 17.0, *)
public struct ViewAlignedScrollTargetBehavior: ScrollTargetBehavior {
    public init() {}
}

@available(iOS 17.0, *)
extension ScrollTargetBehavior where Self == PagingScrollTargetBehavior {
    public static var paging: PagingScrollTargetBehavior { PagingScrollTargetBehavior() }
}

@available(iOS 17.0, *)
extension ScrollTargetBehavior where Self == ViewAlignedScrollTargetBehavior {
    public static var viewAligned: ViewAlignedScrollTargetBehavior { ViewAlignedScrollTargetBehavior() }
}

public struct SafeAreaRegions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let container = SafeAreaRegions(rawValue: 1)
    public static let keyboard = SafeAreaRegions(rawValue: 2)
    public static let all: SafeAreaRegions = [.container, .keyboard]
}

@available(iOS 18.0, *)
public struct ScrollPosition: Equatable, Sendable {
    public init(idType: (some Hashable & Sendable).Type = Never.self, edge: Edge) {}
    public init(id: some Hashable & Sendable, anchor: UnitPoint? = nil) {}
    public mutating func scrollTo(y: CGFloat) {}
    public mutating func scrollTo(id: some Hashable & Sendable, anchor: UnitPoint? = nil) {}
}

@available(iOS 18.0, *)
public struct ScrollGeometry: Equatable, Sendable {
    public var contentOffset: CGPoint
    public var contentInsets: EdgeInsets
    public var containerSize: CGSize
}

// MARK: - Keyboard, focus and pointer

@available(iOS 14.0, *)
@frozen public struct KeyEquivalent: Hashable, Sendable {
    public var character: Character
    public init(_ character: Character) { self.character = character }
    public static let leftArrow = KeyEquivalent("\u{F702}")
    public static let rightArrow = KeyEquivalent("\u{F703}")
}

@available(iOS 17.0, *)
public struct KeyPress: Sendable {
    public enum Result: Hashable, Sendable {
        case handled
        case ignored
    }
}

@available(iOS 13.4, *)
public struct HoverEffect: Sendable {
    let name: String
    public static let automatic = HoverEffect(name: "automatic")
    public static let highlight = HoverEffect(name: "highlight")
}

// MARK: - Toolbars

public struct ToolbarItemPlacement: Sendable {
    let name: String
    public static let automatic = ToolbarItemPlacement(name: "automatic")
    public static let principal = ToolbarItemPlacement(name: "principal")
    public static let topBarLeading = ToolbarItemPlacement(name: "topBarLeading")
    public static let topBarTrailing = ToolbarItemPlacement(name: "topBarTrailing")
}

// MARK: - View modifiers

extension View {
    // Layout
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { self }
    nonisolated public func padding(_ length: CGFloat) -> some View { self }
    nonisolated public func padding(_ insets: EdgeInsets) -> some View { self }
    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View { self }
    nonisolated public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil,
        minHeight: CGFloat? = nil, idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> some View { self }
    nonisolated public func fixedSize() -> some View { self }
    nonisolated public func fixedSize(horizontal: Bool, vertical: Bool) -> some View { self }
    nonisolated public func offset(_ offset: CGSize) -> some View { self }
    nonisolated public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    nonisolated public func scaleEffect(_ s: CGFloat, anchor: UnitPoint = .center) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func containerRelativeFrame(_ axes: Axis.Set, alignment: Alignment = .center) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func safeAreaInset<V: View>(
        edge: VerticalEdge, alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> V
    ) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func coordinateSpace(_ name: NamedCoordinateSpace) -> some View { self }
    nonisolated public func clipped(antialiased: Bool = false) -> some View { self }
    nonisolated public func allowsHitTesting(_ enabled: Bool) -> some View { self }
    nonisolated public func shadow(color: Color = .black, radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    nonisolated public func hidden() -> some View { self }

    // Layers
    @available(iOS 15.0, *)
    nonisolated public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View { self }

    // Text and style
    nonisolated public func font(_ font: Font?) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { self }
    nonisolated public func lineLimit(_ number: Int?) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func dynamicTypeSize<T: RangeExpression>(_ range: T) -> some View where T.Bound == DynamicTypeSize { self }
    nonisolated public func minimumScaleFactor(_ factor: CGFloat) -> some View { self }
    nonisolated public func opacity(_ opacity: Double) -> some View { self }
    nonisolated public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> some View { self }

    // Identity, animation and environment
    nonisolated public func id<ID: Hashable>(_ id: ID) -> some View { self }
    nonisolated public func tag<V: Hashable>(_ tag: V) -> some View { self }
    nonisolated public func transition(_ t: AnyTransition) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func matchedGeometryEffect<ID: Hashable>(
        id: ID, in namespace: Namespace.ID, anchor: UnitPoint = .center, isSource: Bool = true
    ) -> some View { self }
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View { self }

    // Events
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void) -> some View
    {
        self
    }
    @available(iOS 17.0, *)
    nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View { self }
    @available(iOS 14.0, *)
    @available(iOS, deprecated: 17.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func task(
        name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID, line: Int = #line,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func task<T: Equatable>(
        id value: T, name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID, line: Int = #line,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { self }
    @available(iOS 16.0, *)
    @preconcurrency nonisolated public func onGeometryChange<T: Equatable & Sendable>(
        for type: T.Type, of transform: @escaping @Sendable (GeometryProxy) -> T, action: @escaping (_ newValue: T) -> Void
    ) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func onKeyPress(_ key: KeyEquivalent, action: @escaping () -> KeyPress.Result) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func focusable(_ isFocusable: Bool = true) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func hoverEffect(_ effect: HoverEffect = .automatic, isEnabled: Bool = true) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func sensoryFeedback<T: Equatable>(_ feedback: SensoryFeedback, trigger: T) -> some View { self }

    // Scrolling
    @available(iOS 16.0, *)
    nonisolated public func scrollIndicators(_ visibility: ScrollIndicatorVisibility, axes: Axis.Set = [.vertical, .horizontal]) -> some View { self }
    @available(iOS 16.4, *)
    nonisolated public func scrollBounceBehavior(_ behavior: ScrollBounceBehavior, axes: Axis.Set = [.vertical]) -> some View { self }
    @available(iOS 16.0, *)
    nonisolated public func scrollDisabled(_ disabled: Bool) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func scrollTargetLayout(isEnabled: Bool = true) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func scrollTargetBehavior(_ behavior: some ScrollTargetBehavior) -> some View { self }
    @available(iOS 17.0, *)
    nonisolated public func scrollPosition(id: Binding<(some Hashable)?>, anchor: UnitPoint? = nil) -> some View { self }
    @available(iOS 18.0, *)
    nonisolated public func scrollPosition(_ position: Binding<ScrollPosition>, anchor: UnitPoint? = nil) -> some View { self }
    @available(iOS 18.0, *)
    nonisolated public func onScrollGeometryChange<T: Equatable>(
        for type: T.Type, of transform: @escaping (ScrollGeometry) -> T, action: @escaping (_ oldValue: T, _ newValue: T) -> Void
    ) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func refreshable(action: @escaping @Sendable () async -> Void) -> some View { self }

    // Controls
    nonisolated public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { self }
    nonisolated public func pickerStyle<S: PickerStyle>(_ style: S) -> some View { self }
    nonisolated public func listStyle<S: ListStyle>(_ style: S) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func tabViewStyle<S: TabViewStyle>(_ style: S) -> some View { self }
    @available(iOS 26.0, *)
    nonisolated public func tabBarMinimizeBehavior(_ behavior: TabBarMinimizeBehavior) -> some View { self }
    @available(iOS 26.0, *)
    nonisolated public func tabViewBottomAccessory<Content: View>(@ViewBuilder content: () -> Content) -> some View { self }
    @available(iOS 26.0, *)
    nonisolated public func tabViewSearchActivation(_ activation: TabSearchActivation) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func searchable(text: Binding<String>, placement: SearchFieldPlacement = .automatic, prompt: LocalizedStringKey) -> some View { self }
    @available(iOS 18.0, *)
    nonisolated public func tabViewCustomization(_ customization: Binding<TabViewCustomization>?) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func badge(_ label: Text?) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func badge(_ count: Int) -> some View { self }

    // Navigation and toolbars
    @available(iOS 14.0, *)
    nonisolated public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func navigationTitle(_ title: Text) -> some View { self }
    @available(iOS 14.0, *)
    @_disfavoredOverload
    nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func navigationBarTitleDisplayMode(_ displayMode: NavigationBarItem.TitleDisplayMode) -> some View { self }
    @available(iOS 16.0, *)
    nonisolated public func navigationDestination<D: Hashable, C: View>(for data: D.Type, @ViewBuilder destination: @escaping (D) -> C) -> some View {
        self
    }
    @available(iOS 14.0, *)
    nonisolated public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View { self }
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View { self }

    // Accessibility
    @available(iOS 14.0, *)
    nonisolated public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func accessibilityRemoveTraits(_ traits: AccessibilityTraits) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func accessibilityHidden(_ hidden: Bool) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func accessibilityLabel(_ label: Text) -> some View { self }
    @available(iOS 14.0, *)
    nonisolated public func accessibilityValue(_ valueDescription: Text) -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func accessibilityShowsLargeContentViewer() -> some View { self }
    @available(iOS 15.0, *)
    nonisolated public func accessibilityShowsLargeContentViewer<V: View>(@ViewBuilder _ largeContentView: () -> V) -> some View { self }
}
