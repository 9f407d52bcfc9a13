import Decant
import Foundation

/// JSON writing: `Encodable` models through Decant's `JSONValueEncoder` against Foundation's `JSONEncoder`, and
/// `JSONValue` trees through Decant's writer against `JSONSerialization.data(withJSONObject:)` on the same documents.
/// Each workload first checks once that both sides write the same data (parsed back, members in any order).
enum EncodingWorkloads {
    /// `json.encode.*`.
    static var all: [Workload] {
        [
            file(.twitter, name: "json.encode.twitter", as: TwitterSearch.self),
            file(.citm, name: "json.encode.citm", as: CitmCatalog.self),
            Workload(
                name: "json.encode.value", unit: .megabytesPerSecond, baselineName: "JSONSerialization",
                summary:
                    "twitter, citm_catalog and canada as JSONValue written, vs the same trees from JSONSerialization"
            ) { _ in .timed(try valueBench()) },
        ]
    }

    /// A standard file decoded into its model once, then encoded per call; MB/s of Decant's output.
    private static func file<T: Codable & Equatable>(
        _ file: Corpora.JSONFile, name: String, as type: T.Type
    ) -> Workload {
        Workload(
            name: name, unit: .megabytesPerSecond, baselineName: "JSONEncoder",
            summary: "the \(T.self) model of \(file.rawValue).json encoded (default strategies on both)"
        ) { _ in
            let value = try JSONValueDecoder().decode(T.self, from: try Corpora.data(file.relativePath))
            let decant = JSONValueEncoder()
            let foundation = JSONEncoder()
            let ours = try decant.encode(value)
            let theirs = try foundation.encode(value)
            let same = try JSONParser().parse(ours) == JSONParser().parse(theirs)
            return .timed(
                TimedBench(
                    quantity: Double(ours.count),
                    decant: Contender(name: "Decant") { try decant.encode(value).count },
                    baseline: .inProcess(Contender(name: "JSONEncoder") { try foundation.encode(value).count }),
                    note: same ? nil : "\(name): RESULTS DIFFER: the two texts parse to different values"))
        }
    }

    /// The three files as trees on both sides, written per call.
    private static func valueBench() throws -> TimedBench {
        var values: [JSONValue] = []
        var objects: [Any] = []
        for file in [Corpora.JSONFile.twitter, .citm, .canada] {
            let data = try Corpora.data(file.relativePath)
            values.append(try JSONParser().parse(data))
            objects.append(try JSONSerialization.jsonObject(with: data))
        }
        var same = true
        var bytes = 0
        for (value, object) in zip(values, objects) {
            let ours = value.jsonData()
            bytes += ours.count
            let theirs = try JSONSerialization.data(withJSONObject: object)
            if try JSONParser().parse(ours) != JSONParser().parse(theirs) { same = false }
        }
        let frozenValues = values
        nonisolated(unsafe) let frozenObjects = objects
        return TimedBench(
            quantity: Double(bytes),
            decant: Contender(name: "Decant") { frozenValues.reduce(0) { $0 + $1.jsonData().count } },
            baseline: .inProcess(
                Contender(name: "JSONSerialization") {
                    try frozenObjects.reduce(0) { $0 + (try JSONSerialization.data(withJSONObject: $1)).count }
                }),
            note: same ? nil : "json.encode.value: RESULTS DIFFER: the two texts parse to different values")
    }
}
