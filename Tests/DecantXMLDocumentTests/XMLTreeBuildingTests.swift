import DecantCore
import DecantXMLParser
import Testing

@testable import DecantXMLDocument

@Suite struct XMLTreeBuildingTests {
    @Test func buildsTheFeedFromEvents() throws {
        let tree = try Feed.tree()
        #expect(tree.declaration == XMLDeclaration(version: "1.0"))
        #expect(tree.documentType == nil)
        #expect(tree.prolog == [.comment("top"), .processingInstruction(target: "style", data: "href=\"a.css\"")])
        #expect(tree.epilog == [.processingInstruction(target: "after", data: "")])
        #expect(tree.root.qualifiedName == "feed")
        #expect(tree.root.childElements.count == 3)
        #expect(tree.nodes.count == 4)
    }

    @Test func mergesAdjacentTextAndKeepsCDATAApart() throws {
        let title = try #require(try Feed.tree().root.childElements[1].firstChild(named: "title"))
        #expect(title.children == [.text("Two & "), .cdata("<b>")])
        #expect(title.text == "Two & <b>")
    }

    @Test func dropsEmptyTextAndWhitespaceOutsideTheRoot() throws {
        let tree = try XMLTree(events: [
            .characters("\n "), Events.start("a"), .characters(""), Events.end("a"), .characters("\r\n"),
        ])
        #expect(tree.root.isEmpty)
        #expect(tree.root.children.isEmpty)
        #expect(tree.nodeCount == 1)
    }

    @Test func replaysItsEventsSoThatTheyRebuildAnEqualTree() throws {
        let tree = try Feed.tree()
        let replayed = tree.events
        #expect(try XMLTree(events: replayed) == tree)
        // Replaying merges the two character events of the second title into one.
        #expect(replayed.count == Feed.events.count - 1)
        #expect(replayed.first == .xmlDeclaration(XMLDeclaration(version: "1.0")))
        #expect(replayed.last == .processingInstruction(target: "after", data: ""))
    }

    @Test func elementEventsCoverTheSubtree() throws {
        let link = try #require(try Feed.tree().root.childElements[0].firstChild(named: "link"))
        #expect(
            link.events == [
                Events.start("link", Feed.feedNS, attributes: [("href", nil, "/1")]), Events.end("link", Feed.feedNS),
            ])
    }

    static let unbalanced: [(String, [XMLEvent], String)] = [
        ("no root", [.comment("c")], "no root element"),
        ("nothing", [], "no root element"),
        ("unclosed", [Events.start("a"), Events.start("b"), Events.end("b")], "<a> is never closed"),
        ("end without start", [Events.end("a")], "no matching start tag"),
        ("wrong end", [Events.start("a"), Events.end("b")], "does not match the start tag <a>"),
        ("extra end", [Events.start("a"), Events.end("a"), Events.end("a")], "no matching start tag"),
        ("two roots", [Events.start("a"), Events.end("a"), Events.start("b"), Events.end("b")], "second root"),
        ("text outside", [.characters("x"), Events.start("a"), Events.end("a")], "Text outside the root"),
        ("cdata outside", [Events.start("a"), Events.end("a"), .cdata(" ")], "CDATA section outside"),
        (
            "late declaration", [Events.start("a"), Events.end("a"), .xmlDeclaration(XMLDeclaration(version: "1.0"))],
            "must be the first event"
        ),
        (
            "doctype inside", [Events.start("a"), .documentType(XMLDocumentType(name: "a")), Events.end("a")],
            "before the root element"
        ),
    ]

    @Test(arguments: unbalanced)
    func rejectsEventsThatAreNotOneDocument(name: String, events: [XMLEvent], message: String) {
        let error = #expect(throws: SerializationError.self, "\(name)") { try XMLTree(events: events) }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains(message) == true, "\(name): \(error?.message ?? "")")
    }

    @Test func treesAndElementsCompareStructurally() throws {
        let one = try XMLTree(events: [Events.start("a"), .characters("x"), Events.end("a")])
        let same = try XMLTree(events: [Events.start("a"), .characters("x"), Events.end("a")])
        let other = try XMLTree(events: [Events.start("a"), .characters("y"), Events.end("a")])
        #expect(one == same)
        #expect(one.root == same.root)
        #expect(one.root.hashValue == same.root.hashValue)
        #expect(one != other)
        #expect(one.root != other.root)
        let nested = try XMLTree(events: [Events.start("r")] + Events.leaf("a", "x") + [Events.end("r")])
        #expect(nested.root.childElements[0] == one.root)
        #expect(nested.root.childElements[0].subtree == one)
    }

    @Test func deepTreesBuildReplayAndCompareWithoutRecursion() throws {
        let depth = 50_000
        let events =
            (0..<depth).map { _ in Events.start("d") } + [.characters("x")] + (0..<depth).map { _ in Events.end("d") }
        let tree = try XMLTree(events: events)
        #expect(tree.nodeCount == depth + 1)
        #expect(tree.root.text == "x")
        #expect(tree.events.count == 2 * depth + 1)
        #expect(try XMLTree(events: tree.events) == tree)
        let canonical = tree.canonicalXML()
        let wellFormed =
            canonical == String(repeating: "<d>", count: depth) + "x" + String(repeating: "</d>", count: depth)
        #expect(wellFormed, "the canonical form of \(depth) nested elements")
        #expect(try tree.strings(at: "//d/text()") == ["x"])
    }

    @Test func isSendableAcrossTasks() async throws {
        let tree = try Feed.tree()
        let count = await Task.detached { tree.root.descendants.count }.value
        #expect(count == 10)
    }
}
