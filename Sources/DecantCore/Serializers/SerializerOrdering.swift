/// How a ``CompoundSerializer`` orders the serializers whose ranges match a response.
public enum SerializerOrdering: String, Sendable, Hashable, Codable, CaseIterable {
    /// Most specific matching range first; equal specificity keeps the given order (the default).
    case mostSpecificFirst
    /// Exactly the given order, as AFNetworking's compound serializer did.
    case asListed
}
