/// A consumer of parser events that produces a result: the handler-driven way to run ``XMLStreamParser``.
///
/// The parser calls ``handle(_:at:)`` with every event in document order, then ``finish()`` once the document ended
/// well-formed. A handler is a value; it is copied into the parse and its state is discarded after ``finish()``.
///
/// ```swift
/// struct TitleCollector: XMLHandler {
///     var titles: [String] = []
///     var inTitle = false
///     mutating func handle(_ event: XMLEvent, at position: XMLPosition) throws {
///         switch event {
///         case .startElement(let start) where start.name.localName == "title": inTitle = true; titles.append("")
///         case .endElement(let name) where name.localName == "title": inTitle = false
///         case .characters(let text) where inTitle: titles[titles.count - 1] += text
///         default: break
///         }
///     }
///     mutating func finish() throws -> [String] { titles }
/// }
/// let titles = try XMLStreamParser(data: body).parse(with: TitleCollector())
/// ```
public protocol XMLHandler {
    /// What the handler produces.
    associatedtype Output: Sendable

    /// Receives one event and where it starts. Throwing stops parsing.
    mutating func handle(_ event: XMLEvent, at position: XMLPosition) throws

    /// Receives a reference in content to an entity that is not expanded: an external parsed entity (never fetched)
    /// or one whose declaration was not read (XML 1.0 §4.4.3, §5.1). Defaults to doing nothing.
    mutating func skippedEntity(named name: String, at position: XMLPosition) throws

    /// Returns the result after the last event.
    mutating func finish() throws -> Output
}

extension XMLHandler {
    /// Does nothing.
    public mutating func skippedEntity(named name: String, at position: XMLPosition) throws {}
}
