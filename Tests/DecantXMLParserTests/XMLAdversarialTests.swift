import DecantCore
import DecantXMLParser
import Foundation
import Testing

/// Hand-written hostile bodies beyond the fuzzer's reach (too large, or needing structure): each must end with the
/// right events or the right error. None asserts a duration; the ones that used to be quadratic would simply not
/// finish in reasonable time again if that came back.
@Suite struct XMLAdversarialTests {
    static func parse(
        _ bytes: [UInt8], _ options: XMLParsingOptions = XMLParsingOptions(), mediaType: MediaType? = nil
    ) throws(SerializationError) -> [XMLEvent] {
        try XMLStreamParser(data: Data(bytes), mediaType: mediaType, options: options).events()
    }

    static func parse(
        _ text: String, _ options: XMLParsingOptions = XMLParsingOptions()
    ) throws(SerializationError) -> [XMLEvent] {
        try parse(Array(text.utf8), options)
    }

    static func failure(_ bytes: [UInt8], _ options: XMLParsingOptions = XMLParsingOptions()) -> SerializationError? {
        do {
            _ = try parse(bytes, options)
            return nil
        } catch {
            return error
        }
    }

    static func failure(_ text: String, _ options: XMLParsingOptions = XMLParsingOptions()) -> SerializationError? {
        failure(Array(text.utf8), options)
    }

    /// ASCII `text` as UTF-16LE code units.
    static func utf16LE(_ text: String) -> [UInt8] {
        text.utf8.flatMap { byte -> [UInt8] in [byte, 0] }
    }

    static func limitName(_ error: SerializationError?) -> String? {
        (error?.underlying as? XMLParsingError)?.limitName
    }

    static func attributes(of events: [XMLEvent]) -> [XMLAttribute] {
        for case .startElement(let start) in events { return start.attributes }
        return []
    }

    // MARK: - Entities

    @Test func boundsNestedEntitiesInAttributeValues() throws {
        // A chain of entities, each referring to the next, used in an attribute value.
        func document(depth: Int) -> String {
            var text = "<!DOCTYPE r [<!ENTITY e0 'x'>"
            for level in 1...depth { text += "<!ENTITY e\(level) '&e\(level - 1);&e\(level - 1);'>" }
            return text + "]><r a='&e\(depth);'/>"
        }
        // Within the nesting limit the value is fully expanded.
        let events = try Self.parse(document(depth: 10))
        #expect(Self.attributes(of: events).first?.value == String(repeating: "x", count: 1024))
        // Deeper than maxEntityNestingDepth: stopped by the nesting limit (the expansion would be 2^40 bytes).
        let deep = Self.failure(document(depth: 40))
        #expect(deep?.code == .limitExceeded)
        #expect(Self.limitName(deep) == "maxEntityNestingDepth")
        // A wide bomb within the nesting limit is stopped by the expansion budget instead.
        var wide = "<!DOCTYPE r [<!ENTITY e0 'xxxxxxxxxx'>"
        for level in 1...8 { wide += "<!ENTITY e\(level) '" + String(repeating: "&e\(level - 1);", count: 10) + "'>" }
        wide += "]><r a='&e8;'/>"
        let error = Self.failure(wide)
        #expect(error?.code == .limitExceeded)
        #expect(Self.limitName(error)?.hasPrefix("maxEntityExpansion") == true)
    }

    @Test func stopsParameterEntityBillionLaughs() throws {
        // Each parameter entity expands to ten references to the previous one, between declarations.
        var text = "<!DOCTYPE r [<!ENTITY % p0 '<!--lol-->'>"
        for level in 1...9 {
            let previous = "&#37;p\(level - 1);"
            text += "<!ENTITY % p\(level) '" + String(repeating: previous, count: 10) + "'>"
        }
        text += "%p9;]><r/>"
        let error = try #require(Self.failure(text))
        #expect(error.code == .limitExceeded)
        #expect(Self.limitName(error)?.hasPrefix("maxEntityExpansion") == true)
        // Declarations made by a small parameter entity are read.
        let small = "<!DOCTYPE r [<!ENTITY % d '<!ENTITY e &#34;ok&#34;>'>%d;]><r>&e;</r>"
        #expect(try Self.parse(small).contains(.characters("ok")))
    }

