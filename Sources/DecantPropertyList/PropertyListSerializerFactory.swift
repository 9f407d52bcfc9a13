public import DecantCore

/// Builds ``PropertyListResponseSerializer``s from typed options or configuration options (`format`, `maxDepth`,
/// `maxObjects`, `maxValueBytes`, `mediaRanges`).
public struct PropertyListSerializerFactory: SerializerFactory {
    /// The serializer's typed options.
    public struct Options: Sendable, Hashable {
        /// The format and limits.
        public var parsing: PropertyListParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Options with the given parsing options and media ranges.
        public init(
            parsing: PropertyListParsingOptions = PropertyListParsingOptions(),
            mediaRanges: [MediaRange] = PropertyListResponseSerializer.defaultMediaRanges
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

    /// `propertyList`.
    public var id: SerializerID { "propertyList" }

    /// A one-line description for registry listings.
    public var summary: String {
        "Parses binary, XML and OpenStep property lists with Decant's own bounded readers."
    }

    /// The default options' media ranges.
    public var mediaRanges: [MediaRange] { defaultOptions.mediaRanges }

    /// `format`, `maxDepth`, `maxObjects`, `maxValueBytes` and `mediaRanges`, each said once: the schema and the
    /// reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        [
            .choice(
                "format", \.parsing.format,
                summary: "The property list format; auto detects bplist magic, then XML, then OpenStep."),
            .integer(
                "maxDepth", \.parsing.maxDepth, in: 1...100_000,
                summary: "The deepest nesting of arrays and dictionaries accepted."),
            .integer(
                "maxObjects", \.parsing.maxObjects, in: 1...Int.max,
                summary: "The most values a result may hold, counting every reference to a shared binary object."),
            .integer(
                "maxValueBytes", \.parsing.maxValueBytes, in: 1...Int.max,
                summary: "The most string and data bytes a result may hold, counting every reference to a shared "
                    + "binary object."),
            .mediaRanges(\.mediaRanges, example: "application/x-plist"),
        ]
    }

    /// A serializer with `options`.
    public func makeSerializer(options: Options) -> PropertyListResponseSerializer {
        PropertyListResponseSerializer(options: options.parsing, mediaRanges: options.mediaRanges)
    }

    /// A ``PropertyListResponseDecoder`` with the configured options.
    public func makeResponseDecoder(configuration: ConfigurationOptions) throws -> any ResponseDecoder {
        try SerializerOption.validate(configuration, against: optionSchema, for: id)
        let options = try options(from: configuration)
        return PropertyListResponseDecoder(
            decoder: PropertyListValueDecoder(parsingOptions: options.parsing), mediaRanges: options.mediaRanges
        )
    }
}

extension PropertyListSerializerFactory: ResponseDecoderFactory {}
