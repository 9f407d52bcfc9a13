import Decant
import Foundation

/// `Decodable` from JSON bytes: Decant's `JSONValueDecoder` against Foundation's `JSONDecoder`, same models, default
/// strategies on both. Each workload first checks once that both decoders give equal values.
enum DecodableWorkloads {
    /// `json.decodable.*`.
    static var all: [Workload] {
        [
            file(.twitter, name: "json.decodable.twitter", as: TwitterSearch.self) { $0.statuses.count },
            file(.citm, name: "json.decodable.citm", as: CitmCatalog.self) { $0.performances.count },
            file(.canada, name: "json.decodable.canada", as: FeatureCollection.self) { $0.features.count },
            Workload(
                name: "json.decodable.1kb", unit: .microsecondsPerOperation, baselineName: "JSONDecoder",
                summary: "the ~1 KB order into an Order model ×10,000 per sample"
            ) { settings in
                var bench = try makeBench(APIObject.data, as: Order.self) { $0.items.count }
                bench.quantity = 1  // per object, not per byte
                bench.callsPerSample = settings.smallObjectCalls
                return .timed(bench)
            },
        ]
    }

    /// A standard file decoded into its model.
    private static func file<T: Decodable & Equatable>(
        _ file: Corpora.JSONFile, name: String, as type: T.Type, count: @escaping (T) -> Int
    ) -> Workload {
        Workload(
            name: name, unit: .megabytesPerSecond, baselineName: "JSONDecoder",
            summary: "\(file.rawValue).json into \(T.self)"
        ) { _ in
            .timed(try makeBench(try Corpora.data(file.relativePath), as: type, count: count))
        }
    }

    /// Both sides for `data` as `T`, after checking that they agree.
    private static func makeBench<T: Decodable & Equatable>(
        _ data: Data, as type: T.Type, count: @escaping (T) -> Int
    ) throws -> TimedBench {
        let decant = JSONValueDecoder()
        let foundation = JSONDecoder()
        var note: String?
        do {
            let ours = try decant.decode(T.self, from: data)
            let theirs = try foundation.decode(T.self, from: data)
            if ours != theirs { note = "RESULTS DIFFER: JSONValueDecoder and JSONDecoder decoded different values" }
        } catch {
            note = "results not compared: \(error)"
        }
        return TimedBench(
            quantity: Double(data.count),
            decant: Contender(name: "Decant") { count(try decant.decode(T.self, from: data)) },
            baseline: .inProcess(Contender(name: "JSONDecoder") { count(try foundation.decode(T.self, from: data)) }),
            note: note.map { "\(T.self): \($0)" })
    }
}