    @Test func handlesSplitCDATAEndAcrossEntities() throws {
        // `]]>` as literal text in an entity's replacement text is not character data.
        #expect(Self.failure("<!DOCTYPE r [<!ENTITY e ']]>'>]><r>&e;</r>")?.code == .invalidBody)
        // Split across the end of an entity and the document, or made with a reference, it is data (§2.4 forbids
        // the literal string in CharData only): the text is reported as written.
        let split = try Self.parse("<!DOCTYPE r [<!ENTITY e ']]'>]><r>&e;></r>")
        #expect(split.contains(.characters("]]>")))
        let referenced = try Self.parse("<!DOCTYPE r [<!ENTITY e ']]&gt;'>]><r>&e;</r>")
        #expect(referenced.contains(.characters("]]>")))
        let start = try Self.parse("<!DOCTYPE r [<!ENTITY e ']'>]><r>]&e;&gt;</r>")
        #expect(start.contains(.characters("]]>")))
        // A CDATA section cannot start in one entity and end in another (markup never spans inputs).
        #expect(Self.failure("<!DOCTYPE r [<!ENTITY e '<![CDATA[x'>]><r>&e;]]></r>")?.code == .invalidBody)
    }

    // MARK: - Attributes and names

    @Test func handlesAHugeNumberOfAttributes() throws {
        let limit = XMLParsingOptions.defaultMaxAttributesPerElement
        func tag(_ count: Int, duplicate: Int? = nil, prefix: String = "") -> String {
            var text = "<r xmlns:p='urn:p' xmlns:q='urn:p'"
            for index in 0..<count { text += " \(prefix)a\(index)='\(index)'" }
            if let duplicate { text += " \(prefix)a\(duplicate)='again'" }
            return text + "/>"
        }
        // Up to the limit (the two namespace declarations count too).
        let events = try Self.parse(tag(limit - 2))
        let attributes = Self.attributes(of: events)
        #expect(attributes.count == limit - 2)
        #expect(attributes.last?.value == "\(limit - 3)")
        let over = Self.failure(tag(limit - 1))
        #expect(over?.code == .limitExceeded)
        #expect(Self.limitName(over) == "maxAttributesPerElement")
        // A repeated name is found far into a long tag, by qualified name and by namespace and local name.
        #expect(Self.failure(tag(900, duplicate: 3))?.code == .invalidBody)
        #expect(Self.failure(tag(900, duplicate: 899))?.code == .invalidBody)
        #expect(try Self.parse(tag(900, prefix: "p:")).count == 2)
        var clash = tag(900, prefix: "p:")
        clash.insert(contentsOf: " q:a500='clash'", at: clash.index(clash.endIndex, offsetBy: -2))
        let error = try #require(Self.failure(clash))
        #expect(error.code == .invalidBody)
        #expect(error.message.contains("`p:a500` and `q:a500`"))
        // Without namespaces the same tag is fine: the names differ.
        #expect(try Self.parse(clash, XMLParsingOptions(namespaceAware: false)).count == 2)
    }

    @Test func handlesManyTagsWithManyAttributes() throws {
        // 300 tags of 1,000 attributes: the duplicate check used to compare each attribute with every earlier one.
        var text = "<r>"
        let tag = "<a" + (0..<1000).map { " a\($0)=''" }.joined() + "/>"
        for _ in 0..<300 { text += tag }
        text += "</r>"
        var count = 0
        try XMLStreamParser(data: Data(text.utf8)).forEachEvent { event, _ in
            if case .startElement(let start) = event, start.name.qualifiedName == "a" {
                #expect(start.attributes.count == 1000)
                count += 1
            }
        }
        #expect(count == 300)
    }

