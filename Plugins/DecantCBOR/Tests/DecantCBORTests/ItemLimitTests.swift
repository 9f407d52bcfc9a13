import Decant
import DecantCBOR
import Foundation
import Testing

/// `maxItems` at its default of 1,000,000: a body of millions of one-byte items (issue 34: 9.9 MB of nulls) fails
/// before its tree is built, at the head that declares too many or at the item that passes the limit.
@Suite struct CBORItemLimitTests {
    static func response(_ body: Data) -> Response {
        Response(status: 200, headers: ["Content-Type": "application/cbor"], body: body)
    }

    /// An array with a four-byte length (0x9a) of 9,900,000 nulls (0xf6), through the registry as `decant decode`
    /// takes it: refused at its head, offset 0.
    @Test func millionsOfNullsFailAtTheArraysHead() throws {
        let count = 9_900_000
        var body = Data([0x9a, UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff)])
        body.append(UInt8(count & 0xff))
        body.append(Data(repeating: 0xf6, count: count))
        let error = try #require(throws: SerializationError.self) {
            try SerializerRegistry.standard.installing(.cbor).serialize(Self.response(body))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 0)
        #expect(error.message.contains("1000000") && error.message.contains("maxItems"))
        #expect(error.serializerID == "cbor")
        let read = try #require(throws: SerializationError.self) { try CBORParser().read(body) }
        #expect(read.code == .limitExceeded && read.offset == 0)
    }

    /// The same nulls in an indefinite-length array (0x9f ... 0xff): counted as they come, so the null that makes
    /// 1,000,001 items with the array (the 1,000,000th, at offset 1,000,000) fails.
    @Test func millionsOfNullsInAnIndefiniteArrayFailAtTheLimit() throws {
        var body = Data([0x9f])
        body.append(Data(repeating: 0xf6, count: 9_900_000))
        body.append(0xff)
        let error = try #require(throws: SerializationError.self) {
            try SerializerRegistry.standard.installing(.cbor).serialize(Self.response(body))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 1_000_000)
        #expect(CBORParsingOptions().maxItems == 1_000_000)
        // One fewer null is read: 999,999 of them and the array are 1,000,000 items.
        var atLimit = Data([0x9f])
        atLimit.append(Data(repeating: 0xf6, count: 999_999))
        atLimit.append(0xff)
        let value = try CBORParser().parse(atLimit)
        #expect(value.arrayValue?.count == 999_999)
        #expect(value.arrayValue?.allSatisfy { $0 == .null } == true)
    }

    /// The canonical form of a large flat array is written with a stack of a few entries, not one per element: the
    /// text of 999,999 nulls is `[null,null,...]`.
    @Test func canonicalTextOfAFlatArray() throws {
        let value = CBORValue.array(Array(repeating: .null, count: 999_999))
        let text = value.canonicalJSONText
        #expect(text.utf8.count == 2 + 999_999 * 4 + 999_998)
        #expect(text.hasPrefix("[null,null,") && text.hasSuffix(",null]"))
        #expect(try value.conformanceValue().count == 999_999)
    }
}
