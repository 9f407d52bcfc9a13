import Decant
import DecantCBOR
import Foundation
import Testing

@Suite struct DecoderTests {
    struct User: Decodable, Equatable, Sendable {
        var id: Int
        var name: String
        var score: Double
        var tags: [String]
        var avatar: Data
        var nickname: String?
        var manager: Manager?
    }

    struct Manager: Decodable, Equatable, Sendable {
        var id: UInt8
    }

    /// {"id": 42, "name": "Ada", "score": 1.5 (half), "tags": ["a", "b"], "avatar": h'0102', "nickname": null,
    /// "manager": {"id": 7}, "extra": 1(0)}, encoded by hand.
    static let userBody = CBORTestSupport.hex(
        "a8 6269 64 182a 646e616d65 63416461 6573636f7265 f93e00 6474616773 82 6161 6162"
            + " 66617661746172 420102 686e69636b6e616d65 f6 676d616e61676572 a1 626964 07 6565787472 61 c100")

    @Test func decodesAStruct() throws {
        let user = try CBORDecoder().decode(User.self, from: Self.userBody)
        #expect(
            user
                == User(
                    id: 42, name: "Ada", score: 1.5, tags: ["a", "b"], avatar: Data([1, 2]), nickname: nil,
                    manager: Manager(id: 7)))
    }

    @Test func registryDecodesThroughTheResponseDecoder() throws {
        let registry = SerializerRegistry.standard.installing(.cbor)
        let user = try registry.decode(User.self, from: CBORTestSupport.response(Self.userBody))
        #expect(user.name == "Ada")
        // A sequence decodes as an array of its items.
        let numbers = try registry.decode(
            [Int].self,
            from: CBORTestSupport.response(CBORTestSupport.hex("01 02 20"), contentType: "application/cbor-seq"))
        #expect(numbers == [1, 2, -1])
    }

    /// Conversions are exact or throw, with the coding path.
    @Test func inexactNumbersThrow() throws {
        struct Small: Decodable { var id: UInt8 }
        // {"id": 300}
        let error = #expect(throws: SerializationError.self) {
            try CBORDecoder().decode(Small.self, from: CBORTestSupport.hex("a1 626964 19012c"))
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.codingPath == ["id"])
        let fraction = #expect(throws: SerializationError.self) {
            try CBORDecoder().decode(Int.self, from: .float(1.5))
        }
        #expect(fraction?.code == .decodingFailed)
        let inexact = #expect(throws: SerializationError.self) {
            try CBORDecoder().decode(Float.self, from: .float(1.1))
        }
        #expect(inexact?.code == .decodingFailed)
        let outOfRange = #expect(throws: SerializationError.self) {
            try CBORDecoder().decode(Int64.self, from: .negativeInteger(.max))
        }
        #expect(outOfRange?.code == .decodingFailed)
        #expect(try CBORDecoder().decode(Int.self, from: .float(3.0)) == 3)
        #expect(try CBORDecoder().decode(Float.self, from: .float(0.5)) == 0.5)
        #expect(try CBORDecoder().decode(Int64.self, from: .negativeInteger(UInt64(Int64.max))) == .min)
        #expect(try CBORDecoder().decode(Double.self, from: .unsignedInteger(1 << 53)) == 0x1p53)
        let unrepresentable = #expect(throws: SerializationError.self) {
            try CBORDecoder().decode(Double.self, from: .unsignedInteger(1 << 53 + 1))
        }
        #expect(unrepresentable?.code == .decodingFailed)
    }

    @Test func missingKeysAndWrongTypesThrow() throws {
        struct Named: Decodable { var name: String }
        let missing = #expect(throws: SerializationError.self) {
            try CBORDecoder().decode(Named.self, from: .map([]))
        }
        #expect(missing?.code == .decodingFailed)
        let error = #expect(throws: SerializationError.self) { try CBORDecoder().decode(Named.self, from: .array([])) }
        #expect(error?.code == .decodingFailed)
        let elementMismatch = #expect(throws: SerializationError.self) {
            try CBORDecoder().decode([Int].self, from: .array([.text("x")]))
        }
        #expect(elementMismatch?.code == .decodingFailed)
        #expect(try CBORDecoder().decode([UInt8].self, from: .bytes(Data([9, 8]))) == [9, 8])
        #expect(try CBORDecoder().decode(Bool?.self, from: .undefined) == nil)
    }
}
