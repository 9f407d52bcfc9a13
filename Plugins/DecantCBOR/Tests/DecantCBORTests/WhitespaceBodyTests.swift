import Decant
import DecantCBOR
import DecantJSON
import Foundation
import Testing

/// In CBOR, whitespace bytes are values, not an empty body: the registry's empty-body rule applies whitespace only to
/// formats whose grammar allows it, so these bodies reach the CBOR parser.
@Suite struct WhitespaceBodyTests {
    static let registry = SerializerRegistry.standard.installing(.cbor)

    static func canonical(_ bytes: [UInt8], _ contentType: String = "application/cbor") throws -> JSONValue {
        let result = try registry.serialize(Response(headers: ["Content-Type": contentType], body: Data(bytes)))
        #expect(result.serializerID == "cbor")
        return try #require(result.value as? any ConformanceRepresentable).conformanceValue()
    }

    /// RFC 8949 §3.1: 0x0a is the unsigned integer 10, 0x20 the negative integer -1, 0x09 and 0x0d 9 and 13.
    @Test(arguments: [([0x0a], 10), ([0x20], -1), ([0x09], 9), ([0x0d], 13)] as [([UInt8], Int)])
    func aWhitespaceByteIsAnInteger(bytes: [UInt8], value: Int) throws {
        #expect(try Self.canonical(bytes) == JSONValue(value))
    }

    /// RFC 8742: a sequence of two 0x20 items is [-1, -1], not an empty sequence.
    @Test func aSequenceOfWhitespaceBytesKeepsEveryItem() throws {
        #expect(try Self.canonical([0x20, 0x20], "application/cbor-seq") == JSONValue.array([-1, -1]))
    }

    /// A body with no bytes at all is still empty: CBOR has no empty value, so that is the error.
    @Test func noBytesIsStillEmpty() throws {
        let error = #expect(throws: SerializationError.self) {
            try Self.registry.serialize(Response(headers: ["Content-Type": "application/cbor"]))
        }
        #expect(error?.code == .emptyBody)
    }
}
