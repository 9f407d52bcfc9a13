extension XMLTree {
    /// The elements `path` selects from the document (see ``XMLPath`` for the syntax).
    ///
    /// A relative path starts at the document, so its first step names the root element: `rss/channel` and
    /// `/rss/channel` select the same elements.
    ///
    /// - Throws: ``XMLPathError`` when the syntax is not supported, a prefix is not in `namespaces`, or the path
    ///   ends in `@attribute` or `text()` (use ``strings(at:namespaces:)``).
    public func elements(at path: String, namespaces: [String: String] = [:]) throws(XMLPathError) -> [Element] {
        try elements(at: XMLPath(path, namespaces: namespaces))
    }

    /// The elements a compiled `path` selects from the document.
    ///
    /// - Throws: ``XMLPathError`` when the path ends in `@attribute` or `text()`.
    public func elements(at path: XMLPath) throws(XMLPathError) -> [Element] {
        try storage.selectElements(path, context: -1)
    }

    /// The first element `path` selects from the document, or `nil`.
    ///
    /// - Throws: ``XMLPathError`` as ``elements(at:namespaces:)`` does.
    public func firstElement(at path: String, namespaces: [String: String] = [:]) throws(XMLPathError) -> Element? {
        try elements(at: path, namespaces: namespaces).first
    }

    /// The strings `path` selects from the document: attribute values for a final `@attribute` step, text nodes
    /// for a final `text()` step, and otherwise the ``Element/text`` of each selected element.
    ///
    /// ```swift
    /// try tree.strings(at: "//item/link/@href")
    /// try tree.strings(at: "/feed/entry[1]/title")
    /// ```
    ///
    /// - Throws: ``XMLPathError`` when the syntax is not supported or a prefix is not in `namespaces`.
    public func strings(at path: String, namespaces: [String: String] = [:]) throws(XMLPathError) -> [String] {
        try strings(at: XMLPath(path, namespaces: namespaces))
    }

    /// The strings a compiled `path` selects from the document (see ``strings(at:namespaces:)``).
    public func strings(at path: XMLPath) -> [String] {
        storage.selectStrings(path, context: -1)
    }

    /// The first string `path` selects from the document, or `nil`.
    ///
    /// - Throws: ``XMLPathError`` when the syntax is not supported or a prefix is not in `namespaces`.
    public func string(at path: String, namespaces: [String: String] = [:]) throws(XMLPathError) -> String? {
        try strings(at: path, namespaces: namespaces).first
    }
}

extension XMLTree.Element {
    /// The elements `path` selects, starting at this element (an absolute path starts at its document).
    ///
    /// - Throws: ``XMLPathError`` when the syntax is not supported, a prefix is not in `namespaces`, or the path
    ///   ends in `@attribute` or `text()` (use ``strings(at:namespaces:)``).
    public func elements(at path: String, namespaces: [String: String] = [:]) throws(XMLPathError) -> [Self] {
        try elements(at: XMLPath(path, namespaces: namespaces))
    }

    /// The elements a compiled `path` selects, starting at this element.
    ///
    /// - Throws: ``XMLPathError`` when the path ends in `@attribute` or `text()`.
    public func elements(at path: XMLPath) throws(XMLPathError) -> [Self] {
        try storage.selectElements(path, context: index)
    }

    /// The first element `path` selects, starting at this element, or `nil`.
    ///
    /// - Throws: ``XMLPathError`` as ``elements(at:namespaces:)`` does.
    public func firstElement(at path: String, namespaces: [String: String] = [:]) throws(XMLPathError) -> Self? {
        try elements(at: path, namespaces: namespaces).first
    }

    /// The strings `path` selects, starting at this element: attribute values for a final `@attribute` step, text
    /// nodes for a final `text()` step, and otherwise the ``text`` of each selected element.
    ///
    /// - Throws: ``XMLPathError`` when the syntax is not supported or a prefix is not in `namespaces`.
    public func strings(at path: String, namespaces: [String: String] = [:]) throws(XMLPathError) -> [String] {
        try strings(at: XMLPath(path, namespaces: namespaces))
    }

    /// The strings a compiled `path` selects, starting at this element.
    public func strings(at path: XMLPath) -> [String] {
        storage.selectStrings(path, context: index)
    }

    /// The first string `path` selects, starting at this element, or `nil`.
    ///
    /// - Throws: ``XMLPathError`` when the syntax is not supported or a prefix is not in `namespaces`.
    public func string(at path: String, namespaces: [String: String] = [:]) throws(XMLPathError) -> String? {
        try strings(at: path, namespaces: namespaces).first
    }
}

