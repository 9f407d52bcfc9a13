#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A JSON number, kept exactly as its text (RFC 8259 §6), with conversions on demand.
///
/// RFC 8259 §6 leaves the range and precision of numbers to implementations and warns that values outside IEEE 754
/// doubles lose precision; ``JSONValue`` loses nothing: `18446744073709551617`, `1e400` and
/// `0.10000000000000000000001` keep their text, are written back unchanged, and convert on request:
///
/// - ``int64Value``, ``intValue``, ``uint64Value``: the exact value when it is an integer within the type's range
///   (`1.0` and `1e2` count), else `nil`.
/// - ``doubleValue``: the nearest `Double`, correctly rounded (so `0.1` is the usual `0.1`); `nil` when the magnitude
///   is too large for a `Double` (`1e400`); zero, with the number's sign, when it is too small (`1e-400`).
/// - ``decimalValue``: a `Decimal`, keeping up to 38 significant digits; `nil` outside `Decimal`'s range.
///
/// Two numbers are equal when their values are: `1`, `1.0`, `1e0` and `10e-1` are equal, and so are `0` and `-0`
/// (their texts differ; ``text`` tells them apart).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// The number's text, as in the document: a valid RFC 8259 §6 number.
    public let text: String

    /// Creates a number from its text, or `nil` when `text` is not an RFC 8259 §6 number (`+1`, `.5`, `01`, `NaN`,
    /// surrounding spaces).
    public init?(_ text: String) {
        var copy = text
        let valid = copy.withUTF8 { JSONNumber.isValid($0) }
        guard valid else { return nil }
        self.text = text
    }

    /// Creates a number from an integer.
    public init<T: BinaryInteger>(_ value: T) {
        text = String(value)
    }

    /// Creates a number from a finite `Double`, written as its shortest round-tripping text; `nil` for infinities
    /// and NaN, which JSON cannot represent.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        text = JSONNumber.text(of: value)
    }

    /// Creates a number from an integer literal.
    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// Creates a number from a float literal.
    public init(floatLiteral value: Double) {
        self.init(value)!
    }

    init(validText text: String) {
        self.text = text
    }

    /// The number's text.
    public var description: String { text }

    /// Whether the text is an integer: no fraction and no exponent (the `int` production of RFC 8259 §6). `1.0` and
    /// `1e2` are not, although ``int64Value`` converts them.
    public var isInteger: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as an `Int64`, when it is an integer in `Int64`'s range.
    public var int64Value: Int64? {
        var copy = text
        return copy.withUTF8 { JSONNumber.int64(from: $0) }
    }

    /// The value as an `Int`, when it is an integer in `Int`'s range.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The value as a `UInt64`, when it is a non-negative integer in `UInt64`'s range.
    public var uint64Value: UInt64? {
        var copy = text
        return copy.withUTF8 { bytes -> UInt64? in
            let parts = DecimalParts(bytes)
            if parts.digits.isEmpty { return 0 }
            guard !parts.negative else { return nil }
            return parts.magnitude
        }
    }

    /// The nearest `Double` (correctly rounded), or `nil` when the value is beyond `Double`'s range (its magnitude
    /// would round to infinity). Values too small for a `Double` become zero with the number's sign.
    public var doubleValue: Double? {
        var copy = text
        return copy.withUTF8 { JSONNumber.double(from: $0) }
    }

    /// The value as a `Decimal` (up to 38 significant digits; longer mantissas lose their last digits), or `nil`
    /// when the exponent is beyond `Decimal`'s range.
    public var decimalValue: Decimal? { Decimal(string: text) }

    /// Whether two numbers have the same value (`1.0 == 1`, `0 == -0`).
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        var left = lhs.text
        var right = rhs.text
        return left.withUTF8 { l in right.withUTF8 { r in DecimalParts(l) == DecimalParts(r) } }
    }

    /// Hashes the value, so that equal numbers hash alike whatever their text.
    public func hash(into hasher: inout Hasher) {
        var copy = text
        copy.withUTF8 { DecimalParts($0).hash(into: &hasher) }
    }
}

