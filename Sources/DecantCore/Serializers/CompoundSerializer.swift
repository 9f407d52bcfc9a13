/// Tries several serializers in order and returns the first success; when all fail, throws one error listing every
/// attempt.
///
/// The order is:
/// 1. serializers whose ranges match the response's media type, most specific match first (ties keep the order
///    given), or exactly in the given order with ``SerializerOrdering/asListed``;
/// 2. when ``sniffing`` finds a different type in the body, serializers matching that sniffed type;
/// 3. when ``triesNonMatching`` is set, every other serializer, in the order given.
///
/// A resolution never hides a failure (unlike AFNetworking's compound serializer, which threw every loser's error
/// away):
/// - a success after failures reports them: ``serializeReportingChoice(_:)`` returns the errors of the serializers
///   tried before the one that succeeded in ``Chosen/attempts``, and names the one that produced the value;
/// - with no success, the thrown ``SerializationError/Code/allSerializersFailed`` error holds each serializer's own
///   error in ``SerializationError/attempts``, in the order tried (a single attempt's error is thrown as it is);
/// - a serializer that defers parsing (``ResponseSerializer/defersParsing``) is never tried after a failure, since
///   its success would only mean that nothing was checked;
/// - in a registry's compound, a serializer that matches the media type less specifically than one that rejected the
///   body is not tried either (`string` through `text/*` after the CSV serializer rejected a `text/csv` body): it
///   cannot judge that format, so its success would hide the format's error.
///
/// A typed request through a registry (``SerializerRegistry/serialize(_:as:sniffing:statusCodes:emptyBodyPolicy:)``) builds its compound only from the
/// serializers that produce the requested type. Status codes and empty bodies are not this type's concern:
/// wrap it in a ``ResponseChain`` (which checks the status first, so a 404 is reported as a 404, not as the JSON
/// error of its HTML error page).
public struct CompoundSerializer<Output: Sendable>: ResponseSerializer {
    /// The serializers, in the order given.
    public var serializers: [AnyResponseSerializer<Output>]
    /// When the body may override the header's media type.
    public var sniffing: SniffingPolicy
    /// Whether serializers whose ranges do not match are tried after the matching ones (`triesNonMatching` in a
    /// chain configuration).
    public var triesNonMatching: Bool
    /// The id reported for the compound itself.
    public var id: SerializerID
    /// How matching serializers are ordered (`order` in a chain configuration).
    public var order: Ordering
    /// Whether, once a serializer rejected the body, only serializers matching the media type at least as
    /// specifically are tried (a registry's rule; off for compounds built by hand, which try their list in order).
    var fallsBackOnlyAsSpecifically = false

    /// How a compound orders the serializers whose ranges match.
    public typealias Ordering = SerializerOrdering

    /// Creates a compound of `serializers`.
    public init(
        _ serializers: [AnyResponseSerializer<Output>],
        sniffing: SniffingPolicy = .sniffWhenGeneric,
        triesNonMatching: Bool = false,
        order: Ordering = .mostSpecificFirst,
        id: SerializerID = "compound"
    ) {
        self.serializers = serializers
        self.sniffing = sniffing
        self.triesNonMatching = triesNonMatching
        self.order = order
        self.id = id
    }

    /// Every range of every serializer, without duplicates, in order.
    public var mediaRanges: [MediaRange] {
        var seen = Set<MediaRange>()
        return serializers.flatMap(\.mediaRanges).filter { seen.insert($0).inserted }
    }

