import DecantCore
import Foundation

@testable import DecantImage

/// What decoding `data` with the default options gives, as one line for a corpus test's log: the size and frame
/// count, or the error's code and message. Corpus tests that only require "no crash" print it per file.
func decodeOutcome(_ data: Data) -> String {
    do {
        let image = try ImageDecoder.decode(data, options: ImageDecodingOptions())
        return "decoded \(image.width)×\(image.height), \(image.frameCount) frames"
    } catch {
        return "[\(error.code)] \(error.message)"
    }
}

/// What is wrong with decoding `data`, for a corpus test that accepts any image or any error ("no crash"), or `nil`.
/// A decoded image must hold `width * height * 4` bytes of RGBA8 pixels (and so many 16-bit samples when it has
/// them); an error must say what failed. A crash or hang fails such a test by itself.
func decodeProblem(_ data: Data) -> String? {
    do {
        let image = try ImageDecoder.decode(data, options: ImageDecodingOptions())
        let (bytes, overflow) = image.width.multipliedReportingOverflow(by: image.height * 4)
        guard image.isDecoded, image.width > 0, image.height > 0, !overflow, image.pixels.count == bytes,
            image.samples16.map({ $0.count == bytes }) ?? true
        else {
            return "decoded \(image.width)×\(image.height) with \(image.pixels.count) pixel bytes"
        }
        return nil
    } catch {
        return error.message.isEmpty ? "[\(error.code)] failed with an empty message" : nil
    }
}
