import Decant
import DecantCBOR
import Foundation
import Testing

/// Decoding at a JSON Pointer on the CBOR tape gives what decoding the same document as JSON at that pointer gives
/// (Foundation's `JSONEncoder` writes the JSON twin; the JSON pointer decoding is checked against Python's json).
@Suite struct CBORPointerTests {
    struct Item: Codable, Equatable, Sendable {
        var name: String
        var tags: [String]
        var score: Int?
    }

    struct Document: Codable, Equatable, Sendable {
        var data: [Item]
        var meta: [String: Int]
    }

    static let document = Document(
        data: [Item(name: "Ada", tags: ["x", "y"], score: 3), Item(name: "Grace", tags: [], score: nil)],
        meta: ["a/b": 1, "m~n": 2, "": 3])

    static func bodies() throws -> (native: Data, json: Data) {
        (try CBOREncoder().encode(document), try JSONEncoder().encode(document))
    }

    static func response(_ body: Data, status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "application/cbor"], body: body)
    }

    func both<T: Decodable & Equatable & Sendable>(_ type: T.Type, at pointer: JSONPointer) throws {
        let (native, json) = try Self.bodies()
        let expected = try JSONValueDecoder().decode(type, from: json, at: pointer)
        #expect(
            try CBORResponseDecoder().decode(type, from: Self.response(native), at: pointer) == expected, "\(pointer)")
    }

    @Test func decodingAtAPointerEqualsTheJSONOne() throws {
        try both(Document.self, at: "")
        try both([Item].self, at: "/data")
        try both(Item.self, at: "/data/1")
        try both(String.self, at: "/data/0/name")
        try both(String.self, at: "/data/0/tags/1")
        try both([String].self, at: "/data/1/tags")
        try both(Int?.self, at: "/data/0/score")
        try both(Int.self, at: "/meta/a~1b")
        try both(Int.self, at: "/meta/m~0n")
        try both(Int.self, at: "/meta/")
    }

    @Test func aMissingPathFailsAsTheJSONOneDoes() throws {
        let (native, json) = try Self.bodies()
        for pointer: JSONPointer in ["/data/2", "/data/0/age", "/data/-", "/data/01", "/data/0/name/0", "/nothing/x"] {
            var jsonError: SerializationError?
            do { _ = try JSONValueDecoder().decode(Int.self, from: json, at: pointer) } catch { jsonError = error }
            do {
                _ = try CBORResponseDecoder().decode(Int.self, from: Self.response(native), at: pointer)
                Issue.record("\(pointer) found")
            } catch let error as SerializationError {
                #expect(error.code == .pointerNotFound)
                #expect(error.codingPath == jsonError?.codingPath, "\(pointer)")
                #expect(error.message.hasPrefix("There is no value at the JSON Pointer '\(pointer)'"))
                #expect(error.serializerID == "cbor")
            }
        }
    }

    @Test func aDecodingErrorsPathStartsAtThePointer() throws {
        let (native, _) = try Self.bodies()
        do {
            _ = try CBORResponseDecoder().decode(Int.self, from: Self.response(native), at: "/data/1/name")
            Issue.record("decoded")
        } catch let error as SerializationError {
            #expect(error.code == .decodingFailed)
            #expect(error.codingPath == ["data", "1", "name"])
        }
    }

    @Test func theItemAndTheRegistryFindTheSameValue() throws {
        let (native, _) = try Self.bodies()
        let item = try CBORParser().read(native).item(at: "/data/0/tags/0")
        #expect(item.stringValue == "x")
        let registry = SerializerRegistry.standard.installing(.cbor)
        #expect(try registry.decode(String.self, from: Self.response(native), at: "/data/1/name") == "Grace")
        let chosen = try registry.value(from: Self.response(native), at: "/data/0/tags")
        #expect(chosen.serializerID == "cbor")
        #expect(chosen.value as? CBORValue == (try CBOREncoder().encodeValue(["x", "y"])))
    }

    @Test func hostileInputEndsWithAnError() throws {
        let (native, _) = try Self.bodies()
        let long = JSONPointer(tokens: Array(repeating: "data", count: 100_000))
        #expect(throws: SerializationError.self) {
            try CBORResponseDecoder().decode(Int.self, from: Self.response(native), at: long)
        }
        var state: UInt64 = 36
        let garbage = Data(
            (0..<1_000_000).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            })
        #expect(throws: SerializationError.self) {
            try CBORResponseDecoder().decode(Int.self, from: Self.response(garbage), at: "/data/0/name")
        }
    }
}
