import DecantCore
import Foundation
import Testing

/// `SerializationError(decoding:from:failure:)`, the one mapping of a `DecodingError` every format's `Decodable`
/// support uses. The `DecodingError`s come from Foundation's `JSONDecoder`, an independent decoder.
@Suite struct SerializationErrorDecodingTests {
    struct Event: Decodable {
        struct Slot: Decodable { var start: Int }
        var title: String
        var slots: [Slot]
    }

    static func failure(_ json: String) throws -> any Error {
        do {
            _ = try JSONDecoder().decode(Event.self, from: Data(json.utf8))
        } catch {
            return error
        }
        throw CancellationError()
    }

    @Test func aMissingKeyNamesItInThePathAndTheMessage() throws {
        let error = SerializationError(
            decoding: Event.self, from: "the calendar", failure: try Self.failure(#"{"title":"a","slots":[{}]}"#))
        #expect(error.code == .decodingFailed)
        #expect(error.codingPath == ["slots", "0", "start"])
        #expect(
            error.message
                == "Decoding Event from the calendar failed at 'slots.0.start': 'start' is missing. Send it, or make "
                + "the property optional.")
        #expect(error.underlying is DecodingError)
    }

    @Test func aTypeMismatchSaysWhereAndHowToFixIt() throws {
        let error = SerializationError(
            decoding: Event.self, from: "the calendar", failure: try Self.failure(#"{"title":1,"slots":[]}"#),
            serializerID: "acme.calendar")
        #expect(error.codingPath == ["title"])
        #expect(error.serializerID == "acme.calendar")
        #expect(error.message.hasPrefix("Decoding Event from the calendar failed at 'title': "), "\(error.message)")
        #expect(error.message.hasSuffix(". Change the type or the data so that they agree."), "\(error.message)")
    }

    @Test func aNullValueAsksForAnOptional() throws {
        let error = SerializationError(
            decoding: Event.self, from: "the calendar", failure: try Self.failure(#"{"title":null,"slots":[]}"#))
        #expect(error.codingPath == ["title"])
        #expect(error.message.contains("there is no String value"), "\(error.message)")
        #expect(error.message.hasSuffix("Send a value, or make the property optional."), "\(error.message)")
    }

    @Test func theTopLevelAndAFormatsOwnLocationWords() throws {
        let top = SerializationError(
            decoding: Event.self, from: "the calendar", failure: try Self.failure("[]"))
        #expect(top.message.hasPrefix("Decoding Event from the calendar failed at the top level: "))
        let rows = SerializationError(
            decoding: Event.self, from: "rows", failure: try Self.failure(#"{"title":"a","slots":[{}]}"#),
            location: { "in row \($0.count)" })
        #expect(rows.message.hasPrefix("Decoding Event from rows failed in row 3: "), "\(rows.message)")
    }

    @Test func aSerializationErrorIsKeptAndOtherErrorsAreWrapped() {
        let original = SerializationError(code: .limitExceeded, message: "Too deep.")
        let kept = SerializationError(decoding: Event.self, from: "x", failure: original, serializerID: "acme.x")
        #expect(kept.code == .limitExceeded && kept.message == "Too deep." && kept.serializerID == "acme.x")
        let other = SerializationError(decoding: Event.self, from: "the calendar", failure: CancellationError())
        #expect(other.code == .decodingFailed)
        #expect(other.message == "Decoding Event from the calendar failed: CancellationError().")
        #expect(other.underlying is CancellationError)
    }
}
