/// One row of a registry's range table: an installed media range, the entry that installed it and its position in
/// that entry's ranges.
///
/// The table holds the ranges of every entry whose default serializer builds, most specific first, then in
/// installation order (then in the order of the entry's ranges), so the rule "the most specific matching range
/// wins, ties to the first installed" is the table's order: the first row whose range matches is the choice, and the
/// first row of each entry is that entry's best range.
struct RangeTableRow: Sendable {
    /// The range.
    let range: MediaRange
    /// ``MediaRange/Specificity`` as one integer with the same order.
    let score: Int
    /// The entry's position in the registry.
    let entry: Int
    /// The range's position in the entry's ranges.
    let rangeIndex: Int

    init(_ range: MediaRange, entry: Int, rangeIndex: Int) {
        self.range = range
        self.entry = entry
        self.rangeIndex = rangeIndex
        let specificity = range.specificity
        score = specificity.rank.rawValue << 40 | Swift.min(specificity.parameterCount, 1 << 39)
    }

    /// Inserts `row` into `table` after every row at least as specific.
    static func insert(_ row: RangeTableRow, into table: inout [RangeTableRow]) {
        let position = table.firstIndex { $0.score < row.score } ?? table.endIndex
        table.insert(row, at: position)
    }

    /// The position in `table` of the first row whose range matches `mediaType`.
    @inline(__always)
    static func firstMatch(in table: [RangeTableRow], for mediaType: MediaType, from start: Int = 0) -> Int? {
        table.withUnsafeBufferPointer { rows in
            var index = start
            while index < rows.count {
                if rows[index].range.matches(mediaType) { return index }
                index += 1
            }
            return nil
        }
    }
}
