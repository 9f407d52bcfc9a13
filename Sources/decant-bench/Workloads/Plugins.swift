import Decant
import DecantCBOR
import DecantCSV
import DecantForm
import DecantMessagePack
import DecantMultipart
import DecantProblemDetails
import Foundation

/// The plugins of this repository: against the Foundation-only code a user would write for the same job, and their
/// cost to the registry path of other formats.
enum PluginWorkloads {
    /// `plugin.*`.
    static var all: [Workload] {
        [
            Workload(
                name: "plugin.csv", unit: .megabytesPerSecond, baselineName: "Foundation split + quotes",
                summary: "~10 MB of CSV (quoted and unquoted fields) to rows, every field read as a String"
            ) { _ in
                let data = generatedCSV
                let response = Response(headers: ["Content-Type": "text/csv"], body: data)
                let serializer = CSVResponseSerializer()
                let decant = Contender(name: "Decant") {
                    let table = try serializer.serialize(response)
                    var total = 0
                    for row in table.rows {
                        for field in row { total &+= field.utf8.count }
                    }
                    return total
                }
                let baseline = Contender(name: "Foundation split + quotes") {
                    naiveRows(data).reduce(0) { $0 &+ $1.reduce(0) { $0 &+ $1.utf8.count } }
                }
                // Both sides must read the same rows.
                let ours = try serializer.serialize(response)
                let theirs = naiveRows(data)
                let header = ours.header.map { [$0] } ?? []
                let same = header + ours.rows.map { Array($0) } == theirs
                return .timed(
                    TimedBench(
                        quantity: Double(data.count), decant: decant, baseline: .inProcess(baseline),
                        note: same ? nil : "plugin.csv: Decant and the Foundation code read different rows"))
            },
            Workload(
                name: "plugin.multipart", unit: .megabytesPerSecond, baselineName: "Foundation range(of:) + subdata",
                summary: "a 50 MB multipart/form-data body of 1,000 binary parts split into parts (bodies not copied)"
            ) { _ in
                let (body, boundary) = generatedFormData
                let response = Response(
                    headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body)
                let serializer = MultipartResponseSerializer(
                    decodingPartsWith: SerializerRegistry().installing(.data))
                let decant = Contender(name: "Decant") {
                    try serializer.serialize(response).parts.reduce(0) { $0 &+ $1.body.count }
                }
                let baseline = Contender(name: "Foundation range(of:) + subdata") {
                    naiveParts(body, boundary: boundary).reduce(0) { $0 &+ $1.count }
                }
                let ours = try serializer.serialize(response)
                let same =
                    ours.parts.map(\.body) == naiveParts(body, boundary: boundary)
                    && ours.parts.allSatisfy { $0.value is Data }
                return .timed(
                    TimedBench(
                        quantity: Double(body.count), decant: decant, baseline: .inProcess(baseline),
                        note: same ? nil : "plugin.multipart: Decant and the Foundation code split different parts"))
            },
            Workload(
                name: "registry.path.1kb.plugins", unit: .microsecondsPerOperation, baselineName: "JSONParser (bare)",
                summary: "registry.path.1kb with this repository's three plugins installed (their ranges in the table)"
            ) { settings in
                let registry = SerializerRegistry.standard.installing(.csv).installing(.form).installing(
                    .problemDetails)
                let response = Response(
                    status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: APIObject.data)
                let decant = Contender(name: "Decant registry with plugins") {
                    try registry.serialize(response, as: JSONValue.self).count
                }
                let bare = Contender(name: "JSONParser (bare)", run: JSONWorkloads.decantParse(APIObject.data).run)
                return .timed(
                    TimedBench(
                        quantity: 1, callsPerSample: settings.smallObjectCalls, decant: decant,
                        baseline: .inProcess(bare)))
            },
        ]
            + binary(
                name: "plugin.cbor", format: "CBOR", encode: BinaryEncodings.cbor,
                decode: { data in
                    let parser = CBORParser()
                    return ({ try parser.read(data).count }, { try countValues(parser.read(data)) })
                },
                tree: { data in
                    let parser = CBORParser()
                    return ({ try topLevelCount(parser.parse(data)) }, { try countValues(parser.parse(data)) })
                })
            + [
                encodeRow(
                    name: "plugin.cbor.encode", format: "CBOR", value: CBORValue.self,
                    write: { try CBORWriter().write($0) }, readBack: { try CBORParser().parse($0).conformanceValue() }),
                encodeRow(
                    name: "plugin.msgpack.encode", format: "MessagePack", value: MessagePackValue.self,
                    write: { try MessagePackWriter().write($0) },
                    readBack: { try MessagePackParser().parse($0).conformanceValue() }),
            ]
            + binary(
                name: "plugin.msgpack", format: "MessagePack", encode: BinaryEncodings.messagePack,
                decode: { data in
                    let parser = MessagePackParser()
                    return ({ try parser.read(data).count }, { try countValues(parser.read(data)) })
                },
                tree: { data in
                    let parser = MessagePackParser()
                    return ({ try topLevelCount(parser.parse(data)) }, { try countValues(parser.parse(data)) })
                })
    }

