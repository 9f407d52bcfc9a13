/// Maps media ranges to serializer factories and resolves a response to the serializer that should handle it.
///
/// A registry is a `Sendable` value: build it once (`SerializerRegistry.standard`, or `SerializerRegistry()` plus
/// ``install(_:)``) and pass it where it is needed; there is no global registry.
///
/// Resolution picks, among the serializers with a range matching the media type, the one whose best matching range
/// is most specific (``MediaRange/Specificity``), then the one registered first. ``resolve(_:sniffing:)`` returns the
/// whole reasoning as a ``Resolution`` whose description is a printable trace.
///
/// A failure is never hidden. When the chosen serializer rejects the body, the registry falls back only to
/// candidates that match the media type as specifically (other serializers of the same format), never to a wider one
/// such as `string` for `text/*`, which cannot judge the format; a typed request tries only candidates that produce
/// its type; a serializer that defers parsing (``ResponseSerializer/defersParsing``) is never tried after a failure;
/// a value produced after a failure carries the earlier attempts; when nothing succeeds, one error lists every
/// attempt in order.
///
/// ```swift
/// var registry = SerializerRegistry()
/// registry.install(.data)
/// let value = try registry.serialize(response)
/// print(registry.resolve(response))   // candidates, scores, skipped serializers and the choice
/// ```
public struct SerializerRegistry: Sendable {
    /// One installed format: its factory, and what was built from it with default options at installation.
    public struct Entry: Sendable {
        /// The format: id, media ranges and summary, as its factory states them.
        public let format: MediaFormat
        /// The module that installed it.
        public let moduleName: String
        /// The factory.
        public let factory: any SerializerFactory
        /// Its position in installation order (0 first).
        public let order: Int
        /// What the format can do here, found at installation: the capabilities whose parts built.
        public let capabilities: FormatCapabilities
        /// The serializer built with default options once, at installation; `nil` when that failed.
        let defaultSerializer: AnyResponseSerializer<any Sendable>?
        /// Why the default serializer could not be built, when it could not.
        public let buildError: SerializationError?
        /// The default serializer behind the registry's default stages, built once at installation.
        let route: Route?
        /// The format's `Decodable` decoder with default options, built once at installation, when the factory
        /// makes one (``SerializerFactory/makeDecoder(options:)``), under the format's id and ranges.
        let decoder: FormatDecoder?
        /// Why the factory's decoder could not be built, when it could not: reported by `decode`, never dropped.
        public let decoderBuildError: SerializationError?
        /// The `Decodable` options the format was installed with (``SerializerRegistry/install(_:decodingOptions:)``):
        /// they override the registry's ``SerializerRegistry/decodingOptions`` and are overridden by a call's.
        public let decodingOptions: DecodingOptions
        /// The format's encoder with default options, built once at installation, when the factory makes one
        /// (``SerializerFactory/makeEncoder(options:)``), under the format's id and ranges.
        let encoder: FormatEncoder?
        /// Why the factory's encoder could not be built, when it could not: reported by `encode`, never dropped.
        public let encoderBuildError: SerializationError?
        /// The options the serializer, decoder and encoder above were built with: empty at installation, those of
        /// ``SerializerRegistry/configure(_:options:)`` after it.
        public let configuration: ConfigurationOptions

        /// The format's id.
        public var id: SerializerID { format.id }
        /// The media ranges the format claims.
        public var mediaRanges: [MediaRange] { format.mediaRanges }
        /// The format's encoder with default options, under the format's id and ranges, or `nil` when it does not
        /// write (or its encoder failed to build: see ``encoderBuildError``).
        public var bodyEncoder: (any BodyEncoder)? { encoder }
    }

    /// What an installed format can do, as found at installation (a part that failed to build is not counted; its
    /// error is in ``Entry/buildError`` or ``Entry/decoderBuildError``).
    public struct FormatCapabilities: OptionSet, Sendable, Hashable, CustomStringConvertible {
        /// The raw bits.
        public let rawValue: Int
        /// Creates capabilities from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Turns a whole body into a value (``SerializerRegistry/serialize(_:sniffing:statusCodes:emptyBodyPolicy:)``).
        public static let value = FormatCapabilities(rawValue: 1 << 0)
        /// Decodes records of a body still arriving (its serializer is a ``StreamingResponseSerializer``).
        public static let records = FormatCapabilities(rawValue: 1 << 1)
        /// Decodes `Decodable` types
        /// (``SerializerRegistry/decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)``).
        public static let decodable = FormatCapabilities(rawValue: 1 << 2)
        /// Encodes values into bodies (``SerializerRegistry/encode(_:as:options:)``).
        public static let encoding = FormatCapabilities(rawValue: 1 << 3)

