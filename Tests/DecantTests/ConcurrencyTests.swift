import Decant
import DecantConformance
import Foundation
import Testing

/// One registry shared by many tasks decoding a mix of every format's fixtures gives each task exactly the results
/// a sequential run gives. CI runs this suite under the thread sanitizer too (`Tests/concurrency-tsan`), which
/// reports any data race in the registry, the decoders or the values they share (GIF frames, XML trees, tapes).
@Suite struct ConcurrencyTests {
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// Every committed fixture response of the format areas (raw HTTP/1.1 messages), in a fixed order.
    static let responses: [(name: String, response: Response)] = {
        let areas = ["json", "string", "propertyList", "xmlDocument", "image"]
        var result: [(String, Response)] = []
        for area in areas {
            let folder = packageRoot.appendingPathComponent("Fixtures/\(area)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".http") {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                    let response = try? Response(raw: data)
                else { continue }
                result.append(("\(area)/\(name)", response))
            }
        }
        return result
    }()

    /// What the registry makes of `response`: the producing serializer and the canonical value, or the error code
    /// and the codes of its attempts. Images are read in full (pixels and every frame), as the tool does.
    static func outcome(_ registry: SerializerRegistry, _ response: Response) -> String {
        do {
            let result = try registry.serialize(response)
            if let image = result.value as? Image {
                for frame in image.frames { _ = frame.pixels.count }
            }
            let canonical = (try? CanonicalForm.of(result.value)).map { $0.description } ?? "no canonical form"
            return "\(result.serializerID): \(canonical)"
        } catch {
            return "error \(error.code) [\(error.attempts.map(\.code.rawValue).joined(separator: ", "))]"
        }
    }

    @Test func sharedRegistryGivesEveryTaskTheSequentialResults() async throws {
        let registry = SerializerRegistry.standard
        let responses = Self.responses
        try #require(responses.count >= 50, "the fixtures are missing")
        let expected = responses.map { Self.outcome(registry, $0.response) }
        let tasks = 4
        let rounds = 3
        let mismatches = await withTaskGroup(of: [String].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var mismatches: [String] = []
                    for round in 0..<rounds {
                        // Each task walks the fixtures from a different starting point, so that different formats
                        // run at the same time.
                        let offset = (task * responses.count / tasks + round) % responses.count
                        for step in 0..<responses.count {
                            let index = (offset + step) % responses.count
                            let got = Self.outcome(registry, responses[index].response)
                            if got != expected[index] { mismatches.append(responses[index].name) }
                        }
                    }
                    return mismatches
                }
            }
            var all: [String] = []
            for await found in group { all += found }
            return all
        }
        #expect(mismatches.isEmpty, "results differ from the sequential run: \(Set(mismatches).sorted())")
    }
}
