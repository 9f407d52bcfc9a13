import Decant
import Foundation
import Testing

/// The standard registry writes property list bodies through the `propertyList` format's encoder, and what it writes
/// reads back.
@Suite struct PropertyListEncodingRegistryTests {
    let registry = SerializerRegistry.standard

    struct Preferences: Codable, Equatable, Sendable {
        var theme: String
        var fontSize: Double
        var lastOpened: Date
        var recent: [String]
    }

    let preferences = Preferences(
        theme: "dark", fontSize: 13.5, lastOpened: Date(timeIntervalSince1970: 1_700_000_000), recent: ["a.txt"])

    @Test func encodesAndReadsBack() throws {
        let value = PropertyListValue.dictionary(
            PropertyListDictionary([("name", .string("Ada")), ("count", .integer(PropertyListInteger(Int64(3))))]))
        let body = try registry.encode(value, as: "application/x-plist")
        #expect(body.contentType.description == "application/x-plist")
        #expect(body.serializerID == "propertyList")
        #expect(String(decoding: body.body.prefix(5), as: UTF8.self) == "<?xml")
        #expect(try registry.serialize(body.response()).value as? PropertyListValue == value)

        let encodable = try registry.encode(preferences, as: "application/x-plist")
        #expect(try registry.decode(Preferences.self, from: encodable.response()) == preferences)
        #expect(try PropertyListDecoder().decode(Preferences.self, from: encodable.body) == preferences)

        let binary = try registry.encode(preferences, as: "application/x-bplist")
        #expect(binary.body.starts(with: Array("bplist00".utf8)))
        #expect(try registry.decode(Preferences.self, from: binary.response()) == preferences)
    }

    @Test func negotiatesPropertyLists() throws {
        let body = try registry.encode(preferences, accepting: AcceptHeader(parsing: "application/x-bplist, */*;q=0.1"))
        #expect(body.contentType.description == "application/x-bplist")
        #expect(try registry.decode(Preferences.self, from: body.response()) == preferences)
    }
}
