/// A value together with the serializer that produced it, the attempts that failed before it and, from a registry,
/// how the serializer was chosen: the one record of "which serializer made this" for compounds, chains and
/// registries (``SerializedValue`` is this record with the output type erased).
public struct Chosen<Value: Sendable>: Sendable, CustomStringConvertible {
    /// The value.
    public let value: Value
    /// The serializer that produced it (not always the resolution's choice: see ``attempts``).
    public let serializerID: SerializerID
    /// The media type the serializer was chosen by, when a registry chose it.
    public let mediaType: MediaType?
    /// How a registry chose the serializer; `nil` for a compound or chain built by hand.
    public let resolution: Resolution?
    /// The errors of the serializers tried before the one that succeeded, in the order tried; empty when the first
    /// one succeeded. A fallback never hides a failure: these say why the preferred serializers did not produce the
    /// value.
    public let attempts: [SerializationError]

    /// Creates the record.
    public init(
        value: Value, serializerID: SerializerID, mediaType: MediaType? = nil, resolution: Resolution? = nil,
        attempts: [SerializationError] = []
    ) {
        self.value = value
        self.serializerID = serializerID
        self.mediaType = mediaType
        self.resolution = resolution
        self.attempts = attempts
    }

    /// The resolution trace (when a registry chose) followed by what happened: each failed attempt and the
    /// serializer that produced the value.
    ///
    /// ```
    /// media type: text/csv (from Content-Type)
    /// ...
    /// chosen: acme.csv
    /// failed: acme.csv (invalidBody): ...
    /// produced by: string
    /// ```
    public var description: String {
        var lines = resolution.map { [$0.description] } ?? []
        for attempt in attempts {
            lines.append("failed: \(attempt.serializerID?.rawValue ?? "?") (\(attempt.code)): \(attempt.message)")
        }
        lines.append("produced by: \(serializerID)")
        return lines.joined(separator: "\n")
    }
}