    /// The serializers in the order they would be tried for `response`, with the media type used to choose each.
    public func plan(for response: Response) -> [(serializer: AnyResponseSerializer<Output>, mediaType: MediaType?)] {
        let header = response.contentType
        let (effective, source) = sniffing.effectiveMediaType(for: response)
        var used = Set<Int>()
        var plan: [(serializer: AnyResponseSerializer<Output>, mediaType: MediaType?)] = []
        func add(matching mediaType: MediaType?) {
            guard let mediaType else { return }
            let ranked = serializers.indices.compactMap { index -> (Int, MediaRange.Specificity)? in
                guard !used.contains(index), let range = serializers[index].bestMatch(for: mediaType) else {
                    return nil
                }
                return (index, range.specificity)
            }
            // Stable: equal specificity keeps the given order.
            let ordered =
                order == .asListed
                ? ranked
                : ranked.enumerated().sorted(by: {
                    $0.element.1 != $1.element.1 ? $0.element.1 > $1.element.1 : $0.offset < $1.offset
                }).map(\.element)
            for (index, _) in ordered {
                used.insert(index)
                plan.append((serializers[index], mediaType))
            }
        }
        add(matching: header)
        if source.isSniffed { add(matching: effective) }
        if triesNonMatching {
            for index in serializers.indices where !used.contains(index) {
                plan.append((serializers[index], effective ?? header))
            }
        }
        return plan
    }

    /// Tries the planned serializers in order.
    ///
    /// - Throws: ``SerializationError/Code/noSerializer`` when none applies, or
    ///   ``SerializationError/Code/allSerializersFailed`` with every attempt (a single attempt's error is thrown as
    ///   it is).
    public func serialize(_ response: Response) throws -> Output {
        try serializeReportingChoice(response).value
    }

    /// Tries the planned serializers in order and also returns the id of the one that succeeded and the errors of
    /// those that failed before it.
    public func serializeReportingChoice(_ response: Response) throws(SerializationError) -> Chosen<Output> {
        let plan = plan(for: response)
        guard !plan.isEmpty else { throw noSerializerError(for: response) }
        return try serializeReportingChoice(response, plan: plan[...], attempts: [])
    }

    /// ``serializeReportingChoice(_:)`` when the first planned serializer was already tried on `response` and
    /// failed with `error`: the rest of the plan, with that failure as the first attempt.
    ///
    /// This is the one fallback after a failure: a registry's direct call and a ``PreparedSerializer`` call the chosen
    /// serializer themselves (the compound's first) and come here when it fails.
    func serializeReportingChoice(
        _ response: Response, afterFirstFailedWith error: any Error
    ) throws(SerializationError) -> Chosen<Output> {
        let plan = plan(for: response)
        let first = SerializationError(
            wrapping: error, serializerID: plan.first?.serializer.id ?? id, mediaType: response.contentType,
            response: response)
        return try serializeReportingChoice(response, plan: plan.dropFirst(), attempts: [first])
    }

