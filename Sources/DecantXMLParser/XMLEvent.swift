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
