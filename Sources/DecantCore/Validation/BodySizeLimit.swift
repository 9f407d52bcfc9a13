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
    public func passesUnchanged(_ response: Response) -> Bool { admits(byteCount: response.body.count) }

    /// Whether a body of `byteCount` bytes is within the limit: the one statement of the rule, for whole bodies and
    /// for bodies still downloading (their `Content-Length`, or the bytes received so far).
    package func admits(byteCount: Int) -> Bool { byteCount <= maxBytes }

    /// Throws ``SerializationError/Code/bodyTooLarge`` when the body is over the limit.
    public func process(_ response: Response) throws -> Response {
        guard !admits(byteCount: response.body.count) else { return response }
        throw SerializationError(
            code: .bodyTooLarge,
            message: "The body has \(response.body.count) bytes, more than the limit of \(maxBytes). " + Self.advice,
            mediaType: response.contentType, response: response)
    }

    /// The error of a body found over the limit while it downloads, before it is complete: its `Content-Length`
    /// announces `announcedLength` bytes, more than the limit, or (`nil`) the bytes received so far, the body of
    /// `response`, are more than the limit. The same code and advice as ``process(_:)``.
    package func downloadError(_ response: Response, announcedLength: Int? = nil) -> SerializationError {
        let what =
            announcedLength.map {
                "The Content-Length announces \($0) bytes, more than the body size limit of \(maxBytes), so the "
                    + "download was cancelled before the body."
            }
            ?? "The body is larger than the limit of \(maxBytes) bytes: the download was cancelled when "
            + "\(response.body.count) bytes had arrived."
        return SerializationError(
            code: .bodyTooLarge, message: what + " " + Self.advice, mediaType: response.contentType,
            response: response)
    }

    /// How to accept larger bodies.
    static let advice =
        "Raise the chain's body size limit (`BodySizeLimit.maxBytes`, `limits.maxBodyBytes` in a chain "
        + "configuration) if such bodies are expected."
}

extension BodySizeLimit {
    /// The smallest limit among `stages`, the one that decides; `nil` when none is a ``BodySizeLimit``.
    static func smallest(in stages: [any ResponseStage]) -> BodySizeLimit? {
        var smallest: BodySizeLimit?
        for stage in stages {
            guard let limit = stage as? BodySizeLimit else { continue }
            if smallest.map({ limit.maxBytes < $0.maxBytes }) ?? true { smallest = limit }
        }
        return smallest
    }
}
