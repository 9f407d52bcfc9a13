/// A format's one place: its identity (``format``), its options, and what it can build from them.
///
/// A format module provides one factory per format and lists it in its ``SerializerModule``. The registry matches
/// responses against the format's media ranges without building anything, and builds from the factory what a
/// request needs. Each capability is one method here:
///
/// | Capability | Method | When absent |
/// |---|---|---|
/// | a value (`serialize`) | ``makeSerializer(options:)`` | required |
/// | records of a body still arriving | the serializer is a ``StreamingResponseSerializer`` | whole bodies only |
/// | `Decodable` types (`decode`) | ``makeDecoder(options:)`` | `nil` (the default): the format is skipped |
/// | bodies from values (`encode`) | ``makeEncoder(options:)`` | `nil` (the default): the format reads only |
///
/// The id and the media ranges are said once, in ``format``, which defaults to the serializer's when it is a
/// ``FormatComponent``:
///
/// ```swift
/// struct LinesFactory: SerializerFactory {
///     var defaultOptions: LinesOptions { LinesOptions() }
///     var optionKeys: [OptionKey<LinesOptions>] {
///         [.bool("omitsEmpty", \.omitsEmpty, summary: "Drops empty lines.")]
///     }
///     func makeSerializer(options: LinesOptions) -> LinesSerializer { LinesSerializer(omitsEmpty: options.omitsEmpty) }
/// }
/// ```
public protocol SerializerFactory: Sendable {
    /// The serializer this factory builds.
    associatedtype Serializer: ResponseSerializer
    /// The typed options the serializer is built from.
    associatedtype Options: Sendable

    /// The format: its id (the name configuration files use), media ranges and summary. Defaults to the serializer's
    /// ``FormatComponent/format`` when it has one.
    var format: MediaFormat { get }
    /// The typed option keys: name, type, range, summary and the property each sets (see ``OptionKey``). From them
    /// ``optionSchema`` and ``options(from:)`` are derived, unless the factory declares those itself. Defaults to none.
    var optionKeys: [OptionKey<Options>] { get }
    /// The options ``options(from:)`` understands; configuration is checked against it first. Defaults to the
    /// schema of ``optionKeys``.
    var optionSchema: [SerializerOption] { get }
    /// The options used when a configuration gives none.
    var defaultOptions: Options { get }

    /// Builds a serializer from typed options.
    func makeSerializer(options: Options) throws -> Serializer

    /// Builds the format's decoder of `Decodable` types from typed options, or returns `nil` when the format has
    /// none. Defaults to `nil`.
    ///
    /// ``SerializerRegistry/decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)`` uses the decoder built with
    /// the default options; its id and ranges are the format's whatever the decoder says (make it a ``FormatComponent``
    /// so that it says the same when used alone). An error thrown here is kept by the registry and reported when a
    /// response of the format is decoded.
    func makeDecoder(options: Options) throws -> (any ResponseDecoder)?

    /// Builds the format's encoder of values into bodies (``BodyEncoder``) from typed options, or returns `nil` when
    /// the format does not write. Defaults to `nil`.
    ///
    /// ``SerializerRegistry/encode(_:as:options:)`` and content negotiation use the encoder built with the default
    /// options (or those of ``SerializerRegistry/configure(_:options:)``); like the decoder, it runs under the
    /// format's id, and it writes the media ranges it states that lie within the format's (a format may write fewer
    /// types than it reads, as images write only `image/png`; ranges outside the format's are ignored). An error
    /// thrown here is kept and reported when a value would be written in the format.
    func makeEncoder(options: Options) throws -> (any BodyEncoder)?

    /// Converts configuration options, already checked against ``optionSchema``, into typed options.
    ///
    /// Absent options take their defaults. Throw ``SerializationError/Code/invalidOption`` for a value that has the
    /// right type but is still wrong (with the option name in ``SerializationError/codingPath``).
    func options(from configuration: ConfigurationOptions) throws -> Options
}