    /// A row for a binary format's writer: twitter.json's data, as the format's value (built from the JSON tree
    /// through the canonical form's inverse, outside the timing), written to bytes, against Decant's own JSON writer
    /// writing the same data from its `JSONValue` (`jsonData()`). Both sides count the JSON form's bytes, so the ratio
    /// is one of values written per second. `readBack` parses the bytes and gives their canonical form, checked
    /// (once, untimed) against the JSON tree.
    static func encodeRow<Value: ConformanceInitializable>(
        name: String, format: String, value: Value.Type, write: @escaping @Sendable (Value) throws -> Data,
        readBack: @escaping @Sendable (Data) throws -> JSONValue
    ) -> Workload {
        Workload(
            name: name, unit: .megabytesPerSecond, baselineName: "Decant JSONValue.jsonData()",
            summary: "twitter.json's data written as \(format) from its value, against Decant's JSON writer"
        ) { _ in
            let json = try Corpora.data(Corpora.JSONFile.twitter.relativePath)
            let tree = try JSONParser().parse(json)
            let value = try Value(conformanceValue: tree)
            let encoded = try write(value)
            let same = try readBack(encoded) == tree
            return .timed(
                TimedBench(
                    quantity: Double(json.count),
                    decant: Contender(name: "Decant \(format) writer") { try write(value).count },
                    baseline: .inProcess(Contender(name: "Decant JSON writer") { tree.jsonData().count }),
                    note: "\(encoded.count) bytes of \(format) for \(json.count) of JSON"
                        + (same ? "" : "; the \(format) bytes do not read back as the JSON's data")))
        }
    }

    /// Three rows for a binary format: twitter.json's data encoded to it in the bench, decoded, in MB/s of the binary
    /// input. `name` against `JSONSerialization` on the JSON form, `name.json` against Decant's own `JSONParser` on
    /// the JSON form: both sides decode the same data, so the ratio is one of values per second. Each side parses and
    /// reads the top-level count, as `json.parse.*` does: `decode` checks the body and records its items (as
    /// `JSONParser` does, values read on access), `tree` builds the value tree the format's serializer returns
    /// (`name.tree`, against `JSONSerialization`). Each also returns a walk of every value, run once (untimed) to check
    /// that it holds the JSON's values.
    private static func binary(
        name: String, format: String, encode: @escaping @Sendable (JSONValue) -> Data,
        decode: @escaping @Sendable (Data) -> (parse: () throws -> Int, countEveryValue: () throws -> Int),
        tree: @escaping @Sendable (Data) -> (parse: () throws -> Int, countEveryValue: () throws -> Int)
    ) -> [Workload] {
        let summary = "twitter.json's data as \(format) (encoded in the bench), decoded to values"
        func prepare(
            _ decode: @escaping @Sendable (Data) -> (parse: () throws -> Int, countEveryValue: () throws -> Int),
            baseline: @escaping (Data) -> Contender
        ) -> (RunSettings) throws -> Prepared {
            { _ in
                let json = try Corpora.data(Corpora.JSONFile.twitter.relativePath)
                let tree = try JSONParser().parse(json)
                let encoded = encode(tree)
                let (run, countEveryValue) = decode(encoded)
                let same = try countEveryValue() == BinaryEncodings.valueCount(tree)
                return .timed(
                    TimedBench(
                        quantity: Double(encoded.count), decant: Contender(name: "Decant \(format)", run: run),
                        baseline: .inProcess(baseline(json)),
                        note: "\(encoded.count) bytes of \(format) for \(json.count) of JSON"
                            + (same ? "" : "; the \(format) tree does not hold as many values as the JSON")))
            }
        }
        return [
            Workload(
                name: name, unit: .megabytesPerSecond, baselineName: "JSONSerialization (JSON form)",
                summary: summary + ", items read on access",
                prepare: prepare(decode, baseline: JSONWorkloads.foundationParse)),
            Workload(
                name: name + ".json", unit: .megabytesPerSecond, baselineName: "Decant JSONParser (JSON form)",
                summary: summary + ", against Decant's JSON parse of the same data",
                prepare: prepare(
                    decode,
                    baseline: { data in
                        let parser = JSONParser()
                        return Contender(name: "Decant JSONParser") { try parser.parse(data).count }
                    })),
            Workload(
                name: name + ".tree", unit: .megabytesPerSecond, baselineName: "JSONSerialization (JSON form)",
                summary: summary + ", as the value tree the serializer returns",
                prepare: prepare(tree, baseline: JSONWorkloads.foundationParse)),
        ]
    }

    /// The number of members or elements of a CBOR value (1 for a scalar), as `JSONValue.count` reads it.
    static func topLevelCount(_ value: CBORValue) -> Int {
        switch value {
        case .array(let elements): elements.count
        case .map(let entries): entries.count
        default: 1
        }
    }

    /// The number of members or elements of a MessagePack value (1 for a scalar).
    static func topLevelCount(_ value: MessagePackValue) -> Int {
        switch value {
        case .array(let elements): elements.count
        case .map(let entries): entries.count
        default: 1
        }
    }

