/// A type-erased ``ResponseSerializer``, for lists of serializers with the same output (or erased to
/// `any Sendable` for lists of different outputs).
public struct AnyResponseSerializer<Output: Sendable>: ResponseSerializer {
    /// The wrapped serializer's ranges.
    public let acceptedMediaRanges: [MediaRange]
    /// The wrapped serializer's id.
    public let serializerID: SerializerID
    private let serializeBody: @Sendable (Response) throws -> Output
    private let emptyBody: @Sendable (Response) throws -> Output

    /// Wraps `serializer`.
    public init<Wrapped: ResponseSerializer>(_ serializer: Wrapped) where Wrapped.Output == Output {
        if let already = serializer as? AnyResponseSerializer<Output> {
            self = already
            return
        }
        acceptedMediaRanges = serializer.acceptedMediaRanges
        serializerID = serializer.serializerID
        serializeBody = serializer.serialize
        emptyBody = serializer.emptyValue(for:)
    }

    /// Creates a serializer from closures.
    public init(
        id: SerializerID,
        acceptedMediaRanges: [MediaRange] = [.any],
        emptyValue: (@Sendable (Response) throws -> Output)? = nil,
        serialize: @escaping @Sendable (Response) throws -> Output
    ) {
        self.acceptedMediaRanges = acceptedMediaRanges
        self.serializerID = id
        self.serializeBody = serialize
        self.emptyBody =
            emptyValue ?? { response in throw SerializationError.noEmptyValue(serializerID: id, response: response) }
    }

    /// Calls the wrapped serializer.
    public func serialize(_ response: Response) throws -> Output { try serializeBody(response) }

    /// Calls the wrapped serializer's empty value.
    public func emptyValue(for response: Response) throws -> Output { try emptyBody(response) }
}

extension ResponseSerializer {
    /// This serializer, type-erased.
    public func eraseToAnySerializer() -> AnyResponseSerializer<Output> { AnyResponseSerializer(self) }

    /// This serializer with its output erased to `any Sendable`, for mixing serializers of different outputs.
    public func eraseOutput() -> AnyResponseSerializer<any Sendable> {
        AnyResponseSerializer<any Sendable>(
            id: serializerID,
            acceptedMediaRanges: acceptedMediaRanges,
            emptyValue: { try self.emptyValue(for: $0) },
            serialize: { try self.serialize($0) }
        )
    }

    /// A serializer that transforms this one's output with `transform`; errors from `transform` are wrapped with
    /// this serializer's id.
    public func map<NewOutput: Sendable>(
        _ transform: @escaping @Sendable (Output) throws -> NewOutput
    ) -> AnyResponseSerializer<NewOutput> {
        AnyResponseSerializer<NewOutput>(
            id: serializerID,
            acceptedMediaRanges: acceptedMediaRanges,
            emptyValue: { try transform(try self.emptyValue(for: $0)) },
            serialize: { try transform(try self.serialize($0)) }
        )
    }
}
