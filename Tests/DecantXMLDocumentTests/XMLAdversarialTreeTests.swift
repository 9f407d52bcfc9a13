import DecantCore
import DecantXMLParser
import Foundation
import Testing

@testable import DecantXMLDocument

/// Large and hostile documents and path expressions: trees and queries must end with the right answer or error. No
/// test asserts a duration.
@Suite struct XMLAdversarialTreeTests {
    /// `<r>` with `count` `<a/>` children.
    static func flat(_ count: Int) -> Data {
        var bytes = Array("<r>".utf8)
        bytes.reserveCapacity(count * 4 + 8)
        for _ in 0..<count { bytes += [0x3C, 0x61, 0x2F, 0x3E] }
        bytes += Array("</r>".utf8)
        return Data(bytes)
    }

    @Test func buildsAMillionTinyElements() throws {
        let tree = try XMLTree(parsing: Self.flat(1_000_000))
        #expect(tree.nodeCount == 1_000_001)
        #expect(tree.root.childElements.count == 1_000_000)
        #expect(try tree.elements(at: "/r/a[last()]").count == 1)
        #expect(try tree.elements(at: "//a").count == 1_000_000)
        #expect(tree.canonicalXML().utf8.count == 7 + 7 * 1_000_000)
        #expect(try XMLTree(parsing: Data(tree.xmlString().utf8)) == tree)
    }

    @Test func descendantStepsVisitEachNodeOnce() throws {
        // A chain 500 deep with 100,000 leaves at the bottom: `//*//a` used to walk the leaves once per ancestor.
        let depth = 500
        var text = String(repeating: "<e>", count: depth)
        text += String(repeating: "<a/>", count: 100_000)
        text += String(repeating: "</e>", count: depth)
        let tree = try XMLTree(parsing: Data(text.utf8))
        #expect(try tree.elements(at: "//*//a").count == 100_000)
        #expect(try tree.elements(at: "//e//e").count == depth - 1)
        #expect(try tree.elements(at: "//e//e//e//e//*").count == depth - 4 + 100_000)
        #expect(tree.strings(at: try XMLPath("//e//@*")).isEmpty)
        let deepest = try #require(tree.elements(at: "//e[a='']").first)
        #expect(try deepest.elements(at: ".//a").count == 100_000)
        #expect(try deepest.elements(at: "..//a").count == 100_000)
    }

    @Test func rejectsHugePathExpressions() throws {
        let tree = try XMLTree(parsing: Data("<a><a><a/></a></a>".utf8))
        // 100 KB of `//`, of `//*` steps, of predicates and of nested predicates: each is rejected when compiled.
        let expressions = [
            String(repeating: "//", count: 50_000),
            String(repeating: "//*", count: 34_000),
            String(repeating: "/a", count: 50_000),
            "a" + String(repeating: "[1]", count: 34_000),
            "a" + String(repeating: "[b", count: 50_000),
            "a" + String(repeating: "[b", count: 50_000) + String(repeating: "]", count: 50_000),
            String(repeating: "a/..", count: 25_000),
            "//a[@b='" + String(repeating: "'", count: 100_000),
        ]
        for expression in expressions {
            #expect(throws: XMLPathError.self) { try XMLPath(expression) }
            #expect(throws: XMLPathError.self) { try tree.strings(at: expression) }
        }
        // Up to 256 steps and 256 predicates compile and run.
        let steps = try XMLPath(String(repeating: "//*", count: 256))
        #expect(try tree.elements(at: steps).isEmpty)
        let predicates = try XMLPath("/a" + String(repeating: "[1]", count: 256))
        #expect(try tree.elements(at: predicates).count == 1)
        // A long literal is fine: it is one predicate.
        let literal = String(repeating: "x", count: 100_000)
        #expect(try tree.elements(at: "//a[@b='\(literal)']").isEmpty)
    }

    @Test func eventsOfInternalSubsetProcessingInstructionsRebuildTheSameEvents() throws {
        // FuzzXMLDocument (xmlconf ibm-valid P16 seed): a processing instruction inside the internal subset is
        // replayed before the document type event, so init(events:) makes it a prolog node; the tree was documented
        // as rebuilt equal. Now documented: the rebuilt tree replays the same events.
        let crash: [UInt8] = [
            0x3c, 0x21, 0x44, 0x4f, 0x43, 0x54, 0x59, 0x50, 0x45, 0x20, 0x61, 0x6e, 0x69, 0x6d, 0x61, 0x6c, 0x20, 0x5b,
            0x0d, 0x0a, 0x3c, 0x21, 0x45, 0x4c, 0x45, 0x4d, 0x45, 0x4e, 0x54, 0x20, 0x61, 0x6e, 0x69, 0x6d, 0x61, 0x6c,
            0x20, 0x41, 0x4e, 0x59, 0x3e, 0x0d, 0x0a, 0x3c, 0x3f, 0xce, 0xa2, 0x20, 0x61, 0x6e, 0x20, 0x69, 0x6c, 0x6c,
            0x65, 0x67, 0x61, 0x6c, 0x20, 0x63, 0x68, 0x61, 0x72, 0x20, 0x23, 0x78, 0x33, 0x61, 0x32, 0x0d, 0x0a, 0x20,
            0x69, 0x6e, 0x20, 0x50, 0x49, 0x54, 0x61, 0x72, 0x67, 0x65, 0x74, 0x20, 0x3f, 0x3e, 0x0d, 0x0a, 0x5d, 0x3e,
            0x0d, 0x0a, 0x3c, 0x61, 0x6e, 0x69, 0x6d, 0x61, 0x6c, 0x2f, 0x3e, 0x0d, 0x0a,
        ]
        let tree = try XMLTree(parsing: Data(crash))
        #expect(tree.prolog.isEmpty)
        let rebuilt = try XMLTree(events: tree.events)
        #expect(rebuilt.events == tree.events)
        #expect(rebuilt.root == tree.root)
        #expect(rebuilt.prolog.count == 1)
        #expect(rebuilt.canonicalXML(.w3cTestSuite) == tree.canonicalXML(.w3cTestSuite))
        // Without an internal subset the rebuilt tree is equal.
        let plain = try XMLTree(parsing: Data("<?p x?><!DOCTYPE a><!--c--><a/><?q?>".utf8))
        #expect(try XMLTree(events: plain.events) == plain)
    }

    @Test func survivesHostileTextInXmlString() throws {
        // Text and attribute values made of markup, `]]>` and the whitespace parsing normalizes: xmlString() parses
        // back to the same tree.
        let text = """
            <!DOCTYPE r [<!ENTITY e ']]&gt;&#xD;&#x9;&lt;!--'>]>\
            <r a='&e;&#xA;&#xD; "&apos;' xmlns:p='urn:p'><![CDATA[]]]]><![CDATA[>]]>&e;<p:x p:y='&e;'/>]]&gt;</r>
            """
        let tree = try XMLTree(parsing: Data(text.utf8))
        let reparsed = try XMLTree(parsing: Data(tree.xmlString().utf8))
        #expect(reparsed == tree)
        #expect(reparsed.canonicalXML() == tree.canonicalXML())
    }
}
