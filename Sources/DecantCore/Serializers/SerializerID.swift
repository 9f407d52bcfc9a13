/// The stable identifier of a serializer in registries and configuration files, such as `json` or `acme.yaml`.
///
/// Built-in ids are lowerCamel words (`json`, `propertyList`, `xmlDocument`); third parties prefix theirs with
/// their own name and a dot (`acme.yaml`). Each dot-separated segment starts with a lowercase ASCII letter and
/// continues with ASCII letters and digits.
public struct SerializerID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The identifier text.
    public let rawValue: String

    /// Creates an id from text that ``isValid(_:)``; `nil` otherwise.
    public init?(rawValue: String) {
        guard SerializerID.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// Creates an id from a literal, keeping its text even when it is not ``isValid(_:)``: a typo in a plugin's id
    /// must fail a test, not crash the process and its test runner. `SerializerRegistry.install(_:)` records such an
    /// id as a conflict (``SerializerRegistry/Conflict/Kind/invalidID``), and the conformance kit's rules report it;
    /// configuration files cannot name it, since ``init(rawValue:)`` and decoding reject it.
    public init(stringLiteral value: String) {
        rawValue = value
    }

    /// What a valid id looks like, for error messages.
    package static let syntax =
        "dot-separated segments, each an ASCII lowercase letter followed by ASCII letters and digits, such as "
        + "'json', 'propertyList' or a third party's 'acme.yaml'"

    /// Whether `text` is a well-formed id: dot-separated lowerCamel segments.
    public static func isValid(_ text: String) -> Bool {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        return segments.allSatisfy { segment in
            guard let first = segment.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else {
                return false
            }
            return segment.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            }
        }
    }

    /// The identifier text.
    public var description: String { rawValue }

    /// Orders ids by their text.
    public static func < (lhs: SerializerID, rhs: SerializerID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes and validates an id.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = SerializerID(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'\(text)' is not a valid serializer id: use lowerCamel words such as 'json' or "
                    + "'propertyList', with a prefix for third-party ones such as 'acme.yaml'.")
        }
        self = id
    }

    /// Encodes the id as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
