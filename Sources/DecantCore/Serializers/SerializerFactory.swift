/// Builds a serializer, from typed options in code or from ``ConfigurationOptions`` read from a file.
///
/// A format module provides one factory per serializer and lists it in its ``SerializerModule``. The registry
/// matches responses against ``mediaRanges`` without building anything, and calls
/// ``makeSerializer(configuration:)`` when a chain names the factory's ``id`` with options.
///
/// ```swift
/// struct LinesFactory: SerializerFactory {
///     var id: SerializerID { "acme.lines" }
///     var summary: String { "Splits text/plain bodies into lines." }
///     var mediaRanges: [MediaRange] { ["text/plain"] }
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

    /// The stable id configuration files use, such as `json` or `acme.yaml`.
    var id: SerializerID { get }
    /// One sentence describing the serializer, shown by `decant registry`.
    var summary: String { get }
    /// The media ranges the serializer accepts, most specific first.
    var mediaRanges: [MediaRange] { get }
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

    /// Converts configuration options, already checked against ``optionSchema``, into typed options.
    ///
    /// Absent options take their defaults. Throw ``SerializationError/Code/invalidOption`` for a value that has the
    /// right type but is still wrong (with the option name in ``SerializationError/codingPath``).
    func options(from configuration: ConfigurationOptions) throws -> Options
}

extension SerializerFactory {
    /// Validates `configuration` against ``optionSchema``, converts it and builds the serializer.
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/unknownOption`` or
    ///   ``SerializationError/Code/invalidOption`` and the option name in ``SerializationError/codingPath``.
    public func makeSerializer(configuration: ConfigurationOptions) throws(SerializationError) -> Serializer {
        try SerializerOption.validate(configuration, against: optionSchema, for: id)
        do {
            return try makeSerializer(options: options(from: configuration))
        } catch let error as SerializationError {
            throw error.filling(serializerID: id)
        } catch {
            throw SerializationError(
                code: .invalidOption,
                message: "The serializer '\(id)' could not be built from its options: \(error).",
                serializerID: id,
                underlying: error
            )
        }
    }

    /// Builds the serializer from configuration options with its output erased, for registries and chains.
    public func makeErasedSerializer(
        configuration: ConfigurationOptions = [:]
    ) throws(SerializationError) -> AnyResponseSerializer<any Sendable> {
        let serializer = try makeSerializer(configuration: configuration)
        // The id is the factory's (configuration files name it); the ranges are the built serializer's, which
        // options such as `mediaRanges` may have changed.
        return AnyResponseSerializer<any Sendable>(
            wrapping: serializer, id: id, mediaRanges: serializer.mediaRanges, convert: { $0 })
    }
}

extension SerializerFactory where Options == Void {
    /// No options.
    public var defaultOptions: Void { () }
    /// No options.
    public func options(from configuration: ConfigurationOptions) throws {}
}
