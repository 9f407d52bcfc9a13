import DecantJSON
import Foundation

/// Where two canonical forms first differ, and what each holds there: what a failed expectation tells the author,
/// instead of two long values cut at the same length.
///
/// The path is a JSON Pointer (RFC 6901: `/items/1/count`, `~0` for `~` and `~1` for `/` in member names; the empty
/// pointer is the whole value). The walk is in the expected value's document order, without recursion: the first
/// element or member that differs is the one reported; a length or a member set that differs is reported after the
/// elements or members both sides have.
struct ValueDifference: CustomStringConvertible {
    /// The JSON Pointer of the place that differs.
    let path: String
    /// What the expected value holds there, shortened.
    let expected: String
    /// What the actual value holds there, shortened.
    let actual: String

    /// `at /items/1/count: expected 2, got "2"`.
    var description: String {
        "at \(path.isEmpty ? "the top level" : path): expected \(expected), got \(actual)"
    }

    /// The longest a value is shown, in characters.
    static let shownLength = 120

    /// The first difference between `expected` and `actual`, or `nil` when they are equal. Each element and member
    /// is visited once (an object's members are looked up in a dictionary), so the cost is linear in the values.
    static func between(expected: JSONValue, actual: JSONValue) -> ValueDifference? {
        enum Work {
            case compare(JSONValue, JSONValue, path: String)
            /// Reported when nothing before it differed: the sizes of two arrays, the members of two objects.
            case difference(ValueDifference)
        }
        var pending: [Work] = [.compare(expected, actual, path: "")]
        while let work = pending.popLast() {
            switch work {
            case .difference(let difference):
                return difference
            case .compare(let expected, let actual, let path):
                switch (expected.kind, actual.kind) {
                case (.array, .array):
                    let wanted = expected.arrayValue ?? []
                    let got = actual.arrayValue ?? []
                    if wanted.count != got.count {
                        let common = min(wanted.count, got.count)
                        let extra =
                            wanted.count > got.count
                            ? "; the first missing one is \(shown(wanted[common]))"
                            : "; the first extra one is \(shown(got[common]))"
                        pending.append(
                            .difference(
                                ValueDifference(
                                    path: path, expected: "\(wanted.count) elements",
                                    actual: "\(got.count)\(extra)")))
                    }
                    for index in (0..<min(wanted.count, got.count)).reversed() {
                        pending.append(.compare(wanted[index], got[index], path: path + "/" + String(index)))
                    }
                case (.object, .object):
                    let wanted = expected.objectEntries ?? []
                    let got = actual.objectEntries ?? []
                    var gotByKey: [String: JSONValue] = [:]
                    for (key, value) in got where gotByKey[key] == nil { gotByKey[key] = value }
                    let wantedKeys = Set(wanted.map(\.key))
                    if let (key, value) = got.first(where: { !wantedKeys.contains($0.key) }) {
                        pending.append(
                            .difference(
                                ValueDifference(
                                    path: path + "/" + escaped(key), expected: "no member",
                                    actual: shown(value))))
                    }
                    for (key, value) in wanted.reversed() {
                        let memberPath = path + "/" + escaped(key)
                        if let other = gotByKey[key] {
                            pending.append(.compare(value, other, path: memberPath))
                        } else {
                            pending.append(
                                .difference(
                                    ValueDifference(path: memberPath, expected: shown(value), actual: "no member")))
                        }
                    }
                default:
                    if expected != actual {
                        return ValueDifference(path: path, expected: shown(expected), actual: shown(actual))
                    }
                }
            }
        }
        return nil
    }

    /// A JSON Pointer reference token for `key` (RFC 6901 §3).
    static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `value` as compact JSON, cut to ``shownLength`` characters.
    static func shown(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > shownLength ? String(text.prefix(shownLength)) + "…" : text
    }
}
