import DecantXMLParser
import Testing

@testable import DecantXMLDocument

@Suite struct XMLPathTests {
    static let namespaces = ["f": Feed.feedNS, "x": Feed.xNS]

    /// (path, expected strings) evaluated from the document with `namespaces`; elements give their text.
    static let stringQueries: [(String, [String])] = [
        ("/f:feed/f:entry/@id", ["1", "2"]),
        ("f:feed/f:entry/@id", ["1", "2"]),
        ("//f:entry/@id", ["1", "2"]),
        ("//entry/@id", ["nested"]),
        ("//@id", ["1", "2", "nested"]),
        ("//f:entry/@*", ["1", "news", "2"]),
        ("//f:entry/@x:kind", ["news"]),
        ("/f:feed/f:entry[1]/f:title", ["One"]),
        ("/f:feed/f:entry[last()]/f:title", ["Three"]),
        ("/f:feed/f:entry[2]/f:title/text()", ["Two & <b>"]),
        ("//f:title", ["One", "Two & <b>", "Three"]),
        ("//f:title[1]", ["One", "Two & <b>", "Three"]),
        ("(//f:title)", []),
        ("/f:feed/f:entry[@id]/f:title", ["One", "Two & <b>"]),
        ("/f:feed/f:entry[@id='2']/f:title", ["Two & <b>"]),
        ("/f:feed/f:entry[@id=\"1\"]/f:link/@href", ["/1"]),
        ("/f:feed/f:entry[f:title='Three']/f:sub/entry/@id", []),
        ("/f:feed/f:entry[f:title='Three']/sub/entry/@id", ["nested"]),
        ("/f:feed/f:entry[@id][2]/@id", ["2"]),
        ("/f:feed/f:entry[2][@id]/@id", ["2"]),
        ("/f:feed/f:entry[3][@id]/@id", []),
        ("//f:title[text()='One']/../@id", ["1"]),
        ("//f:title[.='Two & <b>']/../@id", ["2"]),
        ("/f:feed/*[2]/x:*", ["n"]),
        ("/f:feed/f:entry/x:note/.", ["n"]),
        ("/*/@version", ["2"]),
        ("/f:feed//f:title/text()", ["One", "Two & <b>", "Three"]),
        ("//text()", ["\n  ", "\n  ", "\n  ", "\n", "One", "Two & <b>", "n", "Three"]),
        ("/f:feed/f:entry[5]", []),
        ("/feed", []),
    ]

    @Test(arguments: stringQueries)
    func selectsStrings(path: String, expected: [String]) throws {
        if path.hasPrefix("(") {
            // Parenthesised expressions are outside the subset.
            #expect(throws: XMLPathError.self) { try Feed.tree().strings(at: path, namespaces: Self.namespaces) }
            return
        }
        #expect(try Feed.tree().strings(at: path, namespaces: Self.namespaces) == expected, "\(path)")
    }

    @Test func unprefixedNamesUseTheEmptyPrefixBindingWhenGiven() throws {
        let tree = try Feed.tree()
        #expect(try tree.strings(at: "/feed/entry/@id", namespaces: ["": Feed.feedNS]) == ["1", "2"])
        #expect(try tree.strings(at: "/feed/entry/@id") == [])
    }

    @Test func evaluatesRelativeToAnElement() throws {
        let tree = try Feed.tree()
        let entry = try #require(try tree.firstElement(at: "//f:entry[@id='2']", namespaces: Self.namespaces))
        #expect(try entry.string(at: "f:title", namespaces: Self.namespaces) == "Two & <b>")
        #expect(try entry.strings(at: "x:note/text()", namespaces: Self.namespaces) == ["n"])
        #expect(try entry.elements(at: "..").first?.localName == "feed")
        #expect(try entry.elements(at: ".") == [entry])
        // An absolute path starts at the document, wherever it is asked.
        #expect(try entry.strings(at: "/f:feed/@version", namespaces: Self.namespaces) == ["2"])
        #expect(try entry.strings(at: "//entry/@id") == ["nested"])
        #expect(try entry.elements(at: "*").map(\.localName) == ["title", "note"])
        #expect(try tree.root.elements(at: "..").isEmpty)
    }

    @Test func compiledPathsAreReusable() throws {
        let tree = try Feed.tree()
        let path = try XMLPath("//f:entry/f:title", namespaces: Self.namespaces)
        #expect(!path.selectsStrings)
        #expect(path.description == "//f:entry/f:title")
        #expect(try tree.elements(at: path).map(\.text) == ["One", "Two & <b>", "Three"])
        #expect(try tree.root.elements(at: path).count == 3)
        #expect(try XMLPath("a/@b").selectsStrings)
        #expect(try tree.string(at: "//nothing") == nil)
    }

    @Test func elementsAtAStringPathThrows() throws {
        let error = #expect(throws: XMLPathError.self) { try Feed.tree().elements(at: "//entry/@id") }
        #expect(error?.message.contains("strings(at:)") == true)
    }

    /// (path, fragment of the message, offset).
    static let unsupported: [(String, String, Int?)] = [
        ("", "empty", 0),
        ("/", "name the root element", 1),
        ("a/following-sibling::b", "Axes", 2),
        ("count(a)", "function count()", 0),
        ("a[position()=1]", "function position()", 2),
        ("a | b", "Unexpected \"|\"", 2),
        ("a[1", "Expected \"]\"", 3),
        ("a[@b=c]", "quoted literal", 5),
        ("a[@b='c]", "not closed", 5),
        ("a[0]", "Positions start at 1", 2),
        ("a[b]", "[name='value']", 3),
        ("a/@b/c", "must be the last step", 5),
        ("a/text()/b", "must be the last step", 9),
        ("p:a", "prefix \"p\" is not in the namespace map", 0),
        ("a/", "Expected a name or *", 2),
        ("//.", "\"//.\" is not supported", 2),
        ("a/..[1]", "predicate after \"..\"", 4),
        ("a[text()]", "[text()='value']", 8),
    ]

    @Test(arguments: unsupported)
    func rejectsUnsupportedSyntaxSayingWhatIsSupported(path: String, fragment: String, offset: Int?) {
        let error = #expect(throws: XMLPathError.self, "\(path)") { try XMLPath(path) }
        #expect(error?.message.contains(fragment) == true, "\(path): \(error?.message ?? "")")
        #expect(error?.offset == offset, "\(path)")
        #expect(error?.expression == path)
        if fragment.contains("prefix") == false && fragment != "not closed" && !fragment.hasPrefix("Positions")
            && !fragment.contains("root element")
        {
            #expect(error?.message.contains(XMLPathError.supportedSyntax) == true, "\(path)")
        }
        #expect(error?.description.hasPrefix("The path \"\(path)\"") == true)
    }
}
