import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

/// Resolution and matching checked by their laws on random registries, ranges and media types, instead of against a
/// copy of earlier code: whatever makes matching or resolution fast must keep these properties.
@Suite struct ResolutionPropertyTests {
    // MARK: Random ranges and media types

    /// Types and subtypes of 1 to 16 bytes (packed into words) and longer ones (spelled out), including two long
    /// tokens that share their first 16 bytes, so that a comparison of prefixes would be caught.
    static let types = ["application", "text", "image", "x-a-type-longer-than-16", "x-a-type-longer-than-17"]
    static let subtypes = [
        "json", "problem+json", "vnd.api+json", "xml", "plain", "x-www-form-urlencoded", "x-www-form-urlencodee",
        "a+b+json", "vnd.example-with-a-long-name+xml", "+json", "html", "x+a-suffix-longer-than-16",
    ]
    static let suffixes = ["json", "xml", "a-suffix-longer-than-16", "a-suffix-longer-than-17"]
    static let parameterChoices: [MediaTypeParameters] = [
        MediaTypeParameters(), ["charset": "utf-8"], ["charset": "UTF-8"], ["level": "1"],
        ["charset": "utf-8", "level": "1"],
    ]

    static func randomRange(_ random: inout SplitMix64) -> MediaRange {
        let pattern: MediaRange.Pattern
        switch random.next() % 6 {
        case 0: pattern = .any
        case 1: pattern = .type(types.randomElement(using: &random)!)
        case 2: pattern = .suffix(type: nil, suffix: suffixes.randomElement(using: &random)!)
        case 3:
            pattern = .suffix(
                type: types.randomElement(using: &random)!, suffix: suffixes.randomElement(using: &random)!)
        default:
            pattern = .exact(
                type: types.randomElement(using: &random)!, subtype: subtypes.randomElement(using: &random)!)
        }
        let parameters =
            random.next() % 3 == 0 ? parameterChoices.randomElement(using: &random)! : MediaTypeParameters()
        return MediaRange(pattern, parameters: parameters)
    }

    static func randomMediaType(_ random: inout SplitMix64) -> MediaType {
        MediaType(
            type: types.randomElement(using: &random)!, subtype: subtypes.randomElement(using: &random)!,
            parameters: parameterChoices.randomElement(using: &random)!)
    }

    /// `token` made longer than 16 bytes, one-to-one, so that a packed token becomes a spelled one; each `+`-separated
    /// part of a subtype is lengthened the same way, so suffixes still correspond.
    static func lengthened(_ token: String) -> String {
        token.split(separator: "+", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : $0 + "-made-longer-than-sixteen-bytes" }.joined(separator: "+")
    }

    static func lengthened(_ range: MediaRange) -> MediaRange {
        let pattern: MediaRange.Pattern
        switch range.pattern {
        case .any: pattern = .any
        case .type(let type): pattern = .type(lengthened(type))
        case .suffix(let type, let suffix): pattern = .suffix(type: type.map(lengthened), suffix: lengthened(suffix))
        case .exact(let type, let subtype): pattern = .exact(type: lengthened(type), subtype: lengthened(subtype))
        }
        return MediaRange(pattern, parameters: range.parameters)
    }

    // MARK: Matching

    @Test func matchingAgreesWithCoveringTheExactRange() {
        var random = SplitMix64(state: 0x3A7C)
        var matched = 0
        for _ in 0..<20_000 {
            let range = Self.randomRange(&random)
            let mediaType = Self.randomMediaType(&random)
            let matches = range.matches(mediaType)
            #expect(matches == range.covers(MediaRange(mediaType)), "\(range) against \(mediaType)")
            if matches { matched += 1 }
        }
        // Both outcomes occur often enough for the law to mean something.
        #expect(matched > 2_000 && matched < 18_000, "\(matched) matches")
    }