    /// The number of values in a CBOR tree (map keys not counted, as in ``BinaryEncodings/valueCount(_:)``).
    static func countValues(_ value: CBORValue) -> Int {
        switch value {
        case .array(let elements): 1 + elements.reduce(0) { $0 + countValues($1) }
        case .map(let entries): 1 + entries.reduce(0) { $0 + countValues($1.value) }
        case .tag(_, let content): countValues(content)
        default: 1
        }
    }

    /// The number of values of a CBOR item (map keys not counted, tags looked through), reading every scalar.
    static func countValues(_ item: CBORItem) -> Int {
        switch item.kind {
        case .array: 1 + item.elements.reduce(0) { $0 + countValues($1) }
        case .map: 1 + item.entries.reduce(0) { $0 + countValues($1.value) }
        case .tag: item.tagContent.map(countValues) ?? 1
        case .text: item.stringValue == nil ? 0 : 1
        default: 1
        }
    }

    /// The number of values of a MessagePack item (map keys not counted), reading every string.
    static func countValues(_ item: MessagePackItem) -> Int {
        switch item.kind {
        case .array: 1 + item.elements.reduce(0) { $0 + countValues($1) }
        case .map: 1 + item.entries.reduce(0) { $0 + countValues($1.value) }
        case .string: item.stringValue == nil ? 0 : 1
        default: 1
        }
    }

    /// The number of values in a MessagePack tree (map keys not counted).
    static func countValues(_ value: MessagePackValue) -> Int {
        switch value {
        case .array(let elements): 1 + elements.reduce(0) { $0 + countValues($1) }
        case .map(let entries): 1 + entries.reduce(0) { $0 + countValues($1.value) }
        default: 1
        }
    }

    /// ~50 MB of `multipart/form-data`: 1,000 file parts of ~50 KB of seeded random bytes (CR LF and dashes included).
    static let generatedFormData: (body: Data, boundary: String) = {
        let boundary = "----DecantBenchBoundary7MA4YWxkTrZu0gW"
        var generator = SeededGenerator(seed: 11)
        var body = Data()
        body.reserveCapacity(51_000_000)
        for index in 0..<1000 {
            body.append(contentsOf: Array("--\(boundary)\r\n".utf8))
            body.append(
                contentsOf: Array(
                    ("Content-Disposition: form-data; name=\"file\(index)\"; filename=\"f\(index).bin\"\r\n"
                        + "Content-Type: application/octet-stream\r\n\r\n").utf8))
            body.append(contentsOf: (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            body.append(contentsOf: Array("\r\n".utf8))
        }
        body.append(contentsOf: Array("--\(boundary)--\r\n".utf8))
        return (body, boundary)
    }()

    /// The code a user would write with Foundation: find each delimiter with `range(of:)`, cut the part with
    /// `subdata(in:)` (a copy), find the empty line after its headers, keep the body.
    static func naiveParts(_ body: Data, boundary: String) -> [Data] {
        let delimiter = Data("\r\n--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        guard var start = body.range(of: Data("--\(boundary)".utf8))?.upperBound else { return [] }
        var parts: [Data] = []
        while let next = body.range(of: delimiter, in: start..<body.endIndex) {
            let part = body.subdata(in: start..<next.lowerBound)
            if let headers = part.range(of: headerEnd) {
                parts.append(part.subdata(in: headers.upperBound..<part.endIndex))
            }
            start = next.upperBound
        }
        return parts
    }

    /// ~10 MB: an id, a quoted name with a comma, a number, a quoted note with doubled quotes, a date, per record.
    static let generatedCSV: Data = {
        var text = "id,name,amount,note,date\r\n"
        var record = 0
        var state: UInt64 = 42
        while text.utf8.count < 10_000_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let amount = Double(state >> 44) / 100
            text += "\(record),\"Customer \(state >> 50), Ltd\",\(amount),"
            text += record % 3 == 0 ? "\"said \"\"ok\"\"\"," : "plain note,"
            text += "2026-11-\(10 + record % 20)\r\n"
            record += 1
        }
        return Data(text.utf8)
    }()

    /// The code a user would write with Foundation: lines by `components(separatedBy:)`, then fields by walking the
    /// characters with a quote flag (no line ends inside quotes, which this input does not have).
    static func naiveRows(_ data: Data) -> [[String]] {
        let text = String(decoding: data, as: UTF8.self)
        var rows: [[String]] = []
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            var fields: [String] = []
            var field = ""
            var quoted = false
            var previousWasQuote = false
            for character in line {
                if quoted {
                    if character == "\"" {
                        quoted = false
                        previousWasQuote = true
                    } else {
                        field.append(character)
                    }
                } else if character == "\"" {
                    if previousWasQuote { field.append("\"") }
                    quoted = true
                    previousWasQuote = false
                } else if character == "," {
                    fields.append(field)
                    field = ""
                    previousWasQuote = false
                } else {
                    field.append(character)
                    previousWasQuote = false
                }
            }
            fields.append(field)
            rows.append(fields)
        }
        return rows
    }
}
