/// Runs a ``CompoundSerializer`` and reports which of its serializers succeeded, so that a ``ResponseChain`` around a
/// compound can say which serializer produced the value.
public struct ChoiceReportingSerializer<Output: Sendable>: ResponseSerializer {
    /// The compound.
    public let compound: CompoundSerializer<Output>

    /// Wraps `compound`.
    public init(_ compound: CompoundSerializer<Output>) { self.compound = compound }

    /// The compound's ranges.
    public var mediaRanges: [MediaRange] { compound.mediaRanges }
    /// The compound's id.
    public var id: SerializerID { compound.id }

    /// The first success of the compound, with its serializer's id.
    public func serialize(_ response: Response) throws -> Chosen<Output> {
        try compound.serializeReportingChoice(response)
    }

    /// The compound's answer.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool {
        compound.countsWhitespaceAsEmpty(for: response)
    }

    /// The first empty value of the compound's serializers, with its serializer's id.
    public func emptyValue(for response: Response) throws -> Chosen<Output> {
        try compound.emptyValueReportingChoice(response)
    }
}
