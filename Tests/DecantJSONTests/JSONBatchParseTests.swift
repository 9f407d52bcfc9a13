import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantJSON

/// `JSONParser.parse(texts:in:)`: several texts of one buffer parsed together give what each gives alone.
@Suite struct JSONBatchParseTests {
    /// The outcome of one parse, comparable: the value's JSON text, or the error's code and offset.
    static func outcome(_ result: Result<JSONValue, SerializationError>) -> String {
        switch result {
        case .success(let value): "value \(value.description)"
        case .failure(let error): "error \(error.code) at \(error.offset.map(String.init) ?? "-")"
        }
    }

    static func alone(_ texts: [[UInt8]]) -> [String] {
        texts.map { text in
            text.withUnsafeBytes { raw in
                do throws(SerializationError) {
                    return outcome(.success(try JSONParser().parse(raw)))
                } catch {
                    return outcome(.failure(error))
                }
            }
        }
    }

    static func together(_ texts: [[UInt8]], separator: [UInt8] = [0x0A]) -> [String] {
        var buffer: [UInt8] = []
        var ranges: [Range<Int>] = []
        for text in texts {
            ranges.append(buffer.count..<buffer.count + text.count)
            buffer += text + separator
        }
        return buffer.withUnsafeBytes { raw in JSONParser().parse(texts: ranges, in: raw).map(outcome) }
    }

    @Test func mixedTextsGiveWhatEachGivesAlone() {
        let texts =
            [
                #"{"a": [1, 2, {"b": null}], "c": "d\u00e9"}"#, #"{"unterminated": "abc"#, "", "   ", "42", "-0.5e3",
                #"["tail"] x"#, #"{"dup": 1, "dup": 2}"#, "\u{FEFF}[1]", #""\ud800""#,
                "[" + String(repeating: "[", count: 600),
                "true", "nul", #"{"k":"v"}"#,
            ].map { Array($0.utf8) } + [[0x00, 0x5B, 0x00, 0x5D], [0xFF, 0xFE, 0x31, 0x00]]  // UTF-16 texts
        #expect(Self.together(texts) == Self.alone(texts))
        // Separated by text that would continue an unterminated string or number if the scanner read past a text.
        #expect(Self.together(texts, separator: Array("\"]}9".utf8)) == Self.alone(texts))
    }

    /// Every JSONTestSuite `test_parsing` file, all in one buffer.
    @Test(.enabled(if: Corpora.isAvailable)) func jsonTestSuiteInOneBuffer() throws {
        let files = Corpora.files(under: "json/JSONTestSuite/test_parsing", extension: "json")
        let texts = try files.map { try [UInt8](Data(contentsOf: $0)) }
        #expect(texts.count > 300)
        let batched = Self.together(texts)
        let single = Self.alone(texts)
        let passed = zip(batched, single).filter { $0 == $1 }.count
        print("JSONTestSuite in one batch: \(passed) passed, \(texts.count - passed) failed")
        #expect(batched == single)
    }

    /// Values of one batch share one storage and stay valid after the others are gone.
    @Test func valuesOutliveTheirNeighbours() throws {
        let buffer = Array(#"{"a":1}|["x","y\n"]|"s""#.utf8)
        let ranges = [0..<7, 8..<19, 20..<23]
        var results = buffer.withUnsafeBytes { JSONParser().parse(texts: ranges, in: $0) }
        let second = try results[1].get()
        results.removeAll()
        #expect(second[1]?.stringValue == "y\n")
        #expect(second.count == 2)
    }
}
