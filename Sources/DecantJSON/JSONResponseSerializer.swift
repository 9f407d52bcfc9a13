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
public struct JSONResponseSerializer: ResponseSerializer {
    /// The media ranges accepted by default: `application/json`, `text/json`, `text/javascript` and `*/*+json`.
    public static let defaultMediaRanges: [MediaRange] = [
        MediaRange(.exact(type: "application", subtype: "json")),
        MediaRange(.exact(type: "text", subtype: "json")),
        MediaRange(.exact(type: "text", subtype: "javascript")),
        MediaRange(.suffix(type: nil, suffix: "json")),
    ]

    /// How bodies are parsed, and the empty value.
    public var options: JSONParsingOptions {
        get { parser.options }
        set { parser.options = newValue }
    }
    /// The parser, built once.
    private var parser: JSONParser
    /// The media ranges accepted; ``defaultMediaRanges`` unless set.
    public var acceptedMediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        options: JSONParsingOptions = JSONParsingOptions(),
        acceptedMediaRanges: [MediaRange] = JSONResponseSerializer.defaultMediaRanges
    ) {
        self.parser = JSONParser(options: options)
        self.acceptedMediaRanges = acceptedMediaRanges
    }

    /// `json`.
    public var serializerID: SerializerID { "json" }

    /// Parses the body with ``JSONParser``.
    ///
    /// - Throws: `SerializationError` as ``JSONParser/parse(_:)-(Data)`` does, with the response attached.
    public func serialize(_ response: Response) throws -> JSONValue {
        do {
            return try parser.parse(response.body)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: serializerID)
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
            mediaRanges: [MediaRange] = JSONResponseSerializer.defaultMediaRanges
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
        }
    }

    /// Creates the factory.
    public init() {}

    /// `json`.
    public var id: SerializerID { "json" }

    /// What the serializer does.
    public var summary: String {
        "Parses JSON (RFC 8259; UTF-8, UTF-16 or UTF-32) into a JSONValue with key order and exact numbers."
    }

    /// The default ranges: `application/json`, `text/json`, `text/javascript`, `*/*+json`.
    public var mediaRanges: [MediaRange] { JSONResponseSerializer.defaultMediaRanges }

    /// The options the factory understands.
    public var optionSchema: [SerializerOption] {
        [
            SerializerOption(
                "allowsFragments", .bool, default: true,
                summary: "Whether a top-level scalar such as 1 or \"text\" is accepted (RFC 8259 §2)."),
            SerializerOption(
                "maxDepth", .integer(1...100_000), default: 512,
                summary: "The deepest nesting of arrays and objects accepted."),
            SerializerOption(
                "duplicateKeys", .string(allowed: JSONParsingOptions.DuplicateKeyPolicy.allCases.map(\.rawValue)),
                default: "lastWins", summary: "What to do with a repeated object key: keep the last value, or reject."),
            SerializerOption(
                "removesKeysWithNullValues", .bool, default: false,
                summary: "Whether members whose value is null are removed from every object."),
            SerializerOption(
                "maxBytes", .integer(1...Int(UInt32.max) - 64), default: .integer(64 * 1024 * 1024),
                summary: "The largest body parsed, in bytes."),
            SerializerOption("emptyValue", .any, default: .null, summary: "The value of an empty response."),
            SerializerOption(
                "mediaRanges", .mediaRangeArray,
                default: .array(JSONResponseSerializer.defaultMediaRanges.map { .string($0.description) }),
                summary: "The media ranges the serializer accepts."),
        ]
    }

    /// The defaults of ``JSONParsingOptions`` and ``JSONResponseSerializer/defaultMediaRanges``.
    public var defaultOptions: Options { Options() }

    /// Builds a ``JSONResponseSerializer``.
    public func makeSerializer(options: Options) -> JSONResponseSerializer {
        JSONResponseSerializer(options: options.parsing, acceptedMediaRanges: options.mediaRanges)
    }

    /// Converts configuration options (already checked against ``optionSchema``).
    public func options(from configuration: ConfigurationOptions) throws -> Options {
        var options = Options()
        if case .bool(let value)? = configuration["allowsFragments"] { options.parsing.allowsFragments = value }
        switch configuration["maxDepth"] {
        case .integer(let value)?: options.parsing.maxDepth = value
        case .number(let value)?: options.parsing.maxDepth = Int(value)
        default: break
        }
        if case .string(let value)? = configuration["duplicateKeys"],
            let policy = JSONParsingOptions.DuplicateKeyPolicy(rawValue: value)
        {
            options.parsing.duplicateKeys = policy
        }
        if case .bool(let value)? = configuration["removesKeysWithNullValues"] {
            options.parsing.removesKeysWithNullValues = value
        }
        switch configuration["maxBytes"] {
        case .integer(let value)?: options.parsing.maxBytes = value
        case .number(let value)?: options.parsing.maxBytes = Int(value)
        default: break
        }
        if let value = configuration["emptyValue"] { options.parsing.emptyValue = JSONValue(value) }
        if let ranges = try configuration.mediaRangesOption(for: id, example: "application/json") {
            options.mediaRanges = ranges
        }
        return options
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
