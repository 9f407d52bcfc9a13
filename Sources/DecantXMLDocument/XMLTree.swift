public import DecantXMLParser

/// An immutable XML document: its XML declaration, document type, the comments and processing instructions around
/// the root, and the root element with everything in it.
///
/// A tree is a value: copies share one immutable arena of nodes (a flat array in document order), so passing a tree
/// or any of its ``Element``s around costs a reference count, and a tree can cross concurrency domains freely.
/// Elements are lightweight handles into that arena; navigation never copies the document.
///
/// ```swift
/// let tree = try XMLTree(parsing: body)
/// let title = tree.root.firstChild(named: "title")?.text
/// let links = try tree.strings(at: "//link/@href")
/// ```
///
/// Memory: a node costs 16 bytes, a name is stored once per document, and text, attribute values and comments are
/// stored once as UTF-8, so a tree is a few times the size of its document (a flood of empty elements about 4×)
/// rather than a `String` and an array per node. One tree holds at most 268,435,455 nodes and 4 GiB of text; a
/// larger document fails with `limitExceeded` (read it with `XMLStreamParser` instead). The parser's limits
/// (`XMLParsingOptions.maxNodeCount`, `maxNodesPerByte`, `maxOutputBytes`) bound it well before that.
///
/// Build one with ``init(parsing:mediaType:options:)`` (Decant's own bounded parser) or ``init(events:)``.
/// The type is not called `XMLDocument`, which Foundation declares on Apple platforms.
public struct XMLTree: Sendable {
    let storage: Storage

    /// The XML declaration, when the document has one.
    public var declaration: XMLDeclaration? { storage.declaration }

    /// The document type declaration, when the document has one.
    public var documentType: XMLDocumentType? { storage.documentType }

    /// The root (document) element.
    public var root: Element { Element(storage: storage, index: storage.rootIndex) }

    /// The comments and processing instructions before the root element, in document order (those before the
    /// document type declaration included; those inside its internal subset are not document nodes and only
    /// ``events`` replays them).
    public var prolog: [Node] { storage.documentPrologSlots.map { storage.node(at: $0) } }

    /// The comments and processing instructions after the root element, in document order.
    public var epilog: [Node] { storage.epilog.map { storage.node(at: $0) } }

    /// The top-level nodes in document order: the ``prolog``, the root element, then the ``epilog``.
    public var nodes: [Node] { prolog + [.element(root)] + epilog }

    /// The number of nodes in the document (elements, text, CDATA sections, comments and processing instructions,
    /// including those around the root).
    public var nodeCount: Int { storage.count }

    /// The bytes the tree keeps, as charged to a `DecodingBudget`: its slots, text, names and attribute tables.
    var keptBytes: Int {
        let arena = storage.arena
        return arena.slots.count * MemoryLayout<Slot>.stride + arena.text.count
            + arena.names.count * MemoryLayout<XMLName>.stride + arena.extras.count * MemoryLayout<Extra>.stride
            + arena.attributes.count * MemoryLayout<AttributeEntry>.stride
            + arena.namespaces.count * MemoryLayout<NamespaceEntry>.stride
    }
}

extension XMLTree {
    /// One node of a tree: an element, character data, a CDATA section, a comment or a processing instruction.
    public enum Node: Sendable, Hashable {
        /// An element.
        case element(Element)
        /// Character data, with references and entities expanded; adjacent pieces are merged.
        case text(String)
        /// The contents of a CDATA section.
        case cdata(String)
        /// The text of a comment, without `<!--` and `-->`.
        case comment(String)
        /// A processing instruction: its target and its data (empty when there is none).
        case processingInstruction(target: String, data: String)

        /// The element, when this node is one.
        public var element: Element? {
            if case .element(let element) = self { return element }
            return nil
        }

        /// The character data of a text node or CDATA section; `nil` for other nodes.
        public var characterData: String? {
            switch self {
            case .text(let text), .cdata(let text): return text
            default: return nil
            }
        }
    }
}

extension XMLTree {
    /// What one arena slot holds.
    enum Content: Sendable, Hashable {
        case element(ElementRecord)
        case text(String)
        case cdata(String)
        case comment(String)
        case processingInstruction(target: String, data: String)
    }

    /// An element's own data (its children are the arena slots after it, up to ``Record/end``).
    struct ElementRecord: Sendable, Hashable {
        var name: XMLName
        var attributes: [XMLAttribute]
        var namespaceDeclarations: [XMLNamespaceDeclaration]
        var isEmptyElementTag: Bool

        /// Equal when the name, attributes and declarations are: `<a/>` and `<a></a>` are the same element.
        static func == (lhs: ElementRecord, rhs: ElementRecord) -> Bool {
            lhs.name == rhs.name && lhs.attributes == rhs.attributes
                && lhs.namespaceDeclarations == rhs.namespaceDeclarations
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(attributes)
            hasher.combine(namespaceDeclarations)
        }
    }

