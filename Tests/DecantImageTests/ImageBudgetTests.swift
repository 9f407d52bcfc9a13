import DecantCore
import Foundation
import Testing

@testable import DecantImage

/// The image serializer under a `DecodingBudget`: `maxTotalBytes` is capped to what the budget has left, an APNG's
/// canvases count together, the image kept is charged, and a refusal names the budget rather than `maxTotalBytes`.
@Suite struct ImageBudgetTests {
    static func response(_ body: [UInt8]) -> Response {
        Response(headers: ["Content-Type": "image/png"], body: Data(body))
    }

    /// A 64×64 opaque PNG made by Decant's own encoder (16 KiB of RGBA once decoded).
    static let smallPNG: [UInt8] = {
        let image = Image(width: 64, height: 64, pixels: [UInt8](repeating: 200, count: 64 * 64 * 4), format: .png)
        return [UInt8]((try? image.pngData()) ?? Data())
    }()

    @Test func theImageKeptIsCharged() throws {
        let budget = DecodingBudget(maxBytes: 1 << 20)
        let image = try DecodingBudget.withBudget(budget) { () throws(SerializationError) in
            try ImageResponseSerializer().serialize(Self.response(Self.smallPNG))
        }
        #expect(image.width == 64)
        #expect(budget.usedBytes == 64 * 64 * 4)
    }

    @Test func aBudgetSmallerThanTheImageRefusesItNamingTheBudget() throws {
        let budget = DecodingBudget(maxBytes: 10_000)
        let error = #expect(throws: SerializationError.self) {
            try DecodingBudget.withBudget(budget) { () throws(SerializationError) in
                try ImageResponseSerializer().serialize(Self.response(Self.smallPNG))
            }
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("DecodingBudget") == true)
        #expect(error?.serializerID == "image")
        #expect(budget.isExhausted)
    }

    @Test func anImageOwnLimitStillNamesItsOption() throws {
        // maxTotalBytes smaller than the budget's remainder: the image's own option binds and is named.
        var options = ImageDecodingOptions()
        options.limits.maxTotalBytes = 10_000
        let error = #expect(throws: SerializationError.self) {
            try ImageResponseSerializer(options: options).serialize(Self.response(Self.smallPNG))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("maxTotalBytes") == true)
        #expect(error?.message.contains("DecodingBudget") == false)
    }

    /// An APNG of 15 frames of 300×300: 16 canvases of 360,000 bytes (5.76 MB) from a body of a few kilobytes.
    /// Under a 4 MB budget it is refused before the canvases are allocated; under 8 MB it decodes.
    @Test func animationFramesShareTheBudget() throws {
        let side = 300
        let frames = 15
        let row = [UInt8](repeating: 0, count: 1 + side * 4)
        let idat = PNGBuilder.chunk("IDAT", PNGBuilder.storedZlib(Array(repeating: row, count: side).flatMap { $0 }))
        var chunks: [[UInt8]] = [
            APNGBuilder.acTL(frames: UInt32(frames)), APNGBuilder.fcTL(0, width: 300, height: 300),
        ]
        chunks.append(idat)
        var sequence: UInt32 = 1
        let frameData = Array(repeating: row, count: side).flatMap { $0 }
        for _ in 1..<frames {
            chunks.append(APNGBuilder.fcTL(sequence, width: 300, height: 300))
            chunks.append(APNGBuilder.fdAT(sequence + 1, PNGBuilder.storedZlib(frameData)))
            sequence += 2
        }
        let body = APNGBuilder.png(width: side, height: side, chunks: chunks)
        let small = DecodingBudget(maxBytes: 4_000_000)
        let error = #expect(throws: SerializationError.self) {
            try DecodingBudget.withBudget(small) { () throws(SerializationError) in
                try ImageResponseSerializer().serialize(Self.response(body))
            }
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("DecodingBudget") == true)
        let large = DecodingBudget(maxBytes: 8_000_000)
        let image = try DecodingBudget.withBudget(large) { () throws(SerializationError) in
            try ImageResponseSerializer().serialize(Self.response(body))
        }
        #expect(image.frames.count == frames)
        #expect(large.usedBytes == (frames + 1) * side * side * 4)
    }
}
