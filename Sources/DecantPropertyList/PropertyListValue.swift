#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A property list value: what a binary, XML or OpenStep property list holds.
///
/// Dictionaries keep their keys in document order. Integers are 128-bit (binary property lists store up to 16 bytes),
/// dates are `Date`s, and `uid` is the keyed-archiver object reference of binary property lists.
public enum PropertyListValue: Sendable, Hashable {
    /// A dictionary with string keys, in document order.
    case dictionary(PropertyListDictionary)
    /// An array (binary sets and ordered sets are read as arrays too).
    case array([PropertyListValue])
    /// A string.
    case string(String)
    /// An integer of up to 128 bits.
    case integer(PropertyListInteger)
    /// A floating-point number.
    case real(Double)
    /// A Boolean.
    case bool(Bool)
    /// A date.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// A keyed-archiver UID (binary property lists only).
    case uid(UInt64)

    /// The value of `key` when this is a dictionary holding it, else `nil`.
    public subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let dictionary) = self { return dictionary[key] }
        return nil
    }

    /// The element at `index` when this is an array long enough, else `nil`.
    public subscript(index: Int) -> PropertyListValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer as an `Int`, when this is an integer that fits.
    public var intValue: Int? {
        if case .integer(let value) = self, let small = value.int64Value { return Int(exactly: small) }
        return nil
    }

    /// The number as a `Double`, when this is a real or an integer.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return value.doubleValue
        default: return nil
        }
    }

    /// The Boolean, when this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The name of the value's kind, as used in error messages ("a dictionary", "an integer", ...).
    public var kindDescription: String {
        switch self {
        case .dictionary: return "a dictionary"
        case .array: return "an array"
        case .string: return "a string"
        case .integer: return "an integer"
        case .real: return "a real"
        case .bool: return "a Boolean"
        case .date: return "a date"
        case .data: return "data"
        case .uid: return "a UID"
        }
    }
}

/// The entries of a property list dictionary, in document order, with unique keys.
public struct PropertyListDictionary: Sendable, Hashable, RandomAccessCollection {
    /// The keys, in document order.
    public private(set) var keys: [String]
    /// The values, in the order of ``keys``.
    public private(set) var values: [PropertyListValue]

    /// An empty dictionary.
    public init() {
        keys = []
        values = []
    }

    /// A dictionary of `entries`; for a repeated key the last value wins, at the position of the first.
    public init(_ entries: [(key: String, value: PropertyListValue)]) {
        self.init(checkingKeys: entries.map(\.key), values: entries.map(\.value))
    }

    /// A dictionary of `keys` and `values` (as many), in that order; for a repeated key the last value wins, at the
    /// position of the first.
    init(checkingKeys keys: [String], values: [PropertyListValue]) {
        guard PropertyListDictionary.hasRepeatedKey(keys) else {
            self.init(uniqueKeys: keys, values: values)
            return
        }
        self.init()
        var positions: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            if let position = positions[key] {
                self.values[position] = value
            } else {
                positions[key] = self.keys.count
                self.keys.append(key)
                self.values.append(value)
            }
        }
    }

    /// A dictionary of `keys` and `values` (as many), in that order, where `identities` (as many) are equal exactly
    /// where the keys are: repeated keys are found by comparing the integers, never by hashing the text again. For a
    /// repeated key the last value wins, at the position of the first.
    init(keys: [String], values: [PropertyListValue], identities: [Int]) {
        guard PropertyListDictionary.hasRepeatedIdentity(identities) else {
            self.init(uniqueKeys: keys, values: values)
            return
        }
        self.init()
        var positions: [Int: Int] = [:]
        for index in keys.indices {
            if let position = positions[identities[index]] {
                self.values[position] = values[index]
            } else {
                positions[identities[index]] = self.keys.count
                self.keys.append(keys[index])
                self.values.append(values[index])
            }
        }
    }

    /// Whether two of `identities` are equal.
    private static func hasRepeatedIdentity(_ identities: [Int]) -> Bool {
        guard identities.count > 1 else { return false }
        if identities.count <= 16 {
            for index in 1..<identities.count {
                for earlier in 0..<index where identities[earlier] == identities[index] { return true }
            }
            return false
        }
        var seen = Set<Int>(minimumCapacity: identities.count)
        for identity in identities where !seen.insert(identity).inserted { return true }
        return false
    }

    private init(uniqueKeys keys: [String], values: [PropertyListValue]) {
        self.keys = keys
        self.values = values
    }

    /// Whether two of `keys` are equal (as `String`s compare: canonically equivalent text is equal).
    private static func hasRepeatedKey(_ keys: [String]) -> Bool {
        guard keys.count > 1 else { return false }
        if keys.count <= 16 {
            for index in 1..<keys.count {
                for earlier in 0..<index where keys[earlier] == keys[index] { return true }
            }
            return false
        }
        var seen = Set<String>(minimumCapacity: keys.count)
        for key in keys where !seen.insert(key).inserted { return true }
        return false
    }

    /// The first index, always 0.
    public var startIndex: Int { 0 }
    /// The number of entries.
    public var endIndex: Int { keys.count }

    /// The entry at `position`.
    public subscript(position: Int) -> (key: String, value: PropertyListValue) {
        (keys[position], values[position])
    }

    /// The value for `key`, or `nil`.
    public subscript(key: String) -> PropertyListValue? {
        guard let index = keys.firstIndex(of: key) else { return nil }
        return values[index]
    }
}

