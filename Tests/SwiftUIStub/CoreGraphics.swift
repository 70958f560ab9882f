// A declaration stub of the few CoreGraphics geometry types the blocks use, so that the
// SwiftUI stub can re-export them the way Apple's SwiftUI does. It is a test fixture:
// never shipped, never linked, never run.
//
// It repeats our reading of Apple's documentation. It proves nothing about behaviour.
//
// The module must be named CoreGraphics: the compiler converts between Double and
// CGFloat implicitly only for the CGFloat of that module (SE-0307), and the blocks rely
// on that conversion as any iOS code does.

public struct CGFloat: Sendable, Hashable, Comparable, Codable,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, SignedNumeric, BinaryFloatingPoint
{
    public typealias NativeType = Double
    public var native: Double

    public init(_ value: Double) { native = value }
    public init() { native = 0 }
    public init(floatLiteral value: Double) { native = value }
    public init(integerLiteral value: Int) { native = Double(value) }
    public init(_ value: Int) { native = Double(value) }
    public init(_ value: Float) { native = Double(value) }
    public init?<T: BinaryInteger>(exactly source: T) { native = Double(source) }
    public init<T: BinaryInteger>(_ source: T) { native = Double(source) }
    public init(sign: FloatingPointSign, exponent: Int, significand: CGFloat) {
        native = Double(sign: sign, exponent: exponent, significand: significand.native)
    }
    public init(signOf: CGFloat, magnitudeOf: CGFloat) { native = Double(signOf: signOf.native, magnitudeOf: magnitudeOf.native) }
    public init(sign: FloatingPointSign, exponentBitPattern: UInt, significandBitPattern: UInt64) {
        native = Double(sign: sign, exponentBitPattern: exponentBitPattern, significandBitPattern: significandBitPattern)
    }

    public static var exponentBitCount: Int { Double.exponentBitCount }
    public static var significandBitCount: Int { Double.significandBitCount }
    public var exponentBitPattern: UInt { native.exponentBitPattern }
    public var significandBitPattern: UInt64 { native.significandBitPattern }
    public var binade: CGFloat { CGFloat(native.binade) }
    public var significandWidth: Int { native.significandWidth }
    public var nextUp: CGFloat { CGFloat(native.nextUp) }
    public var sign: FloatingPointSign { native.sign }
    public var exponent: Int { native.exponent }
    public var significand: CGFloat { CGFloat(native.significand) }
    public var magnitude: CGFloat { CGFloat(native.magnitude) }
    public var ulp: CGFloat { CGFloat(native.ulp) }
    public var isNormal: Bool { native.isNormal }
    public var isFinite: Bool { native.isFinite }
    public var isZero: Bool { native.isZero }
    public var isSubnormal: Bool { native.isSubnormal }
    public var isInfinite: Bool { native.isInfinite }
    public var isNaN: Bool { native.isNaN }
    public var isSignalingNaN: Bool { native.isSignalingNaN }
    public var isCanonical: Bool { native.isCanonical }
    public static var nan: CGFloat { CGFloat(Double.nan) }
    public static var signalingNaN: CGFloat { CGFloat(Double.signalingNaN) }
    public static var infinity: CGFloat { CGFloat(Double.infinity) }
    public static var greatestFiniteMagnitude: CGFloat { CGFloat(Double.greatestFiniteMagnitude) }
    public static var pi: CGFloat { CGFloat(Double.pi) }
    public static var leastNormalMagnitude: CGFloat { CGFloat(Double.leastNormalMagnitude) }
    public static var leastNonzeroMagnitude: CGFloat { CGFloat(Double.leastNonzeroMagnitude) }
    public static var radix: Int { 2 }

    public mutating func round(_ rule: FloatingPointRoundingRule) { native.round(rule) }
    public mutating func formRemainder(dividingBy other: CGFloat) { native.formRemainder(dividingBy: other.native) }
    public mutating func formTruncatingRemainder(dividingBy other: CGFloat) { native.formTruncatingRemainder(dividingBy: other.native) }
    public mutating func formSquareRoot() { native.formSquareRoot() }
    public mutating func addProduct(_ lhs: CGFloat, _ rhs: CGFloat) { native.addProduct(lhs.native, rhs.native) }
    public func isEqual(to other: CGFloat) -> Bool { native == other.native }
    public func isLess(than other: CGFloat) -> Bool { native < other.native }
    public func isLessThanOrEqualTo(_ other: CGFloat) -> Bool { native <= other.native }
    public func isTotallyOrdered(belowOrEqualTo other: CGFloat) -> Bool { native.isTotallyOrdered(belowOrEqualTo: other.native) }
    public func distance(to other: CGFloat) -> CGFloat { CGFloat(native.distance(to: other.native)) }
    public func advanced(by amount: CGFloat) -> CGFloat { CGFloat(native.advanced(by: amount.native)) }

    public static func < (lhs: CGFloat, rhs: CGFloat) -> Bool { lhs.native < rhs.native }
    public static func + (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native + rhs.native) }
    public static func - (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native - rhs.native) }
    public static func * (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native * rhs.native) }
    public static func / (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native / rhs.native) }
    public static func += (lhs: inout CGFloat, rhs: CGFloat) { lhs.native += rhs.native }
    public static func -= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native -= rhs.native }
    public static func *= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native *= rhs.native }
    public static func /= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native /= rhs.native }
}

extension Double {
    /// The conversion the compiler calls for an implicit CGFloat-to-Double conversion.
    public init(_ other: CGFloat) { self = other.native }
}

public struct CGPoint: Sendable, Hashable, Codable {
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
    public init(x: Double, y: Double) {
        self.x = CGFloat(x)
        self.y = CGFloat(y)
    }
    public init(x: Int, y: Int) {
        self.x = CGFloat(x)
        self.y = CGFloat(y)
    }
    public static var zero: CGPoint { CGPoint() }
}

public struct CGSize: Sendable, Hashable, Codable {
    public var width: CGFloat
    public var height: CGFloat
    public init() {
        width = 0
        height = 0
    }
    public init(width: CGFloat, height: CGFloat) {
        self.width = width
        self.height = height
    }
    public init(width: Double, height: Double) {
        self.width = CGFloat(width)
        self.height = CGFloat(height)
    }
    public init(width: Int, height: Int) {
        self.width = CGFloat(width)
        self.height = CGFloat(height)
    }
    public static var zero: CGSize { CGSize() }
}

public struct CGRect: Sendable, Hashable, Codable {
    public var origin: CGPoint
    public var size: CGSize
    public init() {
        origin = .zero
        size = .zero
    }
    public init(origin: CGPoint, size: CGSize) {
        self.origin = origin
        self.size = size
    }
    public init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
        origin = CGPoint(x: x, y: y)
        size = CGSize(width: width, height: height)
    }
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = CGPoint(x: x, y: y)
        size = CGSize(width: width, height: height)
    }
    public static var zero: CGRect { CGRect() }
    public var minX: CGFloat { origin.x }
    public var midX: CGFloat { origin.x + size.width / 2 }
    public var maxX: CGFloat { origin.x + size.width }
    public var minY: CGFloat { origin.y }
    public var midY: CGFloat { origin.y + size.height / 2 }
    public var maxY: CGFloat { origin.y + size.height }
    public var width: CGFloat { size.width }
    public var height: CGFloat { size.height }
    public func insetBy(dx: CGFloat, dy: CGFloat) -> CGRect {
        CGRect(x: origin.x + dx, y: origin.y + dy, width: size.width - 2 * dx, height: size.height - 2 * dy)
    }
}