extension SerializerFactory where Serializer: FormatComponent {
    /// The serializer's format.
    public var format: MediaFormat { Serializer.format }
}

extension SerializerFactory {
    /// The format's id: the name configuration files use, such as `json` or `acme.yaml`.
    public var id: SerializerID { format.id }
    /// The format's media ranges, most specific first.
    public var mediaRanges: [MediaRange] { format.mediaRanges }
    /// The format's one-sentence summary, shown by `decant registry`.
    public var summary: String { format.summary }

    /// `nil`: the format decodes no `Decodable` types unless its factory says so.
    public func makeDecoder(options: Options) throws -> (any ResponseDecoder)? { nil }

    /// `nil`: the format writes no bodies unless its factory says so.
    public func makeEncoder(options: Options) throws -> (any BodyEncoder)? { nil }

    /// The format's encoder built from configuration options (checked against ``optionSchema`` like the
    /// serializer's), or `nil` when the format does not write.
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/unknownOption`` or
    ///   ``SerializationError/Code/invalidOption``, or the factory's own error wrapped in one carrying the id.
    public func makeEncoder(configuration: ConfigurationOptions) throws(SerializationError) -> (any BodyEncoder)? {
        try build(from: configuration, naming: "The encoder of '\(id)'", with: makeEncoder(options:))
    }

    /// The format's `Decodable` decoder built from configuration options (checked against ``optionSchema`` like the
    /// serializer's), or `nil` when the format has none.
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/unknownOption`` or
    ///   ``SerializationError/Code/invalidOption``, or the factory's own error wrapped in one carrying the id.
    public func makeDecoder(configuration: ConfigurationOptions) throws(SerializationError) -> (any ResponseDecoder)? {
        try build(from: configuration, naming: "The decoder of '\(id)'", with: makeDecoder(options:))
    }

    /// Validates `configuration` against ``optionSchema``, converts it and builds the serializer.
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/unknownOption`` or
    ///   ``SerializationError/Code/invalidOption`` and the option name in ``SerializationError/codingPath``.
    public func makeSerializer(configuration: ConfigurationOptions) throws(SerializationError) -> Serializer {
        try build(from: configuration, naming: "The serializer '\(id)'", with: makeSerializer(options:))
    }

    /// The one way a part of the format is built from configuration options: checked against ``optionSchema``,
    /// converted by ``options(from:)``, then built by `make`; any error carries the id (`part` names what failed to
    /// build in the message of an error that is not already a ``SerializationError``).
    private func build<Part>(
        from configuration: ConfigurationOptions, naming part: String, with make: (Options) throws -> Part
    ) throws(SerializationError) -> Part {
        try SerializerOption.validate(configuration, against: optionSchema, for: id)
        do {
            return try make(options(from: configuration))
        } catch let error as SerializationError {
            throw error.filling(serializerID: id)
        } catch {
            throw SerializationError(
                code: .invalidOption, message: "\(part) could not be built from its options: \(error).",
                serializerID: id, underlying: error)
        }
    }

    /// Builds the serializer from configuration options with its output erased, for registries and chains.
    public func makeErasedSerializer(
        configuration: ConfigurationOptions = [:]
    ) throws(SerializationError) -> AnyResponseSerializer<any Sendable> {
        let serializer = try makeSerializer(configuration: configuration)
        // The id is the format's (configuration files name it). The ranges are the format's unless the configuration
        // has options (such as `mediaRanges`) that may have changed the built serializer's.
        return AnyResponseSerializer<any Sendable>(
            wrapping: serializer, id: id, mediaRanges: configuration.isEmpty ? mediaRanges : serializer.mediaRanges,
            convert: { $0 })
    }
}

extension SerializerFactory where Options == Void {
    /// No options.
    public var defaultOptions: Void { () }
    /// No options.
    public func options(from configuration: ConfigurationOptions) throws {}
}
