/// A value in a configuration document: what JSON and property lists can both express.
///
/// Serializer options arrive as `[String: ConfigurationValue]` (``ConfigurationOptions``) from chain configuration
/// files; factories validate them against their ``SerializerOption`` schema.
public enum ConfigurationValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// A boolean.
    case bool(Bool)
    /// An integer.
    case integer(Int)
    /// A number with a fraction or exponent.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([ConfigurationValue])
    /// An object.
    case object([String: ConfigurationValue])

    /// Decodes whichever of the cases the data holds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ConfigurationValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: ConfigurationValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a boolean, number, string, array, object or null")
        }
    }

    /// Encodes the value as itself.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The kind of value, as a user would call it in an error message: "a boolean", "a string", ...
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value in JSON-like notation.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let value): "\"" + value + "\""
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let values):
            "{" + values.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

extension ConfigurationValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: ConfigurationValue...) { self = .array(elements) }
    /// A dictionary literal; the last of duplicate keys wins.
    public init(dictionaryLiteral elements: (String, ConfigurationValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    /// `nil` as ``null``.
    public init(nilLiteral: ()) { self = .null }
}

/// Serializer options as read from a configuration document: option name to value.
public typealias ConfigurationOptions = [String: ConfigurationValue]

extension Dictionary where Key == String, Value == ConfigurationValue {
    /// The media ranges of a validated `mediaRanges` option, or `nil` when the configuration does not set it.
    ///
    /// Factories call this from `options(from:)` after `SerializerOption.validate`, which has already rejected
    /// values that are not media ranges.
    ///
    /// - Parameters:
    ///   - serializerID: The serializer the option belongs to, named in the error.
    ///   - example: A range the serializer accepts by default, suggested in the error (`application/xml`).
    /// - Throws: `invalidOption` when the list is empty, since the serializer would then accept nothing.
    public func mediaRangesOption(
        for serializerID: SerializerID, example: String
    ) throws(SerializationError) -> [MediaRange]? {
        guard case .array(let values)? = self["mediaRanges"] else { return nil }
        let ranges = values.compactMap { value -> MediaRange? in
            if case .string(let text) = value { return MediaRange(text) }
            return nil
        }
        guard !ranges.isEmpty else {
            throw SerializationError(
                code: .invalidOption,
                message: "The option 'mediaRanges' of the serializer '\(serializerID)' is empty, so the serializer "
                    + "would accept nothing. List at least one media range, such as [\"\(example)\"], or leave the "
                    + "option out.",
                serializerID: serializerID,
                codingPath: ["mediaRanges"])
        }
        return ranges
    }
}
