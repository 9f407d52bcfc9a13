import Decant
import DecantCommandLine
import Foundation
import Testing

/// `DecantTool` as a library: a third party's tool runs the commands against its own registry, `--no-plugins` selects
/// the registry without plugins, and `capture` returns what a run printed.
@Suite struct DecantToolLibraryTests {
    /// A format the standard registry does not know: `application/x-shout`, decoded to the body upper-cased.
    struct ShoutSerializer: ResponseSerializer {
        var mediaRanges: [MediaRange] { [MediaRange(.exact(type: "application", subtype: "x-shout"))] }
        var id: SerializerID { "test.shout" }

        func serialize(_ response: Response) throws(SerializationError) -> String {
            String(decoding: response.body, as: UTF8.self).uppercased()
        }
    }

    struct ShoutFactory: SerializerFactory {
        var format: MediaFormat {
            MediaFormat(
                id: "test.shout", mediaRanges: [MediaRange(.exact(type: "application", subtype: "x-shout"))],
                summary: "Upper-cases application/x-shout bodies.")
        }
        var optionSchema: [SerializerOption] { [] }
        var defaultOptions: Bool { true }
        func options(from configuration: ConfigurationOptions) throws -> Bool { true }
        func makeSerializer(options: Bool) -> ShoutSerializer { ShoutSerializer() }
    }

    static let shoutModule = SerializerModule(name: "Shout", factories: [ShoutFactory()])

    static func temporaryFile(_ contents: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decant-tool-\(UUID().uuidString)")
        try Data(contents.utf8).write(to: url)
        return url.path
    }

    @Test func aThirdPartyRegistryDecodesItsOwnFormat() throws {
        let path = try Self.temporaryFile("hello")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = ["decode", "--json", "--content-type", "application/x-shout", path]
        let standard = DecantTool(name: "plain").capture(arguments)
        #expect(standard.status == 1)
        let tool = DecantTool(name: "shouter", registry: SerializerRegistry.standard.installing(Self.shoutModule))
        let outcome = tool.capture(arguments)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object["serializer"] as? String == "test.shout")
        #expect(object["value"] as? String == "HELLO")
    }

    @Test func registryListsTheInstalledModule() throws {
        let tool = DecantTool(registry: SerializerRegistry.standard.installing(Self.shoutModule))
        let outcome = tool.capture(["registry", "--json"])
        #expect(outcome.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect((object["modules"] as? [String])?.contains("Shout") == true)
    }

    @Test(arguments: [["--no-plugins", "registry", "--json"], ["registry", "--no-plugins", "--json"]])
    func noPluginsSelectsTheRegistryWithoutPlugins(_ arguments: [String]) throws {
        let tool = DecantTool(
            registry: SerializerRegistry.standard.installing(Self.shoutModule),
            registryWithoutPlugins: .standard)
        let outcome = tool.capture(arguments)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect((object["modules"] as? [String])?.contains("Shout") == false)
    }

    @Test func usageNamesTheTool() {
        let outcome = DecantTool(name: "shouter").capture(["registry", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasPrefix("Usage: shouter registry"))
        let unknown = DecantTool(name: "shouter").capture(["nope"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.hasPrefix("shouter: unknown command 'nope'"))
    }
}
