import Decant
import DecantTestSupport
import Foundation
import Testing

/// `configure(_:options:)`: one place to set a format's options for everything a registry does with it.
@Suite struct RegistryConfigurationTests {
    struct Box: Codable, Equatable, Sendable {
        var inner: [[Int]]
    }

    static let deep = Response(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"{"inner": [[1]]}"#.utf8))

    @Test func theOptionsReachTheSerializerTheDecoderAndTheEncoder() throws {
        let standard = SerializerRegistry.standard
        #expect(throws: Never.self) { try standard.serialize(Self.deep) }
        let shallow = try standard.configuring("json", options: ["maxDepth": 2])
        // Reading: serialize and decode both stop at the third level now.
        let serializeError = #expect(throws: SerializationError.self) { try shallow.serialize(Self.deep) }
        #expect(serializeError?.code == .limitExceeded)
        let decodeError = #expect(throws: SerializationError.self) { try shallow.decode(Box.self, from: Self.deep) }
        #expect(decodeError?.code == .limitExceeded)
        #expect(shallow.entry(for: "json")?.configuration == ["maxDepth": 2])
        // The original registry is a value: unchanged.
        #expect(try standard.decode(Box.self, from: Self.deep) == Box(inner: [[1]]))
    }

    @Test func theEncoderIsBuiltWithTheOptions() throws {
        let value = PropertyListValue.dictionary(PropertyListDictionary([("name", .string("Ada"))]))
        let xml = try SerializerRegistry.standard.encode(value, as: "application/x-plist")
        #expect(xml.body.starts(with: Array("<?xml".utf8)))
        let registry = try SerializerRegistry.standard.configuring("propertyList", options: ["outputFormat": "binary"])
        let binary = try registry.encode(value, as: "application/x-plist")
        #expect(binary.body.starts(with: Array("bplist00".utf8)))
        #expect(try registry.serialize(binary.response()).value as? PropertyListValue == value)
        if Python.isAvailable {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("configured-\(UUID()).plist")
            try binary.body.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let script = "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))['name'])"
            #expect(String(decoding: try Python.run(script, [file.path]), as: UTF8.self) == "Ada\n")
        }
    }

    @Test func aCallsOptionsGoOverTheRegistrysOptions() throws {
        let registry = try SerializerRegistry.standard.configuring("json", options: ["maxDepth": 2])
        let duplicate = Response(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(#"{"a": 1, "a": 2}"#.utf8))
        let rejecting = try registry.serializer(id: "json", configuration: ["duplicateKeys": "reject"])
        #expect(throws: SerializationError.self) { try rejecting.serialize(duplicate) }
        // maxDepth 2 still holds for the call's serializer, and the call can raise it.
        #expect(throws: SerializationError.self) { try rejecting.serialize(Self.deep) }
        let deeper = try registry.serializer(id: "json", configuration: ["maxDepth": 8])
        #expect(throws: Never.self) { try deeper.serialize(Self.deep) }
    }

    @Test func badOptionsAndIdsAreNamedAndLeaveTheRegistryAsItWas() throws {
        var registry = SerializerRegistry.standard
        let option = #expect(throws: SerializationError.self) {
            try registry.configure("json", options: ["maxDepht": 2])
        }
        #expect(option?.code == .unknownOption)
        #expect(option?.message.contains("maxDepth") == true, "\(option?.message ?? "")")
        let value = #expect(throws: SerializationError.self) {
            try registry.configure("json", options: ["maxDepth": "deep"])
        }
        #expect(value?.code == .invalidOption)
        let id = #expect(throws: SerializationError.self) { try registry.configure("jsno", options: [:]) }
        #expect(id?.code == .unknownSerializer)
        #expect(id?.message.contains("Did you mean 'json'?") == true)
        #expect(registry.entry(for: "json")?.configuration == [:])
        #expect(throws: Never.self) { try registry.serialize(Self.deep) }
    }
}
