public import DecantCore

/// Builds ``XMLParserResponseSerializer``s from typed options or configuration options: the parsing options of
/// `XMLParsingOptions.optionSchema`, `parsesEagerly` and `mediaRanges`.
public struct XMLParserSerializerFactory: SerializerFactory {
    /// The serializer's typed options.
    public struct Options: Sendable, Hashable {
        /// Namespace handling and limits.
        public var parsing: XMLParsingOptions
        /// Whether the serializer parses the body once during `serialize` to surface errors.
        public var parsesEagerly: Bool
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Options with the given parts.
        public init(
            parsing: XMLParsingOptions = XMLParsingOptions(), parsesEagerly: Bool = false,
            mediaRanges: [MediaRange] = MediaFormat.xmlParser.mediaRanges
        ) {
            self.parsing = parsing
            self.parsesEagerly = parsesEagerly
            self.mediaRanges = mediaRanges
        }
    }

    /// The options used when a configuration sets none.
    public let defaultOptions: Options

    /// A factory whose serializers start from `defaultOptions`.
    public init(defaultOptions: Options = Options()) {
        self.defaultOptions = defaultOptions
    }

    /// The `xmlParser` format, claiming the default options' media ranges.
    public var format: MediaFormat { .xmlParser.claiming(defaultOptions.mediaRanges) }

    /// The parsing options (`XMLParsingOptions.optionKeys(at:)`), `parsesEagerly` and `mediaRanges`, each said once:
    /// the schema and the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        XMLParsingOptions.optionKeys(at: \.parsing) + [
            .bool(
                "parsesEagerly", \.parsesEagerly,
                summary: "Parses the body during serialization so errors surface in the chain with the response."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// A serializer with `options`.
    public func makeSerializer(options: Options) -> XMLParserResponseSerializer {
        XMLParserResponseSerializer(
            options: options.parsing, parsesEagerly: options.parsesEagerly, mediaRanges: options.mediaRanges)
    }
}
