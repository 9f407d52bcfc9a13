import Foundation
import Testing

@testable import DecantCore

/// Header names compare ASCII case-insensitively (RFC 9110 §5.1), and nothing else is folded.
@Suite struct HeaderNameTests {
    @Test(arguments: [
        ("Content-Type", "content-type", true), ("CONTENT-TYPE", "Content-Type", true), ("", "", true),
        ("Content-Type", "Content-Encoding", false), ("Content-Type", "Content-Typ", false),
        ("Content-Type", "Content_Type", false), ("X-É", "x-é", false), ("x-é", "x-é", true), ("@", "`", false),
        ("[", "{", false), ("Z", "z", true),
    ])
    func namesCompareIgnoringASCIICaseOnly(lhs: String, rhs: String, equal: Bool) {
        #expect(HTTPBytes.equalsIgnoringASCIICase(lhs, rhs) == equal)
        #expect(HTTPBytes.equalsIgnoringASCIICase(rhs, lhs) == equal)
    }

    @Test func bridgedAndSubstringBackedNamesCompareTheSame() {
        let bridged = String(NSString(string: "Content-Encoding"))
        let sliced = String("xContent-Encodingx".dropFirst().dropLast())
        #expect(HTTPBytes.equalsIgnoringASCIICase(bridged, "content-encoding"))
        #expect(HTTPBytes.equalsIgnoringASCIICase(sliced, "CONTENT-ENCODING"))
        let headers: HTTPHeaderFields = ["content-ENCODING": "gzip", "Content-Length": "3"]
        #expect(headers.contains("Content-Encoding"))
        #expect(headers.firstValue(for: "CONTENT-LENGTH") == "3")
        #expect(!headers.contains("Content-Type"))
    }
}
