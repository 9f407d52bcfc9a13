import DecantXMLParser

/// A compiled path query: a small, documented subset of XPath 1.0 abbreviated syntax.
///
/// | syntax | selects |
/// |---|---|
/// | `a`, `p:a` | child elements with that name (prefixes resolved through the namespace map) |
/// | `*`, `p:*` | every child element (in the namespace of `p`) |
/// | `/a` | from the document: the root element when it is named `a` |
/// | `//a`, `x//a` | `a` elements anywhere below (XPath's `descendant-or-self::node()/a`) |
/// | `.`, `..` | the context element, its parent |
/// | `a[2]`, `a[last()]` | the second, the last `a` child of each parent (1-based) |
/// | `a[@id]`, `a[@id='x']` | `a` children with an `id` attribute (equal to `x`) |
/// | `a[b='x']`, `a[text()='x']`, `a[.='x']` | `a` with a child `b` whose text is `x`, a text node `x`, text `x` |
/// | `.../@id`, `.../@*`, `//@id` | attribute values, as strings (last step only) |
/// | `.../text()`, `//text()` | text nodes (adjacent CDATA merged), as strings (last step only) |
///
/// Unprefixed element names match elements in no namespace, as in XPath 1.0, unless the namespace map binds the
/// empty prefix `""`, which then applies to unprefixed element names (never to attribute names).
/// Literals are quoted with `'` or `"`. Anything else (functions, axes such as `following-sibling::`, operators,
/// unions) throws an ``XMLPathError`` that lists what is supported. So does an expression with more than 256 steps or
/// more than 256 predicates, which keeps the cost of running one proportional to the document.
///
/// ```swift
/// let path = try XMLPath("//atom:entry[@xml:lang='en']/atom:title/text()",
///                        namespaces: ["atom": "http://www.w3.org/2005/Atom"])
/// let titles = try tree.strings(at: path)
/// ```
public struct XMLPath: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let expression: String
    let isAbsolute: Bool
    let steps: [Step]
    let final: Final?

    /// Whether the path ends in an `@attribute` or `text()` step, so that it selects strings rather than elements.
    public var selectsStrings: Bool { final != nil }

    /// Compiles `expression`, resolving its prefixes through `namespaces` (prefix to namespace URI; `""` binds
    /// unprefixed element names).
    ///
    /// - Throws: ``XMLPathError`` for syntax outside the supported subset, or a prefix `namespaces` does not bind.
    public init(_ expression: String, namespaces: [String: String] = [:]) throws(XMLPathError) {
        var parser = PathParser(expression: expression, namespaces: namespaces)
        let parsed = try parser.parse()
        self.expression = expression
        self.isAbsolute = parsed.isAbsolute
        self.steps = parsed.steps
        self.final = parsed.final
    }

    /// The expression.
    public var description: String { expression }

    enum Axis: Sendable, Hashable {
        case child
        /// `//name`: children of the context node and of every descendant.
        case descendant
        case selfNode
        case parent
    }

    enum NameTest: Sendable, Hashable {
        case any
        case namespace(String)
        case name(localName: String, namespaceURI: String?)

        func matches(_ name: XMLName) -> Bool {
            switch self {
            case .any: return true
            case .namespace(let uri): return name.namespaceURI == uri
            case .name(let localName, let uri): return name.localName == localName && name.namespaceURI == uri
            }
        }
    }

    enum Predicate: Sendable, Hashable {
        case position(Int)
        case last
        case hasAttribute(NameTest)
        case attributeEquals(NameTest, String)
        case childEquals(NameTest, String)
        case textEquals(String)
        case valueEquals(String)
    }

    struct Step: Sendable, Hashable {
        var axis: Axis
        var test: NameTest
        var predicates: [Predicate]
    }

    enum Final: Sendable, Hashable {
        case attribute(NameTest, descendant: Bool)
        case text(descendant: Bool)
    }
}

/// A path query outside the supported subset, or one that cannot select what was asked for.
public struct XMLPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The expression.
    public let expression: String
    /// Where in the expression the problem is, in Unicode scalars from 0, when it is about one place.
    public let offset: Int?
    /// What is wrong and how to fix it.
    public let message: String

    /// An error about `expression`.
    public init(expression: String, offset: Int?, message: String) {
        self.expression = expression
        self.offset = offset
        self.message = message
    }

    /// The supported syntax, as the error messages list it.
    public static let supportedSyntax =
        "Supported: child steps by name (a, p:a) or * (p:*), // descendant steps, . and .., predicates [n], "
        + "[last()], [@attr], [@attr='value'], [name='text'], [text()='text'], [.='text'], and a final @attr, @* "
        + "or text() step."

    /// The message, with the expression and the offset.
    public var description: String {
        let place = offset.map { " at offset \($0)" } ?? ""
        return "The path \"\(expression)\"\(place): \(message)"
    }
}