        /// The names of the capabilities, such as `value, records`.
        public var description: String {
            [(Self.value, "value"), (.records, "records"), (.decodable, "decodable"), (.encoding, "encoding")]
                .filter { contains($0.0) }.map(\.1).joined(separator: ", ")
        }
    }

    /// An entry's default serializer behind the registry's default stages, built once at installation and shared by
    /// every copy of the registry. Resolution has already matched the media type, so the chain does not check it.
    final class Route: Sendable {
        let chain: ResponseChain<AnyResponseSerializer<any Sendable>>

        init(_ serializer: AnyResponseSerializer<any Sendable>) {
            var chain = ResponseChain(serializer)
            chain.mediaTypeValidation = nil
            self.chain = chain
        }
    }

    /// Two installed formats that claim the same id, or the same media range.
    public struct Conflict: Sendable, Hashable, CustomStringConvertible {
        /// What is claimed twice.
        public enum Kind: Sendable, Hashable {
            /// The same serializer id; the later factory was not installed.
            case duplicateID
            /// An id that is not ``SerializerID/isValid(_:)`` (a string literal with a typo, such as `"Acme.cal"`):
            /// installed as it is, but configuration files cannot name it. `kept` and `other` are that id.
            case invalidID
            /// The same media range at the same rank; the earlier registration wins resolution.
            case sameRange(MediaRange)
            /// The same stage id (``StageFactory/id``); the later stage factory was not installed.
            case duplicateStageID
        }

        /// What is claimed twice.
        public let kind: Kind
        /// The entry that wins (installed first).
        public let kept: SerializerID
        /// Its module.
        public let keptModule: String
        /// The entry that loses.
        public let other: SerializerID
        /// Its module.
        public let otherModule: String

        /// A sentence saying who conflicts over what and who wins.
        public var description: String {
            switch kind {
            case .duplicateID:
                return "'\(other)' from \(otherModule) has the same id as '\(kept)' from \(keptModule); "
                    + "it was not installed. Give third-party serializers a prefixed id such as 'acme.yaml'."
            case .invalidID:
                return "'\(other)' from \(otherModule) is not a valid serializer id: use \(SerializerID.syntax). "
                    + "Fix the id literal; configuration files cannot name it as it is."
            case .sameRange(let range):
                return "'\(kept)' (\(keptModule)) and '\(other)' (\(otherModule)) both claim \(range) at the same "
                    + "rank; '\(kept)' wins because it was installed first."
            case .duplicateStageID:
                return "The stage '\(other)' from \(otherModule) has the same id as the stage from \(keptModule); "
                    + "it was not installed. Give third-party stages a prefixed id such as 'acme.signature'."
            }
        }
    }

    /// Every installed factory, in installation order.
    public internal(set) var entries: [Entry] = []
    /// The `Decodable` options of every format of this registry (none by default): what
    /// ``decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)`` uses unless the format was installed with
    /// its own (``install(_:decodingOptions:)``) or the call passes others, field by field (see ``DecodingOptions``).
    ///
    /// ```swift
    /// var registry = SerializerRegistry.standard
    /// registry.decodingOptions.keyDecodingStrategy = .convertFromSnakeCase
    /// ```
    public var decodingOptions = DecodingOptions()
    /// The encoding options of every format of this registry (none by default): what
    /// ``encode(_:as:options:)`` and ``encode(_:accepting:options:)`` use unless the call passes others, field by
    /// field (see ``EncodingOptions``).
    public var encodingOptions = EncodingOptions()
    /// Every conflict found while installing, in order.
    public private(set) var conflicts: [Conflict] = []
    /// The names of the installed modules, in order.
    public private(set) var moduleNames: [String] = []
    /// Every stage factory chain files can name, in installation order: the core's own (`xssiPrefix`,
    /// `byteOrderMark`, `contentDecoding`), then those of the installed modules.
    public private(set) var stages: [InstalledStage] = CoreStageFactories.all.map {
        InstalledStage(factory: $0, moduleName: "DecantCore")
    }

    /// A stage factory installed in a registry, with the module that installed it.
    public struct InstalledStage: Sendable {
        /// The factory.
        public let factory: any StageFactory
        /// Its module's name.
        public let moduleName: String
    }
    /// The ranges of every entry whose default serializer builds, in the order that decides (see ``RangeTableRow``).
    var rangeTable: [RangeTableRow] = []
    /// Each entry's ``Entry/route``, by entry position: reading one costs one reference count, where reading it
    /// through ``entries`` would copy the whole entry.
    var routes: [Route?] = []

