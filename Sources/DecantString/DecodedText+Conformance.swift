public import DecantCore
public import DecantJSON

extension DecodedText: ConformanceRepresentable {
    /// `{"text": TEXT, "encoding": WHATWG-NAME}`.
    public func conformanceValue() throws -> JSONValue {
        .object([("text", try JSONValue(checking: text)), ("encoding", JSONValue(encoding.name))])
    }
}