/// A recursive-descent reader of the supported grammar.
private struct PathParser {
    let expression: String
    let namespaces: [String: String]
    let scalars: [Unicode.Scalar]
    var position = 0

    /// The most steps, and the most predicates, one expression may have: each costs up to a pass over the document,
    /// and an expression such as 100 KB of `//*` would otherwise run tens of thousands of them.
    static let maxSteps = 256
    static let maxPredicates = 256

    /// Predicates read so far, in all steps.
    private var predicateCount = 0

    init(expression: String, namespaces: [String: String]) {
        self.expression = expression
        self.namespaces = namespaces
        self.scalars = Array(expression.unicodeScalars)
    }

    struct Parsed {
        var isAbsolute = false
        var steps: [XMLPath.Step] = []
        var final: XMLPath.Final?
    }

    private func failure(_ message: String, at offset: Int? = nil, listSupported: Bool = true) -> XMLPathError {
        XMLPathError(
            expression: expression, offset: offset ?? position,
            message: message + (listSupported ? " " + XMLPathError.supportedSyntax : ""))
    }

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ text: String) -> Bool {
        var index = position
        for scalar in text.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    private mutating func consume(_ text: String) -> Bool {
        guard peek(text) else { return false }
        position += text.unicodeScalars.count
        return true
    }

    private mutating func skipSpaces() {
        while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
            position += 1
        }
    }

    mutating func parse() throws(XMLPathError) -> Parsed {
        var parsed = Parsed()
        skipSpaces()
        guard current != nil else { throw failure("The path is empty.", at: 0) }
        var axis = XMLPath.Axis.child
        if consume("//") {
            parsed.isAbsolute = true
            axis = .descendant
        } else if consume("/") {
            parsed.isAbsolute = true
            skipSpaces()
            if current == nil {
                throw failure(
                    "\"/\" alone selects the document, not an element; name the root element, as in \"/root\".",
                    listSupported: false)
            }
        }
        while true {
            skipSpaces()
            if parsed.final != nil {
                throw failure("An @attribute or text() step must be the last step.")
            }
            guard parsed.steps.count < Self.maxSteps else {
                throw failure(
                    "The path has more than \(Self.maxSteps) steps; split the query or select fewer levels.",
                    listSupported: false)
            }
            try parseStep(axis: axis, into: &parsed)
            skipSpaces()
            if current == nil { break }
            if consume("//") {
                axis = .descendant
            } else if consume("/") {
                axis = .child
            } else {
                throw failure("Unexpected \"\(String(current!))\" after a step; steps are separated by / or //.")
            }
        }
        return parsed
    }

    private mutating func parseStep(axis: XMLPath.Axis, into parsed: inout Parsed) throws(XMLPathError) {
        let start = position
        if consume("@") {
            let test = try parseNameTest(isAttribute: true)
            parsed.final = .attribute(test, descendant: axis == .descendant)
            return
        }
        if consume("text()") {
            parsed.final = .text(descendant: axis == .descendant)
            return
        }
        if consume("..") {
            guard axis == .child else { throw failure("\"//..\" is not supported.", at: start) }
            parsed.steps.append(XMLPath.Step(axis: .parent, test: .any, predicates: []))
            try rejectPredicates(after: "..")
            return
        }
        if consume(".") {
            guard axis == .child else {
                throw failure("\"//.\" is not supported; use \"//*\" for every element below.", at: start)
            }
            parsed.steps.append(XMLPath.Step(axis: .selfNode, test: .any, predicates: []))
            try rejectPredicates(after: ".")
            return
        }
        let test = try parseNameTest(isAttribute: false)
        var predicates: [XMLPath.Predicate] = []
        skipSpaces()
        while consume("[") {
            predicateCount += 1
            guard predicateCount <= Self.maxPredicates else {
                throw failure("The path has more than \(Self.maxPredicates) predicates.", listSupported: false)
            }
            predicates.append(try parsePredicate())
            skipSpaces()
        }
        parsed.steps.append(XMLPath.Step(axis: axis, test: test, predicates: predicates))
    }

    private mutating func rejectPredicates(after step: String) throws(XMLPathError) {
        skipSpaces()
        if current == "[" { throw failure("A predicate after \"\(step)\" is not supported.") }
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "/", "[", "]", "@", "=", "(", ")", "*", ":", "'", "\"", " ", "\t", "\n", "\r", "|", ",", "!", "<", ">",
            "+", "$":
            return false
        default:
            return true
        }
    }

    private mutating func parseName() -> String? {
        let start = position
        while let scalar = current, Self.isNameScalar(scalar) {
            position += 1
        }
        guard position > start else { return nil }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[start..<position])
        let text = String(name)
        if let first = text.unicodeScalars.first, first == "-" || first == "." || ("0"..."9").contains(first) {
            position = start
            return nil
        }
        return text
    }

    private mutating func parseNameTest(isAttribute: Bool) throws(XMLPathError) -> XMLPath.NameTest {
        let start = position
        if consume("*") { return .any }
        guard let first = parseName() else {
            let found = current.map { "\"\(String($0))\"" } ?? "the end"
            throw failure("Expected a name or * but found \(found).")
        }
        if peek("::") {
            throw failure("Axes such as \"\(first)::\" are not supported.", at: start)
        }
        if current == "(" {
            throw failure("The function \(first)() is not supported here.", at: start)
        }
        if consume(":") {
            let uri = try resolve(prefix: first, at: start)
            if consume("*") { return .namespace(uri) }
            guard let local = parseName() else { throw failure("Expected a local name or * after \"\(first):\".") }
            return .name(localName: local, namespaceURI: uri)
        }
        if !isAttribute, let uri = namespaces[""], !uri.isEmpty {
            return .name(localName: first, namespaceURI: uri)
        }
        return .name(localName: first, namespaceURI: nil)
    }

    private func resolve(prefix: String, at offset: Int) throws(XMLPathError) -> String {
        if prefix == "xml" { return namespaces["xml"] ?? XMLTree.xmlNamespace }
        guard let uri = namespaces[prefix] else {
            let known = namespaces.keys.filter { !$0.isEmpty }.sorted()
            let binds = known.isEmpty ? "." : " (the map binds " + known.joined(separator: ", ") + ")."
            throw failure(
                "The prefix \"\(prefix)\" is not in the namespace map; pass it, as in namespaces: [\"\(prefix)\": "
                    + "\"http://...\"]" + binds,
                at: offset, listSupported: false)
        }
        return uri
    }

    private mutating func parseLiteral() throws(XMLPathError) -> String {
        skipSpaces()
        guard let quote = current, quote == "'" || quote == "\"" else {
            throw failure("Expected a quoted literal after \"=\", such as 'value'.")
        }
        let start = position
        position += 1
        var value = String.UnicodeScalarView()
        while let scalar = current, scalar != quote {
            value.append(scalar)
            position += 1
        }
        guard current == quote else { throw failure("The literal is not closed.", at: start, listSupported: false) }
        position += 1
        return String(value)
    }

    private mutating func parsePredicate() throws(XMLPathError) -> XMLPath.Predicate {
        skipSpaces()
        let start = position
        let predicate: XMLPath.Predicate
        if let digit = current, ("0"..."9").contains(digit) {
            var number = 0
            while let scalar = current, ("0"..."9").contains(scalar) {
                number = number &* 10 &+ Int(scalar.value - 48)
                guard number < 1 << 40 else { throw failure("The position is too large.", at: start) }
                position += 1
            }
            guard number >= 1 else { throw failure("Positions start at 1.", at: start, listSupported: false) }
            predicate = .position(number)
        } else if consume("last()") {
            predicate = .last
        } else if consume("@") {
            let test = try parseNameTest(isAttribute: true)
            skipSpaces()
            predicate = consume("=") ? .attributeEquals(test, try parseLiteral()) : .hasAttribute(test)
        } else if consume("text()") {
            skipSpaces()
            guard consume("=") else { throw failure("Only [text()='value'] is supported with text().") }
            predicate = .textEquals(try parseLiteral())
        } else if consume(".") {
            skipSpaces()
            guard consume("=") else { throw failure("Only [.='value'] is supported with \".\".") }
            predicate = .valueEquals(try parseLiteral())
        } else {
            let test = try parseNameTest(isAttribute: false)
            skipSpaces()
            guard consume("=") else {
                throw failure("Only [name='value'] is supported with an element name in a predicate.")
            }
            predicate = .childEquals(test, try parseLiteral())
        }
        skipSpaces()
        guard consume("]") else {
            let found = current.map { "\"\(String($0))\"" } ?? "the end"
            throw failure("Expected \"]\" to close the predicate but found \(found).")
        }
        return predicate
    }
}
