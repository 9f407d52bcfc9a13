import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// The prolog of an XML property list: the XML declaration's pseudo-attributes (XML 1.0 §2.8) and the characters a
/// DOCTYPE may hold (§2.2), accepted and refused as Python's `plistlib` (expat) does.
@Suite struct XMLPropertyListPrologTests {
    static let body = "<plist version=\"1.0\"><true/></plist>"
    static let doctype =
        "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">"

    /// Prologs and whether they are well-formed.
    static let cases: [(prolog: String, accepted: Bool)] = [
        ("<?xml version=\"1.0\"?>", true),
        ("<?xml version='1.0' encoding='UTF-8'?>", true),
        ("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\" ?>", true),
        ("<?xml version=\"1.0\" standalone=\"yes\"?>" + doctype, true),
        ("<?xml verion=\"1.0\"?>", false),
        ("<?xml encoding=\"UTF-8\" version=\"1.0\"?>", false),
        ("<?xml version=\"1.0\" foo=\"bar\"?>", false),
        ("<?xml version=\"1.0\"encoding=\"UTF-8\"?>", false),
        ("<?xml version=1.0?>", false),
        ("<?xml ?>", false),
        ("<?xml version=\"1.0\"?><!DOCTYPE plist\u{1}>", false),
        ("<?xml version=\"1.0\"?><!DOCTYPE plist [\u{7}]>", false),
        ("<!DOCTYPE plist\u{1F} PUBLIC \"x\" \"y\">", false),
    ]

    static func parse(_ text: String) -> Result<PropertyListValue, SerializationError> {
        Result { () throws(SerializationError) in try PropertyListParser().parse(Data(text.utf8)) }
    }

    @Test(arguments: cases)
    func prologIsAcceptedOrRefused(prolog: String, accepted: Bool) throws {
        switch Self.parse(prolog + Self.body) {
        case .success(let value):
            #expect(accepted, "accepted \(prolog.debugDescription)")
            #expect(value == .bool(true))
        case .failure(let error):
            #expect(!accepted, "refused \(prolog.debugDescription): \(error.message)")
            #expect(error.code == .invalidBody)
            #expect(error.message.contains("XML declaration") || error.message.contains("control character"))
        }
    }

    /// Python's plistlib agrees on every case.
    @Test(.enabled(if: Python.isAvailable, "needs python3"))
    func plistlibAgrees() throws {
        let script = """
            import json, plistlib, sys
            out = []
            for text in json.load(sys.stdin if False else open(sys.argv[1])):
                try:
                    plistlib.loads(text.encode()); out.append(True)
                except Exception:
                    out.append(False)
            print(json.dumps(out))
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-prolog-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let texts = Self.cases.map { $0.prolog + Self.body }
        try JSONSerialization.data(withJSONObject: texts).write(to: file)
        let verdicts = try JSONSerialization.jsonObject(with: Python.run(script, [file.path])) as? [Bool]
        #expect(verdicts == Self.cases.map(\.accepted))
    }
}
