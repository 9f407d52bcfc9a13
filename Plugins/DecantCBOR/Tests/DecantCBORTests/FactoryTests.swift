import Decant
import DecantCBOR
import Foundation
import Testing

@Suite struct FactoryTests {
    @Test func configurationOptionsReachTheParser() throws {
        let serializer = try CBORSerializerFactory().makeSerializer(configuration: [
            "maxDepth": 3, "maxItems": 100, "duplicateKeys": "lastWins", "allowsTwoByteLowSimpleValues": true,
        ])
        #expect(
            serializer.parser.options
                == CBORParsingOptions(
                    maxDepth: 3, maxItems: 100, duplicateKeys: .lastWins, allowsTwoByteLowSimpleValues: true))
        #expect(try serializer.serialize(CBORTestSupport.response(CBORTestSupport.hex("f818"))) == .simple(24))
    }

    @Test func badOptionsAreReported() {
        let unknown = #expect(throws: SerializationError.self) {
            try CBORSerializerFactory().makeSerializer(configuration: ["maxDeph": 3])
        }
        #expect(unknown?.code == .unknownOption)
        let invalid = #expect(throws: SerializationError.self) {
            try CBORSerializerFactory().makeSerializer(configuration: ["duplicateKeys": "first"])
        }
        #expect(invalid?.code == .invalidOption)
    }

    /// Errors carry the serializer id, the media type and the offset through the registry.
    @Test func registryErrorsCarryTheContext() throws {
        let registry = SerializerRegistry.standard.installing(.cbor)
        let error = #expect(throws: SerializationError.self) {
            try registry.serialize(CBORTestSupport.response(CBORTestSupport.hex("8201")))
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.serializerID == "cbor")
        #expect(error?.offset == 0)
        #expect(error?.mediaType?.essence == "application/cbor")
    }
}
