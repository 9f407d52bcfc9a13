/// The factory of ``DataResponseSerializer`` (id `data`, `*/*`, no options).
public struct DataSerializerFactory: SerializerFactory {
    /// Creates the factory.
    public init() {}
    /// Builds a ``DataResponseSerializer``.
    public func makeSerializer(options: Void) -> DataResponseSerializer { DataResponseSerializer() }
    /// Builds a ``DataBodyEncoder``: `data` writes `Data` as any media type.
    public func makeEncoder(options: Void) -> (any BodyEncoder)? { DataBodyEncoder() }
}
