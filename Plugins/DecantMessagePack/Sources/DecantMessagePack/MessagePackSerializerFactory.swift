public import DecantCore

/// The factory of ``MessagePackResponseSerializer``, ``MessagePackResponseDecoder`` and ``MessagePackBodyEncoder`` (id
/// `msgpack`).
///
/// Configuration options: `maxDepth` (integer, default 512), `maxBytes` (integer, default 64 MiB), `maxItems`
/// (integer, default 1,000,000), `replaceInvalidUTF8` (boolean, default `false`), `allowsMultipleValues` (boolean,
/// default `false`) and `mediaRanges` (an array of media ranges); see ``MessagePackParsingOptions``.
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
            mediaRanges: [MediaRange] = MediaFormat.msgpack.mediaRanges
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
            .integer(
                "maxDepth", \.parsing.maxDepth, in: 1...10_000, summary: "The deepest nesting of arrays and maps."),
            .integer(
                "maxBytes", \.parsing.maxBytes, in: 1...Int(Int32.max), summary: "The largest body parsed, in bytes."),
            .integer(
                "maxItems", \.parsing.maxItems, in: 1...Int(Int32.max),
                summary: "The most values a body may declare (array elements, map keys and values)."),
            .bool(
                "replaceInvalidUTF8", \.parsing.replacesInvalidUTF8,
                summary: "Replace invalid UTF-8 in str values with U+FFFD instead of failing."),
            .bool(
                "allowsMultipleValues", \.parsing.allowsMultipleValues,
                summary: "Read a stream of top-level values as one array instead of failing on trailing bytes."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults of ``MessagePackParsingOptions`` and the format's media ranges.
    public var defaultOptions: Options { Options() }

    /// Builds a ``MessagePackResponseSerializer``.
    public func makeSerializer(options: Options) -> MessagePackResponseSerializer {
        MessagePackResponseSerializer(options: options.parsing, mediaRanges: options.mediaRanges)
    }

    /// The format's `Decodable` decoder, built from `options`.
    public func makeDecoder(options: Options) -> (any ResponseDecoder)? {
        MessagePackResponseDecoder(
            decoder: MessagePackDecoder(parsingOptions: options.parsing), mediaRanges: options.mediaRanges)
    }

    /// A ``MessagePackBodyEncoder`` with the options' media ranges and depth limit: ``MessagePackValue`` and
    /// `Encodable` values written as `application/msgpack` (or another type the ranges cover).
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        MessagePackBodyEncoder(maxDepth: options.parsing.maxDepth, mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The MessagePack module (`DecantMessagePack`): the `msgpack` serializer and `Decodable` decoder for
    /// `application/msgpack`, `application/x-msgpack` and `application/vnd.msgpack`.
    public static var msgpack: SerializerModule {
        SerializerModule(name: "DecantMessagePack", factories: [MessagePackSerializerFactory()])
    }
}
