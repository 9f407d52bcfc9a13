import DecantCore
import Testing

/// RFC 6901's syntax: the text form (§3, §5), the URI fragment form (§6), array indexes (§4), and the one walk that
/// every format's pointer decoding uses, with its missing-path messages.
@Suite struct JSONPointerTests {
    /// RFC 6901 §5: each pointer of the example, as written in the RFC's JSON string form, and the key or keys it
    /// names (read from the RFC's example document, where each key is a member name).
    static let rfcPointers: [(text: String, tokens: [String])] = [
        ("", []),
        ("/foo", ["foo"]),
        ("/foo/0", ["foo", "0"]),
        ("/", [""]),
        ("/a~1b", ["a/b"]),
        ("/c%d", ["c%d"]),
        ("/e^f", ["e^f"]),
        ("/g|h", ["g|h"]),
        ("/i\\j", ["i\\j"]),
        ("/k\"l", ["k\"l"]),
        ("/ ", [" "]),
        ("/m~0n", ["m~n"]),
    ]

    /// RFC 6901 §6: the same pointers in their URI fragment form, in the RFC's order.
    static let rfcFragments = [
        "#", "#/foo", "#/foo/0", "#/", "#/a~1b", "#/c%25d", "#/e%5Ef", "#/g%7Ch", "#/i%5Cj", "#/k%22l", "#/%20",
        "#/m~0n",
    ]

    @Test func theRFCPointersParseIntoTheirTokensAndPrintBack() throws {
        for (text, tokens) in Self.rfcPointers {
            let pointer = try JSONPointer(parsing: text)
            #expect(pointer.tokens == tokens, "\(text)")
            #expect(pointer.description == text)
            #expect(pointer.isRoot == tokens.isEmpty)
        }
    }

    @Test func theRFCFragmentsParseIntoTheSamePointersAndPrintBack() throws {
        for (fragment, (_, tokens)) in zip(Self.rfcFragments, Self.rfcPointers) {
            let pointer = try JSONPointer(uriFragment: fragment)
            #expect(pointer.tokens == tokens, "\(fragment)")
            #expect(pointer.uriFragment == fragment)
        }
    }

    @Test(arguments: [
        (["a/b", "~c", "~1", "/~0"], "/a~1b/~0c/~01/~1~00"),
        (["", ""], "//"),
        (["é", "日本"], "/é/日本"),
    ])
    func escapingRoundTrips(_ tokens: [String], _ text: String) throws {
        let pointer = JSONPointer(tokens: tokens)
        #expect(pointer.description == text)
        #expect(try JSONPointer(parsing: text) == pointer)
        #expect(try JSONPointer(uriFragment: pointer.uriFragment) == pointer)
    }

    @Test func aLiteralIsAPointer() {
        let pointer: JSONPointer = "/data/0/name"
        #expect(pointer.tokens == ["data", "0", "name"])
        #expect(pointer.prefix(2).description == "/data/0")
        #expect(pointer.prefix(2).appending("x~y").description == "/data/0/x~0y")
        #expect(JSONPointer.root.description == "")
    }

    @Test(arguments: ["data", "#/a", "/a~2", "/a~", "~0"])
    func textThatIsNotAPointerIsRejected(_ text: String) {
        #expect(throws: SerializationError.self) { try JSONPointer(parsing: text) }
        do {
            _ = try JSONPointer(parsing: text)
        } catch {
            #expect(error.code == .invalidPointer)
            #expect(error.message.contains("'\(text)' is not a JSON Pointer"))
        }
    }

    @Test(arguments: ["/a", "#/%2", "#/%ZZ", "#/%FF"])
    func fragmentsThatAreNotPointersAreRejected(_ text: String) {
        do {
            _ = try JSONPointer(uriFragment: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.code == .invalidPointer)
        }
    }

    @Test(arguments: [
        ("0", 0), ("7", 7), ("10", 10), ("9223372036854775807", Int.max),
    ])
    func arrayIndexesAreZeroOrDigitsWithoutALeadingZero(_ token: String, _ index: Int) {
        #expect(JSONPointer.arrayIndex(token) == index)
    }

    @Test(arguments: ["", "-", "01", "00", "+1", "-1", "1e2", " 1", "1 ", "0x1", "9223372036854775808", "١"])
    func otherTokensAreNotArrayIndexes(_ token: String) {
        #expect(JSONPointer.arrayIndex(token) == nil)
    }

