import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// Seeded values for the writing tests, and the Python script that reads written property lists back with
/// `plistlib`.
enum PlistWritingSupport {
    /// Strings drawn from a small pool, so that equal strings (keys and values alike) recur and binary sharing is
    /// exercised: ASCII, markup characters, non-ASCII, a character outside the BMP, tabs and line feeds.
    static let strings = [
        "", "a", "name", "Zürich", "日本語", "emoji 😀", "a & b < c > d", "tab\there", "line\nfeed", "x", "$null",
        "quote \" ' done", String(repeating: "long ", count: 12),
    ]

    static let integers: [PropertyListInteger] =
        [
            0, 1, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, 9_223_372_036_854_775_807, -1, -255,
            -9_223_372_036_854_775_808,
        ].map { PropertyListInteger(Int64($0)) } + [
            PropertyListInteger(UInt64(1) << 63), PropertyListInteger(UInt64.max),
        ]

    static let reals: [Double] = [
        0, 0.5, 0.1, -2.25, 1e16, 1e15, 1e-5, 123_456.789, .infinity, -.infinity, .nan, .leastNonzeroMagnitude,
    ]

    /// A value of at most `depth` levels; UIDs only when `uids`.
    static func value(_ generator: inout SplitMix64, depth: Int, uids: Bool) -> PropertyListValue {
        let kinds = depth > 0 ? 10 : 8
        switch Int(generator.next() % UInt64(kinds)) {
        case 0: return .string(strings[Int(generator.next() % UInt64(strings.count))])
        case 1: return .integer(integers[Int(generator.next() % UInt64(integers.count))])
        case 2:
            let index = Int(generator.next() % UInt64(reals.count + 4))
            return .real(index < reals.count ? reals[index] : Double(bitPattern: generator.next() >> 2))
        case 3: return .bool(generator.next() % 2 == 0)
        case 4:
            // Whole seconds from 1900 to 2100: what XML, plistlib and the binary form all hold exactly.
            let seconds = Double(Int64(generator.next() % 6_311_390_400) - 2_208_988_800)
            return .date(Date(timeIntervalSince1970: seconds))
        case 5:
            let count = Int(generator.next() % 160)
            return .data(Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        case 6:
            if uids { return .uid(generator.next() >> (generator.next() % 64)) }
            return .string(strings[Int(generator.next() % UInt64(strings.count))])
        case 7: return .integer(PropertyListInteger(Int64(bitPattern: generator.next()) >> (generator.next() % 64)))
        case 8:
            let count = Int(generator.next() % 6)
            return .array((0..<count).map { _ in value(&generator, depth: depth - 1, uids: uids) })
        default:
            let count = Int(generator.next() % 6)
            var seen = Set<String>()
            var entries: [(key: String, value: PropertyListValue)] = []
            for _ in 0..<count {
                let key = strings[Int(generator.next() % UInt64(strings.count))] + String(generator.next() % 3)
                guard seen.insert(key).inserted else { continue }
                entries.append((key, value(&generator, depth: depth - 1, uids: uids)))
            }
            return .dictionary(PropertyListDictionary(entries))
        }
    }

    /// A seeded value whose root is a container.
    static func generated(seed: UInt64, uids: Bool = false) -> PropertyListValue {
        var generator = SplitMix64(state: seed)
        var root = value(&generator, depth: 4, uids: uids)
        while !root.isContainer { root = value(&generator, depth: 4, uids: uids) }
        return root
    }

    /// `value` with every date rounded down to whole seconds, as XML property lists hold them.
    static func flooringDates(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .date(let date): return .date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        case .array(let array): return .array(array.map(flooringDates))
        case .dictionary(let dictionary):
            return .dictionary(PropertyListDictionary(dictionary.map { ($0.key, flooringDates($0.value)) }))
        default: return value
        }
    }

