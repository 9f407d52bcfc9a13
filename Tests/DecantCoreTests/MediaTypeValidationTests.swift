import Foundation
import Testing

@testable import DecantCore

/// `MediaTypeValidation.passesUnchanged(_:)` matches a response's packed media type against ranges compiled into
/// words; it must agree with the ranges' own `matches(_:)` on every pair, and with `process(_:)`.
@Suite struct MediaTypeValidationTests {
    static let ranges: [String] = [
        "application/json", "*/*+json", "text/*", "image/png;q=1", "text/plain;charset=utf-8", "*/*",
        "application/a-subtype-longer-than-sixteen-bytes", "application/*+a-suffix-longer-than-sixteen", "audio/*+xml",
    ]

    static let contentTypes: [String?] = [
        nil, "application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/problem+json",
        "application/vnd.a-vendor-subtype-longer-than-sixteen+json", "text/plain", "text/plain; charset=UTF-8",
        "text/plain; charset=latin1", "image/png", "image/png; q=1", "application/a-subtype-longer-than-sixteen-bytes",
        "application/a-subtype-longer-than-sixteen-bytes-but-other", "application/x+a-suffix-longer-than-sixteen",
        "audio/mpeg+xml", "video/mp4", "application/xml",
    ]

    /// Every subset pattern worth having: each range alone, then all of them except `*/*`.
    static let rangeSets: [[String]] = ranges.map { [$0] } + [ranges.filter { $0 != "*/*" }]

    @Test(arguments: rangeSets)
    func agreesWithTheRangesOwnMatching(rangeSet: [String]) throws {
        let ranges = rangeSet.map { MediaRange($0)! }
        for allowsMissing in [true, false] {
            let validation = MediaTypeValidation(acceptableRanges: ranges, allowsMissingMediaType: allowsMissing)
            for contentType in Self.contentTypes {
                let response = Response(
                    status: 200, headers: contentType.map { ["Content-Type": $0] } ?? [:], body: Data("x".utf8))
                let expected =
                    response.contentType.map { type in ranges.contains { $0.matches(type) } }
                    ?? allowsMissing
                #expect(validation.passesUnchanged(response) == expected, "\(rangeSet) \(contentType ?? "none")")
                #expect(((try? validation.process(response)) != nil) == expected, "\(rangeSet) \(contentType ?? "-")")
            }
        }
    }

    /// Changing the ranges recompiles them; equality and hashing see only the ranges and the missing-type rule.
    @Test func changingTheRangesRecompilesThem() {
        var validation = MediaTypeValidation(acceptableRanges: [MediaRange("application/json")])
        let xml = Response(status: 200, headers: ["Content-Type": "application/xml"], body: Data("x".utf8))
        #expect(!validation.passesUnchanged(xml))
        validation.acceptableRanges.append(MediaRange("application/xml"))
        #expect(validation.passesUnchanged(xml))
        let same = MediaTypeValidation(acceptableRanges: [
            MediaRange("application/json"), MediaRange("application/xml"),
        ])
        #expect(validation == same)
        #expect(validation.hashValue == same.hashValue)
        #expect(
            validation != MediaTypeValidation(acceptableRanges: same.acceptableRanges, allowsMissingMediaType: false))
    }
}
