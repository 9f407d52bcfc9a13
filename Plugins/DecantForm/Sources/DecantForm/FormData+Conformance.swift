public import DecantJSON

extension FormData: ConformanceRepresentable {
    /// `{"pairs": [["name", "value"], ...]}`, the pairs in body order with repeated names kept: the shape of the WPT
    /// `urlencoded-parser-data.json` outputs. This form is a stable contract of `decant decode --json` and of the
    /// `Fixtures/form` expectations.
    ///
    /// - Throws: `SerializationError.Code.limitExceeded` when one name or value is longer than
    ///   `JSONValue.maxStringBytes`.
    public func conformanceValue() throws -> JSONValue {
        var rows: [JSONValue] = []
        rows.reserveCapacity(pairs.count)
        for pair in pairs {
            rows.append(.array([try JSONValue(checking: pair.name), try JSONValue(checking: pair.value)]))
        }
        return .object([("pairs", .array(rows))])
    }
}
