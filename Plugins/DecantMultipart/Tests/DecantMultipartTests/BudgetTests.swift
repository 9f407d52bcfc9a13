import Decant
import DecantMultipart
import Foundation
import Testing

/// Every part of one multipart body is decoded under one `DecodingBudget`: parts that each fit their own limits
/// cannot multiply them, and the body fails with `limitExceeded` once the budget is spent.
@Suite struct BudgetTests {
    /// A multipart/mixed body of `parts` parts, each `content` with `contentType` (and `extraHeaders`).
    static func body(parts: Int, contentType: String, content: Data, extraHeaders: String = "") -> Data {
        var body = Data()
        for _ in 0..<parts {
            body += Data("--b\r\nContent-Type: \(contentType)\r\n\(extraHeaders)\r\n".utf8)
            body += content
            body += Data("\r\n".utf8)
        }
        body += Data("--b--\r\n".utf8)
        return body
    }

    /// A 128×128 opaque PNG (64 KiB of RGBA once decoded), from Decant's own encoder.
    static let png: Data = {
        let image = Image(width: 128, height: 128, pixels: [UInt8](repeating: 90, count: 128 * 128 * 4), format: .png)
        return (try? image.pngData()) ?? Data()
    }()

    static func serialize(_ body: Data, under budget: DecodingBudget) throws -> MultipartBody {
        try DecodingBudget.withBudget(budget) {
            try MultipartTestSupport.serializer().serialize(
                MultipartTestSupport.response(body, contentType: "multipart/mixed; boundary=b"))
        }
    }

    @Test func imagePartsShareOneBudget() throws {
        let body = Self.body(parts: 10, contentType: "image/png", content: Self.png)
        // Ten images of 65,536 bytes fit in 1 MiB together; the budget counts each.
        let roomy = DecodingBudget(maxBytes: 1 << 20)
        let decoded = try Self.serialize(body, under: roomy)
        #expect(decoded.parts.count == 10)
        #expect(decoded.parts.allSatisfy { $0.value(as: Image.self)?.width == 128 })
        #expect(roomy.usedBytes == 10 * 65_536)
        // 400,000 bytes hold five of them (a PNG decoder also needs its inflated rows while it works, 65,664 bytes
        // here): the sixth is refused, and so is the whole body, naming the budget.
        let tight = DecodingBudget(maxBytes: 400_000)
        let error = #expect(throws: SerializationError.self) { try Self.serialize(body, under: tight) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.serializerID == "multipart")
        #expect(error?.message.contains("DecodingBudget") == true)
        #expect(error?.message.contains("Part 6") == true)
        #expect(tight.usedBytes == 5 * 65_536)
    }

    /// XML parts whose entities expand: each tree is well within the parser's own limits, together they are not.
    @Test func xmlTreesShareOneBudget() throws {
        let chunk = String(repeating: "x", count: 1000)
        let references = String(repeating: "&e;", count: 100)
        let xml = "<!DOCTYPE a [<!ENTITY e \"\(chunk)\">]><a>\(references)</a>"
        let body = Self.body(parts: 20, contentType: "application/xml", content: Data(xml.utf8))
        let roomy = DecodingBudget(maxBytes: 8 << 20)
        let decoded = try Self.serialize(body, under: roomy)
        #expect(decoded.parts.allSatisfy { $0.serializerID == "xmlDocument" })
        #expect(roomy.usedBytes >= 20 * 100_000)
        let tight = DecodingBudget(maxBytes: 1_000_000)
        let error = #expect(throws: SerializationError.self) { try Self.serialize(body, under: tight) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("DecodingBudget") == true)
    }

    /// Entity expansion is work a few bytes multiply: every XML part's expansion counts against one allowance.
    @Test func entityExpansionIsSharedByEveryXMLPart() throws {
        let chunk = String(repeating: "y", count: 1000)
        let xml = "<!DOCTYPE a [<!ENTITY e \"\(chunk)\">]><a>\(String(repeating: "&e;", count: 100))</a>"
        let body = Self.body(parts: 10, contentType: "application/xml", content: Data(xml.utf8))
        let roomy = DecodingBudget(maxExpansionBytes: 2_000_000)
        #expect(try Self.serialize(body, under: roomy).parts.count == 10)
        #expect(roomy.expandedBytes == 10 * 100_000)
        // 450,000 bytes of expansion cover four parts; the fifth stops inside its document and fails the body.
        let tight = DecodingBudget(maxExpansionBytes: 450_000)
        let error = #expect(throws: SerializationError.self) { try Self.serialize(body, under: tight) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("DecodingBudget.maxExpansionBytes") == true)
        #expect(error?.message.contains("Part 5") == true)
    }

    /// Transfer-decoded bytes are materialized, so they are charged too.
    @Test func base64PartsAreCharged() throws {
        let content = Data(Data(repeating: 0x41, count: 30_000).base64EncodedString().utf8)
        let body = Self.body(
            parts: 10, contentType: "application/octet-stream", content: content,
            extraHeaders: "Content-Transfer-Encoding: base64\r\n")
        let roomy = DecodingBudget(maxBytes: 1 << 20)
        #expect(try Self.serialize(body, under: roomy).parts.count == 10)
        #expect(roomy.usedBytes == 300_000)
        let tight = DecodingBudget(maxBytes: 100_000)
        let error = #expect(throws: SerializationError.self) { try Self.serialize(body, under: tight) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("base64") == true)
    }
}
