import Testing

@testable import DecantCore

@Suite struct MediaRangeTests {
    @Test(arguments: [
        ("*/*", "image/png", true),
        ("image/*", "image/png", true),
        ("image/*", "text/plain", false),
        ("application/*+json", "application/problem+json", true),
        ("application/*+json", "application/json", false),
        ("application/*+json", "text/x+json", false),
        ("*/*+xml", "image/svg+xml", true),
        ("*/*+xml", "application/xml", false),
        ("application/json", "Application/JSON; charset=utf-8", true),
        ("text/plain;charset=utf-8", "text/plain;charset=UTF-8", true),
        ("text/plain;charset=utf-8", "text/plain", false),
        ("text/plain;format=flowed", "text/plain;format=Flowed", false),
    ])
    func matches(range: String, mediaType: String, expected: Bool) throws {
        let parsedRange = try MediaRange(parsing: range)
        let parsedType = try MediaType(parsing: mediaType)
        #expect(parsedRange.matches(parsedType) == expected)
    }

    @Test func specificityOrdersExactWithParametersAboveExactAboveSuffixAboveTypeAboveAny() throws {
        let ordered = try [
            "*/*", "image/*", "*/*+xml", "application/*+json", "application/json", "application/json;charset=utf-8",
        ].map { try MediaRange(parsing: $0) }
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(lower.specificity < higher.specificity, "\(lower) should be less specific than \(higher)")
            #expect(lower.specificity.score < higher.specificity.score)
        }
        #expect(ordered.shuffled().sorted { $0.specificity < $1.specificity } == ordered)
    }

    @Test(arguments: ["*/json", "application/js*n", "application/*+", "*/*+a+b", "nonsense", ""])
    func rejectsMalformedRanges(text: String) {
        #expect(throws: MediaTypeParsingError.self) { try MediaRange(parsing: text) }
    }

    @Test(arguments: ["*/*", "image/*", "application/*+json", "*/*+xml", "text/plain;charset=utf-8"])
    func descriptionRoundTrips(text: String) throws {
        let range = try MediaRange(parsing: text)
        #expect(range.description == text)
        #expect(try MediaRange(parsing: range.description) == range)
    }
}

@Suite struct AcceptHeaderTests {
    @Test func parsesQualitiesAndSeparatesAcceptParameters() throws {
        let header = AcceptHeader(parsing: "text/html;level=1;q=0.7;ext=1, application/json, */*;q=0.1, image/*;q=0")
        #expect(header.elements.count == 4)
        #expect(header.elements[0].range == (try MediaRange(parsing: "text/html;level=1")))
        #expect(header.elements[0].quality == 0.7)
        #expect(header.quality(of: try MediaType(parsing: "application/json")) == 1)
        #expect(header.quality(of: try MediaType(parsing: "text/csv")) == 0.1)
        #expect(!header.accepts(try MediaType(parsing: "image/png")), "q=0 excludes")
        #expect(header.preferredRanges.map(\.description) == ["application/json", "text/html;level=1", "*/*"])
    }

    @Test func mostSpecificRangeDecidesTheQuality() throws {
        // RFC 9110 §12.5.1 example.
        let header = AcceptHeader(
            parsing:
                "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5")
        let expectations: [(String, Double)] = [
            ("text/plain;format=flowed", 1), ("text/plain", 0.7), ("text/html", 0.3), ("image/jpeg", 0.5),
            ("text/plain;format=fixed", 0.4), ("text/html;level=3", 0.3),
        ]
        for (type, quality) in expectations {
            #expect(header.quality(of: try MediaType(parsing: type)) == quality, "\(type)")
        }
    }

    @Test(arguments: ["q=2", "q=1.5", "q=0.1234", "q=abc", "q=", "q=-1"])
    func skipsElementsWithInvalidQuality(quality: String) {
        let header = AcceptHeader(parsing: "text/plain;\(quality), application/json")
        #expect(header.elements.map(\.range.description) == ["application/json"])
    }

    @Test func serialisesQualitiesCompactly() throws {
        let header = AcceptHeader([
            .init(try MediaRange(parsing: "application/json")), .init(.any, quality: 0.8),
            .init(try MediaRange(parsing: "image/*"), quality: 0.125),
        ])
        #expect(header.description == "application/json, */*;q=0.8, image/*;q=0.125")
        #expect(AcceptHeader(parsing: header.description) == header)
    }
}

@Suite struct MediaRangeCoverageTests {
    @Test(arguments: [
        ("*/*", "application/json", true),
        ("*/*", "*/*", true),
        ("text/*", "text/plain", true),
        ("text/*", "text/*+xml", true),
        ("text/*", "*/*", false),
        ("text/*", "application/json", false),
        ("*/*+json", "application/*+json", true),
        ("*/*+json", "application/problem+json", true),
        ("application/*+json", "*/*+json", false),
        ("application/*+json", "application/json", false),
        ("application/json", "application/json;charset=utf-8", true),
        ("application/json;charset=utf-8", "application/json", false),
        ("image/png", "image/*", false),
    ])
    func covers(wide: String, narrow: String, expected: Bool) throws {
        #expect(try MediaRange(parsing: wide).covers(MediaRange(parsing: narrow)) == expected)
    }

    @Test func coverageAgreesWithMatchingOnSampleTypes() throws {
        let ranges = try ["*/*", "text/*", "*/*+xml", "application/*+json", "application/json", "image/*"].map {
            try MediaRange(parsing: $0)
        }
        let types = try ["text/plain", "application/json", "application/problem+json", "image/svg+xml", "text/x+xml"]
            .map { try MediaType(parsing: $0) }
        for wide in ranges {
            for narrow in ranges where wide.covers(narrow) {
                for type in types where narrow.matches(type) {
                    #expect(wide.matches(type), "\(wide) covers \(narrow), which matches \(type)")
                }
            }
        }
    }
}
