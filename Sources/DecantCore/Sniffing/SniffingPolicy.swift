/// When to trust the `Content-Type` header and when to look at the body instead (opt-in).
///
/// Servers mislabel bodies: no `Content-Type` at all, or a generic one such as `application/octet-stream`. A policy
/// decides when ``MediaTypeSniffer`` may replace the header's type. The default, ``trustHeader``, never sniffs.
public struct SniffingPolicy: Sendable, Hashable {
    /// Sniff when the response has no (parseable) `Content-Type`.
    public var sniffsWhenMissing: Bool
    /// Sniff when the header's essence is one of these generic types.
    public var genericEssences: Set<String>

    /// Creates a policy.
    public init(sniffsWhenMissing: Bool, genericEssences: Set<String> = []) {
        self.sniffsWhenMissing = sniffsWhenMissing
        self.genericEssences = Set(genericEssences.map { $0.lowercased() })
    }

    /// Never sniff: the header is the media type, or there is none.
    public static let trustHeader = SniffingPolicy(sniffsWhenMissing: false)

    /// Whether a response's `Content-Type`, when present, is always the type dispatched on (no generic types).
    var keepsEveryHeader: Bool { genericEssences.isEmpty }

    /// Sniff only when `Content-Type` is missing or unparseable.
    public static let sniffWhenMissing = SniffingPolicy(sniffsWhenMissing: true)
    /// Sniff when `Content-Type` is missing or generic: `application/octet-stream`, `binary/octet-stream`,
    /// `application/unknown`, `unknown/unknown` or `text/plain`.
    public static let sniffWhenGeneric = SniffingPolicy(
        sniffsWhenMissing: true,
        genericEssences: [
            "application/octet-stream", "binary/octet-stream", "application/unknown", "unknown/unknown", "text/plain",
        ]
    )

    /// Where an effective media type came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The `Content-Type` header.
        case header
        /// The body, because the header was missing.
        case sniffedMissingHeader
        /// The body, because the header named a generic type (kept here).
        case sniffedGenericHeader(MediaType)
        /// Neither: no header and nothing recognised in the body.
        case none

        /// A short phrase for traces: "from Content-Type", "sniffed (no Content-Type)", ...
        public var description: String {
            switch self {
            case .header: "from Content-Type"
            case .sniffedMissingHeader: "sniffed from the body (no Content-Type)"
            case .sniffedGenericHeader(let generic): "sniffed from the body (Content-Type was generic \(generic))"
            case .none: "no Content-Type, nothing recognised in the body"
            }
        }

        /// Whether the type came from sniffing.
        public var isSniffed: Bool {
            switch self {
            case .sniffedMissingHeader, .sniffedGenericHeader: true
            case .header, .none: false
            }
        }
    }

    /// The media type to dispatch `response` on under this policy, and where it came from.
    ///
    /// A generic header whose body sniffs as nothing (or as plain text) keeps the header's type.
    public func effectiveMediaType(for response: Response) -> (mediaType: MediaType?, source: Source) {
        guard let header = response.contentType else {
            guard sniffsWhenMissing, let sniffed = MediaTypeSniffer.sniff(response.body) else { return (nil, .none) }
            return (sniffed, .sniffedMissingHeader)
        }
        guard !genericEssences.isEmpty, genericEssences.contains(header.essence),
            let sniffed = MediaTypeSniffer.sniff(response.body), sniffed.essence != header.essence,
            sniffed.essence != "text/plain"
        else { return (header, .header) }
        return (sniffed, .sniffedGenericHeader(header))
    }
}
