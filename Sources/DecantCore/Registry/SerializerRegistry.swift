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
    }

    /// Two installed factories that claim the same thing, or a factory that disagrees with its own serializer.
    public struct Conflict: Sendable, Hashable, CustomStringConvertible {
        /// What is claimed twice.
        public enum Kind: Sendable, Hashable {
            /// The same serializer id; the later factory was not installed.
            case duplicateID
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
            case .sameRange(let range):
                return "'\(kept)' (\(keptModule)) and '\(other)' (\(otherModule)) both claim \(range) at the same "
                    + "rank; '\(kept)' wins because it was installed first."
            case .serializerID:
                return "The factory '\(kept)' (\(keptModule)) builds a serializer whose id is '\(other)': "
                    + "configuration files name '\(kept)', errors and traces would say '\(other)'. Make the "
                    + "serializer's serializerID return the factory's id."
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
    private var serializerRangesMatchFactories = true
    /// The ranges of every entry whose default serializer builds, compiled for ``Resolution/chosenEntryIndex``.
    private var rangeTable: [CompiledRange] = []

    /// Creates an empty registry.
    public init() {}

    /// Creates a registry with `modules` installed in order.
    public init(modules: [SerializerModule]) {
        for module in modules { install(module) }
    }

    /// The id the factory's default serializer reports itself (the erased serializer carries the factory's).
    private static func ownSerializerID<Factory: SerializerFactory>(_ factory: Factory) -> SerializerID? {
        (try? factory.makeSerializer(options: factory.defaultOptions))?.serializerID
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
            if let serializer, serializer.acceptedMediaRanges != ranges {
                serializerRangesMatchFactories = false
                found.append(
                    Conflict(
                        kind: .serializerRanges(serializer.acceptedMediaRanges), kept: factory.id,
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
            entries.append(
                Entry(
                    id: factory.id, moduleName: module.name, mediaRanges: ranges, factory: factory,
                    order: entries.count, defaultSerializer: serializer, buildError: buildError))
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
        // The header's media type comes with its packed key, computed once when the field was set.
        if case .header = source {
            return Resolution(
                mediaType: mediaType, source: source, entries: entries, table: rangeTable,
                key: response.headers.contentTypeKey)
        }
        return resolve(mediaType: mediaType, source: source)
    }

    private func resolve(mediaType: MediaType?, source: SniffingPolicy.Source) -> Resolution {
        Resolution(mediaType: mediaType, source: source, entries: entries, table: rangeTable, key: nil)
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

    /// Turns `response` into a value with the serializer the registry resolves, behind the default validation
    /// (body size limit, 2xx, empty-body policy); when the chosen one rejects the body, falls back to the next
    /// candidates that match as specifically.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - sniffing: When the body may override the header's media type (off by default).
    ///   - statusCodes: The acceptable statuses; an error body is decoded into the error when a serializer accepts
    ///     its type.
    ///   - emptyBodyPolicy: What an empty response becomes.
    /// - Throws: ``SerializationError``: ``SerializationError/Code/noSerializer`` when nothing accepts the type.
    public func serialize(
        _ response: Response,
        sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success,
        emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> SerializedValue {
        let resolution = resolve(response, sniffing: sniffing)
        if let serializer = fastPathSerializer(
            for: response, resolution: resolution, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        {
            let value: any Sendable
            do {
                value = try serializer.serialize(response)
            } catch {
                return try serialize(
                    response, resolution: resolution, sniffing: sniffing, afterFailureOf: serializer, error: error,
                    producing: nil as Never.Type?)
            }
            return SerializedValue(
                value: value, serializerID: serializer.serializerID, mediaType: resolution.mediaType,
                resolution: resolution)
        }
        return try serializeThroughChain(
            response, resolution: resolution, producing: nil as Never.Type?, sniffing: sniffing,
            statusCodes: statusCodes,
            emptyBodyPolicy: emptyBodyPolicy)
    }

    /// The candidates' default serializers, best first; for a typed request (`type` set) only those that can produce
    /// a `T`, those whose output type is unknown checked when they produce a value.
    func candidateSerializers<T>(
        _ resolution: Resolution, producing type: T.Type?
    ) -> [AnyResponseSerializer<any Sendable>] {
        resolution.candidates.compactMap { candidate -> AnyResponseSerializer<any Sendable>? in
            guard let serializer = entry(for: candidate.id)?.defaultSerializer else { return nil }
            return type.map { serializer.restricted(to: $0) } ?? serializer
        }
    }

    /// Runs `response` through a chain (body size, status, empty body, content decoding) around a compound of the
    /// candidates, for everything the fast paths do not handle.
    func serializeThroughChain<T>(
        _ response: Response, resolution: Resolution, producing type: T.Type?, sniffing: SniffingPolicy,
        statusCodes: StatusCodes, emptyBodyPolicy: EmptyBodyPolicy
    ) throws(SerializationError) -> SerializedValue {
        let compound: CompoundSerializer<any Sendable>
        if resolution.candidates.isEmpty {
            let all = entries.compactMap { entry in
                entry.defaultSerializer.flatMap { serializer in type.map { serializer.restricted(to: $0) } ?? serializer
                }
            }
            compound = CompoundSerializer(all, sniffing: sniffing, id: "registry")
        } else {
            let serializers = candidateSerializers(resolution, producing: type)
            if let type, serializers.isEmpty {
                throw noSerializerProducing(type, resolution: resolution, response: response)
            }
            var candidates = CompoundSerializer(serializers, sniffing: sniffing, id: "registry")
            candidates.fallsBackOnlyAsSpecifically = true
            compound = candidates
        }
        // Error bodies are decoded by the compound itself, so `errorValue` is the format's value.
        var chain = ResponseChain(
            ChoiceReportingSerializer(compound),
            statusValidation: StatusCodeValidation(
                acceptable: statusCodes, errorBodyDecoding: .serializer(compound.eraseOutput())),
            emptyBodyPolicy: emptyBodyPolicy)
        chain.mediaTypeValidation = nil  // the compound matches media types itself and reports what it tried
        let result = try chain.run(response)
        return SerializedValue(
            value: result.value, serializerID: result.serializerID, mediaType: resolution.mediaType,
            resolution: resolution, attempts: result.attempts)
    }

    /// The error for a typed request that no candidate can produce: names what each candidate produces and, for a
    /// `Decodable` type, points at ``decode(_:from:sniffing:statusCodes:emptyBodyPolicy:)``.
    func noSerializerProducing<T>(
        _ type: T.Type, resolution: Resolution, response: Response
    ) -> SerializationError {
        let produced = resolution.candidates.compactMap { candidate -> String? in
            guard let serializer = entry(for: candidate.id)?.defaultSerializer else { return nil }
            return "'\(candidate.id)' (\(serializer.outputTypeName))"
        }
        var message =
            "None of the serializers for \(resolution.mediaType?.essence ?? "this response") produces \(T.self): "
            + "the candidates are \(produced.joined(separator: ", ")). "
        if T.self is any Decodable.Type {
            message +=
                "To decode a Decodable type from the body, call `registry.decode(\(T.self).self, from: response)`; "
                + "to get the format's own value, ask for its output type."
        } else {
            message += "Ask for one of those output types, or install a serializer that produces \(T.self)."
        }
        return SerializationError(
            code: .unexpectedOutputType, message: message, mediaType: resolution.mediaType,
            serializerID: resolution.chosen?.id, response: response)
    }

    /// The chosen serializer when the common case holds: the media type came from the header, the default stages
    /// would pass the response unchanged (``ResponseChain/defaultStagesPassUnchanged(_:statusCodes:emptyBodyPolicy:)``)
    /// and the compound would try the chosen serializer first. Then
    /// calling it directly does exactly what the chain would do; anything else goes through the chain.
    private func fastPathSerializer(
        for response: Response, resolution: Resolution, statusCodes: StatusCodes, emptyBodyPolicy: EmptyBodyPolicy
    ) -> AnyResponseSerializer<any Sendable>? {
        guard case .header = resolution.source, serializerRangesMatchFactories,
            let chosen = resolution.chosenEntryIndex, let serializer = entries[chosen].defaultSerializer,
            ResponseChain<DataResponseSerializer>.defaultStagesPassUnchanged(
                response, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        else { return nil }
        return serializer
    }

    /// What the chain does after the chosen serializer failed with `error` in the common case: the next candidates
    /// (for a typed request, those that can produce `type`), every error kept, under the `registry` id.
    @usableFromInline
    func serialize<T>(
        _ response: Response, resolution: Resolution, sniffing: SniffingPolicy,
        afterFailureOf serializer: AnyResponseSerializer<any Sendable>, error: any Error, producing type: T.Type?
    ) throws(SerializationError) -> SerializedValue {
        let first = SerializationError(
            wrapping: error, serializerID: serializer.serializerID, mediaType: response.contentType,
            response: response)
        // The chosen serializer first (it is the first candidate), so that the compound skips exactly it.
        var compound = CompoundSerializer(
            [serializer]
                + candidateSerializers(resolution, producing: type).filter {
                    $0.serializerID != serializer.serializerID
                },
            sniffing: sniffing, id: "registry")
        compound.fallsBackOnlyAsSpecifically = true
        do {
            let result = try compound.serializeReportingChoice(response, afterFirstAttemptFailed: first)
            return SerializedValue(
                value: result.value, serializerID: result.serializerID, mediaType: resolution.mediaType,
                resolution: resolution, attempts: result.attempts)
        } catch {
            // What the chain adds around its serializer (`ChoiceReportingSerializer`, id `registry`).
            throw SerializationError(
                wrapping: error, serializerID: compound.serializerID, mediaType: response.contentType,
                response: response
            ).addingEncodingHint(for: response)
        }
    }

    /// ``fastPathSerializer(for:resolution:statusCodes:emptyBodyPolicy:)`` for a policy that keeps every header
    /// type, matched by the header's packed key without building a ``Resolution``.
    @usableFromInline
    func keyedFastPathSerializer(
        for response: Response, sniffing: SniffingPolicy, statusCodes: StatusCodes, emptyBodyPolicy: EmptyBodyPolicy
    ) -> AnyResponseSerializer<any Sendable>? {
        guard sniffing.keepsEveryHeader, serializerRangesMatchFactories, let key = response.headers.contentTypeKey,
            let chosen = Resolution.chosenEntryIndex(
                in: rangeTable, entries: entries, key: key, mediaType: { response.headers.contentType }),
            let serializer = entries[chosen].defaultSerializer,
            ResponseChain<DataResponseSerializer>.defaultStagesPassUnchanged(
                response, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        else { return nil }
        return serializer
    }

    /// ``keyedFastPathSerializer(for:sniffing:statusCodes:emptyBodyPolicy:)`` under the default policies, read here
    /// rather than passed in, so that the caller copies none of them.
    @usableFromInline
    func keyedFastPathSerializerUnderDefaults(for response: Response) -> AnyResponseSerializer<any Sendable>? {
        keyedFastPathSerializer(
            for: response, sniffing: .trustHeader, statusCodes: .success, emptyBodyPolicy: .default)
    }

    /// Runs `serializer`, the fast path's choice, for a `T`: its own value when it produces `T`, the registry's
    /// fallbacks when it fails, and `nil` when it produces another type (without running it).
    @inlinable
    func serialize<T: Sendable>(
        _ response: Response, as type: T.Type, with serializer: AnyResponseSerializer<any Sendable>,
        sniffing: SniffingPolicy
    ) throws(SerializationError) -> T? {
        do {
            return try serializer.serialize(response, exactly: T.self)
        } catch {
            let result = try serialize(
                response, resolution: resolve(response, sniffing: sniffing), sniffing: sniffing,
                afterFailureOf: serializer, error: error, producing: T.self)
            return try cast(result, to: T.self, response: response)
        }
    }

    /// Turns `response` into a value of type `T` under the default policies: the header's media type, 2xx statuses,
    /// the default empty-body policy (see ``serialize(_:as:sniffing:statusCodes:emptyBodyPolicy:)``).
    ///
    /// When the chosen serializer produces `T` itself, its value is returned as it is, without the `any Sendable`
    /// box of ``SerializedValue``: this is the fastest way through the registry.
    ///
    /// Only serializers that produce `T` are tried: when the chosen one fails, the next candidates of the same output
    /// type are, and the error lists every attempt.
    ///
    /// - Throws: ``SerializationError/Code/unexpectedOutputType`` when no candidate produces `T` (nothing is run; for
    ///   `Decodable` types use ``decode(_:from:sniffing:statusCodes:emptyBodyPolicy:)``).
    @inlinable  // specialised for `T` where it is called, so that the shortcut handles `T` without metadata lookups
    public func serialize<T: Sendable>(_ response: Response, as type: T.Type) throws(SerializationError) -> T {
        if let serializer = keyedFastPathSerializerUnderDefaults(for: response),
            let value = try serialize(response, as: type, with: serializer, sniffing: .trustHeader)
        {
            return value
        }
        return try serializeThroughChain(
            response, as: type, sniffing: .trustHeader, statusCodes: .success, emptyBodyPolicy: .default)
    }

    /// The typed request's way through the chain, for everything the fast path does not handle: only the candidates
    /// that can produce a `T` are tried.
    @usableFromInline
    func serializeThroughChain<T>(
        _ response: Response, as type: T.Type, sniffing: SniffingPolicy, statusCodes: StatusCodes,
        emptyBodyPolicy: EmptyBodyPolicy
    ) throws(SerializationError) -> T {
        let result = try serializeThroughChain(
            response, resolution: resolve(response, sniffing: sniffing), producing: type, sniffing: sniffing,
            statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        return try cast(result, to: T.self, response: response)
    }

    /// Turns `response` into a value of type `T` (see ``serialize(_:sniffing:statusCodes:emptyBodyPolicy:)``).
    ///
    /// When the chosen serializer produces `T` itself, its value is returned as it is, without the `any Sendable`
    /// box of ``SerializedValue``. Only serializers that produce `T` are tried.
    ///
    /// - Throws: ``SerializationError/Code/unexpectedOutputType`` when no candidate produces `T` (nothing is run; for
    ///   `Decodable` types use ``decode(_:from:sniffing:statusCodes:emptyBodyPolicy:)``).
    @inlinable  // specialised for `T` where it is called, so that the shortcut handles `T` without metadata lookups
    public func serialize<T: Sendable>(
        _ response: Response, as type: T.Type, sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success, emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> T {
        if let serializer = keyedFastPathSerializer(
            for: response, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy),
            let value = try serialize(response, as: type, with: serializer, sniffing: sniffing)
        {
            return value
        }
        // Anything else, a chosen serializer of another output type included, goes through the chain.
        return try serializeThroughChain(
            response, as: type, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
    }

    @usableFromInline
    func cast<T>(
        _ result: SerializedValue, to type: T.Type, response: Response
    ) throws(SerializationError) -> T {
        guard let value = result.value as? T else {
            throw SerializationError.unexpectedOutput(
                result.value, of: result.serializerID, requested: T.self, mediaType: result.mediaType,
                response: response)
        }
        return value
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

/// A value produced by a registry, with the serializer that produced it and the attempts that failed before it.
public struct SerializedValue: Sendable, CustomStringConvertible {
    /// The value; its type is the producing serializer's output type.
    public let value: any Sendable
    /// The serializer that produced it (not always the resolution's choice: see ``attempts``).
    public let serializerID: SerializerID
    /// The media type it was resolved by.
    public let mediaType: MediaType?
    /// How the serializer was chosen.
    public let resolution: Resolution
    /// The errors of the serializers tried before ``serializerID`` succeeded, in order; empty when the chosen
    /// serializer produced the value.
    public let attempts: [SerializationError]

    /// Creates a value record.
    public init(
        value: any Sendable, serializerID: SerializerID, mediaType: MediaType?, resolution: Resolution,
        attempts: [SerializationError] = []
    ) {
        self.value = value
        self.serializerID = serializerID
        self.mediaType = mediaType
        self.resolution = resolution
        self.attempts = attempts
    }

    /// The resolution trace followed by what happened: each failed attempt and the serializer that produced the
    /// value.
    ///
    /// ```
    /// media type: text/csv (from Content-Type)
    /// ...
    /// chosen: acme.csv
    /// failed: acme.csv (invalidBody): ...
    /// produced by: string
    /// ```
    public var description: String {
        var lines = [resolution.description]
        for attempt in attempts {
            lines.append("failed: \(attempt.serializerID?.rawValue ?? "?") (\(attempt.code)): \(attempt.message)")
        }
        lines.append("produced by: \(serializerID)")
        return lines.joined(separator: "\n")
    }
}

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
