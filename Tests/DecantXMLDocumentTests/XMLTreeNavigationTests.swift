import DecantXMLParser
import Testing

@testable import DecantXMLDocument

@Suite struct XMLTreeNavigationTests {
    @Test func navigatesChildrenByName() throws {
        let root = try Feed.tree().root
        #expect(root.children(named: "entry").count == 3)
        #expect(root.children(localName: "entry", namespaceURI: Feed.feedNS).count == 3)
        #expect(root.children(localName: "entry", namespaceURI: nil).isEmpty)
        #expect(root.firstChild(named: "entry")?.attribute("id") == "1")
        #expect(root.firstChild(named: "missing") == nil)
        let second = root.childElements[1]
        #expect(second.firstChild(named: "x:note")?.text == "n")
        #expect(second.firstChild(localName: "note", namespaceURI: Feed.xNS)?.qualifiedName == "x:note")
        #expect(second.firstChild(localName: "note", namespaceURI: nil) == nil)
    }

    @Test func readsAttributesByQualifiedAndExpandedName() throws {
        let entry = try Feed.tree().root.childElements[0]
        #expect(entry.attribute("id") == "1")
        #expect(entry.attribute("x:kind") == "news")
        #expect(entry.attribute(localName: "kind", namespaceURI: Feed.xNS) == "news")
        #expect(entry.attribute(localName: "kind", namespaceURI: nil) == nil)
        #expect(entry.attribute(localName: "id", namespaceURI: nil) == "1")
        #expect(entry.attribute("kind") == nil)
        #expect(entry.attributes.map(\.name.qualifiedName) == ["id", "x:kind"])
    }

    @Test func concatenatesDescendantText() throws {
        let root = try Feed.tree().root
        #expect(root.childElements[0].text == "One")
        #expect(root.childElements[1].text == "Two & <b>n")
        #expect(root.text == "\n  One\n  Two & <b>n\n  Three\n")
    }

    @Test func resolvesNamespacesInScope() throws {
        let root = try Feed.tree().root
        let note = try #require(root.childElements[1].firstChild(named: "x:note"))
        #expect(note.namespaceURI(forPrefix: "x") == Feed.xNS)
        #expect(note.namespaceURI(forPrefix: nil) == Feed.feedNS)
        #expect(note.namespaceURI(forPrefix: "y") == nil)
        #expect(note.namespaceURI(forPrefix: "xml") == "http://www.w3.org/XML/1998/namespace")
        let nested = try #require(root.childElements[2].firstChild(named: "sub")?.firstChild(named: "entry"))
        // `xmlns=""` on <sub> undeclares the default namespace below it.
        #expect(nested.namespaceURI(forPrefix: nil) == nil)
        #expect(nested.namespaceURI(forPrefix: "x") == Feed.xNS)
        #expect(nested.namespacesInScope == ["x": Feed.xNS])
        #expect(note.namespacesInScope == ["": Feed.feedNS, "x": Feed.xNS])
    }

    @Test func walksUpAndDown() throws {
        let tree = try Feed.tree()
        #expect(tree.root.parent == nil)
        let title = try #require(tree.root.childElements[2].firstChild(named: "title"))
        #expect(title.parent?.parent?.qualifiedName == "feed")
        #expect(
            tree.root.descendants.map(\.localName) == [
                "entry", "title", "link", "entry", "title", "note", "entry", "title", "sub", "entry",
            ])
        #expect(tree.root.childElements[0].childElements.map(\.localName) == ["title", "link"])
        #expect(tree.root.childElements[0].firstChild(named: "link")?.isEmpty == true)
    }

    @Test func nodesExposeTheirContent() throws {
        let title = try #require(try Feed.tree().root.childElements[1].firstChild(named: "title"))
        #expect(title.children.map(\.characterData) == ["Two & ", "<b>"])
        #expect(title.children.allSatisfy { $0.element == nil })
        #expect(Node.comment("c").characterData == nil)
    }

    @Test func subtreeIsATreeOfItsOwn() throws {
        let entry = try Feed.tree().root.childElements[0]
        let subtree = entry.subtree
        #expect(subtree.root == entry)
        #expect(subtree.declaration == nil)
        #expect(subtree.root.parent == nil)
        #expect(subtree.root.childElements.map(\.localName) == ["title", "link"])
        #expect(subtree.root.childElements[0].parent?.localName == "entry")
    }

    typealias Node = XMLTree.Node
}
