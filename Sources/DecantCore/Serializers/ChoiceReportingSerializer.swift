/// A value together with the id of the serializer that produced it, and the attempts that failed before it.
public struct Chosen<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// The serializer that produced it.
    public let serializerID: SerializerID
    /// The errors of the serializers tried before the one that succeeded, in the order tried; empty when the first
    /// one succeeded. A fallback never hides a failure: these say why the preferred serializers did not produce the
    /// value.
    public let attempts: [SerializationError]

    /// Creates the record.
    public init(value: Value, serializerID: SerializerID, attempts: [SerializationError] = []) {
        self.value = value
        self.serializerID = serializerID
        self.attempts = attempts
    }
}

/// Runs a ``CompoundSerializer`` and reports which of its serializers succeeded, so that a ``ResponseChain`` around a
/// compound can say which serializer produced the value.
public struct ChoiceReportingSerializer<Output: Sendable>: ResponseSerializer {
    /// The compound.
    public let compound: CompoundSerializer<Output>

    /// Wraps `compound`.
    public init(_ compound: CompoundSerializer<Output>) { self.compound = compound }

    /// The compound's ranges.
    public var acceptedMediaRanges: [MediaRange] { compound.acceptedMediaRanges }
    /// The compound's id.
    public var serializerID: SerializerID { compound.serializerID }

    /// The first success of the compound, with its serializer's id.
    public func serialize(_ response: Response) throws -> Chosen<Output> {
        try compound.serializeReportingChoice(response)
    }

    /// The first empty value of the compound's serializers, with its serializer's id.
    public func emptyValue(for response: Response) throws -> Chosen<Output> {
        try compound.emptyValueReportingChoice(response)
    }
}
