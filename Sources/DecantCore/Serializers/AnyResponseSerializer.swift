/// A type-erased ``ResponseSerializer``, for lists of serializers with the same output (or erased to
/// `any Sendable` for lists of different outputs).
///
/// The wrapped serializer lives in one shared, immutable box, so copying an `AnyResponseSerializer` costs one
/// reference count.
public struct AnyResponseSerializer<Output: Sendable>: ResponseSerializer {
    @usableFromInline let box: Box

    /// The wrapped serializer's ranges.
    public var acceptedMediaRanges: [MediaRange] { box.acceptedMediaRanges }
    /// The wrapped serializer's id.
    public var serializerID: SerializerID { box.serializerID }

    /// Wraps `serializer`.
    public init<Wrapped: ResponseSerializer>(_ serializer: Wrapped) where Wrapped.Output == Output {
        if let already = serializer as? AnyResponseSerializer<Output> {
            self = already
            return
        }
        box = WrappingBox(
            serializer, id: serializer.serializerID, acceptedMediaRanges: serializer.acceptedMediaRanges,
            convert: { $0 })
    }

    /// Creates a serializer from closures.
    public init(
        id: SerializerID,
        acceptedMediaRanges: [MediaRange] = [.any],
        emptyValue: (@Sendable (Response) throws -> Output)? = nil,
        serialize: @escaping @Sendable (Response) throws -> Output
    ) {
        box = ClosureBox(
            id: id, acceptedMediaRanges: acceptedMediaRanges,
            emptyValue: emptyValue
                ?? { response in throw SerializationError.noEmptyValue(serializerID: id, response: response) },
            serialize: serialize)
    }

    /// Wraps `serializer` under `id` and `acceptedMediaRanges`, its output converted by `convert` (an upcast to
    /// an existential such as `any Sendable`), keeping its own output type for ``serialize(_:exactly:)``.
    init<Wrapped: ResponseSerializer>(
        wrapping serializer: Wrapped, id: SerializerID, acceptedMediaRanges: [MediaRange],
        convert: @escaping @Sendable (Wrapped.Output) -> Output
    ) {
        box = WrappingBox(serializer, id: id, acceptedMediaRanges: acceptedMediaRanges, convert: convert)
    }

    /// Calls the wrapped serializer.
    public func serialize(_ response: Response) throws -> Output { try box.serialize(response) }

    /// Calls the wrapped serializer's empty value.
    public func emptyValue(for response: Response) throws -> Output { try box.emptyValue(for: response) }

    /// The wrapped serializer's value for `response` as a `T`, without converting it to `Output` (no `any Sendable`
    /// box), when the wrapped serializer produces exactly `T`; `nil`, without serializing, otherwise.
    @inlinable
    func serialize<T>(_ response: Response, exactly type: T.Type) throws -> T? {
        // The value is written into a stack slot of the caller's (specialised) type and moved out: no copy.
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { slot in
            guard let address = slot.baseAddress, try box.serialize(response, into: address) else { return nil }
            return address.move()
        }
    }

    /// The shared storage: immutable after initialisation (every property is a `let` of a `Sendable` type), which
    /// is why the unchecked conformance holds for the subclasses too.
    @usableFromInline
    class Box: @unchecked Sendable {
        let serializerID: SerializerID
        let acceptedMediaRanges: [MediaRange]

        init(id: SerializerID, acceptedMediaRanges: [MediaRange]) {
            self.serializerID = id
            self.acceptedMediaRanges = acceptedMediaRanges
        }

        func serialize(_ response: Response) throws -> Output { fatalError("Box is abstract") }
        func emptyValue(for response: Response) throws -> Output { fatalError("Box is abstract") }
        /// Initialises `slot` with the wrapped serializer's value and returns `true` when it produces exactly `T`;
        /// returns `false`, leaving `slot` uninitialised and serializing nothing, otherwise.
        @usableFromInline
        func serialize<T>(_ response: Response, into slot: UnsafeMutablePointer<T>) throws -> Bool { false }
    }

    /// A serializer made of closures.
    private final class ClosureBox: Box, @unchecked Sendable {
        let serializeBody: @Sendable (Response) throws -> Output
        let emptyBody: @Sendable (Response) throws -> Output

        init(
            id: SerializerID, acceptedMediaRanges: [MediaRange],
            emptyValue: @escaping @Sendable (Response) throws -> Output,
            serialize: @escaping @Sendable (Response) throws -> Output
        ) {
            serializeBody = serialize
            emptyBody = emptyValue
            super.init(id: id, acceptedMediaRanges: acceptedMediaRanges)
        }

        override func serialize(_ response: Response) throws -> Output { try serializeBody(response) }
        override func emptyValue(for response: Response) throws -> Output { try emptyBody(response) }
    }

    /// A concrete serializer whose output is converted to `Output`.
    private final class WrappingBox<Wrapped: ResponseSerializer>: Box, @unchecked Sendable {
        let wrapped: Wrapped
        let convert: @Sendable (Wrapped.Output) -> Output
        /// `Wrapped.Output`, looked up once.
        let wrappedOutput = ObjectIdentifier(Wrapped.Output.self)

        init(
            _ wrapped: Wrapped, id: SerializerID, acceptedMediaRanges: [MediaRange],
            convert: @escaping @Sendable (Wrapped.Output) -> Output
        ) {
            self.wrapped = wrapped
            self.convert = convert
            super.init(id: id, acceptedMediaRanges: acceptedMediaRanges)
        }

        override func serialize(_ response: Response) throws -> Output { convert(try wrapped.serialize(response)) }
        override func emptyValue(for response: Response) throws -> Output {
            convert(try wrapped.emptyValue(for: response))
        }
        override func serialize<T>(_ response: Response, into slot: UnsafeMutablePointer<T>) throws -> Bool {
            guard ObjectIdentifier(T.self) == wrappedOutput else { return false }
            let value = try wrapped.serialize(response)
            // The types are the same, so the slot is memory for a `Wrapped.Output`; the value moves in.
            UnsafeMutableRawPointer(slot).assumingMemoryBound(to: Wrapped.Output.self).initialize(to: consume value)
            return true
        }
    }
}

extension ResponseSerializer {
    /// This serializer, type-erased.
    public func eraseToAnySerializer() -> AnyResponseSerializer<Output> { AnyResponseSerializer(self) }

    /// This serializer with its output erased to `any Sendable`, for mixing serializers of different outputs.
    public func eraseOutput() -> AnyResponseSerializer<any Sendable> {
        if let already = self as? AnyResponseSerializer<any Sendable> { return already }
        return AnyResponseSerializer<any Sendable>(
            wrapping: self, id: serializerID, acceptedMediaRanges: acceptedMediaRanges, convert: { $0 })
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
