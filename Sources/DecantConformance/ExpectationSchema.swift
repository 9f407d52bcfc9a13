import DecantCore
import DecantJSON

/// The keys an expectation document may have (see ``Fixture``), checked before a fixture runs, so that a misspelt
/// key (`"vlaue"`) or one that would be ignored fails the fixture with a sentence naming it, instead of being
/// silently skipped.
enum ExpectationSchema {
    /// The keys of the document itself.
    static let topLevel = [
        "description", "serializer", "serializers", "config", "chain", "options", "request", "sniffing",
        "triesNonMatching", "acceptableStatusCodes", "emptyBody", "perturb", "roundTrip", "expect",
    ]
    /// The keys of `"request"`.
    static let request = ["method", "url"]
    /// The keys of `"expect"`.
    static let expect = ["serializer", "value", "error"]
    /// The keys of `"expect"."error"`.
    static let error = ["code", "messageContains", "status", "attempts", "errorValue"]
    /// The keys of each of `"expect"."error"."attempts"`.
    static let attempt = ["serializer", "code"]

    /// Throws the first problem of `expectation`: an unknown key (with the nearest known one), or options that
    /// would be ignored.
    static func check(_ expectation: JSONValue) throws(ConformanceFailure) {
        try checkKeys(of: expectation, at: nil, allowed: topLevel)
        if let value = expectation["request"] { try checkKeys(of: value, at: "request", allowed: request) }
        if let expect = expectation["expect"] {
            try checkKeys(of: expect, at: "expect", allowed: Self.expect)
            if let error = expect["error"] {
                try checkKeys(of: error, at: "expect.error", allowed: Self.error)
                for (index, attempt) in (error["attempts"]?.arrayValue ?? []).enumerated() {
                    try checkKeys(of: attempt, at: "expect.error.attempts[\(index)]", allowed: Self.attempt)
                }
            }
        }
        try checkOptions(of: expectation)
    }

    /// `"options"` configure the serializers that `"serializer"` or `"serializers"` name; anywhere else nothing
    /// would read them.
    private static func checkOptions(of expectation: JSONValue) throws(ConformanceFailure) {
        guard let options = expectation["options"] else { return }
        if expectation["serializer"] == nil && expectation["serializers"] == nil {
            let resolver = expectation["config"] == nil ? "the registry would resolve" : "the chain of \"config\" runs"
            throw ConformanceFailure(
                "The expectation has \"options\" but names no serializer, so \(resolver) without them: add "
                    + "\"serializer\" (or \"serializers\") naming the serializer the options are for, or remove "
                    + "\"options\".")
        }
        // With two or more "serializers", "options" maps each of their ids to its options.
        guard let list = expectation["serializers"]?.arrayValue, list.count > 1, expectation["serializer"] == nil
        else { return }
        let ids = list.compactMap(\.stringValue)
        for key in options.keys ?? [] where !ids.contains(key) {
            var message =
                "\"options\" has the key \"\(key)\", which is not one of \"serializers\" "
                + "(\(ids.joined(separator: ", "))): with several serializers, \"options\" maps each one's id to its "
                + "options"
            if let nearest = EditDistance.nearest(to: key, in: ids) { message += "; did you mean \"\(nearest)\"?" }
            throw ConformanceFailure(message + ".")
        }
    }

    static func checkKeys(
        of value: JSONValue, at place: String?, allowed: [String]
    ) throws(ConformanceFailure) {
        for key in value.keys ?? [] where !allowed.contains(key) {
            var message = "The expectation has the unknown key \"\(key)\""
            if let place { message += " in \"\(place)\"" }
            if let nearest = EditDistance.nearest(to: key, in: allowed) {
                message += "; did you mean \"\(nearest)\"?"
            } else {
                message += "."
            }
            throw ConformanceFailure(message + " Allowed there: " + allowed.joined(separator: ", ") + ".")
        }
    }
}
