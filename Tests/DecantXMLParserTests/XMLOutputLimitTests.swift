import DecantCore
import DecantXMLParser
import Foundation
import Testing

/// What a document may make the parser report: attribute defaults count against the entity expansion budget each time
/// they are applied, and every document has a node and an output budget proportional to its size.
@Suite struct XMLOutputLimitTests {
    static func parse(
        _ text: String, _ options: XMLParsingOptions = XMLParsingOptions()
    ) throws(SerializationError)
        -> [XMLEvent]
    {
        try XMLStreamParser(data: Data(text.utf8), options: options).events()
    }

    static func failure(_ text: String, _ options: XMLParsingOptions = XMLParsingOptions()) -> SerializationError? {
        do {
            _ = try parse(text, options)
            return nil
        } catch {
            return error
        }
    }

    static func limitName(_ error: SerializationError?) -> String? {
        (error?.underlying as? XMLParsingError)?.limitName
    }

    /// `<!ATTLIST e a CDATA "...">` with `defaultValue` (and `<!ENTITY big>` holding `entity` when not empty), then
    /// `elements` empty `<e/>` elements in `<r>`.
    static func defaultsDocument(entity: String = "", defaultValue: String, elements: Int) -> String {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n"
        if !entity.isEmpty { text += "<!ENTITY big \"\(entity)\">\n" }
        text += "<!ATTLIST e a CDATA \"\(defaultValue)\">\n]>\n<r>"
        return text + String(repeating: "<e/>", count: elements) + "</r>"
    }

    @Test
    func attributeDefaultBombStopsAtTheExpansionLimit() throws {
        // The reliability issue's input: a 100 KB entity as the default of an attribute, applied to 3,000 empty
        // elements (a 112 KB document that used to report 300 MB of attribute values and grow to gigabytes).
        let text = Self.defaultsDocument(
            entity: String(repeating: "x", count: 100_000), defaultValue: "&big;", elements: 3000)
        #expect(text.utf8.count < 113_000)
        let error = try #require(Self.failure(text))
        #expect(error.code == .limitExceeded)
        // 10 × 112 KB is above the 1 MiB floor: the ratio is the limit that stops it.
        #expect(Self.limitName(error) == "maxEntityExpansionRatio")
        #expect(error.message.contains("`maxEntityExpansionRatio`"))
        #expect(error.message.contains("default value of the attribute `a`"))
        // With a higher expansion ratio, the output budget (16 times the body, at least 4 MiB) stops it next...
        var options = XMLParsingOptions()
        options.maxEntityExpansionRatio = 1000
        #expect(Self.limitName(Self.failure(text, options)) == "maxOutputRatio")
        // ...and with a higher output ratio too, the expansion byte limit (10 MB).
        options.maxOutputRatio = 1000
        let bytes = try #require(Self.failure(text, options))
        #expect(bytes.code == .limitExceeded)
        #expect(Self.limitName(bytes) == "maxEntityExpansionBytes")
        #expect(bytes.message.contains("`maxEntityExpansionBytes`"))
    }

    @Test
    func literalAttributeDefaultsCountAsOutput() throws {
        // The same amplification without an entity: a 100 KB literal default, applied 3,000 times.
        let text = Self.defaultsDocument(defaultValue: String(repeating: "x", count: 100_000), elements: 3000)
        let error = try #require(Self.failure(text))
        #expect(error.code == .limitExceeded)
        #expect(Self.limitName(error) == "maxOutputRatio")
        #expect(error.message.contains("`maxOutputRatio`"))
    }

