import Decant
import DecantCSV
import DecantJSON
import Foundation
import Testing

/// `maxFields` (10,000,000 by default) and the canonical form written from the table's storage (issue 34: 60 MB of
/// empty fields).
@Suite struct CSVFieldLimitTests {
    /// 60,000 lines of 999 commas are 60,000,000 empty fields, 1,000 a record: through the registry as
    /// `decant decode` takes them, the first field of line 10,001 (offset 10,000,000) is one too many.
    @Test func sixtyMillionEmptyFieldsPassMaxFields() throws {
        let line = Data(repeating: UInt8(ascii: ","), count: 999) + Data([0x0A])
        var body = Data(capacity: line.count * 60_000)
        for _ in 0..<60_000 { body.append(line) }
        let response = Response(status: 200, headers: ["Content-Type": "text/csv"], body: body)
        let error = try #require(throws: SerializationError.self) {
            try SerializerRegistry.standard.installing(.csv).serialize(response)
        }
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 10_000_000)
        #expect(error.message.contains("maxFields (10000000)"))
        #expect(error.message.contains("line 10001"))
        #expect(error.serializerID == "csv")
    }

    /// 10,000 lines of 999 commas (header included) are exactly the default's 10,000,000 fields: read, and their
    /// canonical form holds every field.
    @Test func tenMillionEmptyFieldsAreRead() throws {
        let line = Data(repeating: UInt8(ascii: ","), count: 999) + Data([0x0A])
        var body = Data(capacity: line.count * 10_000)
        for _ in 0..<10_000 { body.append(line) }
        let table = try CSVParser().parse(body, mediaType: try MediaType(parsing: "text/csv"))
        #expect(table.header?.count == 1_000)
        #expect(table.rows.count == 9_999)
        let canonical = try table.conformanceValue()
        #expect(canonical["header"]?.count == 1_000)
        #expect(canonical["rows"]?.count == 9_999)
        #expect(canonical["rows"]?[9_998]?.count == 1_000)
        #expect(canonical["rows"]?[9_998]?[999]?.stringValue == "")
    }

    /// Fields that JSON must escape (quotes, backslashes, control characters) and others it keeps, in the header and
    /// in rows; the expected strings are the fields themselves.
    @Test func canonicalFormEscapesWhatJSONMust() throws {
        let text = "name,\"q\"\"uote\"\r\n\"a\\b\",\"line\nbreak\tand\u{1}\"\r\né🙂,\r\n"
        let table = try CSVParser().parse(Data(text.utf8))
        let expected: JSONValue = [
            "header": ["name", "q\"uote"],
            "rows": [["a\\b", "line\nbreak\tand\u{1}"], ["é🙂", ""]],
        ]
        #expect(try table.conformanceValue() == expected)
        let built = CSVTable(header: nil, rows: [["\"", "\\", "\u{1F}x"]])
        #expect(try built.conformanceValue() == ["header": nil, "rows": [["\"", "\\", "\u{1F}x"]]])
    }
}
