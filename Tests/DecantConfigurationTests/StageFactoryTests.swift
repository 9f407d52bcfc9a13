import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantConfiguration

/// Stages are named in chain files through factories a module installs, as serializers are: a plugin's stage is read,
/// checked, built with its options and run; unknown ids and options are reported where they are written.
@Suite struct StageFactoryTests {
    /// Appends a marker (option `marker`, default "!") to the body: what a plugin's stage could do to a body.
    struct Marking: ResponseStage {
        let marker: String
        func process(_ response: Response) throws -> Response {
            var changed = response
            changed.body.append(contentsOf: Data(marker.utf8))
            return changed
        }
    }

    struct MarkingFactory: StageFactory {
        var id: SerializerID { "test.marking" }
        var summary: String { "Appends a marker to the body (tests)." }
        var optionSchema: [SerializerOption] {
            [SerializerOption("marker", .string(allowed: nil), default: "!", summary: "The text appended.")]
        }
        func makeStage(configuration: ConfigurationOptions) throws(SerializationError) -> any ResponseStage {
            guard case .string(let marker) = configuration["marker"] ?? .string("!") else {
                throw SerializationError(code: .invalidOption, message: "marker must be a string")
            }
            guard !marker.isEmpty else {
                throw SerializationError(
                    code: .invalidOption, message: "The marker must not be empty.", codingPath: ["marker"])
            }
            return Marking(marker: marker)
        }
    }

    static func registry() -> SerializerRegistry {
        var registry = SerializerRegistry()
        registry.install(
            SerializerModule(
                name: "Marks", factories: [TaggingFactory("texts", "text/plain")], stages: [MarkingFactory()]))
        return registry
    }

    static func load(_ preprocessors: String) throws(ConfigurationError) -> LoadedConfiguration {
        let json = """
            {"version": 1, "chains": [{"name": "marked", "serializers": ["texts"], "preprocessors": \(preprocessors)}]}
            """
        return try registry().loadConfiguration(data: Data(json.utf8))
    }

    @Test func aPluginsStageRunsInTheOrderListedWithItsOptions() throws {
        let loaded = try Self.load(#"["test.marking", {"id": "test.marking", "options": {"marker": "?"}}]"#)
        let chain = try loaded.chain(named: "marked")
        let value = try chain.serialize(.make(type: "text/plain", body: "body"))
        #expect(value as? String == "texts:body!?")
        #expect(
            loaded.configuration.chains[0].preprocessors == [
                .init(id: "test.marking"), .init(id: "test.marking", options: ["marker": .string("?")]),
            ])
        // Written back and read again, the references are the same.
        #expect(try ChainConfiguration(data: loaded.configuration.jsonData()) == loaded.configuration)
    }

    @Test func theRegistryListsTheCoreStagesThenThePlugins() {
        let registry = Self.registry()
        #expect(
            registry.stages.map { "\($0.factory.id) \($0.moduleName)" } == [
                "xssiPrefix DecantCore", "byteOrderMark DecantCore", "contentDecoding DecantCore",
                "test.marking Marks",
            ])
        #expect(registry.stageFactory(for: "test.marking")?.summary == "Appends a marker to the body (tests).")
        #expect(registry.stageFactory(for: "test.missing") == nil)
    }

    @Test(arguments: [
        (#"["test.markng"]"#, "chains[0].preprocessors[0]", "did you mean 'test.marking'?"),
        (#"["acme.other"]"#, "chains[0].preprocessors[0]", "stages are xssiPrefix, byteOrderMark, contentDecoding"),
        (
            #"[{"id": "test.marking", "options": {"markr": "x"}}]"#, "chains[0].preprocessors[0].options.markr",
            "The stage 'test.marking' has no option 'markr'. Did you mean 'marker'?"
        ),
        (
            #"[{"id": "test.marking", "options": {"marker": 3}}]"#, "chains[0].preprocessors[0].options.marker",
            "The option 'marker' of the stage 'test.marking'"
        ),
        (
            #"[{"id": "test.marking", "options": {"marker": ""}}]"#, "chains[0].preprocessors[0].options.marker",
            "must not be empty"
        ),
        (#"[{"options": {}}]"#, "chains[0].preprocessors[0].id", "is required: the stage id"),
        (#"[7]"#, "chains[0].preprocessors[0]", "must be a stage id or {\"id\", \"options\"}"),
    ])
    func problemsAreReportedWhereTheyAreWritten(preprocessors: String, keyPath: String, fragment: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.load(preprocessors) }
        let problem = error?.problems.first { $0.keyPath == keyPath }
        #expect(problem?.message.contains(fragment) == true, "\(error?.problems ?? [])")
    }

    @Test func aStageIDInstalledTwiceIsAConflict() {
        var registry = Self.registry()
        struct Other: StageFactory {
            var id: SerializerID { "xssiPrefix" }
            var summary: String { "Claims a core stage's id (tests)." }
            func makeStage(configuration: ConfigurationOptions) -> any ResponseStage { Marking(marker: "") }
        }
        let conflicts = registry.install(SerializerModule(name: "Again", factories: [], stages: [Other()]))
        #expect(conflicts.map(\.kind) == [.duplicateStageID])
        #expect(conflicts.first?.description.contains("'xssiPrefix' from Again") == true)
        #expect(registry.stages.count == 4)
    }

    @Test func contentDecodingTakesItsOwnOptionsBeforeTheChainsLimits() throws {
        // 41 bytes of gzip that decode to 5,000 bytes (see ContentDecodingConfigurationTests).
        let gzip = Response(
            status: 200, headers: ["Content-Type": "text/plain", "Content-Encoding": "gzip"],
            body: Data(ContentDecodingConfigurationTests.fiveThousandAs))
        let registry = Self.registry()
        for (options, passes) in [(#"{"maxDecodedBytes": 4999}"#, false), (#"{"maxDecodedBytes": 5000}"#, true)] {
            let json = """
                {"version": 1, "chains": [{"name": "c", "serializers": ["texts"], "limits": {"maxDecodedBytes": 10},
                  "preprocessors": [{"id": "contentDecoding", "options": \(options)}]}]}
                """
            let chain = try registry.loadConfiguration(data: Data(json.utf8)).chain(named: "c")
            let result = Result { try chain.serialize(gzip) }
            #expect(((try? result.get()) != nil) == passes, "\(options)")
        }
    }
}
