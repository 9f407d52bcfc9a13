import Decant
import DecantCSV
import DecantConformance
import Foundation
import Testing

/// `Encodable` rows against Python's `csv.DictWriter` writing the same rows (the fields given to Python as the
/// strings the encoder documents: `true`/`false`, decimal integers, Swift's shortest `Double` spelling).
@Suite struct CSVEncoderTests {
    struct Person: Codable, Equatable {
        var name: String
        var age: Int?
        var member: Bool
        var score: Double
    }

    static let people = [
        Person(name: "Ada", age: nil, member: true, score: 0.5),
        Person(name: "Smith, \"J\"", age: 85, member: false, score: 1e-7),
        Person(name: "line\r\nend", age: 0, member: true, score: -3),
        Person(name: "Zürich 東京", age: -1, member: false, score: 1.25),
    ]

    @Test(.enabled(if: PythonReference.isAvailable)) func bytesEqualPythonsDictWriter() throws {
        let cases: [(body: Data, fieldnames: [String], rows: [[String: String]])] = [
            (
                try CSVEncoder().encode(Self.people), ["name", "member", "score", "age"],
                [
                    ["name": "Ada", "member": "true", "score": "0.5"],
                    ["name": "Smith, \"J\"", "age": "85", "member": "false", "score": "1e-07"],
                    ["name": "line\r\nend", "age": "0", "member": "true", "score": "-3.0"],
                    ["name": "Zürich 東京", "age": "-1", "member": "false", "score": "1.25"],
                ]
            ),
            (
                try CSVEncoder().encode([["b": "2", "a": "1"], ["a": "", "c": "x,y"]]), ["a", "b", "c"],
                [["a": "1", "b": "2"], ["a": "", "c": "x,y"]]
            ),
            (
                try CSVEncoder(encodingOptions: EncodingOptions(keyEncodingStrategy: .convertToSnakeCase))
                    .encode([Snake(firstName: "Ada", lastSeenAt: 3)]), ["first_name", "last_seen_at"],
                [["first_name": "Ada", "last_seen_at": "3"]]
            ),
        ]
        let python = try CSVReference.run(
            "dictwriter", cases.map { ["fieldnames": $0.fieldnames, "rows": $0.rows] }
        ).map { try #require($0 as? String) }
        for (testCase, expected) in zip(cases, python) {
            #expect(String(decoding: testCase.body, as: UTF8.self) == expected)
        }
    }

    struct Snake: Encodable {
        var firstName: String
        var lastSeenAt: Int
    }

    @Test func rowsDecodeBackWithCSVTableDecoder() throws {
        let table = try CSVEncoder().encodeTable(Self.people)
        #expect(table.header == ["name", "member", "score", "age"])
        let body = try CSVWriter().write(table)
        let read = try CSVParser().parse(body)
        #expect(try CSVTableDecoder().decode([Person].self, from: read) == Self.people)
    }

    @Test func listsOfFieldsHaveNoHeader() throws {
        let table = try CSVEncoder().encodeTable([["a", "b"], ["c"]])
        #expect(table == CSVTable(header: nil, rows: [["a", "b"], ["c"]]))
        #expect(try CSVEncoder().encodeTable([Person]()) == CSVTable(header: nil, rows: []))
    }

    @Test func datesAndDataFollowTheStrategies() throws {
        struct Event: Encodable {
            var at: Date
            var blob: Data
        }
        let event = Event(at: Date(timeIntervalSince1970: 86_400.25), blob: Data([0, 255, 7]))
        let iso = CSVEncoder(encodingOptions: EncodingOptions(dateEncodingStrategy: .iso8601WithFractionalSeconds))
        #expect(try iso.encodeTable([event]).rows[0][0] == "1970-01-02T00:00:00.250Z")
        let seconds = CSVEncoder(encodingOptions: EncodingOptions(dateEncodingStrategy: .secondsSince1970))
        #expect(try seconds.encodeTable([event]).rows[0][0] == "86400.25")
        // The defaults: seconds since 2001 (JSONEncoder's .deferredToDate) and Base64 (Python's b64encode).
        let defaults = try CSVEncoder().encodeTable([event])
        #expect(defaults.rows[0][0] == String(86_400.25 - 978_307_200))
        #expect(defaults.rows[0][1] == "AP8H")
        let bytes = CSVEncoder(encodingOptions: EncodingOptions(dataEncodingStrategy: .deferredToData))
        let error = #expect(throws: SerializationError.self) { try bytes.encodeTable([event]) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.codingPath == ["0", "blob"])
    }

    @Test func nestedValuesNameTheirPath() {
        struct Inner: Encodable { var x = 1 }
        struct Outer: Encodable {
            var name = "a"
            var inner = Inner()
        }
        struct Listed: Encodable {
            var tags = ["a"]
        }
        let nested = #expect(throws: SerializationError.self) { try CSVEncoder().encodeTable([Outer(), Outer()]) }
        #expect(nested?.code == .encodingFailed)
        #expect(nested?.codingPath == ["0", "inner"])
        let list = #expect(throws: SerializationError.self) { try CSVEncoder().encodeTable([Listed()]) }
        #expect(list?.codingPath == ["0", "tags"])
        let deep = #expect(throws: SerializationError.self) { try CSVEncoder().encodeTable([[["a"]]]) }
        #expect(deep?.codingPath == ["0", "0"])
    }

    @Test func notAListOfRows() {
        let values: [any Encodable & Sendable] = [
            "text", 3, Person(name: "a", age: nil, member: true, score: 1), ["a", "b"], [Person?.none],
            [[Self.people[0]], Self.people] as [[Person]],
        ]
        for value in values {
            let error = #expect(throws: SerializationError.self) { try CSVEncoder().encodeTable(value) }
            #expect(error?.code == .encodingFailed, "\(value)")
        }
        // A record row, then a list row.
        struct Either: Encodable {
            var keyed: Bool
            func encode(to encoder: any Encoder) throws {
                if keyed {
                    var container = encoder.container(keyedBy: DynamicKey.self)
                    try container.encode("x", forKey: DynamicKey(stringValue: "a")!)
                } else {
                    var container = encoder.unkeyedContainer()
                    try container.encode("x")
                }
            }
        }
        let mixed = #expect(throws: SerializationError.self) {
            try CSVEncoder().encodeTable([Either(keyed: true), Either(keyed: false)])
        }
        #expect(mixed?.codingPath == ["1"])
    }

    struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test func nonFiniteNumbersFollowTheStrategy() throws {
        let rows = [["x": Double.nan], ["x": -.infinity]]
        let error = #expect(throws: SerializationError.self) { try CSVEncoder().encodeTable(rows) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.codingPath == ["0", "x"])
        let strings = CSVEncoder(
            encodingOptions: EncodingOptions(
                nonConformingFloatEncodingStrategy: .convertToString(
                    positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")))
        #expect(try strings.encodeTable(rows) == CSVTable(header: ["x"], rows: [["nan"], ["-inf"]]))
    }

    @Test func sortedKeysSortTheColumnsAndTwiceWrittenColumnsFail() throws {
        let sorted = CSVEncoder(encodingOptions: EncodingOptions(outputFormatting: .sortedKeys))
        #expect(try sorted.encodeTable(Self.people).header == ["age", "member", "name", "score"])
        struct Twice: Encodable {
            var aB = 1
            var a_b = 2
        }
        let snake = CSVEncoder(encodingOptions: EncodingOptions(keyEncodingStrategy: .convertToSnakeCase))
        let error = #expect(throws: SerializationError.self) { try snake.encodeTable([Twice()]) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.codingPath == ["0", "a_b"])
    }

    @Test func registryWritesEncodableRows() throws {
        let registry = SerializerRegistry.standard.installing(.csv)
        let body = try registry.encode(Self.people, as: "text/csv")
        #expect(body.contentType.description == "text/csv;charset=utf-8;header=present")
        #expect(try registry.decode([Person].self, from: body.response()) == Self.people)
    }
}
