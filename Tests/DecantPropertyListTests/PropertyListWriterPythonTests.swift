import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// Python's `plistlib` reads back what `PropertyListWriter` writes, to the value written, and writes the same bytes
/// from what it read (`plistlib.dumps(plistlib.loads(ours), sort_keys=...) == ours`).
@Suite struct PropertyListWriterPythonTests {
    static let xml = PropertyListWriter(options: PropertyListWritingOptions(format: .xml))
    static let binary = PropertyListWriter(options: PropertyListWritingOptions(format: .binary))
    static let sortedXML = PropertyListWriter(options: PropertyListWritingOptions(format: .xml, sortedKeys: true))
    static let sortedBinary = PropertyListWriter(options: PropertyListWritingOptions(format: .binary, sortedKeys: true))

    /// 300 seeded values (without UIDs) in XML and binary, in their order and with sorted keys; 100 with UIDs in
    /// binary.
    @Test(.enabled(if: Python.isAvailable, "needs python3"))
    func plistlibReadsSeededValuesAndWritesTheSameBytes() throws {
        var values: [PropertyListValue] = []
        var entries: [PlistWritingSupport.Entry] = []
        for seed in 0..<400 as Range<UInt64> {
            let value = PlistWritingSupport.generated(seed: seed, uids: seed >= 300)
            values.append(value)
            var files = [
                "binary": try Self.binary.write(value), "sortedBinary": try Self.sortedBinary.write(value),
            ]
            if seed < 300 {
                files["xml"] = try Self.xml.write(value)
                files["sortedXML"] = try Self.sortedXML.write(value)
            }
            entries.append(PlistWritingSupport.Entry(files: files, sorted: ["sortedBinary", "sortedXML"]))
        }
        let readings = try PlistWritingSupport.read(entries)
        try #require(readings.count == values.count)
        var checked = 0
        for (seed, (value, reading)) in zip(values, readings).enumerated() {
            let expected = try PlistTestSupport.render(value)
            for (name, read) in reading.read {
                #expect(try PlistWritingSupport.render(read) == expected, "seed \(seed), \(name)")
                #expect(reading.same[name] as? Bool == true, "seed \(seed), \(name): \(reading.same[name] ?? "")")
                checked += 1
            }
        }
        #expect(checked == 300 * 4 + 100 * 2)
    }

    /// Every corpus property list Decant reads (CPython's and libplist's) is written in XML and binary; `plistlib`
    /// reads the output to what it reads from the original (dates in whole seconds for XML) and writes the same
    /// bytes from it.
    @Test(.enabled(if: Corpora.isAvailable && Python.isAvailable, "needs ../shared/corpora and python3"))
    func plistlibReadsTheCorpusWrittenAgain() throws {
        let urls =
            Corpora.files(under: "plist/cpython/valid", extension: "plist")
            + Corpora.files(under: "plist/libplist", extensions: ["plist", "bplist"])
        var entries: [PlistWritingSupport.Entry] = []
        var names: [String] = []
        var notWritten: [String] = []
        for url in urls {
            let original = try Data(contentsOf: url)
            guard let value = try? PlistTestSupport.parse(original) else { continue }
            var files = ["original": original]
            do {
                files["binary"] = try Self.binary.write(value)
                files["xml"] = try Self.xml.write(value)
            } catch {
                // XML cannot hold UIDs or control characters (plistlib refuses them too); binary is still checked.
                notWritten.append("\(Corpora.relativePath(of: url)): \(error.code)")
            }
            entries.append(PlistWritingSupport.Entry(files: files))
            names.append(Corpora.relativePath(of: url))
        }
        let readings = try PlistWritingSupport.read(entries)
        var compared = 0
        for (name, reading) in zip(names, readings) {
            guard let original = reading.read["original"] as? [String: Any], original["error"] == nil else { continue }
            let expected = try PlistWritingSupport.render(original)
            if let binary = reading.read["binary"] {
                #expect(try PlistWritingSupport.render(binary) == expected, "\(name), binary")
                #expect(reading.same["binary"] as? Bool == true, "\(name), binary: \(reading.same["binary"] ?? "")")
                compared += 1
            }
            if let xml = reading.read["xml"] {
                let wholeSeconds = try PlistWritingSupport.render(Self.flooringDates(original))
                #expect(try PlistWritingSupport.render(xml) == wholeSeconds, "\(name), xml")
                #expect(reading.same["xml"] as? Bool == true, "\(name), xml: \(reading.same["xml"] ?? "")")
                compared += 1
            }
        }
        print(
            "plist corpus written again: \(compared) outputs read back by plistlib; not written as XML: \(notWritten)")
        #expect(compared >= 40)
    }

    /// A canonical JSON object with the fraction of every date dropped (`...:33.5Z` is `...:33Z`).
    static func flooringDates(_ object: Any) -> Any {
        switch object {
        case let dictionary as [String: Any]:
            var result: [String: Any] = [:]
            for (key, value) in dictionary {
                if key == "date", let text = value as? String, let dot = text.firstIndex(of: ".") {
                    result[key] = String(text[..<dot]) + "Z"
                } else {
                    result[key] = flooringDates(value)
                }
            }
            return result
        case let array as [Any]:
            return array.map(flooringDates)
        default:
            return object
        }
    }
}