    /// The immutable arena every copy of a tree and every element handle shares.
    ///
    /// Nodes are stored in document order, so an element's descendants are the slots `index + 1 ..< end` and its
    /// children are found by hopping from one child's `end` to the next. Never mutated after the builder hands it
    /// over, which is what makes the unchecked `Sendable` conformance sound.
    final class Storage: @unchecked Sendable {
        let arena: Arena
        let declaration: XMLDeclaration?
        let documentType: XMLDocumentType?
        /// How many prolog nodes come before the document type declaration (the end of the internal subset).
        let documentTypePosition: Int
        /// The prolog position of the first node inside the internal subset: `prolog[internalSubsetStart..<
        /// documentTypePosition]` are processing instructions and comments written inside `<!DOCTYPE [...]>`,
        /// replayed as events but not document nodes (XPath data model).
        let internalSubsetStart: Int
        let rootIndex: Int
        let prolog: [Int]
        let epilog: [Int]

        init(
            arena: Arena, declaration: XMLDeclaration?, documentType: XMLDocumentType?,
            documentTypePosition: Int = 0, internalSubsetStart: Int? = nil, rootIndex: Int, prolog: [Int],
            epilog: [Int]
        ) {
            self.internalSubsetStart = internalSubsetStart ?? documentTypePosition
            self.arena = arena
            self.declaration = declaration
            self.documentType = documentType
            self.documentTypePosition = documentTypePosition
            self.rootIndex = rootIndex
            self.prolog = prolog
            self.epilog = epilog
        }

        /// The number of slots.
        var count: Int { arena.count }

        /// The slot after the subtree at `slot`.
        func end(_ slot: Int) -> Int { arena.end(slot) }

        /// The parent element's slot, or -1 at the top level.
        func parent(_ slot: Int) -> Int { arena.parent(slot) }

        /// Whether `slot` holds an element.
        func isElement(_ slot: Int) -> Bool { arena.isElement(slot) }

        /// What `slot` holds.
        func content(_ slot: Int) -> Content { arena.content(slot) }

        /// The name of the element at `slot`.
        func name(_ slot: Int) -> XMLName {
            slot >= 0 && slot < arena.count && arena.isElement(slot) ? arena.name(slot) : XMLName(qualifiedName: "")
        }

        /// The prolog's slots without those inside the internal subset.
        var documentPrologSlots: [Int] {
            Array(prolog[..<internalSubsetStart]) + prolog[documentTypePosition...]
        }

        /// Whether `slot` is a processing instruction or comment inside the internal subset.
        func isInInternalSubset(_ slot: Int) -> Bool {
            internalSubsetStart < documentTypePosition && slot >= prolog[internalSubsetStart]
                && slot < (documentTypePosition < prolog.count ? prolog[documentTypePosition] : rootIndex)
        }

        func node(at index: Int) -> Node {
            switch arena.content(index) {
            case .element: return .element(Element(storage: self, index: index))
            case .text(let text): return .text(text)
            case .cdata(let text): return .cdata(text)
            case .comment(let text): return .comment(text)
            case .processingInstruction(let target, let data): return .processingInstruction(target: target, data: data)
            }
        }

        /// The record of the element at `index`. Element handles are only made for element slots (the builder,
        /// ``node(at:)`` and the queries check the kind first); should that ever not hold, an empty record is
        /// returned rather than trapping, so no document can turn a broken invariant into a crash.
        func elementRecord(at index: Int) -> ElementRecord {
            if index >= 0, index < arena.count, arena.isElement(index) { return arena.elementRecord(index) }
            return ElementRecord(
                name: XMLName(qualifiedName: ""), attributes: [], namespaceDeclarations: [], isEmptyElementTag: true)
        }

        /// The slots of the children of the element at `index`, in order.
        func childIndexes(of index: Int) -> [Int] {
            var result: [Int] = []
            var child = index + 1
            let end = arena.end(index)
            while child < end {
                result.append(child)
                child = arena.end(child)
            }
            return result
        }

        /// Whether the subtree at `index` here and the one at `other` in `otherStorage` hold the same nodes.
        func subtreeEquals(_ index: Int, _ otherStorage: Storage, _ other: Int) -> Bool {
            if otherStorage === self && other == index { return true }
            let count = end(index) - index
            guard otherStorage.end(other) - other == count else { return false }
            for offset in 0..<count {
                guard end(index + offset) - index == otherStorage.end(other + offset) - other,
                    content(index + offset) == otherStorage.content(other + offset)
                else { return false }
            }
            return true
        }
    }
}

extension XMLTree: Equatable {
    /// Whether two trees hold the same declaration, document type and nodes.
    public static func == (lhs: XMLTree, rhs: XMLTree) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.declaration == rhs.declaration && lhs.documentType == rhs.documentType
            && lhs.prolog == rhs.prolog && lhs.epilog == rhs.epilog && lhs.root == rhs.root
    }
}