    /// A small tree for the walk: objects, arrays and scalars.
    indirect enum Node {
        case object([(String, Node)])
        case array([Node])
        case scalar(String)
    }

    static func walk(_ pointer: JSONPointer, in root: Node) throws(SerializationError) -> Node {
        try pointer.resolve(from: root) { node, token in
            switch node {
            case .object(let members):
                guard let member = members.first(where: { $0.0 == token }) else {
                    return .noMember("an object of \(members.count) members")
                }
                return .found(member.1)
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else {
                    return .noElement("an array of \(elements.count) elements", count: elements.count)
                }
                return .found(elements[index])
            case .scalar(let kind):
                return .leaf(kind)
            }
        }
    }

    static let document = Node.object([
        ("data", .array([.object([("id", .scalar("a number"))]), .scalar("a string"), .array([])])),
        ("empty", .array([])),
    ])

    @Test(arguments: [
        (
            "/data/0/name",
            "There is no value at the JSON Pointer '/data/0/name': the deepest part that matched, '/data/0', is an "
                + "object of 1 members with no member 'name'. Check the pointer against the document.",
            ["data", "0", "name"]
        ),
        (
            "/data/3",
            "There is no value at the JSON Pointer '/data/3': the deepest part that matched, '/data', is an array of "
                + "3 elements with no element 3 (its indexes are 0 to 2). Check the pointer against the document.",
            ["data", "3"]
        ),
        (
            "/data/-",
            "There is no value at the JSON Pointer '/data/-': the deepest part that matched, '/data', is an array of "
                + "3 elements; '-' names the element after the last, which never exists when reading. Check the "
                + "pointer against the document.",
            ["data", "-"]
        ),
        (
            "/data/01",
            "There is no value at the JSON Pointer '/data/01': the deepest part that matched, '/data', is an array of "
                + "3 elements; '01' is not an array index (0, or digits without a leading zero). Check the pointer "
                + "against the document.",
            ["data", "01"]
        ),
        (
            "/data/1/x",
            "There is no value at the JSON Pointer '/data/1/x': the deepest part that matched, '/data/1', is a "
                + "string, which has no member or element 'x'. Check the pointer against the document.",
            ["data", "1", "x"]
        ),
        (
            "/empty/0",
            "There is no value at the JSON Pointer '/empty/0': the deepest part that matched, '/empty', is an array "
                + "of 0 elements with no element 0 (it is empty). Check the pointer against the document.",
            ["empty", "0"]
        ),
        (
            "/nothing/a/b",
            "There is no value at the JSON Pointer '/nothing/a/b': the deepest part that matched, the whole document "
                + "(''), is an object of 2 members with no member 'nothing'. Check the pointer against the document.",
            ["nothing"]
        ),
    ])
    func aMissingPathNamesTheDeepestPartThatMatched(_ text: String, _ message: String, _ path: [String]) throws {
        do {
            _ = try Self.walk(JSONPointer(parsing: text), in: Self.document)
            Issue.record("\(text) was found")
        } catch {
            #expect(error.code == .pointerNotFound)
            #expect(error.message == message)
            #expect(error.codingPath == path)
        }
    }

    @Test func aPointerOfAHundredThousandTokensParsesPrintsAndFailsAtItsFirstMissingToken() throws {
        let text = String(repeating: "/a~1b", count: 100_000)
        let pointer = try JSONPointer(parsing: text)
        #expect(pointer.tokens.count == 100_000)
        #expect(pointer.description == text)
        do {
            _ = try Self.walk(pointer, in: Self.document)
            Issue.record("found")
        } catch {
            #expect(error.code == .pointerNotFound)
            #expect(error.codingPath == ["a/b"])
        }
        // A deep walk that succeeds: 100,000 levels of single-element arrays, walked in a loop.
        var deep = Node.scalar("a number")
        for _ in 0..<100_000 { deep = .array([deep]) }
        let zeros = JSONPointer(tokens: Array(repeating: "0", count: 100_000))
        guard case .scalar(let kind) = try Self.walk(zeros, in: deep) else {
            Issue.record("not the innermost value")
            return
        }
        #expect(kind == "a number")
        // Tearing down a 100,000-deep indirect enum recurses; unwrap it iteratively.
        while case .array(let elements) = deep, let inner = elements.first { deep = inner }
    }
}
