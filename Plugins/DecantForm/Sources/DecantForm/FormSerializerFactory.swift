public import DecantCore

/// The factory of ``FormResponseSerializer`` (id `form`).
///
/// Configuration options: `maxPairs` (integer, default 10,000), `maxBytes` (integer, default 16 MiB) and
/// `mediaRanges` (an array of media ranges) for reading, see ``FormParsingOptions``; `arrayEncoding`
/// (`repeatedName`, `brackets` or `indexed`) and `boolEncoding` (`literal` or `numeric`) for writing, see
/// ``FormEncodingOptions``.
public struct FormSerializerFactory: SerializerFactory {
    /// The typed options: parsing limits, accepted media ranges and the encoder's strategies.
    public struct Options: Sendable, Hashable {
        /// The parser's limits.
        public var parsing: FormParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]
        /// How ``FormBodyEncoder`` writes arrays and Booleans.
        public var encoding: FormEncodingOptions

        /// Creates options.
        public init(
            parsing: FormParsingOptions = FormParsingOptions(),
            mediaRanges: [MediaRange] = MediaFormat.form.mediaRanges,
            encoding: FormEncodingOptions = FormEncodingOptions()
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
            self.encoding = encoding
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
            .choice(
                "arrayEncoding", \.encoding.arrayEncoding,
                summary: "How written arrays are named: repeatedName (a=1&a=2), brackets (a[]=1) or indexed (a[0]=1)."),
            .choice(
                "boolEncoding", \.encoding.boolEncoding,
                summary: "How written Booleans are spelled: literal (true, false) or numeric (1, 0)."),
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
    /// The form module (`DecantForm`): the `form` serializer for `application/x-www-form-urlencoded`, which reads and
    /// writes.
    public static var form: SerializerModule {
        SerializerModule(name: "DecantForm", factories: [FormSerializerFactory()])
    }
}