/// A signed 128-bit integer, as binary property lists store them (XML integers are read into the same range).
public struct PropertyListInteger: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// The high 64 bits, two's complement.
    public let high: Int64
    /// The low 64 bits.
    public let low: UInt64

    /// The integer with the given two's complement halves.
    public init(high: Int64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The integer `value`.
    public init(_ value: Int64) {
        self.init(high: value < 0 ? -1 : 0, low: UInt64(bitPattern: value))
    }

    /// The integer `value`.
    public init(_ value: UInt64) {
        self.init(high: 0, low: value)
    }

    /// Whether the integer is below zero.
    public var isNegative: Bool { high < 0 }

    /// The value as an `Int64`, when it fits.
    public var int64Value: Int64? {
        let candidate = Int64(bitPattern: low)
        return (high == 0 && candidate >= 0) || (high == -1 && candidate < 0) ? candidate : nil
    }

    /// The value as a `UInt64`, when it fits.
    public var uint64Value: UInt64? { high == 0 ? low : nil }

    /// The value as the nearest `Double`.
    public var doubleValue: Double {
        let (hi, lo) = magnitude
        let size = Double(hi) * 18_446_744_073_709_551_616.0 + Double(lo)
        return isNegative ? -size : size
    }

    /// The absolute value as two unsigned halves.
    var magnitude: (high: UInt64, low: UInt64) {
        guard isNegative else { return (UInt64(high), low) }
        let invertedLow = ~low
        let invertedHigh = ~UInt64(bitPattern: high)
        let (sum, overflow) = invertedLow.addingReportingOverflow(1)
        return (invertedHigh &+ (overflow ? 1 : 0), sum)
    }

    /// The integer with the given magnitude and sign, or `nil` when it does not fit in 128 signed bits.
    static func fromMagnitude(high: UInt64, low: UInt64, negative: Bool) -> PropertyListInteger? {
        if !negative {
            guard high <= UInt64(Int64.max) else { return nil }
            return PropertyListInteger(high: Int64(high), low: low)
        }
        guard high < 1 << 63 || (high == 1 << 63 && low == 0) else { return nil }
        let (sum, overflow) = (~low).addingReportingOverflow(1)
        let negatedHigh = ~high &+ (overflow ? 1 : 0)
        return PropertyListInteger(high: Int64(bitPattern: negatedHigh), low: sum)
    }

    /// The decimal text, such as `-5` or `18446744073709551615`.
    public var description: String {
        let (hi, lo) = magnitude
        let digits = PropertyListInteger.decimal(high: hi, low: lo)
        return isNegative ? "-" + digits : digits
    }

    private static func decimal(high: UInt64, low: UInt64) -> String {
        if high == 0 { return String(low) }
        let divisor: UInt64 = 10_000_000_000_000_000_000
        let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: divisor)
        let (quotientLow, remainder) = divisor.dividingFullWidth((remainderHigh, low))
        let tail = String(remainder)
        return decimal(high: quotientHigh, low: quotientLow) + String(repeating: "0", count: 19 - tail.count) + tail
    }

    /// Orders integers numerically.
    public static func < (lhs: PropertyListInteger, rhs: PropertyListInteger) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }
}
