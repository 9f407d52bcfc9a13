import Decant
import DecantForm
import Foundation
import Testing

/// In `application/x-www-form-urlencoded`, whitespace is a name: the WHATWG URL Standard's parser turns a body of two
/// spaces into one pair ("  ", ""), as Python's `urllib.parse.parse_qsl("  ", keep_blank_values=True)` does. The
/// registry's empty-body rule leaves such a body to the form parser.
@Suite struct WhitespaceBodyTests {
    static let registry = SerializerRegistry.standard.installing(.form)

    @Test(arguments: ["  ", "\t", " \r\n "])
    func whitespaceIsOnePairName(_ body: String) throws {
        let response = Response(headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
        let form = try Self.registry.serialize(response, as: FormData.self)
        #expect(form.pairs.count == 1)
        #expect(form.pairs.first?.name == body)
        #expect(form.pairs.first?.value == "")
    }
}
