import Decant
import DecantConformance
import DecantJSON
import Foundation
import Testing

/// The same chain built in code and read from `Fixtures/chains/api.json` must behave identically.
@Suite struct ConfiguredChainEquivalenceTests {
    /// The `api` chain of `Fixtures/chains/api.json`, written in code.
    static func apiChainInCode() throws -> (MediaTypeAliasing, ResponseChain<ChoiceReportingSerializer<any Sendable>>) {
        let registry = SerializerRegistry.standard
        let compound = CompoundSerializer(
            [
                try registry.serializer(id: "json", configuration: ["maxDepth": 64]),
                try registry.serializer(id: "string"),
            ],
            sniffing: .sniffWhenGeneric, order: .mostSpecificFirst)
        var chain = ResponseChain(
            ChoiceReportingSerializer(compound),
            preprocessors: [
                BodySizeLimit(maxBytes: 1_048_576), XSSIPrefixRemoval(), DefaultCharset(label: "windows-1252"),
            ],
            statusValidation: StatusCodeValidation(
                acceptable: .success, errorBodyDecoding: .serializer(compound.eraseOutput())),
            emptyBodyPolicy: EmptyBodyPolicy(outcome: .emptyValue))
        chain.mediaTypeValidation = nil
        let aliasing = MediaTypeAliasing([
            .init(
                mediaType: try MediaRange(parsing: "text/html"), treatAs: try MediaType(parsing: "application/json"),
                host: "legacy.example.com")
        ])
        return (aliasing, chain)
    }

    enum Outcome: Equatable {
        case value(String, JSONValue)
        case error(String)
    }

    static func outcome(_ body: () throws -> Chosen<any Sendable>) -> Outcome {
        do {
            let chosen = try body()
            return .value(chosen.serializerID.rawValue, (try? CanonicalForm.of(chosen.value)) ?? "no canonical form")
        } catch let error as SerializationError {
            return .error(error.code.rawValue)
        } catch {
            return .error("\(error)")
        }
    }

    @Test func codeAndFileAgreeOnEveryFixtureResponse() throws {
        let directory = try #require(FixtureDirectory.url)
        let loaded = try SerializerRegistry.standard.loadConfiguration(
            contentsOf: directory.appendingPathComponent("chains/api.json"))
        let fromFile = try loaded.chain(named: "api")
        let (aliasing, inCode) = try Self.apiChainInCode()
        let fixtures = try FixtureLoader.fixtures(in: directory)
        var compared = 0
        for fixture in fixtures {
            let url = fixture.expectation["request"]?["url"]?.stringValue.flatMap(URL.init(string:))
            guard let response = try? Response(raw: fixture.raw, url: url) else { continue }
            let file = Self.outcome { try fromFile.serializeReportingChoice(response) }
            let code = Self.outcome { try inCode.serialize(aliasing.process(response)) }
            #expect(file == code, "\(fixture)")
            compared += 1
        }
        #expect(compared >= 80)
    }
}

enum FixtureDirectory {
    static let url = FixtureLoader.fixturesDirectory()
}
