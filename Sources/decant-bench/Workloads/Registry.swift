import Decant
import Foundation

/// The full registry path and media types: what Decant adds around the parsers.
enum RegistryWorkloads {
    /// `registry.*` and `mediatype.*`.
    static var all: [Workload] {
        [
            againstTheBareParser(
                "registry.path.1kb", path: registryPath,
                summary: "the ~1 KB order through SerializerRegistry.standard.serialize(_:as: JSONValue.self) vs "
                    + "the bare parser"),
            againstTheBareParser(
                "registry.path.1kb.prepared", path: preparedPath,
                summary: "the ~1 KB order through a serializer prepared once with SerializerRegistry.standard.prepare("
                    + "for: application/json, as: JSONValue.self) vs the bare parser"),
            againstTheBareParser(
                "registry.path.1kb.untyped", path: untypedRegistryPath,
                summary: "the ~1 KB order through SerializerRegistry.standard.serialize (a SerializedValue, then "
                    + "as? JSONValue) vs the bare parser"),
            Workload(
                name: "registry.path.1kb.foundation", unit: .microsecondsPerOperation,
                baselineName: "JSONSerialization",
                summary: "the ~1 KB order through the full registry path vs JSONSerialization"
            ) { settings in
                .timed(
                    TimedBench(
                        quantity: 1, callsPerSample: settings.smallObjectCalls, decant: registryPath(),
                        baseline: .inProcess(JSONWorkloads.foundationParse(APIObject.data))))
            },
            Workload(
                name: "mediatype.parse", unit: .nanosecondsPerOperation, baselineName: "naive split",
                summary: "\(contentTypes.count) Content-Type values parsed (WHATWG) vs a naive split on ; and =",
                prepare: parse),
            Workload(
                name: "mediatype.resolve", unit: .nanosecondsPerOperation, baselineName: "naive essence lookup",
                summary: "registry resolution of \(contentTypes.count) parsed types vs a dictionary lookup by essence",
                prepare: resolve),
        ]
    }

    /// A registry path on the 1 KB object against `JSONParser` called directly on the same bytes.
    private static func againstTheBareParser(
        _ name: String, path: @escaping @Sendable () -> Contender, summary: String
    ) -> Workload {
        Workload(
            name: name, unit: .microsecondsPerOperation, baselineName: "JSONParser (bare)", summary: summary
        ) { settings in
            .timed(
                TimedBench(
                    quantity: 1, callsPerSample: settings.smallObjectCalls, decant: path(),
                    baseline: .inProcess(
                        Contender(name: "JSONParser (bare)", run: JSONWorkloads.decantParse(APIObject.data).run))))
        }
    }

    /// Content-Type values as servers send them.
    static let contentTypes = [
        "application/json", "application/json; charset=utf-8", "Application/JSON;Charset=\"UTF-8\"",
        "application/problem+json", "application/vnd.api+json; ext=\"https://example.com/ext\"",
        "text/html; charset=ISO-8859-1", "image/png", "text/plain;charset=Shift_JIS ",
        "application/xml; charset=utf-8", "multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
    ]

    /// `SerializerRegistry.standard.serialize(_:as:)` of a 200 `application/json; charset=utf-8` response with the
    /// 1 KB body: resolution, status and empty-body validation, the JSON serializer.
    private static func registryPath() -> Contender {
        let registry = SerializerRegistry.standard
        let response = Response(
            status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: APIObject.data)
        return Contender(name: "Decant registry") { try registry.serialize(response, as: JSONValue.self).count }
    }

    /// The same through a serializer prepared once for `application/json` and `JSONValue`: the registry's stages and
    /// the chosen serializer, without per-call resolution.
    private static func preparedPath() -> Contender {
        let response = Response(
            status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: APIObject.data)
        // The standard registry accepts application/json: preparing cannot fail here.
        let prepared = try? SerializerRegistry.standard.prepare(
            for: MediaType(type: "application", subtype: "json"), as: JSONValue.self)
        return Contender(name: "Decant prepared") { try prepared?.serialize(response).count ?? -1 }
    }

    /// The same through the untyped `serialize(_:)`: the value comes back boxed in a `SerializedValue`.
    private static func untypedRegistryPath() -> Contender {
        let registry = SerializerRegistry.standard
        let response = Response(
            status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: APIObject.data)
        return Contender(name: "Decant registry (untyped)") {
            let result = try registry.serialize(response)
            return (result.value as? JSONValue)?.count ?? -1
        }
    }

    private static func parse(_ settings: RunSettings) throws -> Prepared {
        let headers = contentTypes
        let decant = Contender(name: "Decant") {
            var total = 0
            for header in headers {
                let mediaType = try MediaType(parsing: header)
                total &+= mediaType.subtype.utf8.count &+ mediaType.parameters.count
            }
            return total
        }
        let naive = Contender(name: "naive split") {
            var total = 0
            for header in headers { total &+= NaiveMediaType(header).subtype.utf8.count }
            return total
        }
        return .timed(TimedBench(quantity: Double(headers.count), decant: decant, baseline: .inProcess(naive)))
    }

    private static func resolve(_ settings: RunSettings) throws -> Prepared {
        let registry = SerializerRegistry.standard
        let types = try contentTypes.map { try MediaType(parsing: $0) }
        let decant = Contender(name: "Decant") {
            var total = 0
            for type in types { total &+= registry.resolve(type).candidates.count }
            return total
        }
        // What string-matching libraries do: an exact table of essences, then a `+json`/`+xml` suffix check.
        let table: [String: Int] = [
            "application/json": 1, "text/json": 1, "text/javascript": 1, "application/x-plist": 2,
            "application/xml": 3, "text/xml": 3, "image/png": 4, "image/gif": 4, "image/jpeg": 4, "text/plain": 5,
            "text/html": 5,
        ]
        let naive = Contender(name: "naive essence lookup") {
            var total = 0
            for type in types {
                let essence = type.type + "/" + type.subtype
                if let id = table[essence] {
                    total &+= id
                } else if essence.hasSuffix("+json") {
                    total &+= 1
                } else if essence.hasSuffix("+xml") {
                    total &+= 3
                }
            }
            return total
        }
        return .timed(
            TimedBench(
                quantity: Double(types.count), decant: decant, baseline: .inProcess(naive),
                note: "mediatype.resolve: the naive lookup knows no ranges, specificity, parameters or traces"))
    }
}

/// A naive Content-Type parse, as many HTTP libraries do it: split on `;`, then on `/` and `=`, trim, lowercase.
/// It accepts malformed input and does not handle quoted strings.
struct NaiveMediaType {
    /// The lowercased type.
    var type: Substring
    /// The lowercased subtype.
    var subtype: Substring
    /// The parameters, names lowercased.
    var parameters: [(String, String)]

    /// Parses `header`.
    init(_ header: String) {
        let parts = header.split(separator: ";")
        let essence = (parts.first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let slash = essence.split(separator: "/", maxSplits: 1)
        type = slash.first ?? ""
        subtype = slash.count > 1 ? slash[1] : ""
        parameters = parts.dropFirst().compactMap { part in
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            return (
                pair[0].trimmingCharacters(in: .whitespaces).lowercased(),
                pair[1].trimmingCharacters(in: .whitespaces)
            )
        }
    }
}