/// Path evaluation over the arena. Node sets are sorted slot lists (slot order is document order); `-1` stands for
/// the document node.
extension XMLTree.Storage {
    func selectElements(_ path: XMLPath, context: Int) throws(XMLPathError) -> [XMLTree.Element] {
        guard path.final == nil else {
            throw XMLPathError(
                expression: path.expression, offset: nil,
                message: "The path ends in an @attribute or text() step, so it selects strings, not elements; use "
                    + "strings(at:) instead.")
        }
        return evaluateSteps(path, context: context).compactMap {
            $0 >= 0 ? XMLTree.Element(storage: self, index: $0) : nil
        }
    }

    func selectStrings(_ path: XMLPath, context: Int) -> [String] {
        let nodes = evaluateSteps(path, context: context)
        switch path.final {
        case nil:
            return nodes.filter { $0 >= 0 }.map { XMLTree.Element(storage: self, index: $0).text }
        case .attribute(let test, let descendant):
            let elements = descendant ? descendantsOrSelf(nodes) : nodes.filter { $0 >= 0 }
            return elements.flatMap { slot in
                elementRecord(at: slot).attributes.filter { test.matches($0.name) }.map(\.value)
            }
        case .text(let descendant):
            let elements = descendant ? descendantsOrSelf(nodes) : nodes.filter { $0 >= 0 }
            return elements.flatMap { textRuns(of: $0) }
        }
    }

    private func evaluateSteps(_ path: XMLPath, context: Int) -> [Int] {
        var nodes = [path.isAbsolute ? -1 : context]
        for step in path.steps {
            var next: [Int] = []
            switch step.axis {
            case .selfNode:
                next = nodes
            case .parent:
                next = nodes.compactMap { $0 >= 0 ? parent($0) : nil }
            case .child:
                for node in nodes { next += filter(childElements(of: node), step) }
            case .descendant:
                for node in descendantsOrSelf(nodes, includingDocument: true) {
                    next += filter(childElements(of: node), step)
                }
            }
            nodes = Array(Set(next)).sorted()
        }
        return nodes
    }

    /// `nodes` (sorted, as every node set is) and all their descendant elements, sorted and without duplicates; the
    /// document node is kept only when `includingDocument`.
    ///
    /// Subtrees are slot ranges that nest or are disjoint, so a node inside a subtree already walked is skipped and
    /// each slot is visited once: walking every node's subtree made `//a//b` cost the document size times its depth.
    private func descendantsOrSelf(_ nodes: [Int], includingDocument: Bool = false) -> [Int] {
        var result: [Int] = []
        var walkedEnd = Int.min
        for node in nodes {
            let range: Range<Int>
            if node < 0 {
                if includingDocument { result.append(-1) }
                range = 0..<count
            } else {
                range = node..<end(node)
            }
            guard range.upperBound > walkedEnd else { continue }
            for slot in max(range.lowerBound, walkedEnd)..<range.upperBound {
                if isElement(slot) { result.append(slot) }
            }
            walkedEnd = range.upperBound
        }
        return result
    }

    private func childElements(of node: Int) -> [Int] {
        if node < 0 { return [rootIndex] }
        return childIndexes(of: node).filter { isElement($0) }
    }

    private func filter(_ candidates: [Int], _ step: XMLPath.Step) -> [Int] {
        var selected = candidates.filter { step.test.matches(name($0)) }
        for predicate in step.predicates {
            let size = selected.count
            selected = selected.enumerated().filter { offset, slot in
                matches(predicate, slot: slot, position: offset + 1, size: size)
            }.map(\.element)
        }
        return selected
    }

    private func matches(_ predicate: XMLPath.Predicate, slot: Int, position: Int, size: Int) -> Bool {
        switch predicate {
        case .position(let wanted): return position == wanted
        case .last: return position == size
        case .hasAttribute(let test): return elementRecord(at: slot).attributes.contains { test.matches($0.name) }
        case .attributeEquals(let test, let value):
            return elementRecord(at: slot).attributes.contains { test.matches($0.name) && $0.value == value }
        case .childEquals(let test, let value):
            return childElements(of: slot).contains { child in
                test.matches(name(child))
                    && XMLTree.Element(storage: self, index: child).text == value
            }
        case .textEquals(let value): return textRuns(of: slot).contains(value)
        case .valueEquals(let value): return XMLTree.Element(storage: self, index: slot).text == value
        }
    }

    /// The element's text children, adjacent text and CDATA merged (XPath text nodes).
    private func textRuns(of slot: Int) -> [String] {
        var runs: [String] = []
        var current: String?
        for child in childIndexes(of: slot) {
            switch content(child) {
            case .text(let text), .cdata(let text):
                current = (current ?? "") + text
            case .element:
                if let run = current { runs.append(run) }
                current = nil
            case .comment, .processingInstruction:
                // Comments and processing instructions split text nodes too in the XPath data model.
                if let run = current { runs.append(run) }
                current = nil
            }
        }
        if let run = current { runs.append(run) }
        return runs
    }
}
