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

    /// `format`, `maxDepth`, `maxObjects`, `maxValueBytes` and `mediaRanges`.
    public var optionSchema: [SerializerOption] {
        [
            SerializerOption(
                "format", .string(allowed: PropertyListFormat.allCases.map(\.rawValue)), default: "auto",
                summary: "The property list format; auto detects bplist magic, then XML, then OpenStep."),
            SerializerOption(
                "maxDepth", .integer(1...100_000), default: .integer(PropertyListParsingOptions.defaultMaxDepth),
                summary: "The deepest nesting of arrays and dictionaries accepted."),
            SerializerOption(
                "maxObjects", .integer(1...Int.max), default: .integer(PropertyListParsingOptions.defaultMaxObjects),
                summary: "The most values a result may hold, counting every reference to a shared binary object."),
            SerializerOption(
                "maxValueBytes", .integer(1...Int.max),
                default: .integer(PropertyListParsingOptions.defaultMaxValueBytes),
                summary: "The most string and data bytes a result may hold, counting every reference to a shared "
                    + "binary object."),
            SerializerOption(
                "mediaRanges", .mediaRangeArray,
                default: .array(PropertyListResponseSerializer.defaultMediaRanges.map { .string($0.description) }),
                summary: "The media ranges the serializer accepts."),
        ]
    }

    /// A serializer with `options`.
    public func makeSerializer(options: Options) -> PropertyListResponseSerializer {
        PropertyListResponseSerializer(options: options.parsing, acceptedMediaRanges: options.mediaRanges)
    }

    /// The typed options a (validated) configuration describes.
    public func options(from configuration: ConfigurationOptions) throws(SerializationError) -> Options {
        var options = defaultOptions
        if case .string(let name)? = configuration["format"], let format = PropertyListFormat(rawValue: name) {
            options.parsing.format = format
        }
        if let depth = PropertyListSerializerFactory.integer(configuration["maxDepth"]) {
            options.parsing.maxDepth = depth
        }
        if let objects = PropertyListSerializerFactory.integer(configuration["maxObjects"]) {
            options.parsing.maxObjects = objects
        }
        if let bytes = PropertyListSerializerFactory.integer(configuration["maxValueBytes"]) {
            options.parsing.maxValueBytes = bytes
        }
        if let ranges = try configuration.mediaRangesOption(for: id, example: "application/x-plist") {
            options.mediaRanges = ranges
        }
        return options
    }

    /// A ``PropertyListResponseDecoder`` with the configured options.
    public func makeResponseDecoder(configuration: ConfigurationOptions) throws -> any ResponseDecoder {
        try SerializerOption.validate(configuration, against: optionSchema, for: id)
        let options = try options(from: configuration)
        return PropertyListResponseDecoder(
            decoder: PropertyListValueDecoder(parsingOptions: options.parsing), acceptedMediaRanges: options.mediaRanges
        )
    }

    private static func integer(_ value: ConfigurationValue?) -> Int? {
        switch value {
        case .integer(let number)?: return number
        case .number(let number)? where number.rounded() == number && abs(number) < 1e15: return Int(number)
        default: return nil
        }
    }
}

extension PropertyListSerializerFactory: ResponseDecoderFactory {}
