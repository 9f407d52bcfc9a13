import DecantCore
public import DecantJSON
public import Foundation

/// One writing case (`<case>.encode.json`): a value in its canonical form, the media type asked for (or an `Accept`
/// header), and the exact body and `Content-Type` that must be written, or the error.
///
/// ```json
/// {
///   "description": "preferred serialization: 1.5 is a half-precision float",
///   "value": {"$float": 1.5},                  // the canonical form, as `decant decode --json` prints it
///   "as": "application/cbor",                  // the media type to write; or
///   "accept": "application/msgpack;q=0.5, application/cbor",  // negotiate it
///   "serializer": "cbor",                      // with "as": only this format writes (default: the first that can)
///   "readBack": true,                          // also read the expected body back to "value" (default true)
///   "expect": {"serializer": "cbor", "contentType": "application/cbor", "body": {"hex": "f93e00"}}
///   // "body" is {"hex": ...}, {"base64": ...} or {"text": ...} (UTF-8); or:
///   // "expect": {"error": {"code": "notAcceptable", "messageContains": "application/cbor"}}
/// }
/// ```
///
/// The expected bytes come from an independent writer (Python's `json`, `plistlib`, `cbor2`, `msgpack`, `codecs`,
/// `urllib.parse`), so a format that writes deterministically is held to bytes, not only to the round trip.
public struct EncodingFixture: Sendable, CustomStringConvertible {
    /// The folder below the fixture root, such as `cbor`.
    public let area: String
    /// The case name, the file name without `.encode.json`.
    public let name: String
    /// The parsed document.
    public let document: JSONValue
    /// Where the `.encode.json` file is.
    public let url: URL

    /// Creates a fixture from its parts.
    public init(area: String, name: String, document: JSONValue, url: URL) {
        self.area = area
        self.name = name
        self.document = document
        self.url = url
    }

    /// `area/name (encode)`.
    public var description: String { (area.isEmpty ? name : area + "/" + name) + " (encode)" }

    /// The keys the document may have, and those of its `"expect"`, `"expect"."body"` and `"expect"."error"`.
    static let keys = ["description", "value", "as", "accept", "serializer", "readBack", "expect"]
    static let expectKeys = ["serializer", "contentType", "body", "error"]
    static let bodyKeys = ["hex", "base64", "text"]
    static let errorKeys = ["code", "messageContains"]
}

extension FixtureLoader {
    /// Every writing case below `directory` (each `<case>.encode.json`), sorted by path.
    ///
    /// - Throws: ``ConformanceFailure`` naming the file when it is not valid JSON.
    public static func encodingFixtures(in directory: URL) throws -> [EncodingFixture] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw ConformanceFailure("Cannot read the fixture folder \(directory.path).")
        }
        var files: [URL] = []
        for case let url as URL in enumerator where url.lastPathComponent.hasSuffix(".encode.json") {
            files.append(url)
        }
        files.sort { $0.path < $1.path }
        let rootComponents = directory.standardizedFileURL.pathComponents
        return try files.map { url in
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw ConformanceFailure("Cannot read \(url.path).")
            }
            let document: JSONValue
            do throws(SerializationError) {
                document = try JSONParser().parse(data)
            } catch {
                throw ConformanceFailure("\(url.path) is not valid JSON: \(error.message)")
            }
            let components = url.standardizedFileURL.deletingLastPathComponent().pathComponents
            let area = components.dropFirst(rootComponents.count).joined(separator: "/")
            let name = String(url.lastPathComponent.dropLast(".encode.json".count))
            return EncodingFixture(area: area, name: name, document: document, url: url)
        }
    }
}

extension ConformanceRunner {
    /// Runs every writing case and returns the report.
    public func run(writing fixtures: [EncodingFixture]) -> ConformanceReport {
        ConformanceReport(results: fixtures.map { run(writing: $0) })
    }

    /// Runs every writing case and throws when any failed or when `fixtures` is empty.
    ///
    /// - Returns: The report, all passed.
    /// - Throws: ``ConformanceFailure`` listing every failed result with its reason.
    @discardableResult
    public func check(writing fixtures: [EncodingFixture]) throws(ConformanceFailure) -> ConformanceReport {
        let report = run(writing: fixtures)
        try report.requireAllPassed()
        return report
    }

    /// Runs one writing case: the value is built from its canonical form and written by the registry as
    /// `registry.encode(canonicalForm:as:serializer:)` (or `accepting:`) does; the body, its `Content-Type` and the
    /// format must be those expected; then the expected body is read back by the format that wrote it, and its
    /// canonical form must be the fixture's value (unless `"readBack": false`).
    public func run(writing fixture: EncodingFixture) -> ConformanceResult {
        let failure: String?
        do {
            failure = try encodingFailure(fixture)
        } catch {
            failure = "\(error)"
        }
        return ConformanceResult(
            fixture: fixture.description, perturbation: nil, module: moduleName(for: fixture), failure: failure)
    }

