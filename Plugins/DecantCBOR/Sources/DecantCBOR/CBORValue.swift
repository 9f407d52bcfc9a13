#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One CBOR data item (RFC 8949), as ``CBORParser`` decodes it.
///
/// Every major type has a case. Integers keep their full range: ``unsignedInteger(_:)`` holds 0...2^64-1,
/// ``negativeInteger(_:)`` holds -2^64...-1 as the CBOR argument `n` of the value `-1 - n`, and ``bignum(negative:magnitude:)``
/// holds the bignums of tags 2 and 3 (RFC 8949 §3.4.3) that do not fit those two. Indefinite-length strings are
/// concatenated; indefinite-length arrays and maps become ordinary ones. Maps keep their entries in document order.
///
/// The canonical form (``conformanceValue()``, a stable contract of `decant decode --json` and of the `Fixtures/cbor`
/// expectations) is JSON where JSON can say it, and a typed object elsewhere:
///
/// | CBOR | canonical JSON |
/// |---|---|
/// | integer, bignum | a JSON integer of any size |
/// | finite float | a JSON number |
/// | text string | a JSON string |
/// | `false`, `true`, `null` | `false`, `true`, `null` |
/// | array | an array |
/// | map whose keys are all text strings | an object, members in document order |
/// | map with another key | `{"$map": [[key, value], ...]}` |
/// | byte string | `{"$bytes": "<base64>"}` |
/// | tag | `{"$tag": 1, "value": ...}` |
/// | `undefined` | `{"$undefined": true}` |
/// | other simple values | `{"$simple": 16}` |
/// | NaN, infinities | `{"$float": "NaN"}`, `{"$float": "Infinity"}`, `{"$float": "-Infinity"}` |
///
/// Equality is structural; floats compare as `Double`s do (so `NaN` is not equal to itself, and `0.0 == -0.0`).
public enum CBORValue: Sendable, Hashable {
    /// One entry of a map.
    public struct MapEntry: Sendable, Hashable {
        /// The key.
        public var key: CBORValue
        /// The value.
        public var value: CBORValue

        /// Creates an entry.
        public init(key: CBORValue, value: CBORValue) {
            self.key = key
            self.value = value
        }
    }

    /// An unsigned integer (major type 0): 0 to 2^64 - 1.
    case unsignedInteger(UInt64)
    /// A negative integer (major type 1) with the argument `n`: the value is `-1 - n`, so -2^64 to -1.
    case negativeInteger(UInt64)
    /// A bignum (tag 2 or 3, RFC 8949 §3.4.3) beyond the range of the two integer cases: `magnitude` (big-endian,
    /// without leading zero bytes) when `negative` is `false`, else `-1 - magnitude`.
    case bignum(negative: Bool, magnitude: [UInt8])
    /// A byte string (major type 2).
    case bytes(Data)
    /// A text string (major type 3): valid UTF-8.
    case text(String)
    /// An array (major type 4).
    case array([CBORValue])
    /// A map (major type 5), its entries in document order.
    case map([MapEntry])
    /// A tag (major type 6) other than the bignums ``CBORParser`` turns into integers: the tag number and content.
    indirect case tag(UInt64, CBORValue)
    /// A simple value (major type 7) other than `false`, `true`, `null` and `undefined`: 0-19 or 32-255.
    case simple(UInt8)
    /// `false` or `true` (simple values 20 and 21).
    case bool(Bool)
    /// `null` (simple value 22).
    case null
    /// `undefined` (simple value 23).
    case undefined
    /// A half-, single- or double-precision float (major type 7, additional information 25-27), widened exactly.
    case float(Double)
}

extension CBORValue {
    /// The value as an `Int64`, when it is an integer (or bignum) in `Int64`'s range.
    public var int64Value: Int64? {
        switch self {
        case .unsignedInteger(let value): return Int64(exactly: value)
        case .negativeInteger(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }

    /// The value as a `UInt64`, when it is a non-negative integer in `UInt64`'s range.
    public var uint64Value: UInt64? {
        if case .unsignedInteger(let value) = self { return value }
        return nil
    }

    /// What kind of item this is, for messages: "an unsigned integer", "a map", ...
    var kindName: String {
        switch self {
        case .unsignedInteger(let value): "the unsigned integer \(value)"
        case .negativeInteger: "the integer \(integerText ?? "")"
        case .bignum(_, let magnitude): "a bignum of \(magnitude.count) bytes"
        case .bytes(let data): "a byte string of \(data.count) bytes"
        case .text(let text): "a text string of \(text.utf8.count) bytes"
        case .array(let elements): "an array of \(elements.count) elements"
        case .map(let entries): "a map of \(entries.count) entries"
        case .tag(let number, _): "a value with tag \(number)"
        case .simple(let number): "simple(\(number))"
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .undefined: "undefined"
        case .float(let double): "the float \(double)"
        }
    }

    /// The text of a text string, else `nil`.
    public var stringValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The elements of an array, else `nil`.
    public var arrayValue: [CBORValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The entries of a map, else `nil`.
    public var mapEntries: [MapEntry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    /// The value of the first entry of a map whose key is the text string `key`.
    public subscript(key: String) -> CBORValue? {
        mapEntries?.first { $0.key == .text(key) }?.value
    }

    /// The decimal text of an integer or bignum (`-18446744073709551616`), else `nil`.
    public var integerText: String? {
        switch self {
        case .unsignedInteger(let value): return String(value)
        case .negativeInteger(let n):
            return n == .max ? "-18446744073709551616" : "-" + String(n + 1)
        case .bignum(let negative, let magnitude):
            guard negative else { return Self.decimal(magnitude) }
            // -1 - magnitude: add one to the magnitude, then negate.
            var incremented = magnitude
            var index = incremented.count - 1
            while index >= 0 {
                if incremented[index] == 0xFF {
                    incremented[index] = 0
                    index -= 1
                } else {
                    incremented[index] += 1
                    break
                }
            }
            if index < 0 { incremented.insert(1, at: 0) }
            return "-" + Self.decimal(incremented)
        default: return nil
        }
    }

    /// The decimal text of a big-endian magnitude, by repeated division by 10^9 (quadratic in the length, which
    /// ``CBORParser/maxBignumBytes`` bounds).
    static func decimal(_ magnitude: [UInt8]) -> String {
        // Big-endian 32-bit limbs.
        var limbs: [UInt32] = []
        limbs.reserveCapacity(magnitude.count / 4 + 1)
        var first = magnitude.count % 4
        if first == 0 { first = 4 }
        var index = 0
        var take = first
        while index < magnitude.count {
            var limb: UInt32 = 0
            for _ in 0..<take {
                limb = limb << 8 | UInt32(magnitude[index])
                index += 1
            }
            limbs.append(limb)
            take = 4
        }
        var groups: [UInt32] = []
        while limbs.contains(where: { $0 != 0 }) {
            var remainder: UInt64 = 0
            for position in limbs.indices {
                let current = remainder << 32 | UInt64(limbs[position])
                limbs[position] = UInt32(current / 1_000_000_000)
                remainder = current % 1_000_000_000
            }
            groups.append(UInt32(remainder))
            while limbs.first == 0 { limbs.removeFirst() }
        }
        guard let last = groups.popLast() else { return "0" }
        var text = String(last)
        for group in groups.reversed() {
            let digits = String(group)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }
}
