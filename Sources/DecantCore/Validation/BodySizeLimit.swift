/// Rejects bodies larger than a limit before any decoder sees them.
public struct BodySizeLimit: ResponseStage, Hashable {
    /// The largest accepted body in bytes.
    public var maxBytes: Int

    /// Creates the stage.
    public init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// 64 MiB: larger than any API document, small enough that a hostile body cannot make the decoders allocate
    /// gigabytes.
    public static let `default` = BodySizeLimit(maxBytes: 64 * 1024 * 1024)

    /// The largest byte limit a chain configuration may set (`limits.maxBodyBytes`, `limits.maxDecodedBytes`):
    /// 1 TiB (2^40 bytes). Larger values are refused when the configuration is read, so that the arithmetic done
    /// with a configured limit (reading one byte past it, allowing a quarter more for a message's framing) stays far
    /// from `Int.max`.
    public static let maxConfigurableBytes = 1 << 40

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
