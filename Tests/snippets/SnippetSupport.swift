// What every documentation snippet may use without declaring it: the Decant modules (the command-line library too),
// Foundation and Swift Testing, and the values
// a snippet that shows one step of a longer program starts from. Compiled as its own module and imported by each
// snippet, so a snippet that declares one of these names itself simply shadows it.
@_exported import Decant
@_exported import DecantCommandLine
@_exported import DecantConformance
@_exported import Foundation
@_exported import Testing

#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif
#if canImport(FoundationXML)
    @_exported import FoundationXML
#endif

/// A response as a snippet receives it.
public let response = Response(
    status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"id": 1, "name": "Ada"}"#.utf8))
/// A body's bytes.
public let body = response.body
/// The same bytes under another name.
public let data = response.body
/// A parsed XML document.
public let tree = try! XMLTree(parsing: Data("<feed><title>T</title><link href='/a'/></feed>".utf8))
/// A model type for `Decodable` examples.
public struct User: Decodable, Sendable {
    /// The id.
    public var id: Int
    /// The name.
    public var name: String
}
/// A URL to fetch.
public let url = URL(string: "https://api.example.com/users/1")!
/// A chain configuration file.
public let configURL = URL(fileURLWithPath: "Fixtures/chains/api.json")

extension SerializerModule {
    /// Stands for a third party's module (the "Implementing a serializer" article builds this one).
    public static var acmeLines: SerializerModule { SerializerModule(name: "AcmeLines", factories: []) }
}
