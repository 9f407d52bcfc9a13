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
}
