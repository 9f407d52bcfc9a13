import DecantCore
import DecantJSON
import DecantXMLParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads an `application/problem+xml` document (RFC 9457 Appendix B) from parser events into a ``ProblemDetails``.
///
/// Member elements are collected into a flat list of nodes (linked by index, so no recursion and one allocation per
/// element); at the end, the extension members are written as one JSON text, iteratively, and parsed once with
/// `JSONParser`. Both steps are linear in the document.
struct ProblemXMLHandler: XMLHandler {
    /// The namespace of the XML form.
    static let namespace = "urn:ietf:rfc:7807"

    /// One member element or an element inside one.
    struct Node {
        var name: String
        var text = ""
        var firstChild = -1
        var lastChild = -1
        var nextSibling = -1
        var hasChildren = false
        var childrenAreItems = true
    }

    let baseURL: URL?
    let maxDepth: Int
    /// Every element below the root in the namespace, in document order.
    var nodes: [Node] = []
    /// The open elements below the root that are collected (indices into `nodes`).
    var open: [Int] = []
    /// The root's member elements, in order.
    var members: [Int] = []
    /// Whether the root has started.
    var sawRoot = false
    /// How many elements deep we are inside an ignored element (one in another namespace).
    var ignoredDepth = 0

    init(baseURL: URL?, maxDepth: Int) {
        self.baseURL = baseURL
        self.maxDepth = maxDepth
    }

    mutating func handle(_ event: XMLEvent, at position: XMLPosition) throws {
        switch event {
        case .startElement(let start):
            guard sawRoot else {
                try checkRoot(start.name, at: position)
                sawRoot = true
                return
            }
            if ignoredDepth > 0 || start.name.namespaceURI != Self.namespace {
                ignoredDepth += 1
                return
            }
            let index = nodes.count
            nodes.append(Node(name: start.name.localName))
            if let parent = open.last {
                if nodes[parent].hasChildren {
                    nodes[nodes[parent].lastChild].nextSibling = index
                } else {
                    nodes[parent].firstChild = index
                    nodes[parent].hasChildren = true
                    nodes[parent].text = ""
                }
                nodes[parent].lastChild = index
                if start.name.localName != "i" { nodes[parent].childrenAreItems = false }
            } else {
                members.append(index)
            }
            open.append(index)
        case .endElement:
            if ignoredDepth > 0 {
                ignoredDepth -= 1
            } else if !open.isEmpty {
                open.removeLast()
            }
        case .characters(let text), .cdata(let text):
            // Text of an element with child elements is not kept: it is only the whitespace between them, or
            // ignored mixed content.
            if ignoredDepth == 0, let current = open.last, !nodes[current].hasChildren {
                nodes[current].text += text
            }
        default:
            break
        }
    }

    private func checkRoot(_ name: XMLName, at position: XMLPosition) throws {
        guard name.localName != "problem" || name.namespaceURI != Self.namespace else { return }
        let found =
            name.namespaceURI.map { "'\(name.localName)' in the namespace '\($0)'" }
            ?? "'\(name.qualifiedName)' in no namespace"
        throw SerializationError(
            code: .notAProblemDocument,
            message: "The application/problem+xml root element is \(found), not 'problem' in the namespace "
                + "'\(Self.namespace)' (RFC 9457 Appendix B). Send <problem xmlns=\"\(Self.namespace)\">...</problem>, "
                + "or handle this media type with an XML serializer.",
            serializerID: MediaFormat.problemDetails.id,
            offset: position.offset)
    }

    mutating func finish() throws -> ProblemDetails {
        var problem = ProblemDetails()
        var json: [UInt8] = [UInt8(ascii: "{")]
        var hasExtensions = false
        for index in members {
            let node = nodes[index]
            switch node.name {
            case "type", "instance":
                // The last occurrence wins, also when it has the wrong content (then the member is absent).
                let url = node.hasChildren ? nil : ProblemDetails.resolve(Self.trimmed(node.text), against: baseURL)
                if node.name == "type" {
                    problem.type = url ?? ProblemDetails.aboutBlank
                } else {
                    problem.instance = url
                }
            case "title": problem.title = node.hasChildren ? nil : node.text
            case "detail": problem.detail = node.hasChildren ? nil : node.text
            case "status": problem.status = node.hasChildren ? nil : Self.positiveInteger(Self.trimmed(node.text))
            default:
                if hasExtensions { json.append(UInt8(ascii: ",")) }
                hasExtensions = true
                Self.appendString(node.name, to: &json)
                json.append(UInt8(ascii: ":"))
                appendValue(of: index, to: &json)
            }
        }
        json.append(UInt8(ascii: "}"))
        if hasExtensions {
            // The text was written here, so it is valid JSON; its nesting is at most the XML depth plus one.
            let parser = JSONParser(
                options: JSONParsingOptions(allowsFragments: false, maxDepth: maxDepth + 1, maxBytes: Int.max))
            let object = try parser.parse(Data(json))
            problem.extensions = object.members.map { ProblemDetails.Extension(name: $0.key, value: $0.value) }
        }
        return problem
    }

    /// Writes the JSON value of the element `start`: a string, an array of its `i` children, or an object.
    private func appendValue(of start: Int, to json: inout [UInt8]) {
        // Open containers: the node, the next child to write, and whether one was written.
        var stack: [(node: Int, next: Int, wroteOne: Bool)] = []
        func open(_ index: Int, into json: inout [UInt8], stack: inout [(node: Int, next: Int, wroteOne: Bool)]) {
            let node = nodes[index]
            guard node.hasChildren else {
                Self.appendString(node.text, to: &json)
                return
            }
            json.append(node.childrenAreItems ? UInt8(ascii: "[") : UInt8(ascii: "{"))
            stack.append((index, node.firstChild, false))
        }
        open(start, into: &json, stack: &stack)
        while let top = stack.last {
            let parent = nodes[top.node]
            guard top.next >= 0 else {
                json.append(parent.childrenAreItems ? UInt8(ascii: "]") : UInt8(ascii: "}"))
                stack.removeLast()
                continue
            }
            let child = top.next
            stack[stack.count - 1].next = nodes[child].nextSibling
            if top.wroteOne { json.append(UInt8(ascii: ",")) }
            stack[stack.count - 1].wroteOne = true
            if !parent.childrenAreItems {
                Self.appendString(nodes[child].name, to: &json)
                json.append(UInt8(ascii: ":"))
            }
            open(child, into: &json, stack: &stack)
        }
    }

    /// Appends `text` as a JSON string (RFC 8259 §7, `JSONText`).
    static func appendString(_ text: String, to json: inout [UInt8]) {
        JSONText.appendQuoted(text, to: &json)
    }

    /// `text` without leading and trailing XML whitespace (space, tab, carriage return, line feed).
    static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// The value of an `xsd:positiveInteger` written as `text` (digits with an optional `+`), when it fits an `Int`.
    static func positiveInteger(_ text: String) -> Int? {
        var digits = Substring(text)
        if digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(digits), value > 0
        else { return nil }
        return value
    }
}
