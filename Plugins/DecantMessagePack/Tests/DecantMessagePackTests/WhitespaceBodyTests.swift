import Decant
import DecantJSON
import DecantMessagePack
import Foundation
import Testing

/// In MessagePack, whitespace bytes are values, not an empty body: the registry's empty-body rule applies whitespace only to
/// formats whose grammar allows it, so these bodies reach the MessagePack parser.
@Suite struct WhitespaceBodyTests {
    static let registry = SerializerRegistry.standard.installing(.msgpack)

    static func canonical(_ bytes: [UInt8], _ contentType: String = "application/msgpack") throws -> JSONValue {
        let result = try registry.serialize(Response(headers: ["Content-Type": contentType], body: Data(bytes)))
        #expect(result.serializerID == "msgpack")
        return try #require(result.value as? any ConformanceRepresentable).conformanceValue()
    }

    /// The MessagePack spec: bytes 0x00-0x7f are positive fixints, so 0x20 is 32, 0x0a 10, 0x09 9, 0x0d 13.
    @Test(arguments: [([0x20], 32), ([0x0a], 10), ([0x09], 9), ([0x0d], 13)] as [([UInt8], Int)])
    func aWhitespaceByteIsAnInteger(bytes: [UInt8], value: Int) throws {
        #expect(try Self.canonical(bytes) == JSONValue(value))
    }

    /// Two whitespace bytes are a value followed by trailing bytes: an error, not an empty body.
    @Test func twoWhitespaceBytesAreNotEmpty() throws {
        let error = #expect(throws: SerializationError.self) {
            try Self.registry.serialize(
                Response(headers: ["Content-Type": "application/msgpack"], body: Data([0x20, 0x20])))
        }
        #expect(error?.code != .emptyBody)
    }
}
