/// A chain's ``ResponseChain/passesUnchanged(_:)`` behind a class that is not generic.
@usableFromInline
final class StageCheck: Sendable {
    let chain: ResponseChain<AnyResponseSerializer<any Sendable>>

    init(_ chain: ResponseChain<AnyResponseSerializer<any Sendable>>) { self.chain = chain }

    @usableFromInline
    func passesUnchanged(_ response: Response) -> Bool { chain.passesUnchanged(response) }
}

/// The candidates of a ``PreparedSerializer``: the chosen serializer, typed, and the compound that falls back to the
/// others when it fails.
@usableFromInline
struct PreparedCandidates<Output: Sendable>: ResponseSerializer {
    /// The chosen serializer.
    let chosen: AnyResponseSerializer<Output>
    /// Every candidate, the chosen one first, falling back only to as specific ones.
    let compound: CompoundSerializer<Output>
    /// The ranges the candidates matched with.
    @usableFromInline let mediaRanges: [MediaRange]

    @usableFromInline var id: SerializerID { chosen.id }

    @usableFromInline
    func serialize(_ response: Response) throws -> Output {
        do {
            return try chosen.serialize(response)
        } catch {
            return try serialize(response, afterFailure: error)
        }
    }

    /// The other candidates after the chosen one failed with `error` (see
    /// ``CompoundSerializer/serializeReportingChoice(_:afterFirstFailedWith:)``).
    func serialize(_ response: Response, afterFailure error: any Error) throws -> Output {
        try compound.serializeReportingChoice(response, afterFirstFailedWith: error).value
    }

    @usableFromInline
    func countsWhitespaceAsEmpty(for response: Response) -> Bool { chosen.countsWhitespaceAsEmpty(for: response) }

    @usableFromInline
    func emptyValue(for response: Response) throws -> Output {
        try compound.emptyValueReportingChoice(response).value
    }
}