    /// Creates an empty registry.
    public init() {}

    /// Creates a registry with `modules` installed in order.
    public init(modules: [SerializerModule]) {
        for module in modules { install(module) }
    }

    /// Installs every factory of `module`, after those already installed.
    ///
    /// A factory whose id is taken is not installed; a factory claiming a range another module already claims is
    /// installed but loses ties. Both are recorded in ``conflicts`` (and returned); ``checkConflicts()`` turns them
    /// into an error for those who want installation to be strict.
    ///
    /// The registry sees each format only through its ``SerializerFactory/format``: resolution matches the format's
    /// ranges, and the default serializer and decoder run under the format's id and ranges whatever they report
    /// themselves. A part that fails to build is kept as an error (``Entry/buildError``,
    /// ``Entry/decoderBuildError``) and reported when a response needs it.
    @discardableResult
    public mutating func install(_ module: SerializerModule) -> [Conflict] {
        install(module, decodingOptions: DecodingOptions())
    }

    /// Installs every factory of `module` as ``install(_:)`` does, with `decodingOptions` as the default
    /// `Decodable` options of its formats: they override the registry's ``decodingOptions`` and are overridden by
    /// those of a call (see ``DecodingOptions``).
    ///
    /// ```swift
    /// var registry = SerializerRegistry()
    /// registry.install(.json, decodingOptions: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase))
    /// ```
    @discardableResult
    public mutating func install(_ module: SerializerModule, decodingOptions: DecodingOptions) -> [Conflict] {
        var found: [Conflict] = []
        if !moduleNames.contains(module.name) { moduleNames.append(module.name) }
        for stage in module.stages {
            if let existing = stages.first(where: { $0.factory.id == stage.id }) {
                found.append(
                    Conflict(
                        kind: .duplicateStageID, kept: stage.id, keptModule: existing.moduleName, other: stage.id,
                        otherModule: module.name))
                continue
            }
            if !SerializerID.isValid(stage.id.rawValue) {
                found.append(
                    Conflict(
                        kind: .invalidID, kept: stage.id, keptModule: module.name, other: stage.id,
                        otherModule: module.name))
            }
            stages.append(InstalledStage(factory: stage, moduleName: module.name))
        }
        for factory in module.factories {
            if let existing = entries.first(where: { $0.id == factory.id }) {
                found.append(
                    Conflict(
                        kind: .duplicateID, kept: existing.id, keptModule: existing.moduleName, other: factory.id,
                        otherModule: module.name))
                continue
            }
            let format = factory.format
            if !SerializerID.isValid(format.id.rawValue) {
                found.append(
                    Conflict(
                        kind: .invalidID, kept: format.id, keptModule: module.name, other: format.id,
                        otherModule: module.name))
            }
            let ranges = format.mediaRanges
            for range in ranges {
                if let existing = entries.first(where: {
                    $0.moduleName != module.name && $0.mediaRanges.contains(range)
                }) {
                    found.append(
                        Conflict(
                            kind: .sameRange(range), kept: existing.id, keptModule: existing.moduleName,
                            other: format.id, otherModule: module.name))
                }
            }
            var serializer: AnyResponseSerializer<any Sendable>?
            var buildError: SerializationError?
            do {
                serializer = try factory.makeErasedSerializer()
            } catch {
                buildError = error
            }
            var decoder: FormatDecoder?
            var decoderBuildError: SerializationError?
            do {
                decoder = try factory.makeDecoder(configuration: [:]).map { FormatDecoder($0, format: format) }
            } catch {
                decoderBuildError = error
            }
            var encoder: FormatEncoder?
            var encoderBuildError: SerializationError?
            do {
                encoder = try factory.makeEncoder(configuration: [:]).map { FormatEncoder($0, format: format) }
            } catch {
                encoderBuildError = error
            }
            var capabilities: FormatCapabilities = []
            if let serializer {
                capabilities.insert(.value)
                if serializer.base is any StreamingResponseSerializer { capabilities.insert(.records) }
                for (index, range) in ranges.enumerated() {
                    RangeTableRow.insert(
                        RangeTableRow(range, entry: entries.count, rangeIndex: index), into: &rangeTable)
                }
            }
            if decoder != nil { capabilities.insert(.decodable) }
            if encoder != nil { capabilities.insert(.encoding) }
            let route = serializer.map(Route.init)
            routes.append(route)
            entries.append(
                Entry(
                    format: format, moduleName: module.name, factory: factory, order: entries.count,
                    capabilities: capabilities, defaultSerializer: serializer, buildError: buildError, route: route,
                    decoder: decoder, decoderBuildError: decoderBuildError, decodingOptions: decodingOptions,
                    encoder: encoder, encoderBuildError: encoderBuildError, configuration: [:]))
        }
        conflicts += found
        return found
    }

