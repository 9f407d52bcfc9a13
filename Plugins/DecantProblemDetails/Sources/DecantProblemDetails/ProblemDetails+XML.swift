public import DecantCore
import DecantJSON
public import DecantXMLDocument
import DecantXMLParser

extension ProblemDetails {
    /// The problem as an `application/problem+xml` document (RFC 9457 Appendix B): the root `problem` in the
    /// namespace `urn:ietf:rfc:7807` with one child element per member: `type` (always), `title`, `status`, `detail`
    /// and `instance` when present, then the extension members in order.
    ///
    /// An extension member's element holds its value: a string as text, a number as its JSON text, `true` or
    /// `false`, an array as one `<i>` element per item, an object as one element per member, and `null` (or an empty
    /// array or object) as nothing. Built without recursion, so any nesting is built; ``ProblemDetailsBodyEncoder``
    /// bounds it by what reading it back allows.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed` and the coding path when an extension name or a
    ///   key of an object inside an extension value is not an XML NCName (a name without a colon: `balance`, not
    ///   `a:b` or `2x`), or when ``status`` is not a positive integer (`xsd:positiveInteger`).
    public func xmlTree() throws(SerializationError) -> XMLTree {
        let root = Self.xmlName("problem")
        var events: [XMLEvent] = [
            .startElement(
                XMLElementStart(
                    name: root,
                    namespaceDeclarations: [XMLNamespaceDeclaration(prefix: nil, uri: ProblemXMLHandler.namespace)]))
        ]
        func appendLeaf(_ name: String, _ text: String) {
            events.append(.startElement(XMLElementStart(name: Self.xmlName(name))))
            if !text.isEmpty { events.append(.characters(text)) }
            events.append(.endElement(Self.xmlName(name)))
        }
        appendLeaf("type", type.absoluteString)
        if let title { appendLeaf("title", title) }
        if let status {
            guard status > 0 else {
                throw SerializationError(
                    code: .encodingFailed,
                    message: "The status \(status) is not a positive integer, which is all the XML form carries "
                        + "(RFC 9457 Appendix B, xsd:positiveInteger). Use an HTTP status code, or write JSON.",
                    codingPath: ["status"])
            }
            appendLeaf("status", String(status))
        }
        if let detail { appendLeaf("detail", detail) }
        if let instance { appendLeaf("instance", instance.absoluteString) }
        for member in extensions {
            try Self.appendElement(named: member.name, value: member.value, to: &events)
        }
        events.append(.endElement(root))
        return try XMLTree(events: events)
    }

    /// A name in the problem namespace, without a prefix.
    private static func xmlName(_ localName: String) -> XMLName {
        XMLName(qualifiedName: localName, localName: localName, namespaceURI: ProblemXMLHandler.namespace)
    }

    /// Appends the events of the element `name` holding `value`, iteratively.
    private static func appendElement(
        named name: String, value: JSONValue, to events: inout [XMLEvent]
    ) throws(SerializationError) {
        // Every element to write, with its parent's index, for the coding path of an error.
        var nodes: [(name: String, parent: Int)] = [(name, -1)]
        enum Step {
            case open(node: Int, value: JSONValue)
            case close(String)
        }
        var steps: [Step] = [.open(node: 0, value: value)]
        while let step = steps.popLast() {
            switch step {
            case .close(let name):
                events.append(.endElement(xmlName(name)))
            case .open(let node, let value):
                let name = nodes[node].name
                guard XMLGrammar.isNCName(name) else {
                    var path: [String] = []
                    var current = node
                    while current >= 0 {
                        path.append(nodes[current].name)
                        current = nodes[current].parent
                    }
                    throw SerializationError(
                        code: .encodingFailed,
                        message: "The name \"\(name)\" cannot be an XML element name (it is not an NCName: a name "
                            + "without a colon that starts with a letter or underscore). Rename it, or write JSON.",
                        codingPath: ["extensions"] + path.reversed())
                }
                events.append(.startElement(XMLElementStart(name: xmlName(name))))
                switch value.kind {
                case .array, .object:
                    steps.append(.close(name))
                    let children: [(String, JSONValue)] =
                        value.kind == .array
                        ? value.elements.map { ("i", $0) } : value.members.map { ($0.key, $0.value) }
                    for (key, child) in children.reversed() {
                        nodes.append((key, node))
                        steps.append(.open(node: nodes.count - 1, value: child))
                    }
                case .string, .number, .bool, .null:
                    let text = value.stringValue ?? value.numberValue?.text ?? value.boolValue.map { "\($0)" } ?? ""
                    if !text.isEmpty { events.append(.characters(text)) }
                    events.append(.endElement(xmlName(name)))
                }
            }
        }
    }
}
