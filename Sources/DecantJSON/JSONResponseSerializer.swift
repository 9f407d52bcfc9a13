public import DecantCore

/// Parses JSON bodies into a ``JSONValue``: AFNetworking's `AFJSONResponseSerializer` and Alamofire's
/// `JSONResponseSerializer`, with an RFC 8259 parser.
///
/// Its id is `json`. It accepts `application/json`, `text/json`, `text/javascript` and every `+json` type
/// (`application/problem+json`, `application/vnd.api+json`, ...). The `charset` parameter is not consulted: RFC 8259
/// §11 defines none, and the encoding (UTF-8, or UTF-16/32 from old peers) is detected from the bytes.
///
/// ```swift
/// var registry = SerializerRegistry()
/// registry.install(.json)
/// let value = try registry.serialize(response).value as? JSONValue
///
/// var chain = ResponseChain(JSONResponseSerializer(options: JSONParsingOptions(removesKeysWithNullValues: true)))
/// let body = try chain.serialize(response)   // `null` for 204, HEAD and empty bodies
/// ```
public struct JSONResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `json` format.
    public static var format: MediaFormat { .json }

    /// How bodies are parsed, and the empty value.
    public var options: JSONParsingOptions {
        get { parser.options }
        set { parser.options = newValue }
    }
    /// The parser, built once.
    private var parser: JSONParser
    /// The media ranges accepted; the format's unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        options: JSONParsingOptions = JSONParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.json.mediaRanges
    ) {
        self.parser = JSONParser(options: options)
        self.mediaRanges = mediaRanges
    }

    /// `true`: JSON allows whitespace around its value (RFC 8259 §2), so a body of only whitespace is an empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// Parses the body with ``JSONParser``.
    ///
    /// - Throws: `SerializationError` as ``JSONParser/parse(_:)-(Data)`` does, with the response attached.
    public func serialize(_ response: Response) throws -> JSONValue {
        do {
            return try parser.parse(response.body)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// ``JSONParsingOptions/emptyValue`` (`null` by default).
    public func emptyValue(for response: Response) throws -> JSONValue { options.emptyValue }
}

/// The factory of ``JSONResponseSerializer`` (id `json`).
///
/// Configuration options: `allowsFragments` (boolean), `maxDepth` (integer 1...100000), `duplicateKeys`
/// (`"lastWins"` or `"reject"`), `removesKeysWithNullValues` (boolean), `maxBytes` (integer), `emptyValue` (any
/// value) and `mediaRanges` (an array of media ranges); see ``JSONParsingOptions``.
public struct JSONSerializerFactory: SerializerFactory {
    /// The typed options: parsing options and accepted media ranges.
    public struct Options: Sendable, Hashable {
        /// How bodies are parsed.
        public var parsing: JSONParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            parsing: JSONParsingOptions = JSONParsingOptions(),
            mediaRanges: [MediaRange] = MediaFormat.json.mediaRanges
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
        }
    }

    /// Creates the factory.
    public init() {}

    /// The options, each said once: the schema and the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        [
            .bool(
                "allowsFragments", \.parsing.allowsFragments,
                summary: "Whether a top-level scalar such as 1 or \"text\" is accepted (RFC 8259 §2)."),
            .integer(
                "maxDepth", \.parsing.maxDepth, in: 1...100_000,
                summary: "The deepest nesting of arrays and objects accepted."),
            .choice(
                "duplicateKeys", \.parsing.duplicateKeys,
                summary: "What to do with a repeated object key: keep the last value, or reject."),
            .bool(
                "removesKeysWithNullValues", \.parsing.removesKeysWithNullValues,
                summary: "Whether members whose value is null are removed from every object."),
            .integer(
                "maxBytes", \.parsing.maxBytes, in: 1...Int(UInt32.max) - 64,
                summary: "The largest body parsed, in bytes."),
            OptionKey(
                "emptyValue", .any, summary: "The value of an empty response.",
                defaultValue: { ConfigurationValue($0.parsing.emptyValue) },
                apply: { value, options, _ in options.parsing.emptyValue = JSONValue(value) }),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults of ``JSONParsingOptions`` and the format's media ranges.
    public var defaultOptions: Options { Options() }

    /// Builds a ``JSONResponseSerializer``.
    public func makeSerializer(options: Options) -> JSONResponseSerializer {
        JSONResponseSerializer(options: options.parsing, mediaRanges: options.mediaRanges)
    }

    /// A ``JSONResponseDecoder`` with `JSONDecoder`'s default strategies and the options' parsing options and media
    /// ranges.
    public func makeDecoder(options: Options) -> (any ResponseDecoder)? {
        JSONResponseDecoder(
            decoder: JSONValueDecoder(parsingOptions: options.parsing), mediaRanges: options.mediaRanges)
    }

    /// A ``JSONBodyEncoder`` that writes `JSONValue` and `Encodable` values, nested at most as deep as the options'
    /// parsing depth (`maxDepth`), so that what it writes reads back.
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        JSONBodyEncoder(maxDepth: options.parsing.maxDepth)
    }
}

extension MediaFormat {
    /// JSON (RFC 8259): id `json`; `application/json`, `text/json`, `text/javascript` and every `+json` type.
    public static let json = MediaFormat(
        id: "json", mediaRanges: ["application/json", "text/json", "text/javascript", "*/*+json"],
        summary: "Parses JSON (RFC 8259; UTF-8, UTF-16 or UTF-32) into a JSONValue with key order and exact numbers.")
}

extension ConfigurationValue {
    /// The configuration value of a JSON value (numbers as integers when they are exact ones, else as doubles;
    /// object members by key, a repeated key's last value winning).
    public init(_ value: JSONValue) {
        switch value.kind {
        case .null: self = .null
        case .bool: self = .bool(value.boolValue ?? false)
        case .number: self = value.intValue.map { .integer($0) } ?? .number(value.doubleValue ?? 0)
        case .string: self = .string(value.stringValue ?? "")
        case .array: self = .array(value.elements.map(ConfigurationValue.init))
        case .object:
            var members: [String: ConfigurationValue] = [:]
            for (key, member) in value.members { members[key] = ConfigurationValue(member) }
            self = .object(members)
        }
    }
}

extension JSONValue {
    /// The JSON value of a configuration value; object members in key order (configuration objects are unordered).
    public init(_ configuration: ConfigurationValue) {
        switch configuration {
        case .null: self = nil
        case .bool(let value): self.init(value)
        case .integer(let value): self.init(value)
        case .number(let value): self.init(value)
        case .string(let value): self.init(value)
        case .array(let values): self = .array(values.map(JSONValue.init))
        case .object(let members):
            self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })
        }
    }
}

extension SerializerModule {
    /// The JSON module (`DecantJSON`): the `json` serializer for `application/json`, `text/json`,
    /// `text/javascript` and `*/*+json`.
    public static var json: SerializerModule {
        SerializerModule(name: "DecantJSON", factories: [JSONSerializerFactory()])
    }
}
