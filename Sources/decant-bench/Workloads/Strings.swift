import Decant
import Foundation

/// Text decoding: the `string` serializer (WHATWG charset pipeline, replacement mode) on a response with a `charset`
/// parameter, against `String(data:encoding:)`.
enum StringWorkloads {
    /// `string.*`.
    static var all: [Workload] {
        [
            workload("string.utf8", label: "utf-8", encoding: .utf8, summary: "~1 MB of mixed UTF-8 text") {
                GeneratedText.utf8
            },
            workload(
                "string.windows1252", label: "windows-1252", encoding: .windowsCP1252,
                summary: "~1 MB of Western European windows-1252 text"
            ) { GeneratedText.windows1252 },
            workload(
                "string.shiftjis", label: "shift_jis", encoding: .shiftJIS, summary: "~1 MB of Shift_JIS Japanese text"
            ) { GeneratedText.shiftJIS },
        ]
    }

    private static func workload(
        _ name: String, label: String, encoding: String.Encoding, summary: String, input: @escaping () -> Data
    ) -> Workload {
        let baselineName = "String(data:encoding: .\(encoding.shortName))"
        return Workload(name: name, unit: .megabytesPerSecond, baselineName: baselineName, summary: summary) { _ in
            let data = input()
            let serializer = StringResponseSerializer()
            let response = Response(headers: ["Content-Type": "text/plain; charset=\(label)"], body: data)
            let decant = Contender(name: "Decant") { try serializer.serialize(response).text.utf8.count }
            let ours = try serializer.serialize(response).text
            let baseline: Baseline
            var note: String?
            if let theirs = String(data: data, encoding: encoding) {
                baseline = .inProcess(
                    Contender(name: baselineName) { String(data: data, encoding: encoding)?.utf8.count ?? -1 })
                if theirs != ours { note = "\(name): Decant and Foundation decode the text differently" }
            } else {
                baseline = .failing(name: baselineName, reason: "returns nil for valid \(label) text on this platform")
            }
            return .timed(TimedBench(quantity: Double(data.count), decant: decant, baseline: baseline, note: note))
        }
    }
}

extension String.Encoding {
    /// The Swift name of the encodings the bench uses, for labels.
    fileprivate var shortName: String {
        switch self {
        case .utf8: "utf8"
        case .windowsCP1252: "windowsCP1252"
        case .shiftJIS: "shiftJIS"
        default: "\(rawValue)"
        }
    }
}
