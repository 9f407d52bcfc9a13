public import DecantXMLParser

extension XMLTree {
    /// The tree replayed as parser events in document order: the XML declaration, the document type, the prolog,
    /// the root element's subtree, the epilog. ``init(events:)`` builds an equal tree from them, with one exception:
    /// processing instructions written inside the internal subset come before the document type event, as the parser
    /// reports them, and events do not say where the subset starts, so the rebuilt tree has them in its ``prolog``
    /// (it replays the same events).
    public var events: [XMLEvent] {
        var result: [XMLEvent] = []
        result.reserveCapacity(storage.count * 2)
        forEachEvent { result.append($0) }
        return result
    }

    /// Calls `body` with every event of ``events`` in order, without building the array.
    public func forEachEvent<Failure: Error>(_ body: (XMLEvent) throws(Failure) -> Void) throws(Failure) {
        if let declaration { try body(.xmlDeclaration(declaration)) }
        // The prolog is slots 0..<rootIndex; the document type goes back between the nodes it came between.
        let split = documentType == nil ? 0 : storage.documentTypePosition
        try storage.forEachEvent(in: 0..<split, body)
        if let documentType { try body(.documentType(documentType)) }
        try storage.forEachEvent(in: split..<storage.count, body)
    }
}

extension XMLTree.Element {
    /// The element's subtree replayed as parser events, from its start to its end.
    public var events: [XMLEvent] {
        var result: [XMLEvent] = []
        storage.forEachEvent(in: index..<storage.end(index)) { result.append($0) }
        return result
    }
}

extension XMLTree.Storage {
    /// Replays the slots in `range` (whole subtrees) as events, without recursion.
    func forEachEvent<Failure: Error>(
        in range: Range<Int>, _ body: (XMLEvent) throws(Failure) -> Void
    ) throws(Failure) {
        var open: [Int] = []
        for slot in range {
            while let last = open.last, end(last) <= slot {
                open.removeLast()
                try body(.endElement(name(last)))
            }
            switch content(slot) {
            case .element(let record):
                try body(
                    .startElement(
                        XMLElementStart(
                            name: record.name, attributes: record.attributes,
                            namespaceDeclarations: record.namespaceDeclarations,
                            isEmptyElementTag: record.isEmptyElementTag)))
                open.append(slot)
            case .text(let text): try body(.characters(text))
            case .cdata(let text): try body(.cdata(text))
            case .comment(let text): try body(.comment(text))
            case .processingInstruction(let target, let data):
                try body(.processingInstruction(target: target, data: data))
            }
        }
        while let last = open.popLast() {
            try body(.endElement(name(last)))
        }
    }
}
