/// A type-erased ``ResponseSerializer``, for lists of serializers with the same output (or erased to
/// `any Sendable` for lists of different outputs).
///
/// The wrapped serializer lives in one shared, immutable box, so copying an `AnyResponseSerializer` costs one
/// reference count.
public struct AnyResponseSerializer<Output: Sendable>: ResponseSerializer {
    @usableFromInline let box: Box<Output>

    /// Wraps `box`.
    init(box: Box<Output>) { self.box = box }

    /// The wrapped serializer's ranges.
    public var mediaRanges: [MediaRange] { box.mediaRanges }
    /// The wrapped serializer's id.
    public var id: SerializerID { box.id }
    /// Whether the wrapped serializer defers parsing (see ``ResponseSerializer/defersParsing``).
    public var defersParsing: Bool { box.defersParsing }

    /// Wraps `serializer`.
    public init<Wrapped: ResponseSerializer>(_ serializer: Wrapped) where Wrapped.Output == Output {
        if let already = serializer as? AnyResponseSerializer<Output> {
            self = already
            return
        }
        box = DirectBox(
            serializer, id: serializer.id, mediaRanges: serializer.mediaRanges,
            defersParsing: serializer.defersParsing)
    }

    /// Creates a serializer from closures.
    ///
    /// - Parameters:
    ///   - id: The serializer's id.
    ///   - mediaRanges: The ranges it accepts.
    ///   - defersParsing: Whether `serialize` returns without parsing the body (see
    ///     ``ResponseSerializer/defersParsing``).
    ///   - countsWhitespaceAsEmpty: Whether a body of only whitespace counts as empty (see
    ///     ``ResponseSerializer/countsWhitespaceAsEmpty(for:)``).
    ///   - emptyValue: The value for empty responses; `nil` makes them an ``SerializationError/Code/emptyBody`` error.
    ///   - serialize: Turns a response into a value.
    public init(
        id: SerializerID,
        mediaRanges: [MediaRange] = [.any],
        defersParsing: Bool = false,
        countsWhitespaceAsEmpty: Bool = false,
        emptyValue: (@Sendable (Response) throws -> Output)? = nil,
        serialize: @escaping @Sendable (Response) throws -> Output
    ) {
        box = Box(
            id: id, mediaRanges: mediaRanges, defersParsing: defersParsing,
            countsWhitespaceAsEmpty: { _ in countsWhitespaceAsEmpty },
            emptyValue: emptyValue
                ?? { response in throw SerializationError.noEmptyValue(serializerID: id, response: response) },
            serialize: serialize)
    }

    /// Wraps `serializer` under `id` and `mediaRanges`, its output converted by `convert` (an upcast to
    /// an existential such as `any Sendable`), keeping its own output type for ``serialize(_:exactly:)``.
    init<Wrapped: ResponseSerializer>(
        wrapping serializer: Wrapped, id: SerializerID, mediaRanges: [MediaRange],
        convert: @escaping @Sendable (Wrapped.Output) -> Output
    ) {
        box = WrappingBox<Wrapped, Output>(
            serializer, id: id, mediaRanges: mediaRanges, defersParsing: serializer.defersParsing,
            convert: convert)
    }

    /// Calls the wrapped serializer.
    @inlinable
    public func serialize(_ response: Response) throws -> Output { try box.serialize(response) }

    /// Calls the wrapped serializer's empty value.
    public func emptyValue(for response: Response) throws -> Output { try box.emptyValue(for: response) }

    /// The wrapped serializer's answer (`false` for closures).
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { box.countsWhitespaceAsEmpty(for: response) }

    /// Whether the wrapped serializer's values are `T`s: `true` or `false` when its output type is known, `nil` for
    /// closures erased to an existential output, whose values' types are known only once produced.
    func produces<T>(_ type: T.Type) -> Bool? { box.produces(type) }

    /// The wrapped serializer itself, when one was wrapped (not closures): how the registry finds the streaming
    /// serializers among its entries.
    var base: (any ResponseSerializer)? { box.base }

    /// The wrapped serializer's own output type (`JSONValue` for `json`, `DecodedText` for `string`), whatever
    /// `Output` it is erased to: what a tool that builds values of a format asks for.
    public var outputType: Any.Type { box.outputType }

    /// The name of the wrapped serializer's own output type, for messages.
    var outputTypeName: String { "\(outputType)" }

