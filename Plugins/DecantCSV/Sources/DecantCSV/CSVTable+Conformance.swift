public import DecantCore
public import DecantJSON

extension CSVTable: ConformanceInitializable {
    /// The table of `{"header": ["a", "b"] or null, "rows": [["1", "2"], ...]}`: what `decant encode --content-type
    /// text/csv` reads, the inverse of ``conformanceValue()``.
    ///
    /// - Throws: `SerializationError.Code.unsupportedValue` naming the expected form when `form` is not one (a field
    ///   that is not a string, a missing key, another key).
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        let expected = #"{"header": ["a", "b"] or null, "rows": [["1", "2"], ...]}"#
        guard let entries = form.objectEntries, entries.count == 2, let headerValue = form["header"],
            let rowValues = form["rows"]?.arrayValue
        else { throw .canonicalForm(expected: expected, for: CSVTable.self) }
        func strings(_ value: JSONValue) throws(SerializationError) -> [String] {
            guard let items = value.arrayValue else {
                throw .canonicalForm(expected: expected + ", every row and the header an array", for: CSVTable.self)
            }
            var fields: [String] = []
            fields.reserveCapacity(items.count)
            for item in items {
                guard let field = item.stringValue else {
                    throw .canonicalForm(expected: expected + ", every field a string", for: CSVTable.self)
                }
                fields.append(field)
            }
            return fields
        }
        let header = headerValue.isNull ? nil : try strings(headerValue)
        var rows: [[String]] = []
        rows.reserveCapacity(rowValues.count)
        for row in rowValues { rows.append(try strings(row)) }
        self.init(header: header, rows: rows)
    }
}
