import Decant
import Foundation
import Testing

@Suite struct StandardRegistryTests {
    @Test func standardRegistryHasNoConflicts() throws {
        let registry = SerializerRegistry.standard
        try registry.checkConflicts()
        #expect(Set(registry.entries.map(\.id)).count == registry.entries.count)
    }

    @Test func standardRegistryDoesNotSwallowUnknownTypesIntoACatchAll() throws {
        // No `*/*` serializer is installed by default, so an unknown type fails with a clear error.
        let resolution = SerializerRegistry.standard.resolve(try MediaType(parsing: "application/x-unknown-format"))
        #expect(resolution.chosen == nil)
    }

    @Test func installingTheDataModuleGivesACatchAll() throws {
        let registry = SerializerRegistry.standard.installing(.data)
        let value = try registry.serialize(
            Response(status: 200, headers: ["Content-Type": "x/y"], body: Data([1, 2, 3])))
        #expect(value.serializerID == "data")
        #expect(value.value as? Data == Data([1, 2, 3]))
    }

    /// Every standard serializer with a `mediaRanges` option refuses an empty list the same way: it would accept
    /// nothing.
    @Test(
        arguments: SerializerRegistry.standard.entries.filter { entry in
            entry.factory.optionSchema.contains { $0.name == "mediaRanges" }
        }.map(\.id))
    func emptyMediaRangesAreRejectedByEveryStandardSerializer(id: SerializerID) throws {
        let error = #expect(throws: SerializationError.self) {
            try SerializerRegistry.standard.serializer(id: id, configuration: ["mediaRanges": .array([])])
        }
        #expect(error?.code == .invalidOption)
        #expect(error?.codingPath == ["mediaRanges"])
        #expect(error?.message.contains("would accept nothing") == true)
    }
}