    /// Whether `value` holds a UID.
    static func holdsUID(_ value: PropertyListValue) -> Bool {
        switch value {
        case .uid: return true
        case .array(let array): return array.contains(where: holdsUID)
        case .dictionary(let dictionary): return dictionary.values.contains(where: holdsUID)
        default: return false
        }
    }

    /// Reads a manifest (argv[1], a JSON list of objects with file paths) and prints one JSON result per entry:
    /// - `read`: each named file read by `plistlib.loads`, as the typed canonical JSON of
    ///   `PropertyListValue.canonicalJSONText()` (or `{"error": ...}`);
    /// - `same`: for each file, whether `plistlib.dumps` of what it read (in the file's format, `sort_keys` as the
    ///   entry says) gives the file's bytes back.
    static let script = #"""
        import base64, json, plistlib, sys, datetime

        def canon(v):
            if isinstance(v, bool): return {"bool": v}
            if isinstance(v, int): return {"integer": str(v)}
            if isinstance(v, float): return {"real": repr(v)}
            if isinstance(v, str): return {"string": v}
            if isinstance(v, (bytes, bytearray)): return {"data_base64": base64.b64encode(v).decode()}
            if isinstance(v, plistlib.UID): return {"uid": v.data}
            if isinstance(v, datetime.datetime):
                text = "%04d-%02d-%02dT%02d:%02d:%02d" % (v.year, v.month, v.day, v.hour, v.minute, v.second)
                if v.microsecond: text += ("." + "%06d" % v.microsecond).rstrip("0")
                return {"date": text + "Z"}
            if isinstance(v, list): return {"array": [canon(x) for x in v]}
            if isinstance(v, dict): return {"dict": {k: canon(x) for k, x in v.items()}}
            raise TypeError(type(v))

        results = []
        for entry in json.load(open(sys.argv[1])):
            result = {"read": {}, "same": {}}
            for name, path in entry["files"].items():
                data = open(path, "rb").read()
                try:
                    value = plistlib.loads(data)
                except Exception as error:
                    result["read"][name] = {"error": repr(error)}
                    continue
                result["read"][name] = canon(value)
                fmt = plistlib.FMT_BINARY if data.startswith(b"bplist") else plistlib.FMT_XML
                try:
                    again = plistlib.dumps(value, fmt=fmt, sort_keys=entry.get("sorted", {}).get(name, False))
                    result["same"][name] = again == data
                except Exception as error:
                    result["same"][name] = repr(error)
            results.append(result)
        json.dump(results, sys.stdout)
        """#

    /// One file set for ``read(_:)``: names to bytes, and which were written with sorted keys.
    struct Entry {
        var files: [String: Data]
        var sorted: Set<String> = []
    }

    /// What `plistlib` made of each entry's files: the canonical JSON of what it read (or an error object) and
    /// whether it wrote the same bytes again.
    struct Reading {
        var read: [String: Any]
        var same: [String: Any]
    }

    /// Writes the entries' files to a temporary directory and runs ``script`` over them once.
    static func read(_ entries: [Entry]) throws -> [Reading] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var manifest: [[String: Any]] = []
        for (index, entry) in entries.enumerated() {
            var files: [String: String] = [:]
            for (name, data) in entry.files {
                let url = directory.appendingPathComponent("\(index)-\(name)")
                try data.write(to: url)
                files[name] = url.path
            }
            manifest.append([
                "files": files, "sorted": Dictionary(uniqueKeysWithValues: entry.sorted.map { ($0, true) }),
            ])
        }
        let manifestURL = directory.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let output = try Python.run(script, [manifestURL.path])
        let results = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        return results.map {
            Reading(read: $0["read"] as? [String: Any] ?? [:], same: $0["same"] as? [String: Any] ?? [:])
        }
    }

    /// A comparable rendering of a canonical JSON object from ``read(_:)``.
    static func render(_ object: Any) throws -> String {
        PlistTestSupport.render(object)
    }
}
