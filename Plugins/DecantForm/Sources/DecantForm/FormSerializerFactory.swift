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
            mediaRanges: [MediaRange] = MediaFormat.form.mediaRanges
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
                "maxPairs", \.parsing.maxPairs, in: 1...Int(Int32.max),
                summary: "The most fields (non-empty &-separated sequences) a body may hold."),
            .integer(
                "maxBytes", \.parsing.maxBytes, in: 1...Int(Int32.max), summary: "The largest body parsed, in bytes."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults of ``FormParsingOptions`` and the format's media ranges.
    public var defaultOptions: Options { Options() }

    /// Builds a ``FormResponseSerializer``.
    public func makeSerializer(options: Options) -> FormResponseSerializer {
        FormResponseSerializer(options: options.parsing, mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The form module (`DecantForm`): the `form` serializer for `application/x-www-form-urlencoded`.
    public static var form: SerializerModule {
        SerializerModule(name: "DecantForm", factories: [FormSerializerFactory()])
    }
}
