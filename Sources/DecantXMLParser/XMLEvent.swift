/// One step of an XML document, in document order, as ``XMLStreamParser`` reports it.
///
/// Character data is reported after line-end normalization (XML 1.0 §2.11) and entity expansion; a run of text
/// between two pieces of markup is one ``characters(_:)`` event, so a consumer never has to join pieces. CDATA
/// sections are reported apart, as ``cdata(_:)``, so that a tree can keep them.
public enum XMLEvent: Sendable, Hashable {
    /// The XML declaration (`<?xml version="1.0" ...?>`), reported first, and only when the document has one.
    case xmlDeclaration(XMLDeclaration)
    /// The document type declaration (`<!DOCTYPE ...>`), reported after its internal subset was read.
    case documentType(XMLDocumentType)
    /// A start tag, or an empty-element tag (then followed at once by ``endElement(_:)``).
    case startElement(XMLElementStart)
    /// An end tag, or the end of an empty-element tag.
    case endElement(XMLName)
    /// Character data, with references and entities expanded.
    case characters(String)
    /// The contents of a CDATA section.
    case cdata(String)
    /// The text of a comment, without `<!--` and `-->`.
    case comment(String)
    /// A processing instruction: its target and its data (everything after the whitespace that follows the target;
    /// empty when there is none).
    case processingInstruction(target: String, data: String)
}

/// An element or attribute name, split per Namespaces in XML 1.0 when the parser is namespace-aware.
public struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The name as written, such as `xs:element`.
    public var qualifiedName: String
    /// The prefix, such as `xs`, or `nil` when the name has none (or the parser is not namespace-aware).
    public var prefix: String?
    /// The local part, such as `element`; the whole name when the parser is not namespace-aware.
    public var localName: String
    /// The namespace the prefix (or the default namespace, for elements) is bound to, or `nil` for no namespace.
    public var namespaceURI: String?

    /// A name with the given parts.
    public init(qualifiedName: String, prefix: String? = nil, localName: String? = nil, namespaceURI: String? = nil) {
        self.qualifiedName = qualifiedName
        self.prefix = prefix
        self.localName = localName ?? qualifiedName
        self.namespaceURI = namespaceURI
    }

    /// The qualified name.
    public var description: String { qualifiedName }
}

/// An attribute of a start tag.
public struct XMLAttribute: Sendable, Hashable {
    /// The attribute's name.
    public var name: XMLName
    /// The normalized value (XML 1.0 §3.3.3): references expanded, whitespace characters turned into spaces, and for
    /// attributes the internal subset declares with a type other than CDATA, spaces collapsed and trimmed.
    public var value: String
    /// `false` when the value is a default from an `<!ATTLIST>` declaration rather than written in the tag.
    public var isSpecified: Bool

    /// An attribute with the given name and value.
    public init(name: XMLName, value: String, isSpecified: Bool = true) {
        self.name = name
        self.value = value
        self.isSpecified = isSpecified
    }
}

/// A namespace declaration (`xmlns="..."` or `xmlns:p="..."`) on a start tag.
public struct XMLNamespaceDeclaration: Sendable, Hashable {
    /// The declared prefix, or `nil` for the default namespace.
    public var prefix: String?
    /// The namespace name; empty when a default namespace declaration undeclares the default namespace.
    public var uri: String

    /// A declaration binding `prefix` (or the default namespace when `nil`) to `uri`.
    public init(prefix: String?, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}

/// What a start tag carries.
public struct XMLElementStart: Sendable, Hashable {
    /// The element's name.
    public var name: XMLName
    /// The attributes in the order written, then defaulted ones from the internal subset. When the parser is
    /// namespace-aware, namespace declarations are not attributes: they are in ``namespaceDeclarations``.
    public var attributes: [XMLAttribute]
    /// The namespace declarations made on this tag, in the order written (empty when not namespace-aware).
    public var namespaceDeclarations: [XMLNamespaceDeclaration]
    /// Whether the tag was an empty-element tag (`<a/>`).
    public var isEmptyElementTag: Bool

    /// A start tag with the given parts.
    public init(
        name: XMLName, attributes: [XMLAttribute] = [], namespaceDeclarations: [XMLNamespaceDeclaration] = [],
        isEmptyElementTag: Bool = false
    ) {
        self.name = name
        self.attributes = attributes
        self.namespaceDeclarations = namespaceDeclarations
        self.isEmptyElementTag = isEmptyElementTag
    }
}

/// The XML declaration.
public struct XMLDeclaration: Sendable, Hashable {
    /// The version, such as `1.0`.
    public var version: String
    /// The encoding name as written, if any.
    public var encoding: String?
    /// The standalone document declaration, if any.
    public var standalone: Bool?

    /// A declaration with the given parts.
    public init(version: String, encoding: String? = nil, standalone: Bool? = nil) {
        self.version = version
        self.encoding = encoding
        self.standalone = standalone
    }
}

/// A notation declared in the internal subset (`<!NOTATION name PUBLIC "..." "...">`).
public struct XMLNotation: Sendable, Hashable {
    /// The notation's name.
    public var name: String
    /// Its public identifier, if any.
    public var publicID: String?
    /// Its system identifier, if any.
    public var systemID: String?

    /// A notation with the given parts.
    public init(name: String, publicID: String? = nil, systemID: String? = nil) {
        self.name = name
        self.publicID = publicID
        self.systemID = systemID
    }
}

/// The document type declaration. The external subset is never fetched.
public struct XMLDocumentType: Sendable, Hashable {
    /// The declared root element name.
    public var name: String
    /// The external subset's public identifier, if any.
    public var publicID: String?
    /// The external subset's system identifier, if any (never fetched).
    public var systemID: String?
    /// The internal subset's text as written, without the brackets, or `nil` when there is none.
    public var internalSubset: String?
    /// The notations the internal subset declares, in declaration order.
    public var notations: [XMLNotation]

    /// A document type declaration with the given parts.
    public init(
        name: String, publicID: String? = nil, systemID: String? = nil, internalSubset: String? = nil,
        notations: [XMLNotation] = []
    ) {
        self.name = name
        self.publicID = publicID
        self.systemID = systemID
        self.internalSubset = internalSubset
        self.notations = notations
    }
}

/// Where an event or an error is in the document.
public struct XMLPosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, counted in Unicode scalars.
    public var column: Int
    /// The byte offset into the body.
    public var offset: Int

    /// A position with the given parts.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line L, column C`.
    public var description: String { "line \(line), column \(column)" }
}
