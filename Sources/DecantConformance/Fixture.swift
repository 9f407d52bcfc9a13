import DecantCore
public import DecantJSON
public import Foundation

/// One conformance case: a raw HTTP response (`<case>.http`) and what must come of it (`<case>.expect.json`).
///
/// The expectation document:
///
/// ```json
/// {
///   "description": "problem+json resolves to the JSON serializer",
///   "serializer": "json",                      // one serializer id; or
///   "serializers": ["json", "string"],          // a compound tried in order; or
///   "config": "../chains/api.json", "chain": "api", // a chain from a configuration file, relative to this
///                                               // file's folder; or none of these: the registry resolves
///   "options": {"maxDepth": 4},                 // options of "serializer" (with two or more "serializers": per
///                                               // id, {"json": {...}}); an error without either
///   "request": {"method": "HEAD", "url": "https://example.com/a@2x.png"},
///   "sniffing": "sniffWhenGeneric",             // trustHeader (default), sniffWhenMissing, sniffWhenGeneric
///   "triesNonMatching": false,                  // compound: also try serializers whose ranges do not match
///   "acceptableStatusCodes": [200, "300-399"],  // default 200-299
///   "emptyBody": "emptyValue",                  // emptyValue (default), emptyValueOnlyForNoContent, error
///   "perturb": true,                            // also run the perturbed copies (default true)
///   "roundTrip": true,                          // also write the value and read it back (default true)
///   "expect": {"serializer": "json", "value": {"title": "Not Found"}}
///   // or: "expect": {"error": {"code": "allSerializersFailed",
///   //                          "attempts": [{"serializer": "json", "code": "invalidBody"}],
///   //                          "errorValue": {...}, "messageContains": "..."}}
/// }
/// ```
///
/// A key the document may not have there (such as a misspelt `"vlaue"`) fails the fixture with a message naming it
/// and the nearest allowed key, as do `"options"` that no serializer would read.
public struct Fixture: Sendable, CustomStringConvertible {
    /// The folder below the fixture root, such as `json`.
    public let area: String
    /// The case name, the file name without `.http`.
    public let name: String
    /// The raw HTTP message.
    public let raw: Data
    /// The parsed expectation document.
    public let expectation: JSONValue
    /// Where the `.http` file is.
    public let url: URL
    /// The fixture root folder (`Fixtures/`) the fixture was loaded from, when it was loaded by ``FixtureLoader``.
    public let root: URL?

    /// Creates a fixture from its parts.
    public init(area: String, name: String, raw: Data, expectation: JSONValue, url: URL, root: URL? = nil) {
        self.area = area
        self.name = name
        self.raw = raw
        self.expectation = expectation
        self.url = url
        self.root = root
    }

    /// `area/name`.
    public var description: String { area.isEmpty ? name : area + "/" + name }

    /// Where the `"config"` path `path` points: relative to the folder of the fixture's own file (``url``), so that
    /// a case resolves the same file whatever folder a run starts from; an absolute path is taken as it is.
    public func configurationURL(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
    }
}

/// A failure of the fixture machinery itself (not of a serializer): a bad expectation document, an output without
/// a canonical form.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    /// Creates a failure.
    public init(_ description: String) { self.description = description }
}

/// Finds and loads fixtures.
public enum FixtureLoader {
    /// The nearest `Fixtures` folder at or above the directory of `filePath`: pass `#filePath` from a test file so a
    /// third party's tests find their own package's fixtures.
    public static func fixturesDirectory(from filePath: String = #filePath) -> URL? {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let candidate = directory.appendingPathComponent("Fixtures")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue
            {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// Every fixture below `directory` (each `.http` file with a sibling `.expect.json`), sorted by path.
    ///
    /// - Throws: ``ConformanceFailure`` naming the file when an expectation is missing or is not valid JSON.
    public static func fixtures(in directory: URL) throws -> [Fixture] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw ConformanceFailure("Cannot read the fixture folder \(directory.path).")
        }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "http" { files.append(url) }
        files.sort { $0.path < $1.path }
        let rootComponents = directory.standardizedFileURL.pathComponents
        return try files.map { url in
            let expectURL = url.deletingPathExtension().appendingPathExtension("expect.json")
            guard let raw = FileManager.default.contents(atPath: url.path) else {
                throw ConformanceFailure("Cannot read \(url.path).")
            }
            guard let expectData = FileManager.default.contents(atPath: expectURL.path) else {
                throw ConformanceFailure(
                    "\(url.path) has no expectation: add \(expectURL.lastPathComponent) beside it.")
            }
            let expectation: JSONValue
            do throws(SerializationError) {
                expectation = try JSONParser().parse(expectData)
            } catch {
                throw ConformanceFailure("\(expectURL.path) is not valid JSON: \(error.message)")
            }
            let components = url.standardizedFileURL.deletingLastPathComponent().pathComponents
            let area = components.dropFirst(rootComponents.count).joined(separator: "/")
            return Fixture(
                area: area, name: url.deletingPathExtension().lastPathComponent, raw: raw, expectation: expectation,
                url: url, root: directory)
        }
    }
}
