import DecantCore
import DecantXMLParser

extension XMLTree {
    /// Why ``xmlString()`` cannot write this tree as a well-formed document, or `nil` when it can.
    ///
    /// A tree parsed from a document always can. One built from events may hold what XML has no way to write: a
    /// character outside the Char production (U+0000, most C0 controls, U+FFFE), a name that is not an XML Name, a
    /// comment containing `--` or ending in `-`, a processing instruction whose data contains `?>` or whose target
    /// is `xml`, or a document type whose system or public identifier holds both kinds of quote. Checked in one
    /// pass over the nodes, iteratively, so any depth is checked.
    ///
    /// - Returns: The problem, and the coding path of the node that has it: the element names from the root down,
    ///   then `@name` for an attribute, `xmlns` for a namespace declaration, or the node's kind (`#text`,
    ///   `#cdata`, `#comment`, `#processing-instruction`).
    func writingProblem() -> (message: String, codingPath: [String])? {
        if let documentType, let problem = Self.problem(in: documentType) {
            return (problem, ["#doctype"])
        }
        for slot in 0..<storage.count {
            let problem: (message: String, last: String?)?
            switch storage.content(slot) {
            case .element(let record):
                problem = Self.problem(in: record)
            case .text(let text):
                problem = Self.characterProblem(in: text, what: "The text").map { ($0, "#text") }
            case .cdata(let text):
                problem = Self.characterProblem(in: text, what: "The CDATA section").map { ($0, "#cdata") }
            case .comment(let text):
                problem = Self.commentProblem(text).map { ($0, "#comment") }
            case .processingInstruction(let target, let data):
                problem = Self.processingInstructionProblem(target: target, data: data).map {
                    ($0, "#processing-instruction")
                }
            }
            if let problem {
                return (problem.message, elementPath(to: slot) + (problem.last.map { [$0] } ?? []))
            }
        }
        return nil
    }

    /// The names of the elements from the root down to `slot` (itself included when it is an element).
    private func elementPath(to slot: Int) -> [String] {
        var path: [String] = []
        var current = storage.isElement(slot) ? slot : storage.parent(slot)
        while current >= 0 {
            path.append(storage.name(current).qualifiedName)
            current = storage.parent(current)
        }
        return path.reversed()
    }

    private static func problem(in record: ElementRecord) -> (message: String, last: String?)? {
        let name = record.name.qualifiedName
        guard XMLGrammar.isName(name) else {
            return ("The element name \(quoted(name)) is not an XML name.", nil)
        }
        for declaration in record.namespaceDeclarations {
            if let prefix = declaration.prefix, !XMLGrammar.isNCName(prefix) {
                return ("The namespace prefix \(quoted(prefix)) is not an XML NCName.", "xmlns")
            }
            if let problem = characterProblem(in: declaration.uri, what: "The namespace name") {
                return (problem, "xmlns")
            }
        }
        for attribute in record.attributes {
            let attributeName = attribute.name.qualifiedName
            guard XMLGrammar.isName(attributeName) else {
                return ("The attribute name \(quoted(attributeName)) is not an XML name.", "@" + attributeName)
            }
            if let problem = characterProblem(in: attribute.value, what: "The attribute value") {
                return (problem, "@" + attributeName)
            }
        }
        return nil
    }

    private static func problem(in documentType: XMLDocumentType) -> String? {
        guard XMLGrammar.isName(documentType.name) else {
            return "The document type name \(quoted(documentType.name)) is not an XML name."
        }
        for literal in [documentType.publicID, documentType.systemID].compactMap({ $0 })
        where literal.contains("\"") && literal.contains("'") {
            return "The document type identifier \(quoted(literal)) holds both kinds of quote, which no literal can."
        }
        if let subset = documentType.internalSubset {
            return characterProblem(in: subset, what: "The internal subset")
        }
        return nil
    }

    private static func commentProblem(_ text: String) -> String? {
        if let problem = characterProblem(in: text, what: "The comment") { return problem }
        if text.contains("--") || text.hasSuffix("-") {
            return "The comment \(quoted(text)) contains \"--\" or ends in \"-\", which XML comments cannot."
        }
        return nil
    }

    private static func processingInstructionProblem(target: String, data: String) -> String? {
        guard XMLGrammar.isName(target), target.lowercased() != "xml" else {
            return "The processing instruction target \(quoted(target)) is not an XML name other than \"xml\"."
        }
        if let problem = characterProblem(in: data, what: "The processing instruction") { return problem }
        if data.contains("?>") {
            return "The processing instruction data \(quoted(data)) contains \"?>\", which would end it."
        }
        return nil
    }

    /// The problem with the first scalar of `text` outside XML 1.0's Char production, or `nil`.
    private static func characterProblem(in text: String, what: String) -> String? {
        guard let scalar = text.unicodeScalars.first(where: { !XMLGrammar.isCharacter($0) }) else { return nil }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\(what) contains U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex), which XML 1.0 "
            + "cannot carry, not even as a character reference."
    }

    private static func quoted(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(60)) + "..." : text
        return "\"" + shown + "\""
    }
}
