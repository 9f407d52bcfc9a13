/// Rejects responses whose media type is not in a list of ranges.
public struct MediaTypeValidation: ResponseStage, Hashable {
    /// The acceptable ranges.
    public var acceptableRanges: [MediaRange] {
        didSet { compiledRanges = Self.compile(acceptableRanges) }
    }
    /// Whether a response without `Content-Type` passes (so it can be sniffed or tried anyway).
    public var allowsMissingMediaType: Bool
    /// The ranges compiled into words, as a registry compiles its own: matching a response's packed media type
    /// compares integers and copies no string (see ``passesUnchanged(_:)``).
    private var compiledRanges: [CompiledRange]

    /// Creates the stage.
    public init(acceptableRanges: [MediaRange], allowsMissingMediaType: Bool = true) {
        self.acceptableRanges = acceptableRanges
        self.allowsMissingMediaType = allowsMissingMediaType
        self.compiledRanges = Self.compile(acceptableRanges)
    }

    /// `ranges` compiled (a stage has no registry entries: entry and range indices are unused).
    private static func compile(_ ranges: [MediaRange]) -> [CompiledRange] {
        ranges.map { CompiledRange($0, entry: 0, rangeIndex: 0) }
    }

    /// Whether the response's media type is acceptable (or missing, when that is allowed).
    public func passesUnchanged(_ response: Response) -> Bool {
        guard let key = response.headers.contentTypeKey else {
            guard let mediaType = response.contentType else { return allowsMissingMediaType }
            return acceptableRanges.contains { $0.matches(mediaType) }
        }
        for index in compiledRanges.indices {
            if compiledRanges[index].needsFullMatch {
                // Parameter constraints, or a token too long to pack: the strings decide.
                if let mediaType = response.contentType, acceptableRanges[index].matches(mediaType) { return true }
            } else if compiledRanges[index].matches(key) {
                return true
            }
        }
        return false
    }

    /// Stages are equal when their ranges and their rule for a missing media type are.
    public static func == (left: MediaTypeValidation, right: MediaTypeValidation) -> Bool {
        left.acceptableRanges == right.acceptableRanges && left.allowsMissingMediaType == right.allowsMissingMediaType
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(acceptableRanges)
        hasher.combine(allowsMissingMediaType)
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