    @Test func matchingDoesNotDependOnTokenLength() {
        var random = SplitMix64(state: 0x51DE)
        for _ in 0..<20_000 {
            let range = Self.randomRange(&random)
            let mediaType = Self.randomMediaType(&random)
            let longType = MediaType(
                type: Self.lengthened(mediaType.type), subtype: Self.lengthened(mediaType.subtype),
                parameters: mediaType.parameters)
            #expect(
                range.matches(mediaType) == Self.lengthened(range).matches(longType), "\(range) against \(mediaType)")
        }
    }

    @Test(arguments: [
        ("application/*+json", "application/problem+json", true), ("*/*+json", "application/+json", true),
        ("*/*+json", "application/json", false), ("text/plain;charset=utf-8", "text/plain;charset=UTF-8", true),
        ("text/plain;charset=utf-8", "text/plain", false), ("text/*", "text/x-a-subtype-longer-than-16", true),
        ("application/x-www-form-urlencoded", "application/x-www-form-urlencodee", false),
        ("*/*+a-suffix-longer-than-16", "x/y+a-suffix-longer-than-16", true),
        ("*/*+a-suffix-longer-than-16", "x/y+a-suffix-longer-than-17", false),
    ])
    func matchingExamples(range: String, mediaType: String, expected: Bool) throws {
        #expect(MediaRange(range)!.matches(try MediaType(parsing: mediaType)) == expected)
    }

    // MARK: Resolution

    static func randomRegistry(_ random: inout SplitMix64) -> SerializerRegistry {
        var factories: [any SerializerFactory] = []
        for index in 0..<Int(2 + random.next() % 6) {
            let ranges = (0..<Int(1 + random.next() % 4)).map { _ in randomRange(&random).description }
            if random.next() % 8 == 0 {
                factories.append(
                    RegistryFastPathTests.BrokenFactory(id: SerializerID(rawValue: "broken\(index)")!, ranges: ranges))
            } else {
                var factory = TaggingFactory(SerializerID(rawValue: "tag\(index)")!)
                factory.ranges = ranges
                factories.append(factory)
            }
        }
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Random", factories: factories))
        return registry
    }

    /// The rule, as properties of the result: the candidates are exactly the building entries with a matching range,
    /// each at its most specific matching range (the first of equally specific ones), most specific first, ties to the
    /// earlier installed; the chosen one is the first; every other entry is skipped with its reason.
    @Test func resolutionFollowsTheRule() throws {
        var random = SplitMix64(state: 0xC0FFEE)
        for _ in 0..<600 {
            let registry = Self.randomRegistry(&random)
            for _ in 0..<8 {
                let mediaType = random.next() % 10 == 0 ? nil : Self.randomMediaType(&random)
                let resolution = registry.resolve(mediaType)
                let candidates = resolution.candidates
                for (position, candidate) in candidates.enumerated() {
                    let entry = try #require(registry.entry(for: candidate.id))
                    #expect(entry.buildError == nil)
                    let matching = entry.mediaRanges.filter { mediaType.map($0.matches) ?? false }
                    let best = try #require(matching.max { $0.specificity < $1.specificity })
                    #expect(
                        candidate.specificity == best.specificity && candidate.range.specificity == best.specificity)
                    #expect(candidate.range == matching.first { $0.specificity == best.specificity })
                    if position > 0 {
                        let previous = candidates[position - 1]
                        #expect(
                            previous.specificity > candidate.specificity
                                || (previous.specificity == candidate.specificity && previous.order < candidate.order))
                    }
                }
                let candidateIDs = Set(candidates.map(\.id))
                #expect(candidateIDs.count == candidates.count)
                let expectedCandidates = registry.entries.filter { entry in
                    entry.buildError == nil && entry.mediaRanges.contains { mediaType.map($0.matches) ?? false }
                }
                #expect(candidateIDs == Set(expectedCandidates.map(\.id)))
                #expect(resolution.chosen == candidates.first)
                #expect(resolution.chosenEntryIndex.map { registry.entries[$0].id } == candidates.first?.id)
                let skipped = resolution.skipped
                #expect(skipped.map(\.id) == registry.entries.map(\.id).filter { !candidateIDs.contains($0) })
                for skip in skipped {
                    let entry = try #require(registry.entry(for: skip.id))
                    if mediaType == nil {
                        #expect(skip.reason == "there is no media type")
                    } else if entry.buildError != nil && !skip.reason.hasPrefix("no range matches") {
                        #expect(skip.reason.hasPrefix("its default options do not build"))
                    } else {
                        #expect(skip.reason.hasPrefix("no range matches"))
                    }
                }
                let lines = resolution.description.split(separator: "\n")
                #expect(lines.last == "chosen: \(candidates.first?.id.rawValue ?? "none")")
                #expect(lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("  - ") }.count == candidates.count)
            }
        }
    }

    /// Serializing goes by the resolution: the chosen serializer's value; when it fails, the candidates as specific
    /// as it, each once in order, every error kept; an unacceptable status's body decoded by the chosen one.
    @Test func serializingGoesByTheResolution() throws {
        var random = SplitMix64(state: 0xFA11)
        for _ in 0..<300 {
            let registry = Self.randomRegistry(&random)
            for _ in 0..<8 {
                let mediaType = Self.randomMediaType(&random)
                let candidates = registry.resolve(mediaType).candidates
                guard let chosen = candidates.first else { continue }
                let type = mediaType.description
                let value = try registry.serialize(.make(type: type, body: "ok"))
                #expect(value.serializerID == chosen.id)
                #expect(value.value as? String == "\(chosen.id):ok")
                #expect(try registry.serialize(.make(type: type, body: "ok"), as: String.self) == "\(chosen.id):ok")

                let asSpecific = candidates.filter { $0.specificity == chosen.specificity }.map(\.id)
                do {
                    _ = try registry.serialize(.make(type: type, body: "!bad"))
                    Issue.record("a body every serializer refuses was accepted")
                } catch {
                    let tried = error.attempts.isEmpty ? [error.serializerID] : error.attempts.map(\.serializerID)
                    #expect(tried == asSpecific, "\(registry.resolve(mediaType))")
                    #expect(error.code == (asSpecific.count == 1 ? .invalidBody : .allSerializersFailed))
                }

                do {
                    _ = try registry.serialize(.make(500, type: type, body: "down"))
                    Issue.record("a 500 was accepted")
                } catch {
                    #expect(error.errorValue as? String == "\(chosen.id):down")
                }
                let accepted = try registry.serialize(.make(500, type: type, body: "x"), statusCodes: [500])
                #expect(accepted.serializerID == chosen.id)
            }
        }
    }
}
