public import DecantJSON

extension PropertyListValue: ConformanceRepresentable {
    /// The typed JSON of `../shared/corpora/plist/cpython/valid/*.expected.json`: `{"dict": ...}`,
    /// `{"integer": "42"}`, `{"real": "0.5"}`, `{"date": ...}`, `{"data_base64": ...}`, `{"uid": n}`.
    public func conformanceValue() throws -> JSONValue {
        try JSONParser(options: JSONParsingOptions(maxDepth: 100_000)).parse(canonicalJSONText())
    }
}
