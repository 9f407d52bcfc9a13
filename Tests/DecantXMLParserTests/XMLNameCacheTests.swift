import DecantCore
import Foundation
import Testing

@testable import DecantXMLParser

/// Names whose bytes hash to the same slot of the scanner's name cache, which holds two of them per pair of slots and
/// drops the older when a third comes: every name must still be read, resolved, matched and compared as XML 1.0 and
/// Namespaces in XML say, however the cache moved it. The expected values are the specifications' (a duplicate
/// attribute is an error, names keep their own namespace), not the parser's output.
@Suite struct XMLNameCacheTests {
    /// The cache's slot of `name`.
    static func slot(_ name: String) -> Int {
        Array(name.utf8).withUnsafeBufferPointer { XMLNameCache.slot($0.baseAddress!, count: $0.count) }
    }

    /// `count` distinct names `prefix` + a number that all hash to the same slot.
    static func colliding(_ count: Int, prefix: String = "n") -> [String] {
        var bySlot: [Int: [String]] = [:]
        for number in 0..<100_000 {
            let name = "\(prefix)\(number)"
            bySlot[slot(name), default: []].append(name)
            if bySlot[slot(name)]!.count == count { return bySlot[slot(name)]! }
        }
        Issue.record("no \(count) names share a slot")
        return []
    }

    static func events(_ text: String, namespaceAware: Bool) throws(SerializationError) -> [XMLEvent] {
        var events: [XMLEvent] = []
        try XMLStreamParser(data: Data(text.utf8), options: XMLParsingOptions(namespaceAware: namespaceAware))
            .forEachEvent { event, _ in events.append(event) }
        return events
    }

    @Test func collidingNamesShareASlot() {
        let names = Self.colliding(3)
        #expect(Set(names).count == 3)
        #expect(Set(names.map(Self.slot)).count == 1)
    }

    @Test(arguments: [true, false])
    func aRepeatedAttributeIsFoundAfterAnotherTookItsSlot(namespaceAware: Bool) throws {
        // `a` is cached first, `b` (same slot) moves it to the other slot of the pair; `a` again must still be the
        // same name (XML 1.0 §3.1, WFC: Unique Att Spec).
        let names = Self.colliding(2)
        let (a, b) = (names[0], names[1])
        let document = "<r \(a)=\"1\" \(b)=\"2\" \(a)=\"3\"/>"
        let error = #expect(throws: SerializationError.self) {
            _ = try Self.events(document, namespaceAware: namespaceAware)
        }
        let parsing = error?.underlying as? XMLParsingError
        #expect(parsing?.kind == .notWellFormed)
        let reason = parsing?.reason ?? ""
        #expect(reason.hasPrefix("the attribute `\(a)` appears twice"), "\(reason)")
        #expect(parsing?.column == 14 + a.utf8.count + b.utf8.count)
    }

    @Test(arguments: [true, false])
    func namesInOneSlotKeepTheirOwnAttributesAndElements(namespaceAware: Bool) throws {
        // Three names in one pair of slots, so that each use of one can evict another: as attributes of many tags,
        // as nested elements closed by their own end tags, and as both at once.
        let names = Self.colliding(3)
        var document = "<r>"
        var expected: [[String]] = []
        for index in 0..<30 {
            let order = [names[index % 3], names[(index + 1) % 3], names[(index + 2) % 3]]
            let element = order[index % 3]
            document += "<\(element) \(order[0])=\"\(index)a\" \(order[1])=\"\(index)b\" \(order[2])=\"\(index)c\">"
            document += "<\(order[1])/></\(element)>"
            expected.append([element] + order + ["\(index)a", "\(index)b", "\(index)c", order[1]])
        }
        document += "</r>"
        let events = try Self.events(document, namespaceAware: namespaceAware)
        var seen: [[String]] = []
        var current: [String] = []
        for event in events {
            switch event {
            case .startElement(let start) where start.name.qualifiedName != "r":
                if start.attributes.isEmpty {
                    current.append(start.name.qualifiedName)
                    seen.append(current)
                } else {
                    current =
                        [start.name.qualifiedName] + start.attributes.map(\.name.qualifiedName)
                        + start.attributes.map(\.value)
                }
            default: break
            }
        }
        #expect(seen == expected)
        let ends = events.compactMap { event -> String? in
            if case .endElement(let name) = event { return name.qualifiedName }
            return nil
        }
        #expect(ends.count == 61)
        #expect(ends.last == "r")
    }

    @Test func prefixedNamesInOneSlotKeepTheirOwnNamespaces() throws {
        // `p:…` and `q:…` names hashed to one slot, bound to different namespaces, and rebound inside: each name must
        // resolve against the bindings in scope where it is used (Namespaces in XML §5, §6).
        let names = Self.colliding(2, prefix: "p:x")
        let (first, second) = (names[0], names[1])
        let document = """
            <r xmlns:p="urn:one"><\(first) \(second)="v"/><\(second) xmlns:p="urn:two" \(first)="w"/>\
            <\(first)/></r>
            """
        let events = try Self.events(document, namespaceAware: true)
        let starts = events.compactMap { event -> XMLElementStart? in
            if case .startElement(let start) = event, start.name.localName != "r" { return start }
            return nil
        }
        #expect(starts.map(\.name.qualifiedName) == [first, second, first])
        #expect(starts.map(\.name.namespaceURI) == ["urn:one", "urn:two", "urn:one"])
        #expect(starts[0].attributes.map(\.name.namespaceURI) == ["urn:one"])
        #expect(starts[1].attributes.map(\.name.namespaceURI) == ["urn:two"])
    }
}
