import DecantXMLParser
import Foundation
import Testing

@testable import DecantXMLDocument

@Suite struct XMLTreeSerializationTests {
    @Test func writesTheFeed() throws {
        let expected =
            "<?xml version=\"1.0\"?>\n<!--top-->\n<?style href=\"a.css\"?>\n"
            + "<feed xmlns=\"urn:feed\" xmlns:x=\"urn:x\" version=\"2\">\n"
            + "  <entry id=\"1\" x:kind=\"news\"><title>One</title><link href=\"/1\"/></entry>\n"
            + "  <entry id=\"2\"><title>Two &amp; <![CDATA[<b>]]></title><x:note>n</x:note></entry>\n"
            + "  <entry><title>Three</title><sub xmlns=\"\"><entry id=\"nested\"/></sub></entry>\n"
            + "</feed>\n<?after?>"
        let tree = try Feed.tree()
        #expect(tree.xmlString() == expected)
        #expect(tree.description == expected)
        #expect(
            tree.root.childElements[0].description
                == "<entry id=\"1\" x:kind=\"news\"><title>One</title><link href=\"/1\"/></entry>")
    }

    @Test func escapesWhatParsingWouldChange() throws {
        let tree = try XMLTree(events: [
            Events.start("a", attributes: [("v", nil, "\"<&>\t\n\r")]), .characters("<&>\r]]>"), .cdata("x]]>y"),
            .comment(" c "), .processingInstruction(target: "p", data: "d"), Events.end("a"),
        ])
        #expect(
            tree.xmlString()
                == "<a v=\"&quot;&lt;&amp;&gt;&#x9;&#xA;&#xD;\">&lt;&amp;&gt;&#xD;]]&gt;"
                + "<![CDATA[x]]]]><![CDATA[>y]]><!-- c --><?p d?></a>")
    }

    @Test func leavesOutDefaultedAttributesWhenTheInternalSubsetIsKept() throws {
        let events: [XMLEvent] = [
            .documentType(XMLDocumentType(name: "a", internalSubset: "<!ATTLIST a d CDATA 'x'>")),
            Events.start("a", attributes: [("s", nil, "1"), ("d", nil, "x")], defaulted: ["d"]), Events.end("a"),
        ]
        #expect(try XMLTree(events: events).xmlString() == "<!DOCTYPE a [<!ATTLIST a d CDATA 'x'>]>\n<a s=\"1\"/>")
        #expect(try XMLTree(events: events.dropFirst()).xmlString() == "<a s=\"1\" d=\"x\"/>")
    }

    @Test(.enabled(if: CanonicalXMLTests.parserWorks, "needs the XML parser"))
    func parsesBackToAnEqualTree() throws {
        let tree = try Feed.tree()
        let reparsed = try XMLTree(parsing: Data(tree.xmlString().utf8))
        #expect(reparsed.root == tree.root)
        #expect(reparsed.prolog == tree.prolog)
        #expect(reparsed.epilog == tree.epilog)
    }
}

@Suite struct DocumentTypePlacementTests {
    static let events: [XMLEvent] = [
        .processingInstruction(target: "before", data: "x"),
        .documentType(XMLDocumentType(name: "r", notations: [XMLNotation(name: "n", systemID: "n.txt")])),
        .comment("after doctype"), Events.start("r"), Events.end("r"),
    ]

    @Test func keepsTheDocumentTypeBetweenTheNodesItCameBetween() throws {
        let tree = try XMLTree(events: Self.events)
        #expect(tree.events == Self.events)
        #expect(tree.prolog.count == 2)
        #expect(tree.xmlString() == "<?before x?>\n<!DOCTYPE r>\n<!--after doctype-->\n<r/>")
        // James Clark's form, as the W3C suite writes it (ibm29v01's output has the PI before the DOCTYPE).
        #expect(
            tree.canonicalXML(.w3cTestSuite) == "<?before x?><!DOCTYPE r [\n<!NOTATION n SYSTEM 'n.txt'>\n]>\n<r></r>")
    }
}

@Suite struct InternalSubsetNodeTests {
    @Test(.enabled(if: CanonicalXMLTests.parserWorks, "needs the XML parser"))
    func processingInstructionsInsideTheInternalSubsetAreNotDocumentNodes() throws {
        let text = "<?before?><!DOCTYPE r [<?inside x?><!ELEMENT r ANY>]><!--c--><r/>"
        let tree = try XMLTree(parsing: Data(text.utf8))
        #expect(tree.prolog == [.processingInstruction(target: "before", data: ""), .comment("c")])
        // Canonical XML 1.0 works on the XPath data model, which has no nodes for the DTD's contents.
        #expect(tree.canonicalXML() == "<?before?>\n<r></r>")
        #expect(tree.xmlString() == "<?before?>\n<!DOCTYPE r [<?inside x?><!ELEMENT r ANY>]>\n<!--c-->\n<r/>")
        // Replayed events keep them where the parser reported them, before the document type.
        let targets = tree.events.compactMap { event -> String? in
            switch event {
            case .processingInstruction(let target, _): return target
            case .documentType: return "DOCTYPE"
            default: return nil
            }
        }
        #expect(targets == ["before", "inside", "DOCTYPE"])
    }
}
