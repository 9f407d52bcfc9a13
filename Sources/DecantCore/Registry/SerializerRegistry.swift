/// Placeholder replaced below.
public struct SerializerRegistry: Sendable {
    /// Creates an empty registry.
    public init() {}
}
