/// Rejects bodies larger than a limit before any decoder sees them.
public struct BodySizeLimit: ResponseStage, Hashable {
    /// The largest accepted body in bytes.
    public var maxBytes: Int

    /// Creates the stage.
    public init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// 64 MiB: larger than any API document, small enough that a hostile body cannot make the decoders allocate
    /// gigabytes.
    public static let `default` = BodySizeLimit(maxBytes: 64 * 1024 * 1024)

    /// Whether the body is within the limit.
    public func passesUnchanged(_ response: Response) -> Bool { response.body.count <= maxBytes }

    /// Throws ``SerializationError/Code/bodyTooLarge`` when the body is over the limit.
    public func process(_ response: Response) throws -> Response {
        guard response.body.count > maxBytes else { return response }
        throw SerializationError(
            code: .bodyTooLarge,
            message: "The body has \(response.body.count) bytes, more than the limit of \(maxBytes). Raise the "
                + "chain's body size limit (`BodySizeLimit.maxBytes`, `limits.maxBodyBytes` in a chain configuration) "
                + "if such bodies are expected.",
            mediaType: response.contentType, response: response)
    }
}
