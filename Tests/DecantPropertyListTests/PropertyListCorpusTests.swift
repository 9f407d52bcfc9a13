import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// The shared plist corpora: CPython's `plistlib` test data and libplist's test files (see each folder's
/// index.json), and the property lists in swift-foundation's test resources.
@Suite struct PropertyListCorpusTests {
    private static func json(_ relativePath: String) -> Any? {
        guard let url = Corpora.url(relativePath), let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }

    private static func load(_ relativePath: String) throws -> Data {
        let url = try #require(Corpora.url(relativePath), "missing \(relativePath)")
        return try Data(contentsOf: url)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func cpythonValid() throws {
        var passed = 0
        var failed = 0
        for url in Corpora.files(under: "plist/cpython/valid", extension: "plist") {
            let expected = try PlistTestSupport.render(
                jsonText: Data(contentsOf: URL(fileURLWithPath: url.path + ".expected.json")))
            do {
                let actual = try PlistTestSupport.render(PlistTestSupport.parse(Data(contentsOf: url)))
                if actual == expected { passed += 1 } else { failed += 1 }
                #expect(actual == expected, "\(Corpora.relativePath(of: url))")
            } catch {
                failed += 1
                Issue.record("\(Corpora.relativePath(of: url)): \(error)")
            }
        }
        print("plist/cpython/valid: \(passed) passed, \(failed) failed")
        #expect(passed == 3)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func cpythonInvalidBinary() throws {
        var passed = 0
        var failed = 0
        let files = Corpora.files(under: "plist/cpython/invalid_binary", extension: "bplist")
        for url in files {
            let data = try Data(contentsOf: url)
            do {
                let value = try PlistTestSupport.parse(data)
                failed += 1
                Issue.record("\(Corpora.relativePath(of: url)) parsed as \(value.canonicalJSONText().prefix(200))")
            } catch let error as SerializationError {
                passed += 1
                #expect(error.code == .invalidBody || error.code == .limitExceeded || error.code == .unsupportedFeature)
            }
        }
        print("plist/cpython/invalid_binary: \(passed) passed, \(failed) failed")
        #expect(files.count == 40)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func cpythonXMLCases() throws {
        let index = try #require(Self.json("plist/cpython/xml_cases/index.json") as? [[String: Any]])
        var passed = 0
        var failed = 0
        for entry in index {
            let file = try #require(entry["file"] as? String)
            let data = try Self.load("plist/cpython/" + file)
            let result = Result { try PlistTestSupport.parse(data) }
            var ok = false
            switch (entry["expected"], result) {
            case (let text as String, .failure) where text == "error":
                ok = true
            case (let text as String, .success(let value)) where text.hasPrefix("same as "):
                let other = String(text.dropFirst("same as ".count))
                let expected = try PlistTestSupport.render(jsonText: Self.load("plist/cpython/" + other))
                ok = try PlistTestSupport.render(value) == expected
            case (let object as [String: Any], .success(let value)):
                ok = try PlistTestSupport.render(value) == PlistTestSupport.render(object)
            default:
                ok = false
            }
            if ok { passed += 1 } else { failed += 1 }
            #expect(ok, "\(file): \(result)")
        }
        print("plist/cpython/xml_cases: \(passed) passed, \(failed) failed")
        #expect(passed == index.count)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func libplistFiles() throws {
        let index = try #require(Self.json("plist/libplist/index.json") as? [String: Any])
        let files = try #require(index["files"] as? [[String: Any]])
        var passed = 0
        var failed = 0
        for entry in files {
            let file = try #require(entry["file"] as? String)
            let expected = try #require(entry["expected"] as? String)
            let data = try Self.load("plist/libplist/" + file)
            let result = Result { try PlistTestSupport.parse(data) }
            var ok: Bool
            switch result {
            case .failure(let error):
                ok = expected == "error"
                if ok, let error = error as? SerializationError {
                    // A reference cycle is invalid data, never a crash or a recursion-limit error.
                    ok = error.code == .invalidBody || error.code == .unsupportedFeature
                }
            case .success(let value):
                ok = expected.hasPrefix("parse ok")
                if ok, let reference = entry["cpython_value"] as? String {
                    let wanted = try PlistTestSupport.render(jsonText: Self.load("plist/libplist/" + reference))
                    ok = try PlistTestSupport.render(value) == wanted
                }
            }
            if ok { passed += 1 } else { failed += 1 }
            #expect(ok, "\(file): expected \(expected), got \(result)")
        }
        print("plist/libplist: \(passed) passed, \(failed) failed")
        #expect(failed == 0)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func libplistEquivalences() throws {
        let index = try #require(Self.json("plist/libplist/index.json") as? [String: Any])
        let pairs = try #require(index["equivalences"] as? [[String: Any]])
        var passed = 0
        var failed = 0
        for pair in pairs {
            let a = try #require(pair["a"] as? String)
            let b = try #require(pair["b"] as? String)
            let left = try PlistTestSupport.parse(Self.load("plist/libplist/test/data/" + a))
            let right = try PlistTestSupport.parse(Self.load("plist/libplist/test/data/" + b))
            if left == right { passed += 1 } else { failed += 1 }
            #expect(left == right, "\(a) vs \(b)")
        }
        print("plist/libplist equivalences: \(passed) passed, \(failed) failed")
        #expect(!pairs.isEmpty)
    }

    static let foundationResources = "json/swift-foundation-resources/Tests/FoundationEssentialsTests/Resources"

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func swiftFoundationResources() throws {
        var passed = 0
        var failed = 0
        let files = Corpora.files(under: Self.foundationResources, extensions: ["plist", "bad"])
        for url in files {
            let result = Result { try PlistTestSupport.parse(Data(contentsOf: url)) }
            // The `.bad` files are the ones swift-foundation's own tests expect to fail: bad_plist.bad declares
            // UTF-8 but holds Mac Roman bytes, Test_5616259.bad declares the encoding "foobar", Test_82142612.bad
            // is a binary dictionary with a data key.
            let expectsFailure = url.pathExtension == "bad"
            let ok: Bool
            switch result {
            case .success: ok = !expectsFailure
            case .failure: ok = expectsFailure
            }
            if ok { passed += 1 } else { failed += 1 }
            #expect(ok, "\(Corpora.relativePath(of: url)): \(result)")
        }
        print("json/swift-foundation-resources plists: \(passed) passed, \(failed) failed")
        #expect(files.count >= 20)
    }

    /// Every swift-foundation resource that CPython's plistlib reads (below 40 KB) gives the value plistlib gives.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func swiftFoundationResourcesMatchPlistlib() throws {
        var passed = 0
        var failed = 0
        for (path, chunks) in FoundationResourceExpectations.values {
            let expected = try PlistTestSupport.render(jsonText: Data(chunks.joined().utf8))
            let actual = try PlistTestSupport.render(
                PlistTestSupport.parse(Self.load(Self.foundationResources + "/" + path)))
            if actual == expected { passed += 1 } else { failed += 1 }
            #expect(actual == expected, "\(path)")
        }
        print("json/swift-foundation-resources plists vs plistlib: \(passed) passed, \(failed) failed")
        #expect(passed == FoundationResourceExpectations.values.count)
    }

    @Test(
        .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"),
        arguments: [
            ("Generic_XML_Properties.plist", "Generic_XML_Properties_Binary.plist"),
            (
                "test_oldStylePlist_getSlashedChars_unicode.plist",
                "test_oldStylePlist_getSlashedChars_unicode_expected.plist"
            ),
            (
                "test_oldStylePlist_getSlashedChars_octal.plist",
                "test_oldStylePlist_getSlashedChars_octal_expected.plist"
            ),
        ])
    func swiftFoundationEquivalences(_ pair: (String, String)) throws {
        let left = try PlistTestSupport.parse(Self.load(Self.foundationResources + "/" + pair.0))
        let right = try PlistTestSupport.parse(Self.load(Self.foundationResources + "/" + pair.1))
        var difference = ""
        if case .array(let a) = left, case .array(let b) = right {
            let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            difference =
                "first difference at \(index) of \(a.count)/\(b.count): "
                + "\(a.dropFirst(index).first.map { String(reflecting: $0) } ?? "-") vs "
                + "\(b.dropFirst(index).first.map { String(reflecting: $0) } ?? "-")"
        }
        #expect(left == right, "\(pair.0): \(difference)")
    }
}
