import Decant
import Foundation

/// Property lists: Decant's `PropertyListParser` against `PropertyListSerialization`, on the same generated
/// catalogue in binary and XML form.
enum PropertyListWorkloads {
    /// `plist.*`.
    static var all: [Workload] {
        [
            workload("plist.binary", summary: "a generated catalogue (1,500 products), binary") {
                try GeneratedPropertyLists.binary
            },
            workload("plist.xml", summary: "the same catalogue as an XML plist") { try GeneratedPropertyLists.xml },
        ]
    }

    private static func workload(_ name: String, summary: String, input: @escaping () throws -> Data) -> Workload {
        Workload(name: name, unit: .megabytesPerSecond, baselineName: "PropertyListSerialization", summary: summary) {
            _ in
            let data = try input()
            let parser = PropertyListParser()
            let decant = Contender(name: "Decant") {
                guard case .dictionary(let root) = try parser.parse(data) else { return -1 }
                return root.count
            }
            let foundation = Contender(name: "PropertyListSerialization") {
                let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                return (object as? [String: Any])?.count ?? -1
            }
            return .timed(
                TimedBench(
                    quantity: Double(data.count), decant: decant, baseline: .inProcess(foundation),
                    note: "\(name): \(data.count) bytes"))
        }
    }
}
