// libFuzzer target: XMLTree, XMLPath and the canonical forms. Invariants: no crash, hang or unbounded allocation on
// any bytes; a tree builds exactly when the parser accepts the body, and (built from the span stream) has the events
// of the tree the String events build; a tree's replayed events build an equal tree;
// xmlString() parses back to an equal tree (the XML declaration without its encoding, as documented); both
// canonical forms are written and stay the same through that round trip; navigation is consistent; fixed and
// fuzzed XMLPath queries compile or throw, and agree with navigation.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantXMLParser DecantJSON DecantXMLDocument
// fuzz-seeds: Fixtures/xmlDocument xml/xmlconf/xmlconf
// fuzz-max-len: 32768
// fuzz-dict: FuzzXML.dict
import DecantCore
import DecantXMLParser
import FoundationEssentials

/// Low limits, so that inputs reach the parser's own guards instead of the fuzzer's time and memory limits.
func fuzzTightOptions(namespaceAware: Bool) -> XMLParsingOptions {
    var options = XMLParsingOptions(namespaceAware: namespaceAware)
    options.maxDepth = 8
    options.maxAttributesPerElement = 4
    options.maxNameLength = 16
    options.maxAttributeValueLength = 64
    options.maxTextLength = 64
    options.maxEntityExpansionBytes = 256
    options.maxEntityExpansionRatio = 1
    options.maxEntityNestingDepth = 3
    options.maxNodeCount = 4096
    options.maxOutputBytes = 1 << 16
    return options
}

/// The namespace map the queries use.
let fuzzNamespaces = ["p": "urn:p", "x": "http://www.w3.org/1999/xhtml"]

/// Queries run on every tree, compiled once.
let fuzzPaths: [XMLPath] = [
    "//*", "//@*", "//text()", "/*", "/*/*[1]", "//*[last()]", "//*[@id]", "//*[@p:*='1']", "//*[.='']",
    "*/..", "//*[text()='a']/@*", ".//a[b='c']", "//p:*", "//x:a/text()", "/*/..", "//*[2][last()]",
].map { try! XMLPath($0, namespaces: fuzzNamespaces) }

/// A small tree for fuzzed path expressions.
let fuzzFixedTree = try! XMLTree(
    parsing: Data(
        "<a xmlns:p='urn:p' id='1'><b p:c='2'>t<c/>u</b><b><![CDATA[v]]><d>w</d></b><p:e>x</p:e></a>".utf8))

/// Whether two trees are equal except for the XML declaration's encoding, which `xmlString()` leaves out.
func fuzzEqualIgnoringEncoding(_ left: XMLTree, _ right: XMLTree) -> Bool {
    left.declaration?.version == right.declaration?.version
        && left.declaration?.standalone == right.declaration?.standalone
        && (left.declaration == nil) == (right.declaration == nil) && left.documentType == right.documentType
        && left.prolog == right.prolog && left.epilog == right.epilog && left.root == right.root
}

/// Checks navigation on the first elements of a tree.
func fuzzNavigate(_ tree: XMLTree) {
    let root = tree.root
    precondition(root.parent == nil, "the root has a parent")
    let descendants = root.descendants
    let elements = [root] + descendants
    for element in elements.prefix(32) {
        for child in element.childElements {
            precondition(child.parent == element, "a child's parent is another element")
        }
        precondition(element.subtree.root == element, "subtree changes the element")
        _ = element.text
        _ = element.namespacesInScope
        _ = element.description
        for attribute in element.attributes {
            precondition(element.attribute(attribute.name.qualifiedName) == attribute.value, "attribute lookup")
        }
        precondition(element.events.count >= 2, "an element replays fewer than two events")
    }
    // Path queries agree with navigation where the answer is obvious.
    precondition((try? tree.elements(at: fuzzPaths[0]))?.count == elements.count, "//* misses elements")
    let attributeCount = elements.reduce(0) { $0 + $1.attributes.count }
    precondition(tree.strings(at: fuzzPaths[1]).count == attributeCount, "//@* misses attributes")
    precondition((try? tree.elements(at: fuzzPaths[3]))?.count == 1, "/* is not the root")
    for path in fuzzPaths {
        if path.selectsStrings {
            _ = tree.strings(at: path)
            _ = root.strings(at: path)
        } else {
            _ = try? tree.elements(at: path)
            _ = try? root.elements(at: path)
            _ = tree.strings(at: path)
        }
    }
}