    @Test func handlesManyAttributeDeclarationsAndNotations() throws {
        // 40,000 attributes declared for one element type, and 40,000 notations: each declaration used to search
        // all earlier ones (and copy the list), and each start tag to walk all of them.
        let count = 40_000
        var text = "<!DOCTYPE r [<!ATTLIST a"
        for index in 0..<count { text += " n\(index) NMTOKENS #IMPLIED" }
        text += " n0 CDATA 'ignored' d NMTOKEN ' dv '>"
        for index in 0..<count { text += "<!NOTATION t\(index) SYSTEM 's'>" }
        text += "<!NOTATION t0 SYSTEM 'again'>]><r>"
        for _ in 0..<20_000 { text += "<a n7=' x  y '/>" }
        text += "</r>"
        let events = try Self.parse(text)
        guard case .documentType(let type) = events.first else {
            Issue.record("no document type first")
            return
        }
        #expect(type.notations.count == count)
        #expect(type.notations.first == XMLNotation(name: "t0", systemID: "s"))
        let starts = events.compactMap { event -> XMLElementStart? in
            if case .startElement(let start) = event, start.name.qualifiedName == "a" { return start }
            return nil
        }
        #expect(starts.count == 20_000)
        // The first declaration of `n0` binds; `n7` is normalized as NMTOKENS; `d` is defaulted and normalized.
        #expect(
            starts.allSatisfy {
                $0.attributes == [
                    XMLAttribute(name: XMLName(qualifiedName: "n7", namespaceURI: nil), value: "x y"),
                    XMLAttribute(name: XMLName(qualifiedName: "d"), value: "dv", isSpecified: false),
                ]
            })
    }

    @Test func handlesManyNamespaceDeclarationsInScope() throws {
        // 1,000 prefixes declared on the root, then 100,000 elements whose names are resolved: resolving a name
        // used to walk every declaration in scope.
        var text = "<r"
        for index in 0..<1000 { text += " xmlns:p\(index)='urn:\(index)'" }
        text += ">"
        for _ in 0..<50_000 { text += "<a/><p0:b p999:c='1'/>" }
        text += "</r>"
        var count = 0
        try XMLStreamParser(data: Data(text.utf8)).forEachEvent { event, _ in
            guard case .startElement(let start) = event else { return }
            switch start.name.localName {
            case "a": #expect(start.name.namespaceURI == nil)
            case "b":
                #expect(start.name.namespaceURI == "urn:0")
                #expect(start.attributes.first?.name.namespaceURI == "urn:999")
            default: break
            }
            count += 1
        }
        #expect(count == 100_001)
        // Scopes end with their element: the inner binding of p0 is gone after </i>.
        let scoped = try Self.parse("<r xmlns:p0='urn:outer'><i xmlns:p0='urn:inner'><p0:x/></i><p0:y/></r>")
        let uris = scoped.compactMap { event -> String? in
            if case .startElement(let start) = event, start.name.prefix == "p0" { return start.name.namespaceURI }
            return nil
        }
        #expect(uris == ["urn:inner", "urn:outer"])
    }

    @Test func boundsVeryLongNames() throws {
        let limit = XMLParsingOptions.defaultMaxNameLength
        let name = String(repeating: "n", count: limit)
        #expect(try Self.parse("<\(name)/>").count == 2)
        let long = String(repeating: "n", count: 1_000_000)
        for text in ["<\(long)/>", "<r \(long)='1'/>", "<r>&\(long);</r>", "<?\(long)?><r/>", "<!DOCTYPE \(long)><r/>"]
        {
            let error = Self.failure(text)
            #expect(error?.code == .limitExceeded)
            #expect(Self.limitName(error) == "maxNameLength")
        }
    }

    @Test func boundsAttributeValuesOfWhitespace() throws {
        let limit = XMLParsingOptions.defaultMaxAttributeValueLength
        // 10 MB of spaces (copied as they are) and of tabs and line ends (normalized to spaces one by one).
        for filler in [" ", "\t", "\r\n"] {
            let fits = "<r a='" + String(repeating: filler, count: limit) + "'/>"
            let events = try Self.parse(fits)
            let value = try #require(Self.attributes(of: events).first?.value)
            #expect(value.utf8.count == limit)
            #expect(value.utf8.allSatisfy { $0 == 0x20 })
            let over = Self.failure("<r a='" + String(repeating: filler, count: limit + 1) + "'/>")
            #expect(over?.code == .limitExceeded)
            #expect(Self.limitName(over) == "maxAttributeValueLength")
        }
        // A tokenized type collapses the whitespace to nothing.
        let collapsed = try Self.parse(
            "<!DOCTYPE r [<!ATTLIST r a NMTOKENS #IMPLIED>]><r a='" + String(repeating: " ", count: limit) + "'/>")
        #expect(Self.attributes(of: collapsed).first?.value == "")
    }

    // MARK: - Size

    @Test func parsesAMillionTinyElements() throws {
        var bytes = Array("<r>".utf8)
        bytes.reserveCapacity(4_000_010)
        for _ in 0..<1_000_000 { bytes += [0x3C, 0x61, 0x2F, 0x3E] }  // <a/>
        bytes += Array("</r>".utf8)
        var starts = 0
        var ends = 0
        var depth = 0
        var deepest = 0
        try XMLStreamParser(data: Data(bytes)).forEachEvent { event, _ in
            switch event {
            case .startElement:
                starts += 1
                depth += 1
                deepest = max(deepest, depth)
            case .endElement:
                ends += 1
                depth -= 1
            default:
                Issue.record("unexpected event \(event)")
            }
        }
        #expect(starts == 1_000_001 && ends == 1_000_001 && deepest == 2)
    }

    // MARK: - Bytes

    @Test func rejectsUTF16WithAnOddByteCount() throws {
        let littleEndian = Self.utf16LE("<a/>")
        let bigEndian = [0] + littleEndian.dropLast()
        for (mark, units) in [([0xFF, 0xFE] as [UInt8], littleEndian), ([0xFE, 0xFF], bigEndian)] {
            let body = mark + units
            #expect(try Self.parse(body).count == 2)
            for extra in [[0x20], [0x00], [0x3C]] as [[UInt8]] {
                let error = try #require(Self.failure(body + extra))
                #expect(error.code == .invalidEncoding)
            }
            // A single byte after the mark, and a mark cut in half.
            #expect(Self.failure(mark + [0x3C])?.code == .invalidEncoding)
        }
        #expect(Self.failure([0xFF])?.code == .invalidEncoding)
        // The UTF-16 `<?` pattern without a mark, odd.
        let pattern = Self.utf16LE("<?xml version='1.0'?><a/>") + [0x3E]
        #expect(Self.failure(pattern)?.code == .invalidEncoding)
    }

    @Test func rejectsTruncatedMultiByteSequences() throws {
        let sequences: [[UInt8]] = [[0xC3], [0xE2], [0xE2, 0x82], [0xF0], [0xF0, 0x9F], [0xF0, 0x9F, 0x98]]
        for sequence in sequences {
            let contexts: [[UInt8]] = [
                Array("<r>".utf8) + sequence,  // text, at the very end
                Array("<r/>".utf8) + sequence,  // after the root
                Array("<r a='".utf8) + sequence,  // attribute value
                Array("<r".utf8) + sequence,  // name
                Array("<r><!--".utf8) + sequence,  // comment
                Array("<r><![CDATA[".utf8) + sequence,  // CDATA
                Array("<r><?p ".utf8) + sequence,  // processing instruction
                sequence,  // the whole body
            ]
            for body in contexts {
                let error = try #require(Self.failure(body), "\(body)")
                #expect(error.code == .invalidEncoding || error.code == .invalidBody, "\(body)")
                #expect((error.offset ?? -1) >= 0 && (error.offset ?? .max) <= body.count, "\(body)")
            }
            // A complete document followed by the truncated sequence in text is an encoding error at its offset.
            let body = Array("<r>".utf8) + sequence + Array("</r>".utf8)
            let error = try #require(Self.failure(body))
            #expect(error.code == .invalidEncoding)
            #expect(error.offset == 3)
        }
    }

    @Test func rejectsNULBytes() throws {
        let places = [
            "\0<r/>", "<\0r/>", "<r\0/>", "<r>\0</r>", "<r a='\0'/>", "<r><!--\0--></r>", "<r><![CDATA[\0]]></r>",
            "<r><?p \0?></r>", "<r/>\0", "<!DOCTYPE r [<!ENTITY e '\0'>]><r/>", "<!DOCTYPE r SYSTEM '\0'><r/>",
            "<r>&#0;</r>", "<r a='&#x0;'/>",
        ]
        for text in places {
            let error = try #require(Self.failure(text), "\(text.debugDescription)")
            #expect(error.code == .invalidBody, "\(text.debugDescription)")
        }
        // A NUL in UTF-16 (U+0000) too.
        let utf16 = [0xFF, 0xFE] + Self.utf16LE("<r>\0</r>")
        #expect(Self.failure(utf16)?.code == .invalidBody)
    }
}