    @Test func largeDefaultsWithinTheLimitsStillWork() throws {
        // 10 KB of entity text applied to 50 elements: 500 KB of expansion, within the 1 MiB floor.
        let value = String(repeating: "y", count: 10_000)
        let text = Self.defaultsDocument(entity: value, defaultValue: "&big;", elements: 50)
        let events = try Self.parse(text)
        let starts = events.compactMap { event -> XMLElementStart? in
            if case .startElement(let start) = event, start.name.qualifiedName == "e" { return start }
            return nil
        }
        #expect(starts.count == 50)
        #expect(
            starts.allSatisfy {
                $0.attributes == [XMLAttribute(name: XMLName(qualifiedName: "a"), value: value, isSpecified: false)]
            })
        // A specified value replaces the default, so it is not counted: 200 elements × 10 KB would be over the floor.
        let specified = text.replacingOccurrences(of: "<e/>", with: "<e a='s'/>").replacingOccurrences(
            of: "</r>", with: String(repeating: "<e a='s'/>", count: 150) + "</r>")
        #expect(try Self.parse(specified).count == 2 + 2 * 200 + 2)
    }

    @Test
    func stopsNodeFloodsAtTheNodeLimit() throws {
        // The 60 MB `<a/>` flood scaled down, with a lowered limit: 400 KB of `<a/>` is 100,001 elements.
        let flood = "<r>" + String(repeating: "<a/>", count: 100_000) + "</r>"
        var options = XMLParsingOptions()
        options.maxNodeCount = 50_000
        let error = try #require(Self.failure(flood, options))
        #expect(error.code == .limitExceeded)
        #expect(Self.limitName(error) == "maxNodeCount")
        #expect(error.message.contains("`maxNodeCount`"))
        // At the default limits the same document (about one node per 4 bytes) is fine.
        #expect(try Self.parse(flood).count == 2 * 100_001)
    }

    @Test
    func stopsAttributeDefaultFloodsAtTheNodeRatio() throws {
        // 1,000 defaulted attributes per 4-byte `<a/>`: 250 nodes per body byte, far above one per byte.
        let names = (0..<1000).map { "n\($0)" }
        var text = "<!DOCTYPE r [<!ATTLIST a " + names.map { "\($0) CDATA ''" }.joined(separator: " ") + ">]><r>"
        text += String(repeating: "<a/>", count: 100_000) + "</r>"
        let error = try #require(Self.failure(text))
        #expect(error.code == .limitExceeded)
        #expect(Self.limitName(error) == "maxNodesPerByte")
        #expect(error.message.contains("`maxNodesPerByte`"))
    }

    @Test func stopsOutputAtTheByteLimit() throws {
        var options = XMLParsingOptions()
        options.maxOutputBytes = 10
        let error = try #require(Self.failure("<abcdef>ghijk</abcdef>", options))
        #expect(error.code == .limitExceeded)
        #expect(Self.limitName(error) == "maxOutputBytes")
        #expect(error.message.contains("`maxOutputBytes`"))
        #expect(throws: Never.self) { try Self.parse("<abcdef>ghij</abcdef>", options) }
    }

    @Test func budgetsAreProportionalWithAFloor() {
        let options = XMLParsingOptions()
        #expect(options.nodeBudget(bodySize: 1000) == XMLParsingOptions.nodeCountFloor)
        #expect(options.nodeBudget(bodySize: 3_000_000) == 3_000_000)
        #expect(options.nodeBudget(bodySize: 100_000_000) == XMLParsingOptions.defaultMaxNodeCount)
        #expect(options.outputBudget(bodySize: 1000) == XMLParsingOptions.outputFloor)
        #expect(options.outputBudget(bodySize: 1_000_000) == 16_000_000)
        #expect(options.outputBudget(bodySize: 100_000_000) == XMLParsingOptions.defaultMaxOutputBytes)
        #expect(options.outputBudget(bodySize: Int.max) == XMLParsingOptions.defaultMaxOutputBytes)
    }

    @Test func configurationSetsTheNewLimits() throws {
        var options = XMLParsingOptions()
        try options.apply([
            "maxNodeCount": .integer(5), "maxNodesPerByte": .integer(2), "maxOutputBytes": .integer(7),
            "maxOutputRatio": .integer(3),
        ])
        #expect(options.maxNodeCount == 5 && options.maxNodesPerByte == 2)
        #expect(options.maxOutputBytes == 7 && options.maxOutputRatio == 3)
        let names = Set(XMLParsingOptions.optionSchema.map(\.name))
        #expect(names.isSuperset(of: ["maxNodeCount", "maxNodesPerByte", "maxOutputBytes", "maxOutputRatio"]))
    }
}
