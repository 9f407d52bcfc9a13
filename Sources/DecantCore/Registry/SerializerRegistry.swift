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
    /// One installed serializer factory.
    public struct Entry: Sendable {
        /// The factory's id.
        public let id: SerializerID
        /// The module that installed it.
        public let moduleName: String
        /// The ranges it claims.
        public let mediaRanges: [MediaRange]
        /// The factory.
        public let factory: any SerializerFactory
        /// Its position in installation order (0 first).
        public let order: Int
        /// The serializer built with default options once, at installation; `nil` when that failed.
        let defaultSerializer: AnyResponseSerializer<any Sendable>?
        /// Why the default serializer could not be built, when it could not.
        let buildError: SerializationError?
        /// The default serializer behind the registry's default stages, built once at installation.
        let route: Route?
        /// The format's `Decodable` decoder with default options, built once at installation, when the factory is a
        /// ``ResponseDecoderFactory`` and its decoder builds.
        let decoder: (any ResponseDecoder)?
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

    /// Two installed factories that claim the same thing, or a factory that disagrees with its own serializer.
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
            /// The factory's serializer reports another id than the factory (`kept` is the factory's id, `other`
            /// the serializer's): configuration files name one, errors and traces the other. Installed as it is.
            case serializerID
            /// The factory's serializer accepts other ranges than the factory claims (the serializer's are given):
            /// resolution goes by the factory's, a compound by the serializer's. Installed as it is.
            case serializerRanges([MediaRange])
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
            case .serializerID:
                return "The factory '\(kept)' (\(keptModule)) builds a serializer whose id is '\(other)': "
                    + "configuration files name '\(kept)', errors and traces would say '\(other)'. Make the "
                    + "serializer's id return the factory's id."
            case .serializerRanges(let ranges):
                return "The factory '\(kept)' (\(keptModule)) claims other media ranges than its serializer accepts "
                    + "(\(ranges.map(\.description).joined(separator: ", "))): resolution would choose it for types "
                    + "it then refuses, or never for types it accepts. Return the same ranges from both."
            }
        }
    }

    /// Every installed factory, in installation order.
    public private(set) var entries: [Entry] = []
    /// Every conflict found while installing, in order.
    public private(set) var conflicts: [Conflict] = []
    /// The names of the installed modules, in order.
    public private(set) var moduleNames: [String] = []
    /// Whether every entry's default serializer accepts exactly the ranges its factory claims, so that the order of
    /// a resolution's candidates is also the order their compound tries them in (checked once, at installation).
    var serializerRangesMatchFactories = true
    /// The ranges of every entry whose default serializer builds, compiled for ``Resolution/chosenEntryIndex``.
    var rangeTable: [CompiledRange] = []
    /// Each entry's ``Entry/route``, by entry position: reading one costs one reference count, where reading it
    /// through ``entries`` would copy the whole entry.
    var routes: [Route?] = []

    /// Creates an empty registry.
    public init() {}

    /// Creates a registry with `modules` installed in order.
    public init(modules: [SerializerModule]) {
        for module in modules { install(module) }
    }

    /// The id the factory's default serializer reports itself (the erased serializer carries the factory's).
    private static func ownSerializerID<Factory: SerializerFactory>(_ factory: Factory) -> SerializerID? {
        (try? factory.makeSerializer(options: factory.defaultOptions))?.id
    }

    /// Installs every factory of `module`, after those already installed.
    ///
    /// A factory whose id is taken is not installed; a factory claiming a range another module already claims is
    /// installed but loses ties. Both are recorded in ``conflicts`` (and returned); ``checkConflicts()`` turns them
    /// into an error for those who want installation to be strict.
    @discardableResult
    public mutating func install(_ module: SerializerModule) -> [Conflict] {
        var found: [Conflict] = []
        if !moduleNames.contains(module.name) { moduleNames.append(module.name) }
        for factory in module.factories {
            if let existing = entries.first(where: { $0.id == factory.id }) {
                found.append(
                    Conflict(
                        kind: .duplicateID, kept: existing.id, keptModule: existing.moduleName, other: factory.id,
                        otherModule: module.name))
                continue
            }
            if !SerializerID.isValid(factory.id.rawValue) {
                found.append(
                    Conflict(
                        kind: .invalidID, kept: factory.id, keptModule: module.name, other: factory.id,
                        otherModule: module.name))
            }
            let ranges = factory.mediaRanges
            for range in ranges {
                if let existing = entries.first(where: {
                    $0.moduleName != module.name && $0.mediaRanges.contains(range)
                }) {
                    found.append(
                        Conflict(
                            kind: .sameRange(range), kept: existing.id, keptModule: existing.moduleName,
                            other: factory.id, otherModule: module.name))
                }
            }
            var serializer: AnyResponseSerializer<any Sendable>?
            var buildError: SerializationError?
            do {
                serializer = try factory.makeErasedSerializer()
            } catch {
                buildError = error
            }
            if let serializer, serializer.mediaRanges != ranges {
                serializerRangesMatchFactories = false
                found.append(
                    Conflict(
                        kind: .serializerRanges(serializer.mediaRanges), kept: factory.id,
                        keptModule: module.name, other: factory.id, otherModule: module.name))
            }
            if serializer != nil, let own = Self.ownSerializerID(factory), own != factory.id {
                found.append(
                    Conflict(
                        kind: .serializerID, kept: factory.id, keptModule: module.name, other: own,
                        otherModule: module.name))
            }
            if serializer != nil {
                for (index, range) in ranges.enumerated() {
                    let compiled = CompiledRange(range, entry: entries.count, rangeIndex: index)
                    // Most specific first, then installation order: the first match is the choice.
                    let position = rangeTable.firstIndex { $0.score < compiled.score } ?? rangeTable.endIndex
                    rangeTable.insert(compiled, at: position)
                }
            }
            let route = serializer.map(Route.init)
            routes.append(route)
            entries.append(
                Entry(
                    id: factory.id, moduleName: module.name, mediaRanges: ranges, factory: factory,
                    order: entries.count, defaultSerializer: serializer, buildError: buildError,
                    route: route,
                    decoder: (factory as? any ResponseDecoderFactory).flatMap {
                        try? $0.makeResponseDecoder(configuration: [:])
                    }))
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

    /// Throws ``SerializationError/Code/registryConflict`` listing every conflict, if there are any.
    public func checkConflicts() throws(SerializationError) {
        guard !conflicts.isEmpty else { return }
        throw SerializationError(
            code: .registryConflict,
            message: "The registry has \(conflicts.count) conflict(s): "
                + conflicts.map(\.description).joined(separator: " "))
    }

    /// The entry with `id`, or `nil`.
    public func entry(for id: SerializerID) -> Entry? { entries.first { $0.id == id } }

    /// A serializer built by the factory `id` from configuration options.
    ///
    /// - Throws: ``SerializationError/Code/unknownSerializer`` (naming the nearest installed id) or the factory's
    ///   option errors.
    public func serializer(
        id: SerializerID, configuration: ConfigurationOptions = [:]
    ) throws(SerializationError) -> AnyResponseSerializer<any Sendable> {
        guard let entry = entry(for: id) else {
            let known = entries.map(\.id.rawValue)
            var message = "No serializer with the id '\(id)' is installed."
            if let nearest = EditDistance.nearest(to: id.rawValue, in: known) {
                message += " Did you mean '\(nearest)'?"
            }
            message +=
                known.isEmpty
                ? " The registry is empty: install a module first."
                : " Installed: " + known.joined(separator: ", ") + "."
            throw SerializationError(code: .unknownSerializer, message: message, serializerID: id)
        }
        if configuration.isEmpty {
            if let serializer = entry.defaultSerializer { return serializer }
            if let buildError = entry.buildError { throw buildError }
        }
        return try entry.factory.makeErasedSerializer(configuration: configuration)
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
    public var acceptHeader: AcceptHeader {
        var seen = Set<MediaRange>()
        var elements: [AcceptHeader.Element] = []
        for range in entries.flatMap(\.mediaRanges) where seen.insert(range).inserted {
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

extension SerializerRegistry.Entry {
    /// The position in ``mediaRanges`` of the most specific range matching `mediaType` (the first of equally
    /// specific ones), or `nil`; `suffix` is `mediaType.suffix`.
    func bestRangeIndex(for mediaType: MediaType, suffix: String?) -> Int? {
        var best: (index: Int, specificity: MediaRange.Specificity)?
        for index in mediaRanges.indices {
            let range = mediaRanges[index]
            guard range.matches(mediaType, suffix: suffix) else { continue }
            let specificity = range.specificity
            if let current = best, current.specificity >= specificity { continue }
            best = (index, specificity)
        }
        return best?.index
    }

    /// The specificity of the most specific range matching `mediaType`, or `nil`; `suffix` is `mediaType.suffix`.
    func bestSpecificity(for mediaType: MediaType, suffix: String?) -> MediaRange.Specificity? {
        var best: MediaRange.Specificity?
        for range in mediaRanges where range.matches(mediaType, suffix: suffix) {
            let specificity = range.specificity
            if let current = best, current >= specificity { continue }
            best = specificity
        }
        return best
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
