public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Callbacks in the shape of Foundation's `XMLParserDelegate`, for code migrating from `XMLParser` (or AFNetworking's
/// `AFXMLParserResponseSerializer`) to ``XMLStreamParser/parse(delegate:)``.
///
/// Every method has a default that does nothing; implement the ones you need. With
/// ``XMLParsingOptions/namespaceAware`` on (Foundation's `shouldProcessNamespaces`), element callbacks get the local
/// name, the namespace URI (empty for none) and the qualified name, and prefix mappings are reported; with it off,
/// they get the qualified name and `nil`s, and `xmlns` attributes stay attributes.
///
/// Unlike Foundation, nothing external is ever resolved (there is no `resolveExternalEntityName`): references to
/// external entities arrive in ``parser(_:foundSkippedEntity:)``.
public protocol XMLStreamDelegate: AnyObject {
    /// Parsing starts.
    func parserDidStartDocument(_ parser: XMLStreamParser)
    /// The document ended well-formed.
    func parserDidEndDocument(_ parser: XMLStreamParser)
    /// The XML declaration was read.
    func parser(_ parser: XMLStreamParser, foundXMLDeclaration declaration: XMLDeclaration)
    /// The document type declaration was read (after its internal subset).
    func parser(_ parser: XMLStreamParser, foundDocumentType documentType: XMLDocumentType)
    /// A notation declared in the internal subset (reported after ``parser(_:foundDocumentType:)``).
    func parser(
        _ parser: XMLStreamParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?)
    /// A start tag (or an empty-element tag, followed at once by the end callback).
    ///
    /// - Parameters:
    ///   - parser: The parser reporting it.
    ///   - elementName: The local name when namespace-aware, else the qualified name.
    ///   - namespaceURI: The namespace (empty for none) when namespace-aware, else `nil`.
    ///   - qualifiedName: The qualified name when namespace-aware, else `nil`.
    ///   - attributes: The attributes by qualified name, defaults included.
    func parser(
        _ parser: XMLStreamParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String])
    /// An end tag; the names as in the start callback.
    func parser(
        _ parser: XMLStreamParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?)
    /// A namespace declaration comes into scope (before the start callback of its element); the default namespace
    /// has the prefix `""`.
    func parser(_ parser: XMLStreamParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String)
    /// A namespace declaration goes out of scope (after the end callback of its element).
    func parser(_ parser: XMLStreamParser, didEndMappingPrefix prefix: String)
    /// Character data (one call per run between markup, references expanded).
    func parser(_ parser: XMLStreamParser, foundCharacters string: String)
    /// The contents of a CDATA section, as UTF-8.
    func parser(_ parser: XMLStreamParser, foundCDATA CDATABlock: Data)
    /// A comment's text.
    func parser(_ parser: XMLStreamParser, foundComment comment: String)
    /// A processing instruction; `data` is `nil` when it has none.
    func parser(_ parser: XMLStreamParser, foundProcessingInstructionWithTarget target: String, data: String?)
    /// A reference in content to an entity that is not expanded: external (never fetched) or not read.
    func parser(_ parser: XMLStreamParser, foundSkippedEntity name: String)
    /// Parsing failed; the same error is then thrown by ``XMLStreamParser/parse(delegate:)``.
    func parser(_ parser: XMLStreamParser, parseErrorOccurred error: SerializationError)
}

extension XMLStreamDelegate {
    /// Does nothing.
    public func parserDidStartDocument(_ parser: XMLStreamParser) {}
    /// Does nothing.
    public func parserDidEndDocument(_ parser: XMLStreamParser) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, foundXMLDeclaration declaration: XMLDeclaration) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, foundDocumentType documentType: XMLDocumentType) {}
    /// Does nothing.
    public func parser(
        _ parser: XMLStreamParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?
    ) {}
    /// Does nothing.
    public func parser(
        _ parser: XMLStreamParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String]
    ) {}
    /// Does nothing.
    public func parser(
        _ parser: XMLStreamParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, didEndMappingPrefix prefix: String) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, foundCharacters string: String) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, foundCDATA CDATABlock: Data) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, foundComment comment: String) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, foundProcessingInstructionWithTarget target: String, data: String?) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, foundSkippedEntity name: String) {}
    /// Does nothing.
    public func parser(_ parser: XMLStreamParser, parseErrorOccurred error: SerializationError) {}
}

/// Turns events into delegate callbacks.
struct DelegateSink: XMLEventSink {
    let parser: XMLStreamParser
    let delegate: any XMLStreamDelegate
    var prefixes: [[String]] = []

    init(parser: XMLStreamParser, delegate: any XMLStreamDelegate) {
        self.parser = parser
        self.delegate = delegate
    }

    mutating func receive(_ event: XMLEvent, at position: XMLPosition) throws {
        let aware = parser.options.namespaceAware
        switch event {
        case .xmlDeclaration(let declaration):
            delegate.parser(parser, foundXMLDeclaration: declaration)
        case .documentType(let documentType):
            delegate.parser(parser, foundDocumentType: documentType)
            for notation in documentType.notations {
                delegate.parser(
                    parser, foundNotationDeclarationWithName: notation.name, publicID: notation.publicID,
                    systemID: notation.systemID)
            }
        case .startElement(let start):
            var mapped: [String] = []
            for declaration in start.namespaceDeclarations {
                delegate.parser(parser, didStartMappingPrefix: declaration.prefix ?? "", toURI: declaration.uri)
                mapped.append(declaration.prefix ?? "")
            }
            prefixes.append(mapped)
            // Qualified names are unique within a tag (WFC: Unique Att Spec), so plain assignment keeps every one.
            var attributes: [String: String] = [:]
            if !start.attributes.isEmpty {
                attributes.reserveCapacity(start.attributes.count)
                for attribute in start.attributes { attributes[attribute.name.qualifiedName] = attribute.value }
            }
            delegate.parser(
                parser, didStartElement: aware ? start.name.localName : start.name.qualifiedName,
                namespaceURI: aware ? start.name.namespaceURI ?? "" : nil,
                qualifiedName: aware ? start.name.qualifiedName : nil, attributes: attributes)
        case .endElement(let name):
            delegate.parser(
                parser, didEndElement: aware ? name.localName : name.qualifiedName,
                namespaceURI: aware ? name.namespaceURI ?? "" : nil, qualifiedName: aware ? name.qualifiedName : nil)
            for prefix in (prefixes.popLast() ?? []).reversed() {
                delegate.parser(parser, didEndMappingPrefix: prefix)
            }
        case .characters(let text):
            delegate.parser(parser, foundCharacters: text)
        case .cdata(let text):
            delegate.parser(parser, foundCDATA: Data(text.utf8))
        case .comment(let text):
            delegate.parser(parser, foundComment: text)
        case .processingInstruction(let target, let data):
            delegate.parser(parser, foundProcessingInstructionWithTarget: target, data: data.isEmpty ? nil : data)
        }
    }

    mutating func skippedEntity(_ name: String, at position: XMLPosition) throws {
        delegate.parser(parser, foundSkippedEntity: name)
    }
}