    /// A copy with `module` installed.
    public func installing(_ module: SerializerModule) -> SerializerRegistry {
        var copy = self
        copy.install(module)
        return copy
    }

    /// A copy with `module` installed with `decodingOptions` as its formats' default `Decodable` options (see
    /// ``install(_:decodingOptions:)``).
    public func installing(_ module: SerializerModule, decodingOptions: DecodingOptions) -> SerializerRegistry {
        var copy = self
        copy.install(module, decodingOptions: decodingOptions)
        return copy
    }

    /// Throws ``SerializationError/Code/registryConflict`` listing every conflict, if there are any.
    public func checkConflicts() throws(SerializationError) {
        guard !conflicts.isEmpty else { return }
        throw SerializationError(
            code: .registryConflict,
            message: "The registry has \(conflicts.count) conflict(s): "
                + conflicts.map(\.description).joined(separator: " "))
    }

    /// The body size limit every call of the registry enforces before a serializer runs (`serialize`, `decode`,
    /// `prepare`): ``BodySizeLimit/default`` (64 MiB) unless set, `nil` for none. `URLSession.decant`
    /// (`DecantFoundation`) stops a download as soon as the body is over it.
    ///
    /// ```swift
    /// var registry = SerializerRegistry.standard
    /// registry.bodySizeLimit = BodySizeLimit(maxBytes: 1 << 20)  // 1 MiB for every call of this registry
    /// ```
    public var bodySizeLimit: BodySizeLimit? = .default

    /// The stages every call of the registry runs before a serializer: ``bodySizeLimit``, then content decoding of
    /// bodies that still carry their coding's signature (``ResponseChain/defaultPreprocessors`` with this
    /// registry's limit).
    var callStages: [any ResponseStage] {
        guard bodySizeLimit != .default else { return defaultStages }
        return bodySizeLimit.map { [$0, ContentDecoding.automatic] } ?? [ContentDecoding.automatic]
    }

    /// The entry with `id`, or `nil`.
    public func entry(for id: SerializerID) -> Entry? { entries.first { $0.id == id } }

    /// The stage factory with `id` (see ``stages``), or `nil`.
    public func stageFactory(for id: SerializerID) -> (any StageFactory)? {
        stages.first { $0.factory.id == id }?.factory
    }

    /// A serializer built by the factory `id` from configuration options (over those the format was configured with
    /// in this registry, ``configure(_:options:)``).
    ///
    /// - Throws: ``SerializationError/Code/unknownSerializer`` (naming the nearest installed id) or the factory's
    ///   option errors.
    public func serializer(
        id: SerializerID, configuration: ConfigurationOptions = [:]
    ) throws(SerializationError) -> AnyResponseSerializer<any Sendable> {
        guard let entry = entry(for: id) else { throw unknownSerializer(id) }
        if configuration.isEmpty {
            if let serializer = entry.defaultSerializer { return serializer }
            if let buildError = entry.buildError { throw buildError }
        }
        return try entry.factory.makeErasedSerializer(
            configuration: entry.configuration.merging(configuration) { $1 })
    }

    /// The error for an `id` no installed format has, naming the nearest installed id.
    func unknownSerializer(_ id: SerializerID) -> SerializationError {
        let known = entries.map(\.id.rawValue)
        var message = "No serializer with the id '\(id)' is installed."
        if let nearest = EditDistance.nearest(to: id.rawValue, in: known) {
            message += " Did you mean '\(nearest)'?"
        }
        message +=
            known.isEmpty
            ? " The registry is empty: install a module first."
            : " Installed: " + known.joined(separator: ", ") + "."
        return SerializationError(code: .unknownSerializer, message: message, serializerID: id)
    }

    /// Explains which installed serializer handles `mediaType`.
    public func resolve(_ mediaType: MediaType?) -> Resolution {
        resolve(mediaType: mediaType, source: mediaType == nil ? .none : .header)
    }

    /// Explains which installed serializer handles `response` under `sniffing`.
    public func resolve(_ response: Response, sniffing: SniffingPolicy = .trustHeader) -> Resolution {
        let (mediaType, source) = sniffing.effectiveMediaType(for: response)
        return resolve(mediaType: mediaType, source: source)
    }

