public import DecantXMLParser

extension XMLTree {
    /// An element of an ``XMLTree``: a lightweight handle (the shared arena and a slot) with navigation.
    ///
    /// Elements compare structurally: two elements are equal when they have the same name, attributes, namespace
    /// declarations and equal children, whichever trees they belong to (`<a/>` equals `<a></a>`).
    public struct Element: Sendable {
        let storage: Storage
        let index: Int

        init(storage: Storage, index: Int) {
            self.storage = storage
            self.index = index
        }

        private var record: ElementRecord { storage.elementRecord(at: index) }

        /// The element's name, with its prefix, local name and namespace when the document was parsed
        /// namespace-aware.
        public var name: XMLName { storage.name(index) }

        /// The name as written, such as `atom:link`.
        public var qualifiedName: String { name.qualifiedName }

        /// The local part of the name, such as `link`.
        public var localName: String { name.localName }

        /// The namespace the element is in, or `nil` for none.
        public var namespaceURI: String? { name.namespaceURI }

        /// The attributes in the order written, then those defaulted by the internal subset (their
        /// `isSpecified` is `false`). Namespace declarations are in ``namespaceDeclarations`` instead, when the
        /// document was parsed namespace-aware.
        public var attributes: [XMLAttribute] { record.attributes }

        /// The namespace declarations made on this element's start tag, in the order written.
        public var namespaceDeclarations: [XMLNamespaceDeclaration] { record.namespaceDeclarations }

        /// Whether the element was written as an empty-element tag (`<a/>`).
        public var isEmptyElementTag: Bool { record.isEmptyElementTag }

        /// The child nodes, in document order.
        public var children: [Node] { storage.childIndexes(of: index).map { storage.node(at: $0) } }

        /// The child elements, in document order.
        public var childElements: [Element] {
            storage.childIndexes(of: index).compactMap { child in
                storage.isElement(child) ? Element(storage: storage, index: child) : nil
            }
        }

        /// Whether the element has no children at all.
        public var isEmpty: Bool { storage.end(index) == index + 1 }

        /// The parent element, or `nil` for the root element.
        public var parent: Element? {
            let parent = storage.parent(index)
            return parent < 0 ? nil : Element(storage: storage, index: parent)
        }

        /// The descendant elements (children, their children, and so on) in document order.
        public var descendants: [Element] {
            var result: [Element] = []
            for slot in (index + 1)..<storage.end(index) {
                if storage.isElement(slot) { result.append(Element(storage: storage, index: slot)) }
            }
            return result
        }

        /// The first child element whose qualified name is `qualifiedName`, such as `title` or `atom:link`.
        public func firstChild(named qualifiedName: String) -> Element? {
            var child = index + 1
            let end = storage.end(index)
            while child < end {
                if storage.isElement(child), storage.name(child).qualifiedName == qualifiedName {
                    return Element(storage: storage, index: child)
                }
                child = storage.end(child)
            }
            return nil
        }

        /// The first child element with local name `localName` in the namespace `namespaceURI` (`nil` for none),
        /// whatever prefix the document uses for it.
        public func firstChild(localName: String, namespaceURI: String?) -> Element? {
            childElements.first { $0.localName == localName && $0.namespaceURI == namespaceURI }
        }

        /// The child elements whose qualified name is `qualifiedName`, in document order.
        public func children(named qualifiedName: String) -> [Element] {
            childElements.filter { $0.qualifiedName == qualifiedName }
        }

        /// The child elements with local name `localName` in the namespace `namespaceURI` (`nil` for none).
        public func children(localName: String, namespaceURI: String?) -> [Element] {
            childElements.filter { $0.localName == localName && $0.namespaceURI == namespaceURI }
        }

        /// The value of the attribute whose qualified name is `qualifiedName` (such as `href` or `xml:lang`), or
        /// `nil` when the element has none.
        public func attribute(_ qualifiedName: String) -> String? {
            record.attributes.first { $0.name.qualifiedName == qualifiedName }?.value
        }

        /// The value of the attribute with local name `localName` in the namespace `namespaceURI` (`nil` for an
        /// unprefixed attribute, which is in no namespace), or `nil` when the element has none.
        public func attribute(localName: String, namespaceURI: String?) -> String? {
            record.attributes.first { $0.name.localName == localName && $0.name.namespaceURI == namespaceURI }?.value
        }

        /// The character data of every descendant text node and CDATA section, concatenated in document order
        /// (the XPath string-value of the element).
        public var text: String {
            var result = ""
            for slot in (index + 1)..<storage.end(index) {
                storage.arena.appendCharacterData(slot, to: &result)
            }
            return result
        }

        /// The namespace `prefix` is bound to at this element (`nil` asks for the default namespace), from the
        /// element's own declarations and those of its ancestors; `nil` when it is not bound (or the default
        /// namespace is undeclared with `xmlns=""`). The `xml` prefix is always bound to
        /// `http://www.w3.org/XML/1998/namespace`.
        public func namespaceURI(forPrefix prefix: String?) -> String? {
            if prefix == "xml" { return XMLTree.xmlNamespace }
            if prefix == "xmlns" { return XMLTree.xmlnsNamespace }
            var slot = index
            while slot >= 0 {
                if storage.isElement(slot),
                    let declaration = storage.arena.namespaceDeclarations(slot).last(where: { $0.prefix == prefix })
                {
                    return declaration.uri.isEmpty ? nil : declaration.uri
                }
                slot = storage.parent(slot)
            }
            return nil
        }

        /// Every namespace binding in scope at this element, keyed by prefix (`""` for the default namespace),
        /// without the implicit `xml` binding; an undeclared default namespace is left out.
        public var namespacesInScope: [String: String] {
            var chain: [Int] = []
            var slot = index
            while slot >= 0 {
                chain.append(slot)
                slot = storage.parent(slot)
            }
            var scope: [String: String] = [:]
            for slot in chain.reversed() {
                for declaration in storage.arena.namespaceDeclarations(slot) {
                    scope[declaration.prefix ?? ""] = declaration.uri
                }
            }
            return scope.filter { !$0.value.isEmpty }
        }

        /// The element's subtree as an ``XMLTree`` of its own, with no declaration, document type or prolog.
        /// Namespace declarations inherited from ancestors are not copied onto the new root.
        public var subtree: XMLTree {
            return XMLTree(
                storage: Storage(
                    arena: storage.arena.subtree(index..<storage.end(index)), declaration: nil, documentType: nil,
                    rootIndex: 0, prolog: [], epilog: []))
        }
    }

    /// `http://www.w3.org/XML/1998/namespace`, the namespace the `xml` prefix is bound to.
    public static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// `http://www.w3.org/2000/xmlns/`, the namespace of namespace declarations.
    public static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"
}

extension XMLTree.Element: Hashable {
    /// Whether the two elements have the same name, attributes, namespace declarations and equal children.
    public static func == (lhs: XMLTree.Element, rhs: XMLTree.Element) -> Bool {
        lhs.storage.subtreeEquals(lhs.index, rhs.storage, rhs.index)
    }

    /// Hashes the name and the size of the subtree.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(storage.end(index) - index)
    }
}

extension XMLTree.Element: CustomStringConvertible {
    /// The element serialized as XML (see ``XMLTree/xmlString()``).
    public var description: String { XMLTree.serialize(storage, range: index..<storage.end(index)) }
}
