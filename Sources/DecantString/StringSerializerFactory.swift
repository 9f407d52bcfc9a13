public import DecantCharset
public import DecantCore

/// The factory of ``StringResponseSerializer``, ``StringResponseDecoder`` and ``StringBodyEncoder``: id `string`,
/// `text/*`.
///
/// Configuration options (all optional):
///
/// - `defaultEncoding`: `"UTF-8"` (the default), `"windows-1252"` or `"ISO-8859-1"`: the encoding of bodies with no
///   byte order mark and no `charset` parameter (JSON and XML types are always UTF-8). `"ISO-8859-1"` is true Latin-1
///   (`TextEncoding/isoLatin1`), not the WHATWG label of that name, which means windows-1252.
/// - `mode`: `"replacement"` (the default: invalid bytes become U+FFFD) or `"strict"` (they are an error).
/// - `unknownLabelIsError`: a boolean; whether a `charset` label the WHATWG Encoding Standard does not know is an
///   error rather than a fallback to the default encoding. By default `true` in strict mode, `false` otherwise.
/// - `encodingMode`: `"strict"` (the default: a character the requested charset cannot encode is an error) or
///   `"html"` (it is written as a numeric character reference, `&#8594;`), for the encoder.
/// - `mediaRanges`: an array of media ranges the built serializer accepts (and the encoder writes); `["text/*"]` by
///   default.
///
/// ```json
/// { "serializer": "string", "options": { "defaultEncoding": "windows-1252", "mode": "strict" } }
/// ```
public struct StringSerializerFactory: SerializerFactory {
    /// The typed options: everything ``StringResponseSerializer`` is built from.
    public struct Options: Sendable, Hashable {
        /// The charset pipeline (default encoding, mode, unknown-label policy).
        public var pipeline: CharsetPipeline
        /// The media ranges the serializer accepts and the encoder writes.
        public var mediaRanges: [MediaRange]
        /// What ``StringBodyEncoder`` does with a character the requested charset cannot encode: an error
        /// (`TextEncodingMode.strict`, the default) or a numeric character reference (`TextEncodingMode.html`).
        public var encodingMode: TextEncodingMode

        /// Creates options; the defaults are UTF-8, replacement mode, `text/*` and strict encoding.
        public init(
            pipeline: CharsetPipeline = CharsetPipeline(),
            mediaRanges: [MediaRange] = MediaFormat.string.mediaRanges,
            encodingMode: TextEncodingMode = .strict
        ) {
            self.pipeline = pipeline
            self.mediaRanges = mediaRanges
            self.encodingMode = encodingMode
        }
    }

    /// The values the `defaultEncoding` option accepts, and the encodings they mean.
    public static let defaultEncodingChoices: [(name: String, encoding: TextEncoding)] = [
        ("UTF-8", .utf8), ("windows-1252", .windows1252), ("ISO-8859-1", .isoLatin1),
    ]

    /// The options used when a configuration gives none, and whose media ranges the registry matches.
    public let defaultOptions: Options

    /// Creates the factory.
    ///
    /// - Parameter defaultOptions: The options of serializers built without configuration; their
    ///   ``Options/mediaRanges`` are the ranges of the factory's ``format``.
    public init(defaultOptions: Options = Options()) {
        self.defaultOptions = defaultOptions
    }

    /// The `string` format, claiming the default options' media ranges: `text/*` unless the factory was created
    /// with others.
    public var format: MediaFormat { .string.claiming(defaultOptions.mediaRanges) }

    /// `defaultEncoding`, `mode`, `unknownLabelIsError`, `encodingMode` and `mediaRanges`. `mode` also sets `unknownLabelIsError`
    /// (on in strict mode), so that option has no fixed default; a configured `unknownLabelIsError` wins, since keys
    /// are applied in this order.
    public var optionKeys: [OptionKey<Options>] {
        let choices = StringSerializerFactory.defaultEncodingChoices
        return [
            OptionKey(
                "defaultEncoding", .string(allowed: choices.map(\.name)),
                summary: "The encoding of bodies with no byte order mark and no charset parameter (ISO-8859-1 is "
                    + "true Latin-1; JSON and XML types are always UTF-8).",
                defaultValue: { options in
                    choices.first { $0.encoding == options.pipeline.defaultEncoding }.map { .string($0.name) }
                }
            ) { value, options, _ in
                if case .string(let name) = value, let choice = choices.first(where: { $0.name == name }) {
                    options.pipeline.defaultEncoding = choice.encoding
                }
            },
            OptionKey(
                "mode", .string(allowed: ["strict", "replacement"]),
                summary: "Whether invalid bytes are an error (strict) or become U+FFFD (replacement).",
                defaultValue: { .string($0.pipeline.mode == .strict ? "strict" : "replacement") }
            ) { value, options, _ in
                if case .string(let mode) = value {
                    options.pipeline.mode = mode == "strict" ? .strict : .replacement
                    options.pipeline.unknownLabelIsError = options.pipeline.mode == .strict
                }
            },
            OptionKey(
                "unknownLabelIsError", .bool,
                summary: "Whether an unknown charset label is an error rather than a fallback to the default "
                    + "encoding; by default true in strict mode and false in replacement mode.",
                defaultValue: { _ in nil }
            ) { value, options, _ in
                if case .bool(let isError) = value { options.pipeline.unknownLabelIsError = isError }
            },
            OptionKey(
                "encodingMode", .string(allowed: ["strict", "html"]),
                summary: "When writing, whether a character the requested charset cannot encode is an error "
                    + "(strict) or a numeric character reference such as &#8594; (html).",
                defaultValue: { .string($0.encodingMode == .html ? "html" : "strict") }
            ) { value, options, _ in
                if case .string(let mode) = value { options.encodingMode = mode == "html" ? .html : .strict }
            },
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// Builds a ``StringResponseSerializer``.
    public func makeSerializer(options: Options) -> StringResponseSerializer {
        StringResponseSerializer(pipeline: options.pipeline, mediaRanges: options.mediaRanges)
    }

    /// A ``StringResponseDecoder`` with the options' pipeline and ranges: `String` (and types made of one string)
    /// decoded from text bodies.
    public func makeDecoder(options: Options) -> (any ResponseDecoder)? {
        StringResponseDecoder(pipeline: options.pipeline, mediaRanges: options.mediaRanges)
    }

    /// A ``StringBodyEncoder`` with the options' media ranges and encoding mode: `String`, `Substring` and
    /// `DecodedText` written in the requested charset (UTF-8 by default).
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        StringBodyEncoder(mediaRanges: options.mediaRanges, mode: options.encodingMode)
    }
}