    /// This serializer for a request of `T`s: itself when its values are `T`s, `nil` when they never are, and when
    /// its output type is known only from its values (``produces(_:)`` is `nil`), a serializer that fails with
    /// ``SerializationError/Code/unexpectedOutputType`` on a value (or empty value) that is not a `T`.
    func restricted<T>(to type: T.Type) -> AnyResponseSerializer<Output>? {
        switch produces(type) {
        case true?: return self
        case false?: return nil
        case nil: break
        }
        let serializer = self
        @Sendable func checked(_ value: Output, _ response: Response) throws -> Output {
            guard value is T else {
                throw SerializationError.unexpectedOutput(
                    value, of: serializer.id, requested: T.self, mediaType: response.contentType,
                    response: response)
            }
            return value
        }
        return AnyResponseSerializer(
            box: Box(
                id: id, mediaRanges: mediaRanges, defersParsing: defersParsing,
                countsWhitespaceAsEmpty: { serializer.countsWhitespaceAsEmpty(for: $0) },
                emptyValue: { try checked(try serializer.emptyValue(for: $0), $0) },
                serialize: { try checked(try serializer.serialize($0), $0) }))
    }

    /// The wrapped serializer's value for `response` as a `T`, without converting it to `Output` (no `any Sendable`
    /// box), when the wrapped serializer produces exactly `T`; `nil`, without serializing, otherwise.
    @inlinable
    func serialize<T: Sendable>(_ response: Response, exactly type: T.Type) throws -> T? {
        // A class cast: the box of the wrapped serializer's own output is a `Box<T>` exactly when it produces `T`s.
        guard let typed = box.ownOutputBox as? Box<T> else { return nil }
        return try typed.serialize(response)
    }

    /// This serializer with its output type restored to `T`, when the wrapped serializer produces exactly `T`: how a
    /// prepared serializer gets a typed serializer out of a registry's erased one, once.
    func typed<T: Sendable>(as type: T.Type) -> AnyResponseSerializer<T>? {
        (box.ownOutputBox as? Box<T>).map { AnyResponseSerializer<T>(box: $0) }
    }
}

/// The storage of an ``AnyResponseSerializer``: one shared, immutable object, so that copying the eraser costs one
/// reference count. The base class runs closures; ``WrappingBox`` wraps a concrete serializer and knows its output
/// type.
@usableFromInline
class Box<Output: Sendable>: @unchecked Sendable {
    // Unchecked only because a non-final class cannot be checked: every stored property here and in the subclass is a
    // `let` of a `Sendable` type.
    let id: SerializerID
    let mediaRanges: [MediaRange]
    let defersParsing: Bool
    let serializeBody: @Sendable (Response) throws -> Output
    let emptyBody: @Sendable (Response) throws -> Output
    let whitespaceIsEmpty: @Sendable (Response) -> Bool

    init(
        id: SerializerID, mediaRanges: [MediaRange], defersParsing: Bool,
        countsWhitespaceAsEmpty: @escaping @Sendable (Response) -> Bool,
        emptyValue: @escaping @Sendable (Response) throws -> Output,
        serialize: @escaping @Sendable (Response) throws -> Output
    ) {
        self.id = id
        self.mediaRanges = mediaRanges
        self.defersParsing = defersParsing
        whitespaceIsEmpty = countsWhitespaceAsEmpty
        serializeBody = serialize
        emptyBody = emptyValue
    }

    /// See ``AnyResponseSerializer/outputType``.
    var outputType: Any.Type { Output.self }
    /// The innermost wrapped serializer, when it is a concrete one (not closures).
    var base: (any ResponseSerializer)? { nil }
    /// See ``AnyResponseSerializer/produces(_:)``.
    func produces<T>(_ type: T.Type) -> Bool? { output(Output.self, produces: type) }

    @usableFromInline
    func serialize(_ response: Response) throws -> Output { try serializeBody(response) }
    func emptyValue(for response: Response) throws -> Output { try emptyBody(response) }
    func countsWhitespaceAsEmpty(for response: Response) -> Bool { whitespaceIsEmpty(response) }

    /// The box that runs the serializer with its own output type (no conversion): this one for closures, the
    /// wrapped serializer's ``DirectBox`` for a converting ``WrappingBox``.
    @usableFromInline
    var ownOutputBox: AnyObject { self }
}

/// Whether values of `output` are `T`s; `nil` when `output` is the `any Sendable` existential, which says nothing
/// about the values.
func output<Produced, T>(_ output: Produced.Type, produces type: T.Type) -> Bool? {
    if ObjectIdentifier(output) == ObjectIdentifier(type) { return true }
    if ObjectIdentifier(output) == ObjectIdentifier((any Sendable).self) { return nil }
    return output is T.Type
}

