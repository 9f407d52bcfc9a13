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
    /// The ranges of the entries whose default serializer builds, compiled, most specific first, then in installation
    /// order.
    let table: [CompiledRange]

    init(
        mediaType: MediaType?, source: SniffingPolicy.Source, entries: [SerializerRegistry.Entry],
        table: [CompiledRange]
    ) {
        self.mediaType = mediaType
        self.source = source
        self.entries = entries
        self.table = table
    }

    /// The media type's structured syntax suffix.
    private var suffix: String? { mediaType?.suffix }

    /// The candidates, best first: the most specific matching range first, then the earlier installed.
    public var candidates: [Candidate] {
        guard let mediaType else { return [] }
        let suffix = self.suffix
        var candidates: [Candidate] = []
        for entry in entries where entry.buildError == nil {
            guard let rangeIndex = entry.bestRangeIndex(for: mediaType, suffix: suffix) else { continue }
            let range = entry.mediaRanges[rangeIndex]
            candidates.append(
                Candidate(
                    id: entry.id, moduleName: entry.moduleName, range: range, specificity: range.specificity,
                    order: entry.order))
        }
        candidates.sort {
            $0.specificity != $1.specificity ? $0.specificity > $1.specificity : $0.order < $1.order
        }
        return candidates
    }

    /// The serializers that did not match, in installation order.
    public var skipped: [Skipped] {
        let suffix = self.suffix
        var skipped: [Skipped] = []
        for entry in entries {
            guard let mediaType else {
                skipped.append(.init(id: entry.id, moduleName: entry.moduleName, reason: "there is no media type"))
                continue
            }
            guard entry.bestRangeIndex(for: mediaType, suffix: suffix) != nil else {
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
        guard let index = chosenEntryIndex, let mediaType else { return nil }
        let suffix = self.suffix
        let entry = entries[index]
        guard let rangeIndex = entry.bestRangeIndex(for: mediaType, suffix: suffix) else { return nil }
        let range = entry.mediaRanges[rangeIndex]
        return Candidate(
            id: entry.id, moduleName: entry.moduleName, range: range, specificity: range.specificity,
            order: entry.order)
    }

    /// The position in ``entries`` of the chosen serializer, found without building the candidate list.
    var chosenEntryIndex: Int? {
        guard let mediaType else { return nil }
        guard let key = MediaTypeKey(mediaType) else { return chosenEntryIndexMatchingStrings(mediaType) }
        return Self.chosenEntryIndex(in: table, entries: entries, key: key) { mediaType }
    }

    /// The position in `entries` of the entry whose compiled range in `table` matches `key` most specifically (the
    /// first installed of equally specific ones). `table` is sorted most specific first, then in installation
    /// order, so the first match is the choice. `mediaType` gives `key`'s media type, asked for only when a range
    /// must be matched in full (``CompiledRange/needsFullMatch``).
    static func chosenEntryIndex(
        in table: [CompiledRange], entries: [SerializerRegistry.Entry], key: MediaTypeKey,
        mediaType: () -> MediaType?
    ) -> Int? {
        var full: (mediaType: MediaType, suffix: String?)??
        return table.withUnsafeBufferPointer { ranges in
            for range in ranges {
                if range.needsFullMatch {
                    if full == nil { full = .some(mediaType().map { ($0, $0.suffix) }) }
                    guard let (mediaType, suffix) = full! else { continue }
                    if entries[range.entry].mediaRanges[range.rangeIndex].matches(mediaType, suffix: suffix) {
                        return range.entry
                    }
                } else if range.matches(key) {
                    return range.entry
                }
            }
            return nil
        }
    }

    /// ``chosenEntryIndex`` by matching every range's strings.
    private func chosenEntryIndexMatchingStrings(_ mediaType: MediaType) -> Int? {
        let suffix = self.suffix
        var best: (index: Int, specificity: MediaRange.Specificity)?
        for index in entries.indices {
            let entry = entries[index]
            guard entry.buildError == nil, let specificity = entry.bestSpecificity(for: mediaType, suffix: suffix)
            else { continue }
            // Entries are in installation order, so only a strictly more specific match replaces the best.
            if let current = best, current.specificity >= specificity { continue }
            best = (index, specificity)
        }
        return best?.index
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
