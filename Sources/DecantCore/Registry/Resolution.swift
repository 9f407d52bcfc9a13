/// How a ``SerializerRegistry`` chose a serializer: the media type it went by, every candidate with its score, every
/// serializer it skipped and why, and the choice. Print it to see the trace.
///
/// A resolution records only the facts (the media type, where it came from and the registry's installed entries);
/// the candidate list, the skip reasons and the trace text are derived from them when they are read, so resolving
/// on the hot path of ``SerializerRegistry/serialize(_:sniffing:statusCodes:emptyBodyPolicy:)`` formats nothing.
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
    /// The registry's entries at the time of resolution, in installation order (an immutable, shared buffer).
    let entries: [SerializerRegistry.Entry]
    /// The ranges of the entries whose default serializer builds, most specific first, then in installation order
    /// (see ``RangeTableRow``).
    let table: [RangeTableRow]

    init(
        mediaType: MediaType?, source: SniffingPolicy.Source, entries: [SerializerRegistry.Entry],
        table: [RangeTableRow]
    ) {
        self.mediaType = mediaType
        self.source = source
        self.entries = entries
        self.table = table
    }

    /// The candidates, best first: the most specific matching range first, then the earlier installed (the order of
    /// the registry's range table, where each entry's first matching row is its best range).
    public var candidates: [Candidate] {
        guard let mediaType else { return [] }
        var seen = [Bool](repeating: false, count: entries.count)
        var candidates: [Candidate] = []
        var next = 0
        while let index = RangeTableRow.firstMatch(in: table, for: mediaType, from: next) {
            next = index + 1
            let row = table[index]
            guard !seen[row.entry] else { continue }
            seen[row.entry] = true
            candidates.append(candidate(row))
        }
        return candidates
    }

    /// The candidate that `row` makes.
    private func candidate(_ row: RangeTableRow) -> Candidate {
        let entry = entries[row.entry]
        return Candidate(
            id: entry.id, moduleName: entry.moduleName, range: row.range, specificity: row.range.specificity,
            order: entry.order)
    }

    /// The serializers that did not match, in installation order.
    public var skipped: [Skipped] {
        var skipped: [Skipped] = []
        for entry in entries {
            guard let mediaType else {
                skipped.append(.init(id: entry.id, moduleName: entry.moduleName, reason: "there is no media type"))
                continue
            }
            guard entry.mediaRanges.contains(where: { $0.matches(mediaType) }) else {
                let accepted = entry.mediaRanges.map(\.description).joined(separator: ", ")
                skipped.append(
                    .init(
                        id: entry.id, moduleName: entry.moduleName,
                        reason: "no range matches \(mediaType.essence) (accepts \(accepted))"))
                continue
            }
            if let buildError = entry.buildError {
                skipped.append(
                    .init(
                        id: entry.id, moduleName: entry.moduleName,
                        reason: "its default options do not build: \(buildError.message)"))
            }
        }
        return skipped
    }

    /// The chosen serializer: the first candidate.
    public var chosen: Candidate? {
        guard let mediaType, let index = RangeTableRow.firstMatch(in: table, for: mediaType) else { return nil }
        return candidate(table[index])
    }

    /// The position in ``entries`` of the chosen serializer, found without building the candidate list.
    var chosenEntryIndex: Int? {
        guard let mediaType, let index = RangeTableRow.firstMatch(in: table, for: mediaType) else { return nil }
        return table[index].entry
    }

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
        let candidates = self.candidates
        let skipped = self.skipped
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
        lines.append("chosen: " + (candidates.first.map(\.id.rawValue) ?? "none"))
        return lines.joined(separator: "\n")
    }
}
