import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

/// The registry's direct path (no compound or chain when the chosen serializer succeeds) and the cached
/// `Content-Type`. The rules they implement are checked as properties in `ResolutionPropertyTests`.
@Suite struct RegistryFastPathTests {
    /// A factory whose default options do not build.
    struct BrokenFactory: SerializerFactory {
        var id: SerializerID
        var ranges: [String]
        var format: MediaFormat {
            MediaFormat(id: id, mediaRanges: ranges.map { MediaRange($0)! }, summary: "Broken on purpose (tests).")
        }
        var defaultOptions: Void { () }
        func options(from configuration: ConfigurationOptions) throws {}
        func makeSerializer(options: Void) throws -> TaggingSerializer {
            throw SerializationError(code: .invalidOption, message: "The \(id) factory is broken on purpose.")
        }
    }

    /// Counts calls, to check that the direct path calls each serializer once, as the chain does.
    final class CallCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [String] = []
        func record(_ id: String) {
            lock.lock()
            defer { lock.unlock() }
            calls.append(id)
        }
        var recorded: [String] {
            lock.lock()
            defer { lock.unlock() }
            return calls
        }
    }

    @Test func eachCandidateIsTriedOnceInOrder() throws {
        let counter = CallCounter()
        func counting(_ id: SerializerID, _ ranges: String...) -> AnyResponseSerializer<String> {
            let tagging = TaggingSerializer(id: id, ranges: ranges.map { MediaRange($0)! })
            return AnyResponseSerializer(id: id, mediaRanges: tagging.ranges) { response in
                counter.record(id.rawValue)
                return try tagging.serialize(response)
            }
        }
        struct Wrapper: SerializerFactory {
            var format: MediaFormat {
                MediaFormat(id: serializer.id, mediaRanges: serializer.mediaRanges, summary: "Counts calls (tests).")
            }
            let serializer: AnyResponseSerializer<String>
            var defaultOptions: Void { () }
            func options(from configuration: ConfigurationOptions) throws {}
            func makeSerializer(options: Void) -> AnyResponseSerializer<String> { serializer }
        }
        var registry = SerializerRegistry()
        registry.install(
            SerializerModule(
                name: "Counting",
                factories: [
                    Wrapper(serializer: counting("wide", "*/*")),
                    Wrapper(serializer: counting("problem", "application/problem+json")),
                    Wrapper(serializer: counting("problem2", "application/problem+json")),
                    Wrapper(serializer: counting("problem3", "application/problem+json")),
                ]))
        // The three of the same specificity, once each in installation order; the wider `*/*` not at all.
        _ = try? registry.serialize(.make(type: "application/problem+json", body: "!x"))
        #expect(counter.recorded == ["problem", "problem2", "problem3"])
        _ = try registry.serialize(.make(type: "application/problem+json", body: "fine"))
        #expect(counter.recorded == ["problem", "problem2", "problem3", "problem"])
    }

    // MARK: The cached Content-Type

    @Test func contentTypeFollowsEveryChangeToTheFields() throws {
        var headers: HTTPHeaderFields = ["Accept": "*/*"]
        #expect(headers.contentType == nil)
        let steps: [(inout HTTPHeaderFields) -> Void] = [
            { $0.append(name: "content-type", value: "text/html;charset=gbk") },
            { $0.append(name: "Content-Type", value: "text/plain, text/html") },
            { $0.append(name: "X-Other", value: "application/json") },
            { $0.append(name: "CONTENT-TYPE", value: "*/*") },
            { $0.set("application/json; charset=\"utf-8\", x/y", for: "Content-type") },
            { $0.set("text/plain; a=\"b,c\"", for: "X-Other") },
            { $0.append(name: "Content-Type", value: "invalid") },
            { $0.remove("content-TYPE") },
            { $0.set("image/png", for: "Content-Type") },
        ]
        for step in steps {
            step(&headers)
            // The value kept up to date through every change is the one a fresh set of the same fields extracts.
            let fresh = HTTPHeaderFields(Array(headers))
            #expect(headers.contentType == fresh.contentType, "\(headers)")
            #expect(headers.contentType?.description == fresh.contentType?.description)
        }
        #expect(headers.contentType?.essence == "image/png")
    }

    @Test func equalFieldsAreEqualHeadersWhateverTheirHistory() {
        var built = HTTPHeaderFields()
        built.append(name: "Content-Type", value: "text/plain")
        built.set("application/json", for: "Content-Type")
        let literal: HTTPHeaderFields = ["Content-Type": "application/json"]
        #expect(built == literal)
        #expect(built.hashValue == literal.hashValue)
        #expect(Response(headers: built) == Response(headers: literal))
        let replaced = Response(headers: ["Content-Type": "text/plain"])
            .replacingContentType(try! MediaType(parsing: "application/json;charset=utf-8"))
        #expect(replaced.contentType?.description == "application/json;charset=utf-8")
    }
}
