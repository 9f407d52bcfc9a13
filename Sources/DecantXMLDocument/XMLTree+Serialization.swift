import DecantXMLParser

extension XMLTree {
    /// The document serialized as XML text: the XML declaration (without its encoding, since the result is a
    /// `String`) and document type when the tree has them, then the nodes in document order.
    ///
    /// Empty elements are written `<a/>`; attributes in their order, after the namespace declarations; CDATA
    /// sections as written (split where their text holds `]]>`); text escaped so that parsing the result gives the
    /// same tree. Attributes the internal subset defaulted are left out when the document type is kept (it adds them
    /// again). Line feeds separate the top-level nodes.
    public func xmlString() -> String {
        xmlString(declaringEncoding: nil)
    }

    /// The document as ``xmlString()`` writes it, with an XML declaration naming `encoding` when it is given (the
    /// tree's version and standalone declaration, else version 1.0), for bytes in that encoding.
    func xmlString(declaringEncoding encoding: String?) -> String {
        var output = ""
        if declaration != nil || encoding != nil {
            output += "<?xml version=\"" + (declaration?.version ?? "1.0") + "\""
            if let encoding { output += " encoding=\"" + encoding + "\"" }
            if let standalone = declaration?.standalone {
                output += " standalone=\"\(standalone ? "yes" : "no")\""
            }
            output += "?>\n"
        }
        var writer = XMLTextWriter(keepsDefaultedAttributes: documentType?.internalSubset == nil)
        for (position, slot) in storage.prolog.enumerated() {
            if position == storage.documentTypePosition { writer.output += documentTypeDeclaration() }
            // Nodes inside the internal subset are in its text already.
            if storage.isInInternalSubset(slot) { continue }
            writer.write(storage, range: slot..<(slot + 1))
            writer.output += "\n"
        }
        if storage.documentTypePosition >= storage.prolog.count { writer.output += documentTypeDeclaration() }
        writer.write(storage, range: storage.rootIndex..<storage.end(storage.rootIndex))
        for slot in storage.epilog {
            writer.output += "\n"
            writer.write(storage, range: slot..<(slot + 1))
        }
        return output + writer.output
    }

    /// `<!DOCTYPE ...>` and a line feed, or nothing when the document has no document type declaration.
    private func documentTypeDeclaration() -> String {
        guard let documentType else { return "" }
        var output = "<!DOCTYPE " + documentType.name
        if let publicID = documentType.publicID {
            output += " PUBLIC " + Self.quoteLiteral(publicID) + " " + Self.quoteLiteral(documentType.systemID ?? "")
        } else if let systemID = documentType.systemID {
            output += " SYSTEM " + Self.quoteLiteral(systemID)
        }
        if let subset = documentType.internalSubset { output += " [" + subset + "]" }
        return output + ">\n"
    }

    static func serialize(_ storage: Storage, range: Range<Int>) -> String {
        var writer = XMLTextWriter(keepsDefaultedAttributes: true)
        writer.write(storage, range: range)
        return writer.output
    }

    private static func quoteLiteral(_ text: String) -> String {
        text.contains("\"") ? "'" + text + "'" : "\"" + text + "\""
    }
}

/// Writes nodes as XML text, iteratively.
struct XMLTextWriter {
    var output = ""
    let keepsDefaultedAttributes: Bool

    mutating func write(_ storage: XMLTree.Storage, range: Range<Int>) {
        var open: [Int] = []
        for slot in range {
            while let last = open.last, storage.end(last) <= slot {
                open.removeLast()
                output += "</" + storage.name(last).qualifiedName + ">"
            }
            switch storage.content(slot) {
            case .element(let record):
                output += "<" + record.name.qualifiedName
                for declaration in record.namespaceDeclarations {
                    output += declaration.prefix.map { " xmlns:" + $0 + "=\"" } ?? " xmlns=\""
                    Self.escape(declaration.uri, attribute: true, into: &output)
                    output += "\""
                }
                for attribute in record.attributes where attribute.isSpecified || keepsDefaultedAttributes {
                    output += " " + attribute.name.qualifiedName + "=\""
                    Self.escape(attribute.value, attribute: true, into: &output)
                    output += "\""
                }
                if storage.end(slot) == slot + 1 {
                    output += "/>"
                } else {
                    output += ">"
                    open.append(slot)
                }
            case .text(let text):
                Self.escape(text, attribute: false, into: &output)
            case .cdata(let text):
                output += "<![CDATA[" + text.replacingAll("]]>", with: "]]]]><![CDATA[>") + "]]>"
            case .comment(let text):
                output += "<!--" + text + "-->"
            case .processingInstruction(let target, let data):
                output += "<?" + target + (data.isEmpty ? "" : " " + data) + "?>"
            }
        }
        while let last = open.popLast() {
            output += "</" + storage.name(last).qualifiedName + ">"
        }
    }

    /// Escapes markup characters, `>` (so `]]>` never appears in text) and the whitespace that parsing would
    /// otherwise normalize away.
    static func escape(_ text: String, attribute: Bool, into output: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\r": output += "&#xD;"
            case "\"" where attribute: output += "&quot;"
            case "\t" where attribute: output += "&#x9;"
            case "\n" where attribute: output += "&#xA;"
            default: output.unicodeScalars.append(scalar)
            }
        }
    }
}

extension String {
    /// The string with every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension XMLTree: CustomStringConvertible {
    /// The document serialized as XML (see ``xmlString()``).
    public var description: String { xmlString() }
}
