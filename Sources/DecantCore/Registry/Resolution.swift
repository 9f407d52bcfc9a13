/// How a ``SerializerRegistry`` chose a serializer: the media type it went by, every candidate with its score, every
/// serializer it skipped and why, and the choice. Print it to see the trace.
public struct Resolution: Sendable, CustomStringConvertible {
    /// A serializer whose ranges match.
    public struct Candidate: Sendable, Hashable {
        /// Its id.
        public let id: SerializerID
        /// Its module.
        public let moduleName: String
        /// Its most specific range matching the media type.
        public let range: MediaRange
        /// That range's specificity.
        public let specificity: MediaRange.Specificity
        /// Its installation order (ties go to the lower).
        public let order: Int
    }

    /// A serializer that was not a candidate.
    public struct Skipped: Sendable, Hashable {
        /// Its id.
        public let id: SerializerID
        /// Its module.
        public let moduleName: String
        /// Why it was skipped.
        public let reason: String
    }

    /// The media type resolution went by.
    public let mediaType: MediaType?
    /// Where the media type came from.
    public let source: SniffingPolicy.Source
    /// The candidates, best first.
    public let candidates: [Candidate]
    /// The serializers that did not match.
    public let skipped: [Skipped]

    /// The chosen serializer: the first candidate.
    public var chosen: Candidate? { candidates.first }

    /// The trace, one fact per line:
    ///
    /// ```
    /// media type: application/problem+json (from Content-Type)
    /// candidates (best first):
    ///   1. problemDetails [AcmeProblems] via application/problem+json, score 400
    ///   2. json [DecantJSON] via application/*+json, score 300
    /// skipped:
    ///   - string [DecantString]: no range matches application/problem+json (accepts text/*)
    /// chosen: problemDetails
    /// ```
    public var description: String {
        var lines: [String] = []
        lines.append("media type: " + (mediaType.map { "\($0) (\(source))" } ?? "none (\(source))"))
        if candidates.isEmpty {
            lines.append("candidates: none")
        } else {
            lines.append("candidates (best first):")
            for (index, candidate) in candidates.enumerated() {
                var line = "  \(index + 1). \(candidate.id) [\(candidate.moduleName)] via \(candidate.range), "
                line += "score \(candidate.specificity.score)"
                if index > 0, candidates[index - 1].specificity == candidate.specificity {
                    line += " (same score as '\(candidates[index - 1].id)', installed later)"
                }
                lines.append(line)
            }
        }
        if !skipped.isEmpty {
            lines.append("skipped:")
            for skip in skipped { lines.append("  - \(skip.id) [\(skip.moduleName)]: \(skip.reason)") }
        }
        lines.append("chosen: " + (chosen.map(\.id.rawValue) ?? "none"))
        return lines.joined(separator: "\n")
    }
}
