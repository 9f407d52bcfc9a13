public import DecantCore
public import DecantXMLParser

/// Builds ``XMLDocumentResponseSerializer``s from typed options or configuration options: the parser's options
/// (`XMLParsingOptions.optionSchema`, such as namespace handling and limits) and `mediaRanges`.
public struct XMLDocumentSerializerFactory: SerializerFactory {
    /// The serializer's typed options.
    public struct Options: Sendable, Hashable {
        /// Namespace handling and limits.
        public var parsing: XMLParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Options with the given parsing options and media ranges.
        public init(
            parsing: XMLParsingOptions = XMLParsingOptions(),
            mediaRanges: [MediaRange] = MediaFormat.xmlDocument.mediaRanges
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
        }
    }

    /// The options used when a configuration sets none.
    public let defaultOptions: Options

    /// A factory whose serializers start from `defaultOptions`.
    public init(defaultOptions: Options = Options()) {
        self.defaultOptions = defaultOptions
    }

    /// The `xmlDocument` format, claiming the default options' media ranges.
    public var format: MediaFormat { .xmlDocument.claiming(defaultOptions.mediaRanges) }

    /// The parser's options (`XMLParsingOptions.optionKeys(at:)`) and `mediaRanges`, each said once: the schema and
    /// the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        XMLParsingOptions.optionKeys(at: \.parsing) + [.mediaRanges(\.mediaRanges)]
    }

    /// A serializer with `options`.
    public func makeSerializer(options: Options) -> XMLDocumentResponseSerializer {
        XMLDocumentResponseSerializer(options: options.parsing, mediaRanges: options.mediaRanges)
    }
}