    private func encodingFailure(_ fixture: EncodingFixture) throws -> String? {
        let document = fixture.document
        try ExpectationSchema.checkKeys(of: document, at: nil, allowed: EncodingFixture.keys)
        guard let expect = document["expect"], expect.kind == .object else {
            throw ConformanceFailure("The document has no \"expect\" object.")
        }
        try ExpectationSchema.checkKeys(of: expect, at: "expect", allowed: EncodingFixture.expectKeys)
        guard let form = document["value"] else { throw ConformanceFailure("The document has no \"value\".") }
        let written: CanonicalFormEncoding
        do {
            if let accept = document["accept"]?.stringValue {
                if document["as"] != nil || document["serializer"] != nil {
                    throw ConformanceFailure("\"accept\" negotiates the format: leave out \"as\" and \"serializer\".")
                }
                written = try registry.encode(canonicalForm: form, accepting: AcceptHeader(parsing: accept))
            } else if let text = document["as"]?.stringValue {
                let mediaType: MediaType
                do {
                    mediaType = try MediaType(parsing: text)
                } catch {
                    throw ConformanceFailure("\"as\": \"\(text)\" is no media type: \(error)")
                }
                let serializer = try document["serializer"]?.stringValue.map(Self.serializerID)
                written = try registry.encode(canonicalForm: form, as: mediaType, serializer: serializer)
            } else {
                throw ConformanceFailure("The document needs \"as\" (a media type) or \"accept\" (an Accept header).")
            }
        } catch let error as SerializationError {
            guard let expected = expect["error"] else {
                return "expected a body, but got \(Self.cap(error.description))"
            }
            try ExpectationSchema.checkKeys(of: expected, at: "expect.error", allowed: EncodingFixture.errorKeys)
            if let code = expected["code"]?.stringValue, code != error.code.rawValue {
                return "expected the error code \(code), got \(error.code): \(Self.cap(error.message))"
            }
            if let fragment = expected["messageContains"]?.stringValue, !error.message.contains(fragment) {
                return "expected the message to contain \"\(fragment)\", got \"\(Self.cap(error.message))\""
            }
            return nil
        }
        let body = written.body
        if expect["error"] != nil {
            return "expected an error, but '\(body.serializerID)' wrote \(body.body.count) bytes as \(body.contentType)"
        }
        if let id = expect["serializer"]?.stringValue, id != body.serializerID.rawValue {
            return "expected the format '\(id)' to write, but '\(body.serializerID)' wrote it"
        }
        if let contentType = expect["contentType"]?.stringValue, contentType != body.contentType.description {
            return "expected the Content-Type \(contentType), got \(body.contentType)"
        }
        guard let expectedBody = expect["body"] else {
            throw ConformanceFailure("\"expect\" has neither \"body\" nor \"error\".")
        }
        let bytes = try Self.bytes(of: expectedBody)
        if bytes != body.body {
            return "the body differs " + Self.byteDifference(expected: bytes, actual: body.body)
        }
        guard document["readBack"]?.boolValue ?? true else { return nil }
        let again: any Sendable
        do {
            again = try registry.serializer(id: body.serializerID).serialize(body.response())
        } catch {
            return "'\(body.serializerID)' could not read back the expected body: \(Self.cap("\(error)"))"
        }
        let actual = try CanonicalForm.of(again)
        if actual != form { return "reading the body back changed the value " + Self.difference(form, actual) }
        return nil
    }

    private static func bytes(of body: JSONValue) throws -> Data {
        try ExpectationSchema.checkKeys(of: body, at: "expect.body", allowed: EncodingFixture.bodyKeys)
        guard body.objectEntries?.count == 1 else {
            throw ConformanceFailure("\"expect.body\" must have exactly one of \"hex\", \"base64\" and \"text\".")
        }
        if let text = body["text"]?.stringValue { return Data(text.utf8) }
        if let text = body["base64"]?.stringValue, let data = Data(base64Encoded: text) { return data }
        if let text = body["hex"]?.stringValue {
            let digits = Array(text.utf8).filter { $0 != UInt8(ascii: " ") }
            var data = Data(capacity: digits.count / 2)
            var index = 0
            while index + 1 < digits.count {
                guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { break }
                data.append(high << 4 | low)
                index += 2
            }
            if index == digits.count { return data }
        }
        throw ConformanceFailure("\"expect.body\" is not valid: \(body)")
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Where two bodies first differ, with a few bytes of each from there in hex.
    private static func byteDifference(expected: Data, actual: Data) -> String {
        let common = min(expected.count, actual.count)
        let first =
            (0..<common).first { expected[expected.startIndex + $0] != actual[actual.startIndex + $0] } ?? common
        func hex(_ data: Data) -> String {
            let slice = data.dropFirst(first).prefix(16)
            if slice.isEmpty { return "(end)" }
            return slice.map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
        }
        return "at byte \(first) (expected \(expected.count) bytes, got \(actual.count)): expected \(hex(expected)), "
            + "got \(hex(actual))"
    }

    private func moduleName(for fixture: EncodingFixture) -> String {
        let id = fixture.document["expect"]?["serializer"]?.stringValue ?? fixture.document["serializer"]?.stringValue
        let area = fixture.area.split(separator: "/").first.map(String.init) ?? "fixtures"
        for candidate in [id, area].compactMap({ $0 }) {
            if let serializerID = SerializerID(rawValue: candidate), let entry = registry.entry(for: serializerID) {
                return entry.moduleName
            }
        }
        return area
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
