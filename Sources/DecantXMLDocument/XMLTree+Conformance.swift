public import DecantCore
public import DecantJSON
public import DecantXMLParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension XMLTree: ConformanceRepresentable {
    /// `{"c14n": TEXT}`: the document in W3C Canonical XML 1.0 without comments, which independent tools (libxml2
    /// through lxml, for the fixtures) compute too.
    public func conformanceValue() throws -> JSONValue {
        .object([("c14n", try JSONValue(checking: canonicalXML(.canonicalXML10)))])
    }
}

extension XMLTree: ConformanceInitializable {
    /// The tree of the document `TEXT` in `{"c14n": TEXT}`, parsed with the default `XMLParsingOptions`.
    ///
    /// Canonical XML is itself a well-formed document, and parsing it gives a tree whose canonical form is that text
    /// again, so `XMLTree(conformanceValue: tree.conformanceValue())` is a tree with the same canonical form. Any
    /// other well-formed document is accepted too (`decant encode --content-type application/xml` writes it).
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` when `form` is not a one-member object
    ///   `{"c14n": TEXT}`, and the parser's errors (`invalidBody` with the offset in TEXT's UTF-8, `limitExceeded`)
    ///   when TEXT is not a well-formed document.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        guard form.objectEntries?.count == 1, let text = form["c14n"]?.stringValue else {
            throw .canonicalForm(expected: #"{"c14n": TEXT}, TEXT an XML document"#, for: XMLTree.self)
        }
        do {
            try self.init(parsing: Data(text.utf8))
        } catch {
            var error = error
            error.message =
                "The \"c14n\" text of the canonical form is not a well-formed XML document: " + error.message
            throw error
        }
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
