import DecantXMLDocument
import DecantXMLParser

/// Short spellings of parser events for tests that build trees without the parser.
enum Events {
    /// A name; `prefix:local` is split, and bound to `uri` when given.
    static func name(_ qualifiedName: String, _ uri: String? = nil) -> XMLName {
        let parts = qualifiedName.split(separator: ":", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            return XMLName(qualifiedName: qualifiedName, prefix: parts[0], localName: parts[1], namespaceURI: uri)
        }
        return XMLName(qualifiedName: qualifiedName, localName: qualifiedName, namespaceURI: uri)
    }

    static func start(
        _ qualifiedName: String, _ uri: String? = nil, attributes: [(String, String?, String)] = [],
        namespaces: [(String?, String)] = [], defaulted: Set<String> = []
    ) -> XMLEvent {
        .startElement(
            XMLElementStart(
                name: name(qualifiedName, uri),
                attributes: attributes.map {
                    XMLAttribute(name: name($0.0, $0.1), value: $0.2, isSpecified: !defaulted.contains($0.0))
                },
                namespaceDeclarations: namespaces.map { XMLNamespaceDeclaration(prefix: $0.0, uri: $0.1) }))
    }

    static func end(_ qualifiedName: String, _ uri: String? = nil) -> XMLEvent {
        .endElement(name(qualifiedName, uri))
    }

    /// `<name>text</name>` as three events.
    static func leaf(_ qualifiedName: String, _ text: String, _ uri: String? = nil) -> [XMLEvent] {
        [start(qualifiedName, uri), .characters(text), end(qualifiedName, uri)]
    }
}

/// A small feed used by several suites, built from events (no parser):
///
/// ```xml
/// <?xml version="1.0"?>
/// <!--top--><?style href="a.css"?>
/// <feed xmlns="urn:feed" xmlns:x="urn:x" version="2">
///   <entry id="1" x:kind="news"><title>One</title><link href="/1"/></entry>
///   <entry id="2"><title>Two &amp; <![CDATA[<b>]]></title><x:note>n</x:note></entry>
///   <entry><title>Three</title><sub xmlns=""><entry id="nested"/></sub></entry>
/// </feed>
/// <?after?>
/// ```
enum Feed {
    static let feedNS = "urn:feed"
    static let xNS = "urn:x"

    static var events: [XMLEvent] {
        var events: [XMLEvent] = [
            .xmlDeclaration(XMLDeclaration(version: "1.0")),
            .comment("top"),
            .processingInstruction(target: "style", data: "href=\"a.css\""),
            Events.start(
                "feed", feedNS, attributes: [("version", nil, "2")], namespaces: [(nil, feedNS), ("x", xNS)]),
            .characters("\n  "),
            Events.start("entry", feedNS, attributes: [("id", nil, "1"), ("x:kind", xNS, "news")]),
        ]
        events += Events.leaf("title", "One", feedNS)
        events += [Events.start("link", feedNS, attributes: [("href", nil, "/1")]), Events.end("link", feedNS)]
        events += [Events.end("entry", feedNS), .characters("\n  ")]
        events += [Events.start("entry", feedNS, attributes: [("id", nil, "2")]), Events.start("title", feedNS)]
        events += [.characters("Two "), .characters("& "), .cdata("<b>"), Events.end("title", feedNS)]
        events += Events.leaf("x:note", "n", xNS)
        events += [Events.end("entry", feedNS), .characters("\n  "), Events.start("entry", feedNS)]
        events += Events.leaf("title", "Three", feedNS)
        events += [
            Events.start("sub", nil, namespaces: [(nil, "")]),
            Events.start("entry", nil, attributes: [("id", nil, "nested")]), Events.end("entry"), Events.end("sub"),
        ]
        events += [Events.end("entry", feedNS), .characters("\n"), Events.end("feed", feedNS)]
        events += [.processingInstruction(target: "after", data: "")]
        return events
    }

    static func tree() throws -> XMLTree { try XMLTree(events: events) }
}
