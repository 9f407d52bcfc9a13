public import DecantCore

/// Builds ``PropertyListResponseSerializer``s from typed options or configuration options (`format`, `maxDepth`,
/// `maxObjects`, `maxValueBytes`, `mediaRanges`), and the format's ``PropertyListBodyEncoder`` (`outputFormat`).
public struct PropertyListSerializerFactory: SerializerFactory {
    /// The serializer's typed options.
    public struct Options: Sendable, Hashable {
        /// The format and limits.
        public var parsing: PropertyListParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]
        /// The format written for `application/x-plist` and `application/plist` (see ``PropertyListBodyEncoder``).
        public var outputFormat: PropertyListWritingOptions.Format

        /// Options with the given parsing options, media ranges and output format.
        public init(
            parsing: PropertyListParsingOptions = PropertyListParsingOptions(),
            mediaRanges: [MediaRange] = MediaFormat.propertyList.mediaRanges,
            outputFormat: PropertyListWritingOptions.Format = .auto
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
            self.outputFormat = outputFormat
        }
    }

    /// The options used when a configuration sets none.
    public let defaultOptions: Options

    /// A factory whose serializers start from `defaultOptions`.
    public init(defaultOptions: Options = Options()) {
        self.defaultOptions = defaultOptions
    }

    /// The `propertyList` format, claiming the default options' media ranges.
    public var format: MediaFormat { .propertyList.claiming(defaultOptions.mediaRanges) }

    /// `format`, `maxDepth`, `maxObjects`, `maxValueBytes`, `mediaRanges` and `outputFormat`, each said once: the
    /// schema and the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        [
            .choice(
                "format", \.parsing.format,
                summary: "The property list format; auto detects bplist magic, then XML, then OpenStep."),
            .integer(
                "maxDepth", \.parsing.maxDepth, in: 1...100_000,
                summary: "The deepest nesting of arrays and dictionaries accepted (and written)."),
            .integer(
                "maxObjects", \.parsing.maxObjects, in: 1...Int.max,
                summary: "The most values a result may hold, counting every reference to a shared binary object."),
            .integer(
                "maxValueBytes", \.parsing.maxValueBytes, in: 1...Int.max,
                summary: "The most string and data bytes a result may hold, counting every reference to a shared "
                    + "binary object."),
            .mediaRanges(\.mediaRanges),
            .choice(
                "outputFormat", \.outputFormat,
                summary: "The format written for application/x-plist and application/plist: auto (XML, or binary for a "
                    + "value holding a UID), xml or binary. application/x-bplist is always binary."),
        ]
    }

    /// A serializer with `options`.
    public func makeSerializer(options: Options) -> PropertyListResponseSerializer {
        PropertyListResponseSerializer(options: options.parsing, mediaRanges: options.mediaRanges)
    }

    /// A ``PropertyListResponseDecoder`` with `options`.
    public func makeDecoder(options: Options) -> (any ResponseDecoder)? {
        PropertyListResponseDecoder(
            decoder: PropertyListValueDecoder(parsingOptions: options.parsing), mediaRanges: options.mediaRanges)
    }
}
