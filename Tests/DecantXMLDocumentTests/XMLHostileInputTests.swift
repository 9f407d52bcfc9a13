import DecantCore
import DecantXMLParser
import Foundation
import Testing

@testable import DecantXMLDocument

/// About 1 MB of hostile input through every XML entry point (the event array, the event closure, a handler, a
/// delegate, the tree, and both response serializers): each must end with a value or a precise error. No test
/// asserts a duration; a hang is caught by CI's guard around the test run, which names the unfinished test.
@Suite struct XMLHostileInputTests {
    /// The outcome of one entry point: how many nodes or events it produced, or the error.
    typealias Outcome = Result<Int, SerializationError>

    /// Counts events.
    struct CountingHandler: XMLHandler {
        var count = 0
        mutating func handle(_ event: XMLEvent, at position: XMLPosition) throws { count += 1 }
        mutating func finish() throws -> Int { count }
    }

    /// Counts element starts and remembers the error.
    final class CountingDelegate: XMLStreamDelegate {
        var starts = 0
        var error: SerializationError?
        func parser(
            _ parser: XMLStreamParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String]
        ) { starts += 1 }
        func parser(_ parser: XMLStreamParser, parseErrorOccurred error: SerializationError) { self.error = error }
    }

    static let entryPoints: [(String, @Sendable (Data) -> Outcome)] = [
        (
            "events()",
            { data in Result { () throws(SerializationError) in try XMLStreamParser(data: data).events().count } }
        ),
        (
            "forEachEvent",
            { data in
                Result { () throws(SerializationError) in
                    var count = 0
                    try XMLStreamParser(data: data).forEachEvent { _, _ in count += 1 }
                    return count
                }
            }
        ),
        (
            "parse(with:)",
            { data in
                Result { () throws(SerializationError) in try XMLStreamParser(data: data).parse(with: CountingHandler())
                }
            }
        ),
        (
            "parse(delegate:)",
            { data in
                let delegate = CountingDelegate()
                do throws(SerializationError) {
                    try XMLStreamParser(data: data).parse(delegate: delegate)
                    return .success(delegate.starts)
                } catch {
                    return .failure(error)
                }
            }
        ),
        (
            "XMLTree(parsing:)",
            { data in Result { () throws(SerializationError) in try XMLTree(parsing: data).nodeCount } }
        ),
        (
            "XMLDocumentResponseSerializer",
            { data in
                let response = Response(status: 200, headers: ["Content-Type": "application/xml"], body: data)
                return Result { () throws(SerializationError) in
                    try XMLDocumentResponseSerializer().serialize(response).nodeCount
                }
            }
        ),
        (
            "XMLParserResponseSerializer",
            { data in
                let response = Response(status: 200, headers: ["Content-Type": "application/xml"], body: data)
                return Result { () throws(SerializationError) in
                    try XMLParserResponseSerializer().serialize(response).events().count
                }
            }
        ),
    ]

    /// What a hostile body must end with: a success, or an error with this code (and limit, for limits).
    enum Expected: Sendable {
        case success
        case failure(SerializationError.Code, limit: String? = nil)
        case anyFailure([SerializationError.Code])
    }

    /// A deterministic generator (xorshift64*), so that a failure can be reproduced.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    static let size = 1 << 20

    static func repeated(_ prefix: String, _ unit: String, _ suffix: String) -> Data {
        let count = (size - prefix.utf8.count - suffix.utf8.count) / unit.utf8.count
        return Data((prefix + String(repeating: unit, count: count) + suffix).utf8)
    }

    static let bodies: [(String, @Sendable () -> Data, Expected)] = [
        (
            "random bytes",
            {
                var generator = Generator(state: 0x9E37_79B9_7F4A_7C15)
                return Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
            }, .anyFailure([.invalidBody, .invalidEncoding])
        ),
        (
            "random markup characters",
            {
                var generator = Generator(state: 42)
                let alphabet = Array("<>/!?&;#=\"' abx:[]-%\n".utf8)
                return Data((0..<size).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            }, .anyFailure([.invalidBody, .invalidEncoding])
        ),
        ("nested <a><a><a>...", { repeated("", "<a>", "") }, .failure(.limitExceeded, limit: "maxDepth")),
        ("<a/> flood", { repeated("<r>", "<a/>", "</r>") }, .success),
        (
            "many declarations", { repeated("<!DOCTYPE r [", "<!ENTITY e \"x\"><!ELEMENT r ANY>", "]><r/>") },
            .success
        ),
        (
            "many attribute declarations",
            {
                var text = "<!DOCTYPE r ["
                var index = 0
                while text.utf8.count < size - 100 {
                    text += "<!ATTLIST r a\(index) CDATA 'v'>"
                    index += 1
                }
                return Data((text + "]><r/>").utf8)
            }, .failure(.limitExceeded, limit: "maxAttributesPerElement")
        ),
        (
            "long attribute list",
            {
                var text = "<r"
                var index = 0
                while text.utf8.count < size - 100 {
                    text += " a\(index)='\(index)'"
                    index += 1
                }
                return Data((text + "/>").utf8)
            }, .failure(.limitExceeded, limit: "maxAttributesPerElement")
        ),
        (
            "attribute default bomb",
            {
                let entity = String(repeating: "x", count: 100_000)
                return repeated(
                    "<!DOCTYPE r [<!ENTITY big \"\(entity)\"><!ATTLIST e a CDATA \"&big;\">]><r>", "<e/>", "</r>")
                // 10 times a 1 MB body is the 10 MB byte limit: the smaller of the two is the one named.
            }, .failure(.limitExceeded, limit: "maxEntityExpansionBytes")
        ),
        (
            "unclosed comment", { repeated("<r><!--", "-x", "") }, .failure(.invalidBody)
        ),
    ]

    @Test(arguments: 0..<bodies.count)
    func endsWithAValueOrAPreciseError(_ index: Int) {
        let (name, make, expected) = Self.bodies[index]
        let data = make()
        for (entryPoint, run) in Self.entryPoints {
            let outcome = run(data)
            let context: Comment = "\(name) through \(entryPoint): \(outcome)"
            switch (expected, outcome) {
            case (.success, .success):
                break
            case (.failure(let code, let limit), .failure(let error)):
                #expect(error.code == code, context)
                if let limit {
                    #expect((error.underlying as? XMLParsingError)?.limitName == limit, context)
                    #expect(error.message.contains("`\(limit)`"), context)
                }
            case (.anyFailure(let codes), .failure(let error)):
                #expect(codes.contains(error.code), context)
                #expect(error.underlying is XMLParsingError, context)
            default:
                Issue.record(context)
            }
        }
    }

    @Test
    func buildsAFewMegabytesOfElementsAtTheDefaultLimits() throws {
        // 4 MB of `<a/>`: a million nodes, within one node per byte and the node count limit.
        let flood = Data(("<r>" + String(repeating: "<a/>", count: 1_000_000) + "</r>").utf8)
        let tree = try XMLTree(parsing: flood)
        #expect(tree.nodeCount == 1_000_001)
        // The same flood with a lowered node limit stops with the limit's code and name.
        var options = XMLParsingOptions()
        options.maxNodeCount = 100_000
        let error = try #require(throws: SerializationError.self) { try XMLTree(parsing: flood, options: options) }
        #expect(error.code == .limitExceeded)
        #expect((error.underlying as? XMLParsingError)?.limitName == "maxNodeCount")
        #expect(error.message.contains("`maxNodeCount`"))
    }
}
