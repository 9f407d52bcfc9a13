public import DecantCore
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

extension FormData: ConformanceInitializable {
    /// The pairs of `{"pairs": [["name", "value"], ...]}`, in order: what `decant encode --content-type
    /// application/x-www-form-urlencoded` reads.
    ///
    /// - Throws: `SerializationError.Code.unsupportedValue` naming the expected form when `form` is not one.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        let expected = #"{"pairs": [["name", "value"], ...]}"#
        guard form.objectEntries?.count == 1, let rows = form["pairs"]?.arrayValue else {
            throw .canonicalForm(expected: expected, for: FormData.self)
        }
        var pairs: [Pair] = []
        pairs.reserveCapacity(rows.count)
        for row in rows {
            guard let cells = row.arrayValue, cells.count == 2, let name = cells[0].stringValue,
                let value = cells[1].stringValue
            else { throw .canonicalForm(expected: expected + ", each pair two strings", for: FormData.self) }
            pairs.append(Pair(name: name, value: value))
        }
        self.init(pairs: pairs)
    }
}
