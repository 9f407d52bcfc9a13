import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

@Suite struct CompoundOrderingTests {
    @Test func asListedKeepsTheGivenOrderAmongMatches() {
        var compound = CompoundSerializer([
            TaggingSerializer("anyText", "text/*").eraseToAnySerializer(),
            TaggingSerializer("plain", "text/plain").eraseToAnySerializer(),
        ])
        let response = Response.make(type: "text/plain", body: "x")
        #expect(compound.plan(for: response).map(\.serializer.id) == ["plain", "anyText"])
        compound.order = .asListed
        #expect(compound.plan(for: response).map(\.serializer.id) == ["anyText", "plain"])
    }
}
