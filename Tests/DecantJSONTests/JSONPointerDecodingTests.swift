import DecantCore
import DecantJSON
import DecantTestSupport
import Foundation
import Testing

/// Decoding at an RFC 6901 JSON Pointer on the JSON tape: the RFC's example, generated documents against Foundation's
/// `JSONSerialization` and `JSONDecoder`, coding paths and offsets, missing paths, duplicate keys, deep and hostile
/// input, the registry, and error models.
@Suite struct JSONPointerDecodingTests {
    /// RFC 6901 §5's example document, as the RFC prints it.
    static let rfcDocument = #"""
        {
           "foo": ["bar", "baz"],
           "": 0,
           "a/b": 1,
           "c%d": 2,
           "e^f": 3,
           "g|h": 4,
           "i\\j": 5,
           "k\"l": 6,
           " ": 7,
           "m~n": 8
        }
        """#

    static func object(_ data: Data) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test func everyPointerOfTheRFCFindsWhatPythonsJsonFinds() throws {
        guard Python.isAvailable else { return }
        let pointers = JSONPointerTestsData.rfcPointers
        // Python's json reads the document and follows each token list: an int index into lists, a key otherwise.
        let tokenLists = String(
            decoding: try JSONSerialization.data(withJSONObject: pointers.map(\.tokens)), as: UTF8.self)
        let expected = try Python.run(
            """
            import json, sys
            doc = json.loads(sys.argv[1])
            out = []
            for tokens in json.loads(sys.argv[2]):
                v = doc
                for t in tokens:
                    v = v[int(t)] if isinstance(v, list) else v[t]
                out.append(v)
            print(json.dumps(out))
            """, [Self.rfcDocument, tokenLists])
        let expectedValues = try #require(try Self.object(expected) as? [NSObject])
        let document = try JSONParser().parse(Data(Self.rfcDocument.utf8))
        for (index, (text, _)) in pointers.enumerated() {
            let found = try document.value(at: JSONPointer(parsing: text))
            #expect(try Self.object(found.jsonData()) == expectedValues[index], "\(text)")
        }
        // The RFC's own list of results (§5), for the scalars and the array.
        #expect(try JSONValueDecoder().decode([String].self, from: document, at: "/foo") == ["bar", "baz"])
        #expect(try JSONValueDecoder().decode(String.self, from: document, at: "/foo/0") == "bar")
        let scalars: [(JSONPointer, Int)] = [
            ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3), ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7),
            ("/m~0n", 8),
        ]
        for (pointer, value) in scalars {
            #expect(try JSONValueDecoder().decode(Int.self, from: Data(Self.rfcDocument.utf8), at: pointer) == value)
        }
    }

    /// A generic JSON value, decoded through `singleValueContainer` by Foundation's `JSONDecoder` and by Decant alike.
    indirect enum Tree: Decodable, Equatable {
        case null, bool(Bool), int(Int), string(String), array([Tree]), object([String: Tree])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? container.decode(Int.self) {
                self = .int(int)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let array = try? container.decode([Tree].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: Tree].self))
            }
        }
    }

    /// A random JSON text: objects with unique keys (some with `/`, `~` and non-ASCII), arrays, integers, strings.
    static func generate(_ random: inout SplitMix64, depth: Int) -> String {
        let choice = depth > 4 ? Int(random.next() % 4) : Int(random.next() % 6)
        switch choice {
        case 0: return "null"
        case 1: return random.next() % 2 == 0 ? "true" : "false"
        case 2: return String(Int64(bitPattern: random.next()) >> Int(random.next() % 60))
        case 3: return "\"s\(random.next() % 100)~/é\""
        case 4:
            let count = Int(random.next() % 5)
            return "[" + (0..<count).map { _ in generate(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            let count = Int(random.next() % 5)
            let keys = ["a", "b/c", "d~e", "", "ü", "0", "~1", "x y"]
            return "{"
                + (0..<count).map {
                    "\"\(keys[$0 % keys.count])\(random.next() % 3)\(String(repeating: "_", count: $0))\":"
                        + generate(&random, depth: depth + 1)
                }.joined(separator: ",") + "}"
        }
    }

    /// Every pointer into `object` (as JSONSerialization read it), with the part it names.
    static func paths(_ object: Any, _ tokens: [String] = [], into result: inout [([String], Any)]) {
        result.append((tokens, object))
        if let array = object as? [Any] {
            for (index, element) in array.enumerated() { paths(element, tokens + [String(index)], into: &result) }
        } else if let dictionary = object as? [String: Any] {
            for (key, value) in dictionary { paths(value, tokens + [key], into: &result) }
        }
    }

    @Test(arguments: 0..<40)
    func decodingAtAPointerEqualsTakingThePartOfTheWholeDocument(seed: Int) throws {
        var random = SplitMix64(state: UInt64(seed) &* 0x9E37_79B9 &+ 17)
        let text = Self.generate(&random, depth: 0)
        let body = Data(text.utf8)
        let whole = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        var parts: [([String], Any)] = []
        Self.paths(whole, into: &parts)
        let document = try JSONParser().parse(body)
        for (tokens, part) in parts {
            let pointer = JSONPointer(tokens: tokens)
            let partData = try JSONSerialization.data(withJSONObject: part, options: [.fragmentsAllowed])
            // The value: what JSONSerialization finds by walking the whole document.
            #expect(try Self.object(document.value(at: pointer).jsonData()) == Self.object(partData), "\(pointer)")
            // A Decodable: what Foundation's JSONDecoder makes of that part.
            let expected = try JSONDecoder().decode(Tree.self, from: partData)
            #expect(try JSONValueDecoder().decode(Tree.self, from: body, at: pointer) == expected, "\(pointer)")
            // The pointer's text form parses back to the same pointer.
            #expect(try JSONPointer(parsing: pointer.description) == pointer)
        }
    }

    struct User: Decodable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    @Test func aDecodingErrorsPathStartsAtThePointerAndItsOffsetIsInTheBody() throws {
        let body = #"{"meta": {"n": 2}, "data": [{"id": 1, "name": "a"}, {"id": "x", "name": "b"}]}"#
        do {
            _ = try JSONValueDecoder().decode(User.self, from: Data(body.utf8), at: "/data/1")
            Issue.record("decoded")
        } catch {
            #expect(error.code == .decodingFailed)
            #expect(error.codingPath == ["data", "1", "id"])
            let quoted = try #require(body.range(of: #""x""#))
            #expect(error.offset == body.utf8.distance(from: body.startIndex, to: quoted.lowerBound))
        }
        #expect(
            try JSONValueDecoder().decode(User.self, from: Data(body.utf8), at: "/data/0") == User(id: 1, name: "a"))
        var snake = JSONValueDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        struct Meta: Decodable, Equatable { var userCount: Int }
        #expect(
            try snake.decode(Meta.self, from: Data(#"{"m": {"user_count": 3}}"#.utf8), at: "/m") == Meta(userCount: 3))
    }

    @Test func aMissingPathNamesWhatIsThere() throws {
        let body = Data(#"{"data": [{"id": 1}, {"id": 2}, {"id": 3}], "n": "x"}"#.utf8)
        let cases: [(JSONPointer, String, [String])] = [
            ("/data/0/name", "'/data/0', is an object of 1 member with no member 'name'", ["data", "0", "name"]),
            (
                "/data/3/id", "'/data', is an array of 3 elements with no element 3 (its indexes are 0 to 2)",
                ["data", "3"]
            ),
            ("/data/-", "'/data', is an array of 3 elements; '-' names the element after the last", ["data", "-"]),
            ("/n/0", "'/n', is a string, which has no member or element '0'", ["n", "0"]),
            ("/Data", "the whole document (''), is an object of 2 members with no member 'Data'", ["Data"]),
        ]
        for (pointer, part, path) in cases {
            do {
                _ = try JSONValueDecoder().decode(Int.self, from: body, at: pointer)
                Issue.record("\(pointer) found")
            } catch {
                #expect(error.code == .pointerNotFound)
                #expect(error.message.contains("There is no value at the JSON Pointer '\(pointer)'"))
                #expect(error.message.contains("the deepest part that matched, \(part)"), "\(error.message)")
                #expect(error.codingPath == path)
            }
        }
    }

    @Test func keysCompareAsTheirCodePointsWithoutNormalisation() throws {
        // "é" precomposed (U+00E9) and decomposed (e + U+0301) are different keys (RFC 6901 §4 compares code points).
        let body = Data("{\"e\u{301}\": 1, \"\u{E9}\": 2}".utf8)
        #expect(try JSONValueDecoder().decode(Int.self, from: body, at: JSONPointer(tokens: ["\u{E9}"])) == 2)
        #expect(try JSONValueDecoder().decode(Int.self, from: body, at: JSONPointer(tokens: ["e\u{301}"])) == 1)
    }

    @Test func aRepeatedKeyIsResolvedAsTheParserResolvesIt() throws {
        let body = Data(#"{"a": 1, "b": {"c": 2}, "a": 3}"#.utf8)
        // Python: json.loads('{"a": 1, "b": {"c": 2}, "a": 3}')["a"] == 3 (the last value wins).
        #expect(try JSONValueDecoder().decode(Int.self, from: body, at: "/a") == 3)
        var rejecting = JSONValueDecoder()
        rejecting.parsingOptions.duplicateKeys = .reject
        #expect(throws: SerializationError.self) { try rejecting.decode(Int.self, from: body, at: "/b/c") }
    }

    @Test func aDeepDocumentIsWalkedWithoutRecursion() throws {
        let depth = 100_000
        let body = Data((String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth)).utf8)
        var decoder = JSONValueDecoder()
        decoder.parsingOptions.maxDepth = depth + 1
        let pointer = JSONPointer(tokens: Array(repeating: "0", count: depth))
        #expect(try decoder.decode(Int.self, from: body, at: pointer) == 7)
        // One token too many: the deepest part that matched is the 7.
        do {
            _ = try decoder.decode(Int.self, from: body, at: pointer.appending("0"))
            Issue.record("found")
        } catch {
            #expect(error.code == .pointerNotFound)
            #expect(error.codingPath.count == depth + 1)
            #expect(error.message.contains("is a number, which has no member or element '0'"))
        }
    }

    @Test func hostileInputEndsWithAnError() throws {
        // A pointer of 100,000 tokens into the RFC's document.
        let long = JSONPointer(tokens: Array(repeating: "foo", count: 100_000))
        do {
            _ = try JSONValueDecoder().decode(Int.self, from: Data(Self.rfcDocument.utf8), at: long)
            Issue.record("found")
        } catch {
            #expect(error.code == .pointerNotFound)
            #expect(error.codingPath == ["foo", "foo"])
        }
        // 1 MB of garbage with a pointer: a parse error, never a walk.
        var random = SplitMix64(state: 36)
        let garbage = Data((0..<1_000_000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        do {
            _ = try JSONValueDecoder().decode(Int.self, from: garbage, at: "/data/0/name")
            Issue.record("decoded garbage")
        } catch {
            #expect([.invalidBody, .invalidEncoding].contains(error.code))
        }
    }

    static func response(_ status: Int = 200, type: String = "application/json", body: String) -> Response {
        Response(status: status, headers: ["Content-Type": type], body: Data(body.utf8))
    }

    var registry: SerializerRegistry {
        var registry = SerializerRegistry()
        registry.install(.json)
        return registry
    }

    @Test func theRegistryDecodesAndGivesValuesAtAPointer() throws {
        let response = Self.response(body: #"{"data": [{"id": 1, "name": "Ada"}], "meta": {"total": 1}}"#)
        #expect(try registry.decode(String.self, from: response, at: "/data/0/name") == "Ada")
        #expect(try registry.decode([User].self, from: response, at: "/data") == [User(id: 1, name: "Ada")])
        let chosen = try registry.value(from: response, at: "/meta")
        #expect(chosen.serializerID == "json")
        #expect(chosen.value as? JSONValue == ["total": 1])
        do {
            _ = try registry.decode(String.self, from: response, at: "/data/1/name")
            Issue.record("found")
        } catch {
            #expect(error.code == .pointerNotFound)
            #expect(error.serializerID == "json")
            #expect(error.response?.body == response.body)
        }
    }

    struct APIError: Decodable, Equatable, Sendable {
        var code: String
        var detail: String
    }

    @Test func aNonSuccessBodyDecodesIntoTheCallersErrorModel() throws {
        let ok = Self.response(body: #"{"id": 1, "name": "Ada"}"#)
        #expect(try registry.decode(User.self, from: ok, errorModel: APIError.self) == User(id: 1, name: "Ada"))
        let notFound = Self.response(404, body: #"{"code": "missing", "detail": "No user 7."}"#)
        do {
            _ = try registry.decode(User.self, from: notFound, errorModel: APIError.self)
            Issue.record("decoded a 404")
        } catch {
            #expect(error.code == .unacceptableStatusCode)
            #expect(error.status == 404)
            #expect(error.response?.body == notFound.body)
            #expect(error.errorValue(as: APIError.self) == APIError(code: "missing", detail: "No user 7."))
        }
    }

    @Test func anErrorBodyThatIsNotTheModelStillThrowsWithTheStatusAndTheBody() throws {
        for response in [
            Self.response(500, body: #"{"message": "boom"}"#),
            Self.response(503, type: "text/html", body: "<h1>down</h1>"),
        ] {
            do {
                _ = try registry.decode(User.self, from: response, errorModel: APIError.self, at: "/user")
                Issue.record("decoded")
            } catch {
                #expect(error.code == .unacceptableStatusCode)
                #expect(error.status == response.status)
                #expect(error.response?.body == response.body)
                #expect(error.errorValue == nil)
            }
        }
        // The JSON body that did not match says why, in the attempts.
        do {
            _ = try registry.decode(
                User.self, from: Self.response(500, body: #"{"message": "boom"}"#), errorModel: APIError.self)
        } catch {
            #expect(error.attempts.first?.code == .decodingFailed)
        }
    }
}

/// The RFC 6901 §5 pointers, shared with the core's syntax tests (kept here too: test targets share no files).
enum JSONPointerTestsData {
    static let rfcPointers: [(text: String, tokens: [String])] = [
        ("", []), ("/foo", ["foo"]), ("/foo/0", ["foo", "0"]), ("/", [""]), ("/a~1b", ["a/b"]), ("/c%d", ["c%d"]),
        ("/e^f", ["e^f"]), ("/g|h", ["g|h"]), ("/i\\j", ["i\\j"]), ("/k\"l", ["k\"l"]), ("/ ", [" "]),
        ("/m~0n", ["m~n"]),
    ]
}
