import Foundation

/// BMP and ICO files generated in code: a photo-like gradient with noise, so that nothing is uniform.
enum GeneratedBitmaps {
    /// A 1024×768 24-bit BMP (`BITMAPINFOHEADER`, bottom-up rows padded to 4 bytes).
    static let bmp: Data = {
        let width = 1024
        let height = 768
        let rowBytes = (width * 3 + 3) & ~3
        var bytes = fileHeader(pixelBytes: rowBytes * height)
        bytes += infoHeader(width: width, height: height, bitsPerPixel: 24, imageBytes: rowBytes * height)
        var generator = SeededGenerator(seed: 21)
        for y in 0..<height {
            var row: [UInt8] = []
            row.reserveCapacity(rowBytes)
            for x in 0..<width {
                let (red, green, blue) = colour(x: x, y: y, width: width, height: height, generator: &generator)
                row += [blue, green, red]
            }
            row += [UInt8](repeating: 0, count: rowBytes - width * 3)
            bytes += row
        }
        return Data(bytes)
    }()

    /// A 256×256 32-bit icon: one ICO directory entry holding a BMP without file header, its height doubled for the
    /// AND mask that follows the BGRA pixels.
    static let ico: Data = {
        let side = 256
        let maskRowBytes = (side / 8 + 3) & ~3
        let imageBytes = 40 + side * side * 4 + maskRowBytes * side
        var bytes: [UInt8] = [0, 0, 1, 0, 1, 0]  // reserved, type 1 (icon), one image
        bytes += [0, 0, 0, 0] + le16(1) + le16(32) + le32(imageBytes) + le32(6 + 16)  // 0 means 256
        bytes += infoHeader(width: side, height: side * 2, bitsPerPixel: 32, imageBytes: side * side * 4)
        var generator = SeededGenerator(seed: 22)
        for y in 0..<side {
            for x in 0..<side {
                let (red, green, blue) = colour(x: x, y: y, width: side, height: side, generator: &generator)
                let alpha = UInt8(min(255, 64 + (x + y) / 2))
                bytes += [blue, green, red, alpha]
            }
        }
        bytes += [UInt8](repeating: 0, count: maskRowBytes * side)
        return Data(bytes)
    }()

    /// A smooth gradient with a little noise at (`x`, `y`).
    private static func colour(
        x: Int, y: Int, width: Int, height: Int, generator: inout SeededGenerator
    ) -> (UInt8, UInt8, UInt8) {
        let noise = Int(generator.next() % 24)
        let red = UInt8(min(255, x * 230 / width + noise))
        let green = UInt8(min(255, y * 230 / height + noise))
        let blue = UInt8(min(255, (x + y) * 115 / (width + height) + 64 + noise))
        return (red, green, blue)
    }

    /// The 14-byte `BITMAPFILEHEADER` of a BMP whose pixels follow a 40-byte info header.
    private static func fileHeader(pixelBytes: Int) -> [UInt8] {
        [UInt8(ascii: "B"), UInt8(ascii: "M")] + le32(14 + 40 + pixelBytes) + le32(0) + le32(14 + 40)
    }

    /// A 40-byte `BITMAPINFOHEADER`, uncompressed, 2835 pixels per metre (72 DPI).
    private static func infoHeader(width: Int, height: Int, bitsPerPixel: Int, imageBytes: Int) -> [UInt8] {
        le32(40) + le32(width) + le32(height) + le16(1) + le16(bitsPerPixel) + le32(0) + le32(imageBytes)
            + le32(2835) + le32(2835) + le32(0) + le32(0)
    }

    private static func le16(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)]
    }

    private static func le32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) }
    }
}
