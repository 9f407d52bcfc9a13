/// The factory of ``DataResponseSerializer`` (id `data`, `*/*`, no options).
public struct DataSerializerFactory: SerializerFactory {
    /// Creates the factory.
    public init() {}
    /// `data`.
    public var id: SerializerID { "data" }
    /// What the serializer does.
    public var summary: String { "Returns the body bytes unchanged (any media type)." }
    /// `*/*`.
    public var mediaRanges: [MediaRange] { [.any] }
    /// Builds a ``DataResponseSerializer``.
    public func makeSerializer(options: Void) -> DataResponseSerializer { DataResponseSerializer() }
}
