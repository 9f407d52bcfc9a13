import Decant
import Foundation

/// Property lists: Decant's `PropertyListParser` against `PropertyListSerialization`, on the same generated
/// catalogue in binary and XML form; and writing it, Decant's `PropertyListWriter` against
/// `PropertyListSerialization.data(fromPropertyList:format:options:)`, checking once that
/// `PropertyListSerialization` reads the two outputs to equal objects.
enum PropertyListWorkloads {
    /// `plist.*`.
    static var all: [Workload] {
        [
            workload("plist.binary", summary: "a generated catalogue (1,500 products), binary") {
                try GeneratedPropertyLists.binary
            },
            workload("plist.xml", summary: "the same catalogue as an XML plist") { try GeneratedPropertyLists.xml },
            writing("plist.encode.xml", format: .xml),
            writing("plist.encode.binary", format: .binary),
        ]
    }

    /// The catalogue written per call, as a `PropertyListValue` by Decant and as Foundation objects by
    /// `PropertyListSerialization`; MB/s of Decant's output.
    private static func writing(_ name: String, format: PropertyListWritingOptions.Format) -> Workload {
        let formatName = format == .xml ? "XML" : "binary"
        return Workload(
            name: name, unit: .megabytesPerSecond, baselineName: "PropertyListSerialization",
            summary: "the generated catalogue (1,500 products) written as a \(formatName) plist"
        ) { _ in
            let object = GeneratedPropertyLists.makeObject()
            let value = try PropertyListParser().parse(try GeneratedPropertyLists.binary)
            let writer = PropertyListWriter(options: PropertyListWritingOptions(format: format))
            let foundationFormat: PropertyListSerialization.PropertyListFormat = format == .xml ? .xml : .binary
            let ours = try writer.write(value)
            let theirs = try PropertyListSerialization.data(
                fromPropertyList: object, format: foundationFormat, options: 0)
            let readOurs = try PropertyListSerialization.propertyList(from: ours, options: [], format: nil)
            let readTheirs = try PropertyListSerialization.propertyList(from: theirs, options: [], format: nil)
            let same = (readOurs as? NSDictionary)?.isEqual(readTheirs) ?? false
            nonisolated(unsafe) let frozen = object
            return .timed(
                TimedBench(
                    quantity: Double(ours.count),
                    decant: Contender(name: "Decant") { try writer.write(value).count },
                    baseline: .inProcess(
                        Contender(name: "PropertyListSerialization") {
                            try PropertyListSerialization.data(
                                fromPropertyList: frozen, format: foundationFormat, options: 0
                            )
                            .count
                        }),
                    note: same
                        ? "\(name): \(ours.count) bytes"
                        : "\(name): RESULTS DIFFER: PropertyListSerialization reads the outputs to other objects"
                ))
        }
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
