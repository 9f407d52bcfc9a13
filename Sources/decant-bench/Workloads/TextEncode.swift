import Decant
import Foundation

/// Text encoding: `TextEncoding.encode(_:mode:)` (the WHATWG encoders, strict mode) against Foundation's
/// `String.data(using:)`, on the ~1 MB texts the `string.*` rows decode.
enum TextEncodeWorkloads {
    /// `text.encode.*`.
    static var all: [Workload] {
        [
            workload(
                "text.encode.utf8", encoding: .utf8, foundation: (.utf8, "utf8"), summary: "~1 MB of mixed UTF-8 text"
            ) { GeneratedText.utf8 },
            workload(
                "text.encode.windows1252", encoding: .windows1252, foundation: (.windowsCP1252, "windowsCP1252"),
                summary: "~1 MB of Western European text written as windows-1252"
            ) { GeneratedText.windows1252 },
            workload(
                "text.encode.shiftjis", encoding: .shiftJIS, foundation: (.shiftJIS, "shiftJIS"),
                summary: "~1 MB of Japanese text written as Shift_JIS"
            ) { GeneratedText.shiftJIS },
        ]
    }

    /// A row encoding the text `input` decodes to (in `encoding`), per megabyte of encoded output.
    private static func workload(
        _ name: String, encoding: TextEncoding, foundation: (encoding: String.Encoding, name: String), summary: String,
        input: @escaping () -> Data
    ) -> Workload {
        let baselineName = "String.data(using: .\(foundation.name))"
        return Workload(name: name, unit: .megabytesPerSecond, baselineName: baselineName, summary: summary) { _ in
            let bytes = input()
            let text = try encoding.decode(bytes, mode: .strict)
            let decant = Contender(name: "Decant") { try encoding.encode(text).count }
            let ours = try encoding.encode(text)
            let baseline: Baseline
            var note: String?
            if let theirs = text.data(using: foundation.encoding) {
                baseline = .inProcess(
                    Contender(name: baselineName) { text.data(using: foundation.encoding)?.count ?? -1 })
                if theirs != ours { note = "\(name): Decant and Foundation encode the text differently" }
            } else {
                baseline = .failing(name: baselineName, reason: "returns nil for this text on this platform")
            }
            return .timed(TimedBench(quantity: Double(ours.count), decant: decant, baseline: baseline, note: note))
        }
    }
}
