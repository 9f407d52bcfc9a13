public import DecantJSON
public import DecantXMLParser

extension XMLTree: ConformanceRepresentable {
    /// `{"c14n": TEXT}`: the document in W3C Canonical XML 1.0 without comments, which independent tools (libxml2
    /// through lxml, for the fixtures) compute too.
    public func conformanceValue() throws -> JSONValue {
        .object([("c14n", try JSONValue(checking: canonicalXML(.canonicalXML10)))])
    }
}

// The streaming parser's form is the form of the tree its events build. Canonical XML 1.0 is written from a tree, so
// this conformance lives here rather than in DecantXMLParser, which cannot depend on DecantXMLDocument.
extension XMLStreamParser: ConformanceRepresentable {
    /// The form of the tree its events build: `{"c14n": TEXT}`, as for `XMLTree`.
    public func conformanceValue() throws -> JSONValue {
        try XMLTree(parsing: data, mediaType: mediaType, options: options).conformanceValue()
    }
}