    /// Tries the serializers of `plan` in order after `attempts` failed.
    ///
    /// After a failure, serializers that defer parsing (``ResponseSerializer/defersParsing``) are passed over: their
    /// success would only mean that nothing was checked yet.
    private func serializeReportingChoice(
        _ response: Response,
        plan: ArraySlice<(serializer: AnyResponseSerializer<Output>, mediaType: MediaType?)>,
        attempts: [SerializationError]
    ) throws(SerializationError) -> Chosen<Output> {
        var attempts = attempts
        var passedOver: [SerializerID] = []
        var wider: [SerializerID] = []
        // How specifically the serializers that rejected the body (not those that produced another type) matched.
        var rejectedAt: MediaRange.Specificity? = nil
        func specificity(
            _ serializer: AnyResponseSerializer<Output>, _ mediaType: MediaType?
        ) -> MediaRange.Specificity? {
            mediaType.flatMap { serializer.bestMatch(for: $0)?.specificity }
        }
        if fallsBackOnlyAsSpecifically, let failed = attempts.first, failed.code != .unexpectedOutputType,
            let first = self.plan(for: response).first
        {
            rejectedAt = specificity(first.serializer, first.mediaType)
        }
        for (serializer, mediaType) in plan {
            if !attempts.isEmpty && serializer.defersParsing {
                passedOver.append(serializer.id)
                continue
            }
            if let rejectedAt, (specificity(serializer, mediaType).map { $0 < rejectedAt } ?? true) {
                wider.append(serializer.id)
                continue
            }
            let input =
                mediaType.map { $0 == response.contentType ? response : response.replacingContentType($0) }
                ?? response
            do {
                let value = try serializer.serializeReportingErrors(input)
                return Chosen(value: value, serializerID: serializer.id, attempts: attempts)
            } catch {
                if fallsBackOnlyAsSpecifically && error.code != .unexpectedOutputType,
                    let matched = specificity(serializer, mediaType)
                {
                    rejectedAt = max(rejectedAt ?? matched, matched)
                }
                attempts.append(error)
            }
        }
        var note = ""
        if !passedOver.isEmpty {
            let ids = passedOver.map { "'\($0)'" }.joined(separator: ", ")
            note =
                " Not tried after that failure: \(ids), which \(passedOver.count == 1 ? "defers" : "defer") parsing "
                + "and so cannot confirm a body another serializer rejected."
        }
        if !wider.isEmpty {
            let ids = wider.map { "'\($0)'" }.joined(separator: ", ")
            note +=
                " Not tried after that failure: \(ids), which \(wider.count == 1 ? "matches" : "match") the media type "
                + "only through a wider range and so cannot judge a body of this format."
        }
        if attempts.count == 1 {
            var only = attempts[0]
            only.message += note
            throw only
        }
        let tried = attempts.map { "\($0.serializerID?.rawValue ?? "?") (\($0.code))" }.joined(separator: ", ")
        throw SerializationError(
            code: .allSerializersFailed,
            message: "All \(attempts.count) serializers failed: \(tried). Each attempt's error is listed below; "
                + "the first is usually the one to fix." + note,
            mediaType: response.contentType,
            serializerID: id,
            attempts: attempts,
            response: response
        )
    }

    /// The answer of the serializer the compound would try first for `response` (``plan(for:)``); `false` when no
    /// serializer accepts its media type.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool {
        plan(for: response).first?.serializer.countsWhitespaceAsEmpty(for: response) ?? false
    }

    /// The empty value of the first serializer (matching ones first) that has one.
    public func emptyValue(for response: Response) throws -> Output {
        try emptyValueReportingChoice(response).value
    }

    /// The empty value of the first serializer (matching ones first) that has one, and that serializer's id.
    public func emptyValueReportingChoice(_ response: Response) throws(SerializationError) -> Chosen<Output> {
        let planned = plan(for: response).map(\.serializer)
        let others = serializers.filter { serializer in
            !planned.contains { $0.id == serializer.id }
        }
        var attempts: [SerializationError] = []
        for serializer in planned + others {
            do {
                return Chosen(value: try serializer.emptyValue(for: response), serializerID: serializer.id)
            } catch {
                attempts.append(
                    SerializationError(wrapping: error, serializerID: serializer.id, response: response))
            }
        }
        let ids = serializers.map(\.id.rawValue).joined(separator: ", ")
        throw SerializationError(
            code: .emptyBody,
            message: "The response is empty and none of the serializers (\(ids)) has an empty value. Make empty "
                + "responses an error in the chain's empty-body policy, or add a serializer with an empty value.",
            mediaType: response.contentType, serializerID: id, attempts: attempts, response: response)
    }

    private func noSerializerError(for response: Response) -> SerializationError {
        let ranges = mediaRanges.map(\.description).joined(separator: ", ")
        let (effective, source) = sniffing.effectiveMediaType(for: response)
        let what: String
        if let effective {
            what = "the media type \(effective.essence) (\(source))"
        } else {
            what = "a response without a Content-Type"
        }
        return SerializationError(
            code: .noSerializer,
            message: "No serializer accepts \(what); the serializers accept \(ranges.isEmpty ? "nothing" : ranges). "
                + "Add a serializer for this type, alias it to a supported one, enable sniffing, or try non-matching "
                + "serializers.",
            mediaType: effective, serializerID: id, response: response)
    }
}
