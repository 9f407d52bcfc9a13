/// One decoded MessagePack value (the MessagePack specification, msgpack/msgpack `spec.md`).
///
/// Integers are kept exactly: every integer from -2^63 to 2^63-1 is ``int(_:)``, whatever family encoded it, and only
/// the integers above `Int64.max` are ``uint(_:)``, so that equal numbers are equal values. Floats keep their width
/// (``float32(_:)`` or ``float64(_:)``). Maps keep their entries in document order, duplicate keys included. The
/// timestamp extension (type -1) becomes ``timestamp(seconds:nanoseconds:)``; every other extension type is
/// ``ext(type:data:)``.
///
/// Its canonical form (``conformanceValue()``, a stable contract of `decant decode --json` and of the
/// `Fixtures/msgpack` expectations) is JSON where JSON can say it, and a typed object elsewhere:
/// nil, booleans, integers, finite floats, strings and arrays are themselves; a map whose keys are all strings is an
/// object (document order); binary is `{"$bytes": "<base64>"}`; a map with any other key is
/// `{"$map": [[key, value], ...]}`; an extension is `{"$ext": type, "data": "<base64>"}`; a timestamp is
/// `{"$timestamp": {"seconds": s, "nanoseconds": n}}`; NaN and the infinities are `{"$float": "NaN"}`,
/// `{"$float": "Infinity"}` and `{"$float": "-Infinity"}`.
public enum MessagePackValue: Sendable, Hashable {
    /// One key-value entry of a map.
    public struct Entry: Sendable, Hashable {
        /// The key, any value.
        public var key: MessagePackValue
        /// The value.
        public var value: MessagePackValue

        /// Creates an entry.
        public init(_ key: MessagePackValue, _ value: MessagePackValue) {
            self.key = key
            self.value = value
        }

        /// Creates an entry (the labelled form that `ValueStack` and other generic code use).
        public init(key: MessagePackValue, value: MessagePackValue) { self.init(key, value) }
    }

    /// `nil` (0xc0).
    case `nil`
    /// `true` (0xc3) or `false` (0xc2).
    case bool(Bool)
    /// An integer from -2^63 to 2^63-1, from any integer family.
    case int(Int64)
    /// An integer above `Int64.max` (only a uint 64 encodes one).
    case uint(UInt64)
    /// A float 32 value.
    case float32(Float)
    /// A float 64 value.
    case float64(Double)
    /// A str value (valid UTF-8, or repaired with U+FFFD when the parser is told to replace).
    case string(String)
    /// A bin value.
    case binary([UInt8])
    /// An array.
    case array([MessagePackValue])
    /// A map, its entries in document order.
    case map([Entry])
    /// An extension value other than the timestamp: its type (-128...127) and data.
    case ext(type: Int8, data: [UInt8])
    /// A timestamp (extension type -1): seconds since 1970-01-01T00:00:00Z and nanoseconds (0...999,999,999).
    case timestamp(seconds: Int64, nanoseconds: UInt32)

    /// An integer value from any `BinaryInteger` in -2^63...2^64-1, normalised as the parser does (``int(_:)`` when
    /// it fits an `Int64`); `nil` outside that range.
    public init?<T: BinaryInteger>(integer: T) {
        if let value = Int64(exactly: integer) {
            self = .int(value)
        } else if let value = UInt64(exactly: integer) {
            self = .uint(value)
        } else {
            return nil
        }
    }

    /// The string when this is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The value of the first entry whose key is the string `key`, when this is a ``map(_:)``.
    public subscript(key: String) -> MessagePackValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .string(key) }?.value
    }
}