/// A concrete serializer of `Output`s, called without conversion.
final class DirectBox<Wrapped: ResponseSerializer>: Box<Wrapped.Output>, @unchecked Sendable {
    let wrapped: Wrapped
    /// The box of `wrapped` when it is itself an eraser, found once.
    let nested: Box<Wrapped.Output>?

    init(_ wrapped: Wrapped, id: SerializerID, mediaRanges: [MediaRange], defersParsing: Bool) {
        self.wrapped = wrapped
        nested = (wrapped as? AnyResponseSerializer<Wrapped.Output>)?.box
        super.init(
            id: id, mediaRanges: mediaRanges, defersParsing: defersParsing,
            countsWhitespaceAsEmpty: { wrapped.countsWhitespaceAsEmpty(for: $0) },
            emptyValue: { try wrapped.emptyValue(for: $0) }, serialize: { try wrapped.serialize($0) })
    }

    override var base: (any ResponseSerializer)? { nested.map { $0.base } ?? wrapped }
    override var outputType: Any.Type { nested?.outputType ?? Wrapped.Output.self }

    override func produces<T>(_ type: T.Type) -> Bool? {
        // A wrapped serializer whose own output is erased (a closure serializer of `any Sendable`) says nothing.
        if let nested { return nested.produces(type) }
        return output(Wrapped.Output.self, produces: type)
    }

    override var ownOutputBox: AnyObject { nested?.ownOutputBox ?? self }

    override func serialize(_ response: Response) throws -> Wrapped.Output { try wrapped.serialize(response) }
    override func emptyValue(for response: Response) throws -> Wrapped.Output {
        try wrapped.emptyValue(for: response)
    }
}

/// A concrete serializer whose output is converted to `Output` (an upcast such as to `any Sendable`).
final class WrappingBox<Wrapped: ResponseSerializer, Output: Sendable>: Box<Output>, @unchecked Sendable {
    /// The serializer in its own output type.
    let direct: DirectBox<Wrapped>
    let convert: @Sendable (Wrapped.Output) -> Output

    init(
        _ wrapped: Wrapped, id: SerializerID, mediaRanges: [MediaRange], defersParsing: Bool,
        convert: @escaping @Sendable (Wrapped.Output) -> Output
    ) {
        let direct = DirectBox(
            wrapped, id: id, mediaRanges: mediaRanges, defersParsing: defersParsing)
        self.direct = direct
        self.convert = convert
        super.init(
            id: id, mediaRanges: mediaRanges, defersParsing: defersParsing,
            countsWhitespaceAsEmpty: { direct.countsWhitespaceAsEmpty(for: $0) },
            emptyValue: { convert(try direct.emptyValue(for: $0)) }, serialize: { convert(try direct.serialize($0)) })
    }

    override var base: (any ResponseSerializer)? { direct.base }
    override var outputType: Any.Type { direct.outputType }
    override func produces<T>(_ type: T.Type) -> Bool? { direct.produces(type) }
    override var ownOutputBox: AnyObject { direct.ownOutputBox }

    override func serialize(_ response: Response) throws -> Output { convert(try direct.serialize(response)) }
    override func emptyValue(for response: Response) throws -> Output {
        convert(try direct.emptyValue(for: response))
    }
}

extension ResponseSerializer {
    /// This serializer, type-erased.
    public func eraseToAnySerializer() -> AnyResponseSerializer<Output> { AnyResponseSerializer(self) }

    /// This serializer with its output erased to `any Sendable`, for mixing serializers of different outputs.
    public func eraseOutput() -> AnyResponseSerializer<any Sendable> {
        if let already = self as? AnyResponseSerializer<any Sendable> { return already }
        return AnyResponseSerializer<any Sendable>(
            wrapping: self, id: id, mediaRanges: mediaRanges, convert: { $0 })
    }

    /// A serializer that transforms this one's output with `transform`; errors from `transform` are wrapped with
    /// this serializer's id.
    public func map<NewOutput: Sendable>(
        _ transform: @escaping @Sendable (Output) throws -> NewOutput
    ) -> AnyResponseSerializer<NewOutput> {
        AnyResponseSerializer<NewOutput>(
            box: Box(
                id: id, mediaRanges: mediaRanges, defersParsing: defersParsing,
                countsWhitespaceAsEmpty: { self.countsWhitespaceAsEmpty(for: $0) },
                emptyValue: { try transform(try self.emptyValue(for: $0)) },
                serialize: { try transform(try self.serialize($0)) }))
    }
}
