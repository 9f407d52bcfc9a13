public import DecantCore

/// The factory of ``FormResponseSerializer`` (id `form`).
///
/// Configuration options: `maxPairs` (integer, default 10,000), `maxBytes` (integer, default 16 MiB) and
/// `mediaRanges` (an array of media ranges); see ``FormParsingOptions``.
public struct FormSerializerFactory: SerializerFactory {
    /// The typed options: parsing limits and accepted media ranges.
    public struct Options: Sendable, Hashable {
        /// The parser's limits.
        public var parsing: FormParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            parsing: FormParsingOptions = FormParsingOptions(),
            mediaRanges: [MediaRange] = FormResponseSerializer.defaultMediaRanges
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
        }
    }

    /// Creates the factory.
    public init() {}

    /// `form`.
    public var id: SerializerID { "form" }

    /// What the serializer does.
    public var summary: String {
        "Parses application/x-www-form-urlencoded bodies (WHATWG URL Standard, UTF-8) into ordered name-value pairs."
    }

    /// `application/x-www-form-urlencoded`.
    public var mediaRanges: [MediaRange] { FormResponseSerializer.defaultMediaRanges }

    /// The options the factory understands.
    public var optionSchema: [SerializerOption] {
        [
            SerializerOption(
                "maxPairs", .integer(1...Int(Int32.max)), default: .integer(FormParsingOptions.defaultMaxPairs),
                summary: "The most fields (non-empty &-separated sequences) a body may hold."),
            SerializerOption(
                "maxBytes", .integer(1...Int(Int32.max)), default: .integer(FormParsingOptions.defaultMaxBytes),
                summary: "The largest body parsed, in bytes."),
            SerializerOption(
                "mediaRanges", .mediaRangeArray,
                default: .array(FormResponseSerializer.defaultMediaRanges.map { .string($0.description) }),
                summary: "The media ranges the serializer accepts."),
        ]
    }

    /// The defaults of ``FormParsingOptions`` and ``FormResponseSerializer/defaultMediaRanges``.
    public var defaultOptions: Options { Options() }

    /// Builds a ``FormResponseSerializer``.
    public func makeSerializer(options: Options) -> FormResponseSerializer {
        FormResponseSerializer(options: options.parsing, acceptedMediaRanges: options.mediaRanges)
    }

    /// Converts configuration options (already checked against ``optionSchema``).
    public func options(from configuration: ConfigurationOptions) throws -> Options {
        var options = Options()
        if let value = Self.integer(configuration["maxPairs"]) { options.parsing.maxPairs = value }
        if let value = Self.integer(configuration["maxBytes"]) { options.parsing.maxBytes = value }
        if let ranges = try configuration.mediaRangesOption(for: id, example: "application/x-www-form-urlencoded") {
            options.mediaRanges = ranges
        }
        return options
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
    /// The form module (`DecantForm`): the `form` serializer for `application/x-www-form-urlencoded`.
    public static var form: SerializerModule {
        SerializerModule(name: "DecantForm", factories: [FormSerializerFactory()])
    }
}
