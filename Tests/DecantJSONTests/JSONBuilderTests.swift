import DecantCore
import Foundation
import Testing

@testable import DecantJSON

/// The builder behind `JSONValue(_:)`, `.array` and `.object`: spans keep their offsets as values are nested and
/// copied, and the limits its check states are the tape's.
@Suite struct JSONBuilderTests {
    @Test func nestedLargeStringsKeepTheirBytes() {
        // Strings of a few megabytes nested and copied twice: every span is re-based into the new builder's bytes.
        let first = String(repeating: "a", count: 3_000_000)
        let second = String(repeating: "é", count: 1_000_000)
        let inner = JSONValue.object([("first", JSONValue(first)), ("n", JSONValue(1.5))])
        let outer = JSONValue.array([inner, JSONValue(second), inner])
        #expect(outer[0]?["first"]?.stringValue == first)
        #expect(outer[1]?.stringValue == second)
        #expect(outer[2]?["first"]?.stringValue == first)
        // Keys ("first", "n") and the number text ("1.5") are spans too.
        let innerBytes: Int = 5 + first.utf8.count + 1 + 3
        #expect(outer.storage.bytes.count == 2 * innerBytes + second.utf8.count)
    }

    @Test func statesTheTapeLimits() {
        // The message of the builder's check quotes these numbers; keep them in step with the tape layout.
        #expect(Tape.maxSpanLength == 268_435_455)
        #expect(Tape.maxOffset == 4_294_967_295)
        // A span at the largest offset and length still round-trips through an entry.
        let entry = Tape.span(kind: Tape.stringKind, offset: Tape.maxOffset, length: Tape.maxSpanLength)
        #expect(Tape.offset(entry) == Tape.maxOffset && Tape.length(entry) == Tape.maxSpanLength)
        #expect(Tape.kind(entry) == Tape.stringKind)
    }

    /// Regression: a canonical form built from a body (an XML document's canonical text, a decoded text) reached the
    /// builder's precondition when it was longer than a span; `JSONValue(checking:)` reports it instead.
    @Test func checkingInitializerReportsTextLongerThanASpan() throws {
        #expect(try JSONValue(checking: "short") == JSONValue("short"))
        let fits = String(repeating: "x", count: JSONValue.maxStringBytes)
        #expect(try JSONValue(checking: fits).stringValue?.utf8.count == JSONValue.maxStringBytes)
        let tooLong = fits + "é"
        let error = #expect(throws: SerializationError.self) { try JSONValue(checking: tooLong) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("JSONValue.maxStringBytes") == true)
    }
}
