import DecantCore
import DecantXMLParser
import Foundation
import Testing

/// Untrusted bodies: entity bombs, external entities, depth and every limit.
@Suite struct XMLSafetyTests {
    static func parse(
        _ text: String, _ options: XMLParsingOptions = XMLParsingOptions()
    ) throws(SerializationError) -> [XMLEvent] {
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

    @Test func stopsBillionLaughs() throws {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        text += "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
        for level in 2...9 {
            let previous = "&lol\(level - 1);"
            text += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        text += "]>\n<lolz>&lol9;</lolz>"
        let error = try #require(Self.failure(text))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxEntityExpansion"))
        // In an attribute value too.
        let attribute = text.replacingOccurrences(of: "<lolz>&lol9;</lolz>", with: "<lolz a=\"&lol9;\"/>")
        #expect(Self.failure(attribute)?.code == .limitExceeded)
    }

    @Test func stopsQuadraticBlowup() throws {
        let big = String(repeating: "x", count: 100_000)
        let text = "<!DOCTYPE r [<!ENTITY a \"\(big)\">]><r>" + String(repeating: "&a;", count: 100_000) + "</r>"
        let error = try #require(Self.failure(text))
        #expect(error.code == .limitExceeded)
        #expect((error.underlying as? XMLParsingError)?.limitName == "maxEntityExpansionRatio")
    }

    @Test func rejectsRecursiveEntities() {
        #expect(Self.failure(#"<!DOCTYPE r [<!ENTITY a "&b;"><!ENTITY b "&a;">]><r>&a;</r>"#)?.code == .invalidBody)
        #expect(Self.failure(#"<!DOCTYPE r [<!ENTITY a "<x a='&a;'/>">]><r>&a;</r>"#)?.code == .invalidBody)
    }

    @Test func neverReadsExternalEntities() throws {
        let marker = "DECANT-MARKER-\(UInt64.random(in: 0...UInt64.max))"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decant-xxe-\(marker).txt")
        try Data(marker.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // An access time older than the modification time: any read would move it (relatime updates it then).
        let old = Date(timeIntervalSince1970: 946_684_800)
        var times = [
            timespec(tv_sec: Int(old.timeIntervalSince1970), tv_nsec: 0),
            timespec(tv_sec: Int(Date().timeIntervalSince1970), tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)

        for system in [url.absoluteString, url.path, "http://127.0.0.1:9/\(marker)"] {
            let text = "<!DOCTYPE r [<!ENTITY x SYSTEM \"\(system)\">]><r>a&x;b</r>"
            let events = try Self.parse(text)
            #expect(!"\(events)".replacingOccurrences(of: system, with: "").contains(marker))
            #expect(events.contains(.characters("a")) && events.contains(.characters("b")))
            var writer = XMLCanonicalWriter()
            for event in events { writer.write(event) }
            #expect(writer.output == "<r>ab</r>")
            // In an attribute value, an external entity is an error (WFC: No External Entity References).
            let attribute = "<!DOCTYPE r [<!ENTITY x SYSTEM \"\(system)\">]><r a=\"&x;\"/>"
            #expect(Self.failure(attribute)?.code == .invalidBody)
            // An external DTD is never read either.
            let dtd = "<!DOCTYPE r SYSTEM \"\(system)\"><r>&undeclared;</r>"
            #expect(try Self.parse(dtd).count == 3)  // documentType, start, end: the skipped reference is no event
        }
        var status = stat()
        #expect(stat(url.path, &status) == 0)
        #expect(status.st_atim.tv_sec == Int(old.timeIntervalSince1970), "the file was read")
    }

    @Test func stopsDeepNesting() throws {
        let depth = 100_000
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let error = try #require(Self.failure(text))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxDepth"))
        // Exactly at the limit is fine.
        var options = XMLParsingOptions()
        options.maxDepth = 3
        #expect(throws: Never.self) { try Self.parse("<a><a><a/></a></a>", options) }
        #expect(Self.failure("<a><a><a><a/></a></a></a>", options)?.code == .limitExceeded)
    }

    static let limitCases: [(String, @Sendable (inout XMLParsingOptions) -> Void, String)] = [
        ("maxDepth", { $0.maxDepth = 2 }, "<a><b><c/></b></a>"),
        ("maxAttributesPerElement", { $0.maxAttributesPerElement = 2 }, "<a x='1' y='2' z='3'/>"),
        (
            "maxAttributesPerElement", { $0.maxAttributesPerElement = 1 },
            "<!DOCTYPE a [<!ATTLIST a y CDATA 'd'>]><a x='1'/>"
        ),
        ("maxNameLength", { $0.maxNameLength = 4 }, "<abcde/>"),
        ("maxAttributeValueLength", { $0.maxAttributeValueLength = 3 }, "<a x='abcd'/>"),
        ("maxAttributeValueLength", { $0.maxAttributeValueLength = 3 }, "<a x='a&amp;cd'/>"),
        ("maxTextLength", { $0.maxTextLength = 3 }, "<a>abcd</a>"),
        ("maxTextLength", { $0.maxTextLength = 3 }, "<a><![CDATA[abcd]]></a>"),
        ("maxTextLength", { $0.maxTextLength = 3 }, "<a><!--abcd--></a>"),
        (
            "maxEntityExpansionBytes", { $0.maxEntityExpansionBytes = 5 },
            "<!DOCTYPE a [<!ENTITY e 'abc'>]><a>&e;&e;</a>"
        ),
        (
            "maxEntityNestingDepth", { $0.maxEntityNestingDepth = 2 },
            "<!DOCTYPE a [<!ENTITY e1 'x'><!ENTITY e2 '&e1;'><!ENTITY e3 '&e2;'>]><a>&e3;</a>"
        ),
    ]

    @Test(arguments: 0..<limitCases.count)
    func enforcesEveryLimit(_ index: Int) throws {
        let (name, configure, text) = Self.limitCases[index]
        var options = XMLParsingOptions()
        configure(&options)
        let error = try #require(Self.failure(text, options))
        #expect(error.code == .limitExceeded)
        #expect((error.underlying as? XMLParsingError)?.limitName == name)
        #expect(error.message.contains("`\(name)`"))
        // The defaults accept the same document.
        #expect(throws: Never.self) { try Self.parse(text) }
    }

    @Test func expansionRatioHasAFloor() throws {
        // 50 KB of expansion from a 100-byte body is far above 10× but below the 1 MiB floor.
        let text =
            "<!DOCTYPE a [<!ENTITY e '\(String(repeating: "x", count: 1000))'>]><a>"
            + String(repeating: "&e;", count: 50) + "</a>"
        #expect(throws: Never.self) { try Self.parse(text) }
        #expect(XMLParsingOptions().entityExpansionBudget(bodySize: 100) == XMLParsingOptions.entityExpansionFloor)
        #expect(XMLParsingOptions().entityExpansionBudget(bodySize: 500_000) == 5_000_000)
        #expect(XMLParsingOptions().entityExpansionBudget(bodySize: 5_000_000) == 10_000_000)
    }

    @Test func survivesRandomMutations() {
        // Mutations of a document with a DTD, entities and namespaces: each parse finishes with a value or an error.
        let seed = Array(
            (#"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "<x>&#60;</x>"><!ATTLIST r a CDATA "d">]>"#
                + #"<r xmlns:p="urn:p" p:b="1">&e;<![CDATA[c]]><!--c--><?p d?>t&amp;</r>"#).utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert(bytes[Int.random(in: 0..<bytes.count, using: &generator)], at: index)
                }
            }
            _ = try? XMLStreamParser(data: Data(bytes)).events()
        }
    }
}