extension JSONNumber {
    /// Whether `bytes` are exactly one RFC 8259 §6 number.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        func digit(_ i: Int) -> Bool { i < count && bytes[i] &- 0x30 < 10 }
        if index < count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digit(index) else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while digit(index) { index += 1 }
        }
        if index < count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digit(index) else { return false }
            while digit(index) { index += 1 }
        }
        if index < count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard digit(index) else { return false }
            while digit(index) { index += 1 }
        }
        return index == count
    }

    /// The shortest text that reads back as `value` (finite): Swift's `description` (`1.0`, `1e-05`, `1e+20`), which
    /// is valid JSON.
    static func text(of value: Double) -> String {
        value.description
    }

    /// Appends what `JSONEncoder` writes for the finite `value`: ``text(of:)`` without a trailing `.0` (`1`, `0.1`,
    /// `1e+300`, `-0`).
    static func appendEncoderText(of value: Double, to output: inout [UInt8]) {
        appendWithoutPointZero(text(of: value), to: &output)
    }

    /// Appends what `JSONEncoder` writes for the finite `value`: its shortest round-tripping text as a `Float`
    /// (`description`: `0.1`, not the `Double` `0.10000000149011612`), without a trailing `.0`.
    static func appendEncoderText(of value: Float, to output: inout [UInt8]) {
        appendWithoutPointZero(value.description, to: &output)
    }

    private static func appendWithoutPointZero(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var count = bytes.count
            if count > 2 && bytes[count - 2] == UInt8(ascii: ".") && bytes[count - 1] == UInt8(ascii: "0") {
                count -= 2
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<count]))
        }
    }

    /// The exact integer value of valid number text, when it fits in an `Int64`.
    static func int64(from bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        // Where the fraction starts and whether there is an exponent.
        var dot: Int?
        var hasExponent = false
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                dot = index
            } else if byte | 0x20 == UInt8(ascii: "e") {
                hasExponent = true
                break
            }
        }
        if !hasExponent {
            // Without an exponent the value is an integer exactly when every fraction digit is 0, which most numbers
            // with a fraction are not: they are told apart here without building their decimal parts.
            if let dot, bytes[(dot + 1)...].contains(where: { $0 != UInt8(ascii: "0") }) { return nil }
            let integerEnd = dot ?? bytes.count
            if integerEnd - (negative ? 1 : 0) <= 18 {
                var magnitude: Int64 = 0
                for byte in bytes[(negative ? 1 : 0)..<integerEnd] { magnitude = magnitude * 10 + Int64(byte - 0x30) }
                return negative ? -magnitude : magnitude
            }
        }
        let parts = DecimalParts(bytes)
        if parts.digits.isEmpty { return 0 }
        guard let magnitude = parts.magnitude else { return nil }
        if parts.negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return Int64(exactly: magnitude)
    }

    /// Exact powers of ten representable as `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The correctly rounded `Double` of valid number text; `nil` when it overflows.
    static func double(from bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        var index = 0
        let negative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        // Up to 19 significant digits, the power of ten they are scaled by, and whether more digits were dropped.
        var significand: UInt64 = 0
        var digits = 0
        var exponent = 0
        var truncated = false
        var inFraction = false
        while index < count {
            let byte = bytes[index]
            let digit = byte &- 0x30
            if digit < 10 {
                if significand == 0 && digit == 0 {
                    if inFraction { exponent -= 1 }
                } else if digits < 19 {
                    significand = significand &* 10 &+ UInt64(digit)
                    digits += 1
                    if inFraction { exponent -= 1 }
                } else {
                    if digit != 0 { truncated = true }
                    if !inFraction { exponent += 1 }
                }
            } else if byte == UInt8(ascii: ".") {
                inFraction = true
            } else {
                break
            }
            index += 1
        }
        if index < count {
            // The exponent, saturated far beyond any double.
            index += 1
            var exponentNegative = false
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var value = 0
            while index < count {
                if value < 100_000 { value = value * 10 + Int(bytes[index] &- 0x30) }
                index += 1
            }
            exponent += exponentNegative ? -value : value
        }
        var result: Double
        if significand == 0 {
            result = 0
        } else {
            while significand % 10 == 0 && !truncated {
                significand /= 10
                exponent += 1
                digits -= 1
            }
            if !truncated && significand <= 1 << 53 && exponent >= -22 && exponent <= 22 {
                // The significand and the power of ten are exact doubles, so one correctly rounded multiplication or
                // division is the correctly rounded result (Clinger's fast path).
                let value = Double(significand)
                result = exponent >= 0 ? value * powersOfTen[exponent] : value / powersOfTen[-exponent]
            } else if exponent + digits < -330 {
                // Below 10^-330: rounds to zero.
                result = 0
            } else if exponent + digits > 310 {
                // At least 10^309: rounds to infinity.
                return nil
            } else if !truncated, let fast = DecimalToDouble.eiselLemire(significand, exponent) {
                result = fast
            } else {
                // The standard library's conversion is correctly rounded; it decides what Eisel–Lemire cannot.
                guard let parsed = Double(String(decoding: bytes, as: UTF8.self)) else { return nil }
                result = parsed.magnitude
            }
        }
        guard result.isFinite else { return nil }
        return negative ? -result : result
    }
}

/// The exact value of a number as sign, significant digits and a power of ten: `-12.50e1` is negative, `125`,
/// exponent `0`. Zero has no digits and is never negative, so equal values have equal parts.
struct DecimalParts: Hashable {
    /// Whether the value is below zero.
    var negative: Bool
    /// The significant digits (ASCII), without leading or trailing zeros.
    var digits: [UInt8]
    /// The power of ten the digits, read as an integer, are multiplied by.
    var exponent: Int

    /// The parts of valid number text.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let count = bytes.count
        negative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while index < count {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                if inFraction { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") {
                inFraction = true
            } else {
                break
            }
            index += 1
        }
        var exponent = 0
        if index < count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            // Saturate far beyond any meaningful exponent (documents are at most 4 GiB, so the digit count cannot
            // bring a saturated exponent back into range).
            while index < count {
                if exponent < 1_000_000_000_000_000 { exponent = exponent * 10 + Int(bytes[index] - 0x30) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        exponent -= fractionDigits
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty {
            negative = false
            exponent = 0
        }
        self.digits = digits
        self.exponent = exponent
    }

    /// The digits as an integer (they must fit: at most 19).
    var magnitudeOfDigits: UInt64 {
        digits.reduce(0) { $0 &* 10 &+ UInt64($1 - 0x30) }
    }

    /// The exact magnitude when it is an integer that fits in a `UInt64`.
    var magnitude: UInt64? {
        guard exponent >= 0, digits.count + exponent <= 20 else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - 0x30))
            if overflow || carry { return nil }
            value = sum
        }
        for _ in 0..<exponent {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            value = times
        }
        return value
    }
}