/// Builds trees from `bytes` with `options` and checks them.
func fuzzTree(_ bytes: Data, options: XMLParsingOptions) {
    let events = try? XMLStreamParser(data: bytes, options: options).events()
    let tree = try? XMLTree(parsing: bytes, options: options)
    precondition((events != nil) == (tree != nil), "the tree and the parser disagree on the body")
    guard let tree, let events else { return }
    // The parse builds its tree from the span stream; the parser's String events build one with the same events.
    guard let fromEvents = try? XMLTree(events: events) else {
        preconditionFailure("the String events do not build the tree the span stream built")
    }
    precondition(fromEvents.events == tree.events, "the span stream and the String events build other trees")
    // Replayed events build an equal tree (documented on XMLTree.events).
    guard let rebuilt = try? XMLTree(events: tree.events) else {
        preconditionFailure("a tree's events do not build a tree")
    }
    // Equal, except that events cannot say which processing instructions were inside the internal subset (as
    // XMLTree.events documents): then the rebuilt tree has them in its prolog, and replays the same events.
    precondition(rebuilt.events == tree.events, "a tree's events build a tree with other events")
    precondition(rebuilt.root == tree.root && rebuilt.epilog == tree.epilog, "a tree's events build another tree")
    precondition(tree.documentType?.internalSubset != nil || rebuilt == tree, "a tree's events build another tree")
    let canonical = tree.canonicalXML(.canonicalXML10)
    let suite = tree.canonicalXML(.w3cTestSuite)
    precondition(tree.canonicalXMLData() == Data(canonical.utf8), "canonical data and text differ")
    if tree.documentType?.internalSubset == nil {
        precondition(rebuilt.canonicalXML(.canonicalXML10) == canonical, "rebuilt tree, other canonical form")
    }
    precondition(rebuilt.canonicalXML(.w3cTestSuite) == suite, "rebuilt tree, other w3cTestSuite form")
    // xmlString() parses back to the tree (documented on XMLTree.xmlString() and in the module's article).
    let text = tree.xmlString()
    do {
        let reparsed = try XMLTree(
            parsing: Data(text.utf8), options: XMLParsingOptions(namespaceAware: options.namespaceAware))
        precondition(fuzzEqualIgnoringEncoding(reparsed, tree), "xmlString() parses to another tree:\n\(text)")
        precondition(reparsed.canonicalXML(.canonicalXML10) == canonical, "xmlString() changes canonicalXML10")
        precondition(reparsed.canonicalXML(.w3cTestSuite) == suite, "xmlString() changes the w3cTestSuite form")
    } catch {
        preconditionFailure("xmlString() does not parse (\(error)):\n\(text)")
    }
    fuzzNavigate(tree)
}

/// The libFuzzer entry point: builds trees with default and tight limits, namespace-aware and not, checks them, and
/// compiles the input's first line as a path expression.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLDocument(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    for aware in [true, false] {
        fuzzTree(bytes, options: XMLParsingOptions(namespaceAware: aware))
        fuzzTree(bytes, options: fuzzTightOptions(namespaceAware: aware))
    }
    // The first line, as a path expression: it compiles or throws, and runs on a small tree.
    let line = bytes.prefix { $0 != 0x0A }.prefix(512)
    if let path = try? XMLPath(String(decoding: line, as: UTF8.self), namespaces: fuzzNamespaces) {
        if path.selectsStrings {
            _ = fuzzFixedTree.strings(at: path)
            _ = fuzzFixedTree.root.strings(at: path)
        } else {
            _ = try? fuzzFixedTree.elements(at: path)
            _ = try? fuzzFixedTree.root.elements(at: path)
        }
    }
    return 0
}
