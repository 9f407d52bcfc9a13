#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One step a ``ResponseChain`` runs before its serializer: a check that throws, or a preprocessor that returns a
/// changed response.
public protocol ResponseStage: Sendable {
    /// Checks or rewrites `response`.
    ///
    /// - Returns: The response to pass on (unchanged for a pure check).
    /// - Throws: A ``SerializationError`` that says what failed and how to fix it.
    func process(_ response: Response) throws -> Response

    /// Whether ``process(_:)`` would return `response` unchanged without throwing, decided without doing the work: a
    /// ``ResponseChain`` whose stages all pass a response unchanged calls its serializer directly. Answer `false`
    /// when unsure (the default): the stage then runs.
    func passesUnchanged(_ response: Response) -> Bool
}

extension ResponseStage {
    /// `false`: the stage runs.
    public func passesUnchanged(_ response: Response) -> Bool { false }
}

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

/// Removes a JSON anti-hijacking (XSSI) prefix such as `)]}',` (Angular, Google APIs), `while(1);` or `for(;;);`.
public struct XSSIPrefixRemoval: ResponseStage, Hashable {
    /// The prefixes removed, longest first; a line break right after one is removed too.
    public var prefixes: [String]

    /// Creates the stage with the common prefixes, or others.
    public init(prefixes: [String] = [")]}',", ")]}'", "while(1);", "for(;;);", "while (1);"]) {
        self.prefixes = prefixes.sorted { $0.utf8.count > $1.utf8.count }
    }

    /// The body without the first matching prefix (after an optional UTF-8 BOM and whitespace).
    public func process(_ response: Response) throws -> Response {
        let body = response.body
        var start = body.startIndex
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < body.endIndex, HTTPBytes.isHTTPWhitespace(body[start]) { start += 1 }
        for prefix in prefixes where body[start...].starts(with: prefix.utf8) {
            var end = start + prefix.utf8.count
            if end < body.endIndex, body[end] == 0x0D { end += 1 }
            if end < body.endIndex, body[end] == 0x0A { end += 1 }
            return response.replacingBody(Data(body[end...]))
        }
        return response
    }
}

/// Removes a UTF-8 byte order mark. UTF-16 and UTF-32 marks are left for the charset pipeline, which needs them to
/// know the encoding.
public struct ByteOrderMarkRemoval: ResponseStage, Hashable {
    /// Creates the stage.
    public init() {}

    /// The body without a leading `EF BB BF`.
    public func process(_ response: Response) throws -> Response {
        guard response.body.starts(with: [0xEF, 0xBB, 0xBF]) else { return response }
        return response.replacingBody(Data(response.body.dropFirst(3)))
    }
}

/// Rejects responses whose media type is not in a list of ranges.
public struct MediaTypeValidation: ResponseStage, Hashable {
    /// The acceptable ranges.
    public var acceptableRanges: [MediaRange]
    /// Whether a response without `Content-Type` passes (so it can be sniffed or tried anyway).
    public var allowsMissingMediaType: Bool

    /// Creates the stage.
    public init(acceptableRanges: [MediaRange], allowsMissingMediaType: Bool = true) {
        self.acceptableRanges = acceptableRanges
        self.allowsMissingMediaType = allowsMissingMediaType
    }

    /// Whether the response's media type is acceptable (or missing, when that is allowed).
    public func passesUnchanged(_ response: Response) -> Bool {
        guard let mediaType = response.contentType else { return allowsMissingMediaType }
        return acceptableRanges.contains { $0.matches(mediaType) }
    }

    /// Throws ``SerializationError/Code/unacceptableMediaType`` or ``SerializationError/Code/missingMediaType``.
    public func process(_ response: Response) throws -> Response {
        let accepted = acceptableRanges.map(\.description).joined(separator: ", ")
        guard let mediaType = response.contentType else {
            if allowsMissingMediaType { return response }
            throw SerializationError(
                code: .missingMediaType,
                message: "The response has no valid Content-Type, and one of \(accepted) is required. Fix the "
                    + "server, or enable sniffing or allow a missing media type in the chain.",
                response: response)
        }
        guard acceptableRanges.contains(where: { $0.matches(mediaType) }) else {
            throw SerializationError(
                code: .unacceptableMediaType,
                message: "The media type \(mediaType.essence) is not acceptable here; expected \(accepted). Add a "
                    + "serializer or an alias for \(mediaType.essence), or fix the server's Content-Type.",
                mediaType: mediaType, response: response)
        }
        return response
    }
}
