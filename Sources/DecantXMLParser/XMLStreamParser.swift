public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A ready-to-run, hardened XML 1.0 (Fifth Edition) + Namespaces parser over one body.
///
/// It is a non-validating processor: it checks every well-formedness constraint, reads the internal subset of the
/// document type declaration (entities, attribute defaults and types, notations) and never fetches or opens anything
/// external (external subsets and external entities are recorded, not read). Limits in ``options`` bound depth, sizes
/// and entity expansion.
///
/// Run it in one of four ways:
/// - ``forEachEvent(_:)``: a closure sees every ``XMLEvent`` and its ``XMLPosition``;
/// - ``events()``: all events in an array;
/// - ``parse(with:)``: an ``XMLHandler`` value consumes the events and returns a result;
/// - ``parse(delegate:)``: an ``XMLStreamDelegate`` receives `XMLParserDelegate`-style callbacks.
///
/// ```swift
/// let parser = XMLStreamParser(data: body, mediaType: response.contentType)
/// try parser.forEachEvent { event, position in
///     if case .startElement(let start) = event { print(start.name.localName, position) }
/// }
/// ```
///
/// The body's encoding comes from its byte order mark, else the `<?` pattern of UTF-16, else the `charset` parameter
/// of ``mediaType``, else the XML declaration, else UTF-8 (XML 1.0 Appendix F, RFC 7303 §3).
///
/// Errors are `SerializationError`s: `invalidBody` for a document that is not well-formed, `invalidEncoding`,
/// `limitExceeded` and `unsupportedFeature`, each with `offset` set and an ``XMLParsingError`` (line, column, offset)
/// as `underlying`.
public struct XMLStreamParser: Sendable {
    /// The body.
    public let data: Data
    /// The media type the body came with; its `charset` is used when the body has no byte order mark (it overrides
    /// the XML declaration's `encoding`, as RFC 7303 §3 says).
    public let mediaType: MediaType?
    /// Limits and namespace handling.
    public var options: XMLParsingOptions

    /// A parser over `data`.
    ///
    /// - Parameters:
    ///   - data: The body, byte order mark included.
    ///   - mediaType: The response's media type, for its `charset` parameter.
    ///   - options: Namespace handling and limits.
    public init(data: Data, mediaType: MediaType? = nil, options: XMLParsingOptions = XMLParsingOptions()) {
        self.data = data
        self.mediaType = mediaType
        self.options = options
    }

    /// Parses the body, calling `body` with every event and where it starts, in document order.
    ///
    /// A reference in content to an external entity (which is never fetched), or to an entity whose declaration was
    /// not read, produces no event here; ``parse(with:)`` and ``parse(delegate:)`` report it.
    ///
    /// - Throws: `SerializationError` (see ``XMLStreamParser``). An error `body` throws stops parsing and is
    ///   rethrown: as it is when it is a `SerializationError`, else wrapped with code `serializerFailed` and the
    ///   error as `underlying`.
    public func forEachEvent(_ body: (XMLEvent, XMLPosition) throws -> Void) throws(SerializationError) {
        do {
            try withoutActuallyEscaping(body) { escapable in
                var sink = ClosureSink(body: escapable)
                try XMLDriver.run(data, mediaType: mediaType, options: options, sink: &sink)
            }
        } catch {
            throw XMLDriver.wrap(error, mediaType: mediaType)
        }
    }

    /// Parses the body and returns every event in document order.
    ///
    /// - Throws: `SerializationError` (see ``XMLStreamParser``).
    public func events() throws(SerializationError) -> [XMLEvent] {
        var sink = ArraySink()
        try XMLDriver.run(data, mediaType: mediaType, options: options, sink: &sink)
        return sink.events
    }

    /// Parses the body, handing every event to `handler`, and returns what its ``XMLHandler/finish()`` returns.
    ///
    /// - Parameter handler: The handler, in its initial state.
    /// - Returns: The handler's output.
    /// - Throws: `SerializationError` (see ``XMLStreamParser``). An error the handler throws is rethrown as it is
    ///   when it is a `SerializationError`, else wrapped with code `serializerFailed` and the handler's error as
    ///   `underlying`.
    public func parse<Handler: XMLHandler>(with handler: Handler) throws(SerializationError) -> Handler.Output {
        var sink = HandlerSink(handler: handler)
        try XMLDriver.run(data, mediaType: mediaType, options: options, sink: &sink)
        do {
            return try sink.handler.finish()
        } catch {
            throw XMLDriver.wrap(error, mediaType: mediaType)
        }
    }

    /// Parses the body, calling `delegate` as Foundation's `XMLParser` calls its `XMLParserDelegate`.
    ///
    /// The delegate receives ``XMLStreamDelegate/parserDidStartDocument(_:)`` first, then one callback per event,
    /// then ``XMLStreamDelegate/parserDidEndDocument(_:)``; on failure it receives
    /// ``XMLStreamDelegate/parser(_:parseErrorOccurred:)`` instead of the end, and the error is thrown.
    ///
    /// - Throws: `SerializationError` (see ``XMLStreamParser``); errors the delegate throws are wrapped as for
    ///   ``parse(with:)``.
    public func parse(delegate: any XMLStreamDelegate) throws(SerializationError) {
        var sink = DelegateSink(parser: self, delegate: delegate)
        do {
            delegate.parserDidStartDocument(self)
            try XMLDriver.run(data, mediaType: mediaType, options: options, sink: &sink)
            delegate.parserDidEndDocument(self)
        } catch {
            let wrapped = XMLDriver.wrap(error, mediaType: mediaType)
            delegate.parser(self, parseErrorOccurred: wrapped)
            throw wrapped
        }
    }
}

/// Forwards events to a closure.
struct ClosureSink: XMLEventSink {
    let body: (XMLEvent, XMLPosition) throws -> Void

    mutating func receive(_ event: XMLEvent, at position: XMLPosition) throws { try body(event, position) }
    mutating func skippedEntity(_ name: String, at position: XMLPosition) throws {}
}

/// Collects events.
struct ArraySink: XMLEventSink {
    var events: [XMLEvent] = []

    mutating func receive(_ event: XMLEvent, at position: XMLPosition) throws { events.append(event) }
    mutating func skippedEntity(_ name: String, at position: XMLPosition) throws {}
}

/// Forwards events to a handler.
struct HandlerSink<Handler: XMLHandler>: XMLEventSink {
    var handler: Handler

    mutating func receive(_ event: XMLEvent, at position: XMLPosition) throws {
        try handler.handle(event, at: position)
    }

    mutating func skippedEntity(_ name: String, at position: XMLPosition) throws {
        try handler.skippedEntity(named: name, at: position)
    }
}
