import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantJSON

/// The nativejson-benchmark documents decoded into Codable models by `JSONValueDecoder` and by Foundation's
/// `JSONDecoder`, which must give equal values.
@Suite struct JSONDecoderCorpusTests {
    static func corpus(_ name: String) throws -> Data {
        let url = try #require(Corpora.url("json/nativejson-benchmark/data/\(name)"), "\(name) is missing")
        return try Data(contentsOf: url)
    }

    enum Document: String, CaseIterable, CustomTestStringConvertible {
        case twitter = "twitter.json"
        case citmCatalog = "citm_catalog.json"
        case canada = "canada.json"

        var testDescription: String { rawValue }
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"), arguments: Document.allCases)
    func decodesLikeJSONDecoder(_ document: Document) throws {
        let data = try Self.corpus(document.rawValue)
        switch document {
        case .twitter:
            let search = DecodingOracle.expectAgreement(TwitterSearch.self, data)
            guard case .value(let value) = search else { return }
            #expect(value.statuses.count == 100)
            #expect(value.statuses.compactMap(\.retweetedStatus).count == 73)
            #expect(value.statuses.flatMap { $0.entities.media ?? [] }.count == 6)
            #expect(value.searchMetadata.count == 100)
        case .citmCatalog:
            let catalog = DecodingOracle.expectAgreement(Catalog.self, data)
            guard case .value(let value) = catalog else { return }
            #expect(value.events.count == 184)
            #expect(value.performances.count == 243)
        case .canada:
            let collection = DecodingOracle.expectAgreement(FeatureCollection.self, data)
            guard case .value(let value) = collection else { return }
            #expect(value.features.count == 1)
            #expect(value.features[0].geometry.coordinates.reduce(0) { $0 + $1.count } == 55_563)
        }
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func decodesTwitterWithSnakeCaseKeysLikeJSONDecoder() throws {
        let (ours, foundation) = DecodingOracle.pair { ours, foundation in
            ours.keyDecodingStrategy = .convertFromSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
        }
        let data = try Self.corpus("twitter.json")
        let outcome = DecodingOracle.expectAgreement(SnakeCaseSearch.self, data, ours: ours, foundation: foundation)
        #expect(!outcome.isFailure)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func decodesTheCorpusAsUTF16LikeJSONDecoder() throws {
        let text = String(decoding: try Self.corpus("citm_catalog.json"), as: UTF8.self)
        let data = try #require(text.data(using: .utf16))  // with a byte order mark
        DecodingOracle.expectAgreement(Catalog.self, data)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func reportsTheOffsetOfAMismatchInTheCorpus() throws {
        struct StrictUser: Decodable {
            var utcOffset: Int
            enum CodingKeys: String, CodingKey { case utcOffset = "utc_offset" }
        }
        struct StrictStatus: Decodable { var user: StrictUser }
        struct StrictSearch: Decodable { var statuses: [StrictStatus] }
        let data = try Self.corpus("twitter.json")
        let error = #expect(throws: SerializationError.self) {
            try JSONValueDecoder().decode(StrictSearch.self, from: data)
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StrictSearch.self, from: data) }
        #expect(error?.code == .decodingFailed)
        #expect(error?.codingPath == ["statuses", "0", "user", "utc_offset"])
        let offset = try #require(error?.offset)
        #expect(data[offset..<offset + 4] == Data("null".utf8))
        #expect(error?.message.contains("statuses[0].user.utc_offset") == true)
    }
}
