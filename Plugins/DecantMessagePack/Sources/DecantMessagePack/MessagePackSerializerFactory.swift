public import DecantCore

/// The factory of ``MessagePackResponseSerializer`` (id `msgpack`).
///
/// Configuration options: `maxDepth` (integer, default 512), `maxBytes` (integer, default 64 MiB),
/// `replaceInvalidUTF8` (boolean, default `false`), `allowsMultipleValues` (boolean, default `false`) and
/// `mediaRanges` (an array of media ranges); see ``MessagePackParsingOptions``.
public struct MessagePackSerializerFactory: SerializerFactory {
    /// The typed options: parsing limits and accepted media ranges.
    public struct Options: Sendable, Hashable {
        /// The parser's limits and choices.
        public var parsing: MessagePackParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            parsing: MessagePackParsingOptions = MessagePackParsingOptions(),
            mediaRanges: [MediaRange] = MessagePackResponseSerializer.defaultMediaRanges
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
        }
    }

    /// Creates the factory.
    public init() {}

    /// `msgpack`.
    public var id: SerializerID { "msgpack" }

    /// What the serializer does.
    public var summary: String {
        "Parses MessagePack bodies (every format family, timestamp extension) into MessagePackValue."
    }

    /// `application/msgpack`, `application/x-msgpack`, `application/vnd.msgpack`.
    public var mediaRanges: [MediaRange] { MessagePackResponseSerializer.defaultMediaRanges }

    /// The options the factory understands.
    public var optionSchema: [SerializerOption] {
        [
            SerializerOption(
                "maxDepth", .integer(1...10_000), default: .integer(MessagePackParsingOptions.defaultMaxDepth),
                summary: "The deepest nesting of arrays and maps."),
            SerializerOption(
                "maxBytes", .integer(1...Int(Int32.max)), default: .integer(MessagePackParsingOptions.defaultMaxBytes),
                summary: "The largest body parsed, in bytes."),
            SerializerOption(
                "replaceInvalidUTF8", .bool, default: .bool(false),
                summary: "Replace invalid UTF-8 in str values with U+FFFD instead of failing."),
            SerializerOption(
                "allowsMultipleValues", .bool, default: .bool(false),
                summary: "Read a stream of top-level values as one array instead of failing on trailing bytes."),
            SerializerOption(
                "mediaRanges", .mediaRangeArray,
                default: .array(MessagePackResponseSerializer.defaultMediaRanges.map { .string($0.description) }),
                summary: "The media ranges the serializer accepts."),
        ]
    }

    /// The defaults of ``MessagePackParsingOptions`` and ``MessagePackResponseSerializer/defaultMediaRanges``.
    public var defaultOptions: Options { Options() }

    /// Builds a ``MessagePackResponseSerializer``.
    public func makeSerializer(options: Options) -> MessagePackResponseSerializer {
        MessagePackResponseSerializer(options: options.parsing, acceptedMediaRanges: options.mediaRanges)
    }

    /// Converts configuration options (already checked against ``optionSchema``).
    public func options(from configuration: ConfigurationOptions) throws -> Options {
        var options = Options()
        if let value = Self.integer(configuration["maxDepth"]) { options.parsing.maxDepth = value }
        if let value = Self.integer(configuration["maxBytes"]) { options.parsing.maxBytes = value }
        if case .bool(let value)? = configuration["replaceInvalidUTF8"] { options.parsing.replacesInvalidUTF8 = value }
        if case .bool(let value)? = configuration["allowsMultipleValues"] {
            options.parsing.allowsMultipleValues = value
        }
        if let ranges = try configuration.mediaRangesOption(for: id, example: "application/msgpack") {
            options.mediaRanges = ranges
        }
        return options
    }

    /// A ``MessagePackResponseDecoder`` with the parsing options and media ranges of `configuration`.
    ///
    /// - Throws: `SerializationError` with code `unknownOption` or `invalidOption` for options the schema does not
    ///   allow.
    public func makeResponseDecoder(configuration: ConfigurationOptions) throws -> (any ResponseDecoder)? {
        try SerializerOption.validate(configuration, against: optionSchema, for: id)
        let options = try options(from: configuration)
        return MessagePackResponseDecoder(
            decoder: MessagePackDecoder(parsingOptions: options.parsing), acceptedMediaRanges: options.mediaRanges)
    }

    /// An integer option, written as an integer or as a whole number.
    private static func integer(_ value: ConfigurationValue?) -> Int? {
        switch value {
        case .integer(let number)?: number
        case .number(let number)?: Int(exactly: number)
        default: nil
        }
    }
}

extension SerializerModule {
    /// The MessagePack module (`DecantMessagePack`): the `msgpack` serializer and `Decodable` decoder for
    /// `application/msgpack`, `application/x-msgpack` and `application/vnd.msgpack`.
    public static var msgpack: SerializerModule {
        SerializerModule(name: "DecantMessagePack", factories: [MessagePackSerializerFactory()])
    }
}
