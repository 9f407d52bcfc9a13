/// Edit distance, for "did you mean" suggestions.
package enum EditDistance {
    /// The number of single-character insertions, deletions, substitutions and transpositions of adjacent characters
    /// turning `a` into `b` (optimal string alignment distance), ignoring case.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }

    /// The candidate closest to `word`, if it is a plausible typo: within a third of the longer length (at most 3
    /// edits), or the only candidate that starts with `word` (an abbreviation such as `xssi` for `xssiPrefix`).
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        if let best = scored.min(by: { $0.1 < $1.1 }) {
            let limit = min(3, max(1, max(word.count, best.0.count) / 3))
            if best.1 <= limit { return best.0 }
        }
        let lowered = word.lowercased()
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(lowered) }
        return !lowered.isEmpty && prefixed.count == 1 ? prefixed[0] : nil
    }
}
