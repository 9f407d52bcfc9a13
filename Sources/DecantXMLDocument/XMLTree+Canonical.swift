import DecantXMLParser

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension XMLTree {
    /// A canonical text form of a document, for comparing documents and for signatures.
    public struct CanonicalForm: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Sendable, Hashable {
            case canonicalXML10
            case w3cTestSuite
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// W3C Canonical XML 1.0 without comments (<https://www.w3.org/TR/xml-c14n10/>) of the whole document.
        ///
        /// No XML declaration or document type; comments left out; processing instructions outside the root
        /// element separated from it by line feeds; empty elements as start and end tag pairs; CDATA sections as
        /// escaped text; namespace declarations first (sorted by prefix, only where they are not superfluous, with
        /// `xmlns=""` only where a default namespace is undeclared), then attributes sorted by namespace URI and local
        /// name, defaulted attributes included; `&`, `<`, `>` and carriage returns escaped in text, and `&`, `<`,
        /// `"`, tab, line feed and carriage return in attribute values.
        public static let canonicalXML10 = CanonicalForm(.canonicalXML10)

        /// James Clark's canonical XML, the form of the W3C XML Conformance Test Suite's `out/` files, written by
        /// the parser module's `XMLCanonicalWriter` from the tree's replayed events.
        ///
        /// Attributes (namespace declarations included, as `xmlns` attributes) sorted by qualified name; `&`, `<`,
        /// `>`, `"`, tab, line feed and carriage return escaped as references in text and attribute values; no
        /// comments; processing instructions with one space after the target; a document type only when the
        /// internal subset declares notations.
        public static let w3cTestSuite = CanonicalForm(.w3cTestSuite)

        /// The form's name, such as `canonicalXML10`.
        public var description: String {
            switch kind {
            case .canonicalXML10: return "canonicalXML10"
            case .w3cTestSuite: return "w3cTestSuite"
            }
        }

        var isCanonicalXML10: Bool { kind == .canonicalXML10 }
    }

    /// The document in the canonical `form`: ``CanonicalForm/canonicalXML10`` (W3C Canonical XML 1.0 without
    /// comments) or ``CanonicalForm/w3cTestSuite`` (James Clark's form of the XML conformance suite).
    ///
    /// ```swift
    /// let tree = try XMLTree(parsing: Data("<a b='1' a='2'/>".utf8))
    /// tree.canonicalXML(.canonicalXML10)    // <a a="2" b="1"></a>
    /// ```
    public func canonicalXML(_ form: CanonicalForm = .canonicalXML10) -> String {
        guard form.isCanonicalXML10 else {
            var writer = XMLCanonicalWriter()
            forEachEvent { writer.write($0) }
            return writer.output
        }
        var writer = CanonicalXML10Writer()
        writer.write(storage)
        return writer.output
    }

    /// The document in the canonical `form`, encoded as UTF-8 (the encoding Canonical XML requires).
    public func canonicalXMLData(_ form: CanonicalForm = .canonicalXML10) -> Data {
        Data(canonicalXML(form).utf8)
    }
}

/// Writes Canonical XML 1.0 without comments of a whole document, iteratively (deep documents cannot overflow).
struct CanonicalXML10Writer {
    var output = ""
    /// The namespace bindings in scope, by prefix (`""` for the default namespace; an empty URI means none).
    private var scope: [String: String] = [:]

    mutating func write(_ storage: XMLTree.Storage) {
        var open: [(slot: Int, restore: [(String, String?)])] = []
        var afterRoot = false
        for slot in 0..<storage.count {
            while let last = open.last, storage.end(last.slot) <= slot {
                open.removeLast()
                close(storage.elementRecord(at: last.slot), restoring: last.restore)
            }
            let topLevel = storage.parent(slot) < 0
            switch storage.content(slot) {
            case .element(let record):
                open.append((slot, start(record)))
                if topLevel { afterRoot = true }
            case .text(let text), .cdata(let text):
                Self.escapeText(text, into: &output)
            case .comment:
                break
            case .processingInstruction where storage.isInInternalSubset(slot):
                break
            case .processingInstruction(let target, let data):
                if topLevel && afterRoot { output += "\n" }
                output += "<?" + target
                if !data.isEmpty { output += " " + data }
                output += "?>"
                if topLevel && !afterRoot { output += "\n" }
            }
        }
        while let last = open.popLast() {
            close(storage.elementRecord(at: last.slot), restoring: last.restore)
        }
    }

    /// Writes a start tag and returns the bindings to restore at its end.
    private mutating func start(_ record: XMLTree.ElementRecord) -> [(String, String?)] {
        var restore: [(String, String?)] = []
        var rendered: [(prefix: String, uri: String)] = []
        for declaration in record.namespaceDeclarations {
            let prefix = declaration.prefix ?? ""
            // The xml prefix's binding is implicit and never rendered (C14N 1.0 §4.4 / XPath data model).
            if prefix == "xml" { continue }
            let inherited = scope[prefix] ?? ""
            restore.append((prefix, scope[prefix]))
            scope[prefix] = declaration.uri
            if inherited != declaration.uri, !rendered.contains(where: { $0.prefix == prefix }) {
                rendered.append((prefix, declaration.uri))
            } else if let existing = rendered.firstIndex(where: { $0.prefix == prefix }) {
                rendered[existing].uri = declaration.uri
            }
        }
        rendered.sort { $0.prefix.utf8.lexicographicallyPrecedes($1.prefix.utf8) }
        output += "<" + record.name.qualifiedName
        for (prefix, uri) in rendered {
            output += prefix.isEmpty ? " xmlns=\"" : " xmlns:" + prefix + "=\""
            Self.escapeAttribute(uri, into: &output)
            output += "\""
        }
        let attributes = record.attributes.sorted { left, right in
            let leftURI = left.name.namespaceURI ?? ""
            let rightURI = right.name.namespaceURI ?? ""
            if leftURI != rightURI { return leftURI.utf8.lexicographicallyPrecedes(rightURI.utf8) }
            return left.name.localName.utf8.lexicographicallyPrecedes(right.name.localName.utf8)
        }
        for attribute in attributes {
            output += " " + attribute.name.qualifiedName + "=\""
            Self.escapeAttribute(attribute.value, into: &output)
            output += "\""
        }
        output += ">"
        return restore
    }

    private mutating func close(_ record: XMLTree.ElementRecord, restoring restore: [(String, String?)]) {
        output += "</" + record.name.qualifiedName + ">"
        for (prefix, value) in restore.reversed() {
            scope[prefix] = value
        }
    }

    /// C14N 1.0 §2.3, text nodes: `&`, `<`, `>` and `#xD` replaced.
    static func escapeText(_ text: String, into output: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\r": output += "&#xD;"
            default: output.unicodeScalars.append(scalar)
            }
        }
    }

    /// C14N 1.0 §2.3, attribute nodes: `&`, `<`, `"`, `#x9`, `#xA` and `#xD` replaced.
    static func escapeAttribute(_ text: String, into output: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case "\"": output += "&quot;"
            case "\t": output += "&#x9;"
            case "\n": output += "&#xA;"
            case "\r": output += "&#xD;"
            default: output.unicodeScalars.append(scalar)
            }
        }
    }
}
