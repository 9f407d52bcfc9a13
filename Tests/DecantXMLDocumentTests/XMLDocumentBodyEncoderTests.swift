import DecantCore
import DecantJSON
import DecantTestSupport
import DecantXMLParser
import Foundation
import Testing

@testable import DecantXMLDocument

/// Writing XML bodies: `XMLDocumentBodyEncoder` and the `{"c14n": TEXT}` initializer. Expected canonical forms come
/// from libxml2 (`C14N/c14n_expected.json`, through the reading tests) and Python's `xml.etree.ElementTree`, never
/// from the writer itself.
@Suite struct XMLDocumentBodyEncoderTests {
    /// A document to write: a name and its bytes.
    struct Document: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: Data
        var mediaType: MediaType?
        var testDescription: String { name }
    }

    static let registry = SerializerRegistry().installing(.xmlDocument)

    /// The handwritten Canonical XML inputs and the bodies of the xmlDocument fixtures that parse.
    static let documents: [Document] = {
        var documents = (CanonicalXMLTests.expectations?.handwritten ?? []).map {
            Document(name: "c14n/" + $0.name, bytes: Data($0.input.utf8))
        }
        // The fixtures' bodies: the bytes after the header's blank line (none of them is chunked or compressed).
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/xmlDocument")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for file in files.sorted(by: { $0.path < $1.path }) where file.pathExtension == "http" {
            guard let raw = try? Data(contentsOf: file), let end = raw.firstRange(of: Data("\r\n\r\n".utf8)) else {
                continue
            }
            let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
            let contentType = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-type:") }
                .flatMap { MediaType(String($0.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces)) }
            let body = Data(raw[end.upperBound...])
            guard (try? XMLTree(parsing: body, mediaType: contentType)) != nil else { continue }
            documents.append(
                Document(
                    name: "xmlDocument/" + file.deletingPathExtension().lastPathComponent, bytes: body,
                    mediaType: contentType))
        }
        return documents
    }()

    /// The W3C XML conformance suite documents whose canonical form libxml2 agrees on with Decant (the list
    /// `CanonicalXMLTests` checks), when ../shared/corpora is there.
    static let corpusDocuments: [Document] = {
        guard Corpora.isAvailable, let expectations = CanonicalXMLTests.expectations else { return [] }
        return expectations.corpus.compactMap { testCase in
            guard let url = Corpora.url("xml/xmlconf/xmlconf/" + testCase.uri), let bytes = try? Data(contentsOf: url)
            else { return nil }
            return Document(name: testCase.id, bytes: bytes)
        }
    }()

    /// Writes `document`'s tree as `mediaType` and reads the body back as a client would.
    static func roundTrip(
        _ document: Document, as mediaType: MediaType = "application/xml"
    ) throws -> (original: XMLTree, body: EncodedBody, again: XMLTree) {
        let original = try XMLTree(parsing: document.bytes, mediaType: document.mediaType)
        let body = try registry.encode(original, as: mediaType)
        let again = try #require(try registry.serialize(body.response()).value as? XMLTree)
        return (original, body, again)
    }

    @Test func documentsAreThere() {
        #expect(Self.documents.count >= 50, "the handwritten C14N inputs and the xmlDocument fixtures")
    }

    @Test(arguments: documents)
    func writtenDocumentsReadBackToTheSameCanonicalXML(_ document: Document) throws {
        let (original, body, again) = try Self.roundTrip(document)
        #expect(body.contentType.description == "application/xml;charset=utf-8")
        #expect(body.serializerID == "xmlDocument")
        #expect(body.body.starts(with: Data("<?xml version=\"".utf8)))
        #expect(String(decoding: body.body.prefix(60), as: UTF8.self).contains("encoding=\"UTF-8\""))
        #expect(again.canonicalXML() == original.canonicalXML())
        #expect(again.root == original.root)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func theConformanceSuiteReadsBackToTheSameCanonicalXML() throws {
        #expect(Self.corpusDocuments.count >= 700)
        var failures: [String] = []
        for document in Self.corpusDocuments {
            do {
                let (original, _, again) = try Self.roundTrip(document)
                if again.canonicalXML() != original.canonicalXML() { failures.append(document.name) }
            } catch {
                failures.append("\(document.name): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) documents: \(failures.prefix(10))")
    }

    // MARK: Python reads what is written

    /// Canonicalizes every `*.xml` file of a folder with `xml.etree.ElementTree.canonicalize` (C14N 2.0, without
    /// comments) and checks each parses with `xml.dom.minidom` too; prints `{name: c14n or null}`.
    static let canonicalizeScript = """
        import json, os, sys
        import xml.dom.minidom
        import xml.etree.ElementTree as ET
        out = {}
        folder = sys.argv[1]
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            try:
                with open(path, 'rb') as f:
                    xml.dom.minidom.parse(f)
                out[name] = ET.canonicalize(from_file=path, with_comments=False)
            except Exception:
                out[name] = None
        print(json.dumps(out))
        """

    /// Python's canonical form of each body, by file name (`nil` where it does not parse).
    static func pythonCanonicalForms(_ bodies: [String: Data]) throws -> [String: String?] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decant-xml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, body) in bodies { try body.write(to: folder.appendingPathComponent(name)) }
        let output = try Python.run(canonicalizeScript, [folder.path])
        let parsed = try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:]
        return parsed.mapValues { $0 as? String }
    }

    /// Python canonicalizes each written body as it canonicalizes the original: the same document for an independent
    /// parser. Where Python's C14N 2.0 and Decant's Canonical XML 1.0 of the original agree (every document without
    /// unused namespace declarations or DTD defaults), the written body's is Decant's too.
    func pythonReadsWhatIsWritten(
        _ documents: [Document], as mediaType: MediaType
    ) throws -> (checked: Int, sameAsDecant: Int) {
        var bodies: [String: Data] = [:]
        var decant: [String: String] = [:]
        for (index, document) in documents.enumerated() {
            let (original, body, _) = try Self.roundTrip(document, as: mediaType)
            bodies["\(index).original.xml"] = document.bytes
            bodies["\(index).written.xml"] = body.body
            decant["\(index)"] = original.canonicalXML()
        }
        let python = try Self.pythonCanonicalForms(bodies)
        var checked = 0
        var sameAsDecant = 0
        for (index, document) in documents.enumerated() {
            guard case .some(.some(let expected)) = python["\(index).original.xml"] else { continue }
            let written = python["\(index).written.xml"] ?? nil
            #expect(written == expected, "\(document.name): Python reads the written body differently")
            checked += 1
            if expected == decant["\(index)"] {
                sameAsDecant += 1
                #expect(written == decant["\(index)"], "\(document.name)")
            }
        }
        return (checked, sameAsDecant)
    }

    @Test(.enabled(if: Python.isAvailable, "needs python3"))
    func pythonReadsTheWrittenDocuments() throws {
        let (checked, sameAsDecant) = try pythonReadsWhatIsWritten(Self.documents, as: "application/xml")
        #expect(checked >= 40)
        #expect(sameAsDecant >= 40, "\(sameAsDecant)")
    }

    @Test(.enabled(if: Python.isAvailable, "needs python3"))
    func pythonReadsTheWrittenDocumentsInUTF16() throws {
        let (checked, _) = try pythonReadsWhatIsWritten(Self.documents, as: "text/xml;charset=utf-16")
        #expect(checked >= 40)
    }

    @Test(.enabled(if: Python.isAvailable && Corpora.isAvailable, "needs python3 and ../shared/corpora"))
    func pythonReadsTheWrittenConformanceSuite() throws {
        let (checked, sameAsDecant) = try pythonReadsWhatIsWritten(Self.corpusDocuments, as: "application/xml")
        // expat (under minidom and ElementTree) reads 437 of the 750 originals; those are compared.
        #expect(checked >= 430)
        #expect(sameAsDecant >= 400, "\(sameAsDecant)")
    }

    // MARK: Charsets and media types

    @Test(arguments: [
        ("utf-8", "utf-8", "utf-8", 0), ("UTF8", "utf-8", "utf-8", 0), ("utf-16", "utf-16le", "utf-16", 2),
        ("utf-16le", "utf-16le", "utf-16", 2), ("utf-16be", "utf-16be", "utf-16", 2),
    ])
    func writesTheCharsetAsked(label: String, written: String, pythonCodec: String, bomLength: Int) throws {
        let tree = try XMLTree(parsing: Data("<a b=\"ü\">日本 &amp; 😀</a>".utf8))
        let body = try Self.registry.encode(tree, as: MediaType("text/xml;charset=\(label)")!)
        #expect(body.contentType.charset == written)
        let declaration = written == "utf-8" ? "UTF-8" : "UTF-16"
        let expected = "<?xml version=\"1.0\" encoding=\"\(declaration)\"?>\n<a b=\"ü\">日本 &amp; 😀</a>"
        // Python's codecs decode the bytes (its utf-16 codec reads and drops the byte order mark).
        if Python.isAvailable {
            let script =
                "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read().decode('\(pythonCodec)')"
                + ".encode('utf-8'))"
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-\(UUID().uuidString)")
            try body.body.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let decoded = try Python.run(script, [file.path])
            #expect(String(decoding: decoded, as: UTF8.self) == expected)
        }
        #expect(body.body.count > bomLength)
        if bomLength == 2 {
            #expect(
                written == "utf-16be" ? body.body.starts(with: [0xFE, 0xFF]) : body.body.starts(with: [0xFF, 0xFE]))
        }
        let again = try #require(try Self.registry.serialize(body.response()).value as? XMLTree)
        #expect(again.root == tree.root)
    }

    @Test(arguments: ["iso-8859-1", "windows-1252", "shift_jis", "no-such-charset"])
    func refusesOtherCharsetsNamingTheSupportedOnes(label: String) throws {
        let tree = try XMLTree(parsing: Data("<a/>".utf8))
        let error = try #require(throws: SerializationError.self) {
            try Self.registry.encode(tree, as: MediaType("application/xml;charset=\(label)")!)
        }
        #expect(error.code == .encodingFailed)
        #expect(error.message.contains(label))
        #expect(error.message.contains("utf-8, utf-16, utf-16le, utf-16be"))
    }

    @Test(arguments: ["application/xml", "text/xml", "image/svg+xml", "application/atom+xml"])
    func writesEveryXMLType(_ type: String) throws {
        let tree = try XMLTree(parsing: Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        let body = try Self.registry.encode(tree, as: MediaType(type)!)
        #expect(body.contentType == MediaType(type)!.settingParameter("charset", to: "utf-8"))
    }

    @Test func keepsTheVersionAndStandaloneDeclaration() throws {
        let tree = try XMLTree(parsing: Data("<?xml version='1.0' encoding='ISO-8859-1' standalone='yes'?><a/>".utf8))
        let body = try Self.registry.encode(tree, as: "application/xml")
        #expect(
            String(decoding: body.body, as: UTF8.self)
                == "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<a/>")
    }

    @Test func theStreamingParserWritesNothing() throws {
        #expect(Self.registry.entry(for: "xmlParser")?.bodyEncoder == nil)
        #expect(Self.registry.entry(for: "xmlDocument")?.bodyEncoder?.id == "xmlDocument")
        let tree = try XMLTree(parsing: Data("<a/>".utf8))
        let negotiation = Self.registry.negotiate(tree, accepting: AcceptHeader(parsing: "text/xml"))
        #expect(negotiation.chosen?.id == "xmlDocument")
        #expect(!XMLDocumentBodyEncoder().canEncode(JSONValue.object([])))
        #expect(!XMLDocumentBodyEncoder().canEncode("<a/>"))
    }

    // MARK: Trees XML cannot carry

    @Test(
        arguments: [
            ([Events.start("a"), .characters("x\u{1}y"), Events.end("a")], ["a", "#text"], "U+0001"),
            ([Events.start("a", attributes: [("v", nil, "\u{FFFE}")]), Events.end("a")], ["a", "@v"], "U+FFFE"),
            ([Events.start("a b"), Events.end("a b")], ["a b"], "not an XML name"),
            ([Events.start("a"), .comment("x--y"), Events.end("a")], ["a", "#comment"], "--"),
            ([Events.start("a"), .comment("x-"), Events.end("a")], ["a", "#comment"], "--"),
            (
                [
                    Events.start("a"), Events.start("b"), .processingInstruction(target: "p", data: "?>"),
                    Events.end("b"),
                    Events.end("a"),
                ], ["a", "b", "#processing-instruction"], "?>"
            ),
            (
                [Events.start("a"), .processingInstruction(target: "XML", data: ""), Events.end("a")],
                ["a", "#processing-instruction"], "xml"
            ),
            ([Events.start("a"), .cdata("\u{0}"), Events.end("a")], ["a", "#cdata"], "U+0000"),
        ] as [([XMLEvent], [String], String)])
    func refusesWhatXMLCannotCarry(events: [XMLEvent], path: [String], says: String) throws {
        let tree = try XMLTree(events: events)
        let error = try #require(throws: SerializationError.self) {
            try Self.registry.encode(tree, as: "application/xml")
        }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == path)
        #expect(error.message.contains(says))
    }

    // MARK: Hostile depth

    @Test func aTreeAsDeepAsTheParserAllowsWritesAndReadsBack() throws {
        let depth = XMLParsingOptions.defaultMaxDepth
        let text = String(repeating: "<d>", count: depth) + "x" + String(repeating: "</d>", count: depth)
        let (original, body, again) = try Self.roundTrip(Document(name: "deep", bytes: Data(text.utf8)))
        #expect(body.body.count == 39 + text.utf8.count)
        #expect(again.root == original.root)
    }

    @Test func aMuchDeeperTreeBuiltFromEventsWritesWithoutRecursion() throws {
        let depth = 200_000
        let events = Array(repeating: Events.start("d"), count: depth) + Array(repeating: Events.end("d"), count: depth)
        let tree = try XMLTree(events: events)
        let body = try XMLDocumentBodyEncoder().encode(tree, as: "application/xml", options: EncodingOptions())
        let expected = String(repeating: "<d>", count: depth - 1) + "<d/>" + String(repeating: "</d>", count: depth - 1)
        #expect(body.body == Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + expected).utf8))
    }

    // MARK: The canonical form, inverted

    @Test(arguments: documents)
    func theCanonicalFormBuildsATreeWithTheSameCanonicalForm(_ document: Document) throws {
        let tree = try XMLTree(parsing: document.bytes, mediaType: document.mediaType)
        let form = try tree.conformanceValue()
        let built = try XMLTree(conformanceValue: form)
        #expect(try built.conformanceValue() == form)
    }

    @Test(arguments: [
        JSONValue.object([]), .object([("c14n", 5)]), .object([("c14n", "<a/>"), ("x", 1)]), .array([]),
    ])
    func refusesWhatIsNotTheCanonicalForm(_ form: JSONValue) {
        #expect {
            try XMLTree(conformanceValue: form)
        } throws: { ($0 as? SerializationError)?.code == .unsupportedValue }
    }

    @Test func refusesCanonicalTextThatIsNotXML() {
        #expect {
            try XMLTree(conformanceValue: .object([("c14n", "<a>")]))
        } throws: {
            ($0 as? SerializationError)?.code == .invalidBody
                && ($0 as? SerializationError)?.message.contains("c14n") == true
        }
    }
}
