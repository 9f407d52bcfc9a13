import DecantCore
import DecantJSON
import DecantPropertyList
import DecantTestSupport
import Foundation
import Testing

/// Decoding at a JSON Pointer in property lists written by Python's plistlib (binary and XML) gives what decoding the
/// same document as JSON (Python's json) at that pointer gives.
@Suite struct PropertyListPointerTests {
    static let document =
        #"{"data": [{"name": "Ada", "tags": ["x", "y"]}, {"name": "Grace", "tags": []}], "meta": {"a/b": 1, "m~n": 2.5}}"#

    static func plist(_ format: String) throws -> Data {
        try Python.run(
            "import json, plistlib, sys; sys.stdout.buffer.write(plistlib.dumps(json.loads(sys.argv[1]), fmt=plistlib.\(format)))",
            [document])
    }

    struct Item: Decodable, Equatable, Sendable {
        var name: String
        var tags: [String]
    }

    @Test(arguments: ["FMT_BINARY", "FMT_XML"])
    func decodingAtAPointerEqualsTheJSONOne(_ format: String) throws {
        guard Python.isAvailable else { return }
        let body = try Self.plist(format)
        let json = Data(Self.document.utf8)
        let response = Response(status: 200, headers: ["Content-Type": "application/x-plist"], body: body)
        let decoder = PropertyListResponseDecoder()
        func check<T: Decodable & Equatable>(_ type: T.Type, _ pointer: JSONPointer) throws {
            #expect(
                try decoder.decode(type, from: response, at: pointer)
                    == JSONValueDecoder().decode(type, from: json, at: pointer), "\(pointer)")
        }
        try check([Item].self, "/data")
        try check(Item.self, "/data/1")
        try check(String.self, "/data/0/tags/1")
        try check(Int.self, "/meta/a~1b")
        try check(Double.self, "/meta/m~0n")
        #expect(try decoder.value(from: response, at: "/data/0/name") as? PropertyListValue == .string("Ada"))
        for pointer: JSONPointer in ["/data/2", "/data/0/age", "/data/0/name/0", "/meta/-"] {
            var jsonError: SerializationError?
            do { _ = try JSONValueDecoder().decode(Int.self, from: json, at: pointer) } catch { jsonError = error }
            do {
                _ = try decoder.decode(Int.self, from: response, at: pointer)
                Issue.record("\(pointer) found")
            } catch let error as SerializationError {
                #expect(error.code == .pointerNotFound)
                #expect(error.codingPath == jsonError?.codingPath)
            }
        }
        do {
            _ = try decoder.decode(Int.self, from: response, at: "/data/1/name")
            Issue.record("decoded")
        } catch let error as SerializationError {
            #expect(error.code == .decodingFailed)
            #expect(error.codingPath == ["data", "1", "name"])
        }
    }
}