    private func resolve(mediaType: MediaType?, source: SniffingPolicy.Source) -> Resolution {
        Resolution(mediaType: mediaType, source: source, entries: entries, table: rangeTable)
    }

    /// The serializer the registry chooses for `mediaType` (default options), or `nil` when none matches.
    public func serializer(for mediaType: MediaType) -> AnyResponseSerializer<any Sendable>? {
        guard let chosen = resolve(mediaType).chosenEntryIndex else { return nil }
        return entries[chosen].defaultSerializer
    }

    /// A compound of every serializer matching `response`'s media type, best first, so that when the chosen one
    /// fails the next candidates are tried and every error is kept.
    public func compoundSerializer(
        for response: Response, sniffing: SniffingPolicy = .trustHeader
    ) -> CompoundSerializer<any Sendable> {
        let resolution = resolve(response, sniffing: sniffing)
        let serializers = resolution.candidates.compactMap { entry(for: $0.id)?.defaultSerializer }
        return CompoundSerializer(serializers, sniffing: sniffing, id: "registry")
    }

    /// A compound of every installed serializer (default options), in installation order.
    public func compoundSerializer(sniffing: SniffingPolicy = .trustHeader) -> CompoundSerializer<any Sendable> {
        CompoundSerializer(entries.compactMap(\.defaultSerializer), sniffing: sniffing, id: "registry")
    }

    /// An `Accept` header listing every installed range: exact and suffix ranges at quality 1, `type/*` at 0.9 and
    /// `*/*` at 0.8, each once, in installation order.
    ///
    /// The qualities follow resolution: a range of its own format (`application/json`, `*/*+xml`) is read by a
    /// serializer made for it, a `type/*` range by a generic one (`string` for `text/*`), `*/*` by the catch-all
    /// (`data`), so a server that can send several representations picks one a dedicated format reads.
    /// `URLSession.decant` (`DecantFoundation`) sends it when the request has no `Accept` of its own.
    public var acceptHeader: AcceptHeader { acceptHeader(for: []) }

    /// ``acceptHeader`` for the formats that have `capabilities` here (see ``FormatCapabilities``): with
    /// ``FormatCapabilities/records``, what a stream of records can be read from (`URLSession.records` sends it).
    public func acceptHeader(for capabilities: FormatCapabilities) -> AcceptHeader {
        var seen = Set<MediaRange>()
        var elements: [AcceptHeader.Element] = []
        let ranges = entries.lazy.filter { $0.capabilities.isSuperset(of: capabilities) }.flatMap(\.mediaRanges)
        for range in ranges where seen.insert(range).inserted {
            let quality: Double
            switch range.pattern {
            case .any: quality = 0.8
            case .type: quality = 0.9
            case .exact, .suffix: quality = 1
            }
            elements.append(AcceptHeader.Element(range, quality: quality))
        }
        return AcceptHeader(elements.sorted { $0.quality > $1.quality })
    }
}

/// A value produced by a registry: its ``Chosen`` record with the output type erased, the resolution and the media
/// type filled in.
public typealias SerializedValue = Chosen<any Sendable>

extension SerializationError {
    /// The error for a value of another type than the one requested.
    @usableFromInline
    static func unexpectedOutput<T>(
        _ value: any Sendable, of serializerID: SerializerID, requested: T.Type, mediaType: MediaType?,
        response: Response
    ) -> SerializationError {
        SerializationError(
            code: .unexpectedOutputType,
            message:
                "The serializer '\(serializerID)' produced a \(Swift.type(of: value)), not the requested \(T.self). "
                + "Ask for its output type, or configure a serializer that produces \(T.self).",
            mediaType: mediaType, serializerID: serializerID, response: response)
    }
}

/// A format's `Decodable` decoder under the format's id and ranges, whatever the decoder reports itself: what the
/// registry installs, so that resolution and decoding cannot disagree.
struct FormatDecoder: ResponseDecoder {
    let base: any ResponseDecoder
    let format: MediaFormat

    init(_ base: any ResponseDecoder, format: MediaFormat) {
        self.base = base
        self.format = format
    }

    var id: SerializerID { format.id }
    var mediaRanges: [MediaRange] { format.mediaRanges }

    func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        do {
            return try base.decode(type, from: response)
        } catch {
            throw SerializationError(
                wrapping: error, serializerID: id, mediaType: response.contentType, response: response)
        }
    }

    func countsWhitespaceAsEmpty(for response: Response) -> Bool { base.countsWhitespaceAsEmpty(for: response) }

    func applying(_ options: DecodingOptions) -> any ResponseDecoder {
        FormatDecoder(base.applying(options), format: format)
    }
}
